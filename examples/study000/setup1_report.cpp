// study000/setup1_report.cpp
// Definitions of setup1_report.hpp and Setup 1's section of the example
// (sections.hpp), compiled once (the ychart_studies library).
#include "study000/setup1_report.hpp"
#include "study000/sections.hpp"

#include <cstdio>
#include <iostream>

namespace study000 {

ExactAnswer exact_answer(const ExactSplit& e) {
  return {std::string(ychart::to_string(e.status)), e.split, e.latency_ms * 1e-3};
}

/// The channels a solution gives each device (empty without values).
Channels channels_of(const SplitModel& m, const ychart::Solution& s) {
  Channels split;
  if (s.has_values())
    for (const auto& [device, c] : m.c) split[device] = s[c];
  return split;
}

static double channel(const Channels& split, const std::string& device) {
  return split.count(device) ? split.at(device) : std::nan("");
}

/// The sweep, one row per iteration.
ychart::io::Table alpha_sweep_table(const ychart::baselines::AlphaSweepResult& sweep, std::size_t fpga,
                                           std::size_t gpu) {
  ychart::io::Table t({{"iteration", "", 1}, {"alpha", "us", 4}, {"C_F", "", 4}, {"C_G", "", 4}, {"sum / C", "", 4},
                       {"latency", "ms", 4}, {"time", "ms", 3}, {"status", "", 1}});
  for (const auto& it : sweep.iterations)
    t.add_row({long{it.iteration}, it.alpha * 1e6, it.values.empty() ? std::nan("") : it.values[fpga],
               it.values.empty() ? std::nan("") : it.values[gpu], it.ratio.empty() ? std::nan("") : it.ratio[0],
               it.objective * 1e3, it.seconds * 1e3, std::string(to_string(it.status))});
  return t;
}

/// The thesis's reported split, the alpha sweep's, sequential GP's and the exact one.
ychart::io::Table setup1_summary(const Setup1& s, const ychart::baselines::AlphaIteration* accepted,
                                        double sweep_ms, std::size_t fpga, std::size_t gpu,
                                        const ychart::Solution& sp, const Channels& sp_split, const ExactSplit& exact) {
  ychart::io::Table t({{"method", "", 1}, {"status", "", 1}, {"iteration", "", 1}, {"alpha", "us", 4},
                       {"C_F", "", 4}, {"C_G", "", 4}, {"latency", "ms", 4}, {"GP solves", "", 1},
                       {"time", "ms", 3}});
  t.add_row({std::string("thesis (reported)"), std::string("-"), long{s.thesis_iteration}, s.thesis_alpha,
             s.thesis_fpga, s.thesis_gpu, latency_ms(s, {{"fpga", s.thesis_fpga}, {"gpu", s.thesis_gpu}}),
             std::monostate{}, std::monostate{}});
  if (accepted)
    t.add_row({std::string("alpha sweep (ours)"), std::string("accepted"), long{accepted->iteration},
               accepted->alpha * 1e6, accepted->values[fpga], accepted->values[gpu], accepted->objective * 1e3,
               long{accepted->iteration}, sweep_ms});
  t.add_row({std::string("sequential GP"), std::string(to_string(sp.status())), std::monostate{}, std::monostate{},
             sp.has_values() ? channel(sp_split, "fpga") : std::nan(""),
             sp.has_values() ? channel(sp_split, "gpu") : std::nan(""),
             sp.has_values() ? sp.objective() * 1e3 : std::nan(""), long{sp.iterations()}, sp.solve_time() * 1e3});
  t.add_row({std::string("exact integer"), std::string(to_string(exact.status)), std::monostate{}, std::monostate{},
             channel(exact.split, "fpga"), channel(exact.split, "gpu"), exact.latency_ms, std::monostate{},
             exact.seconds * 1e3});
  return t;
}

/// Eq. 4.9: sequential GP and the exact split on CPU + GPU + FPGA.
ychart::io::Table three_device_table(const SplitModel& three, const ychart::Solution& sp3,
                                            const ExactSplit& exact3) {
  ychart::io::Table t({{"method", "", 1}, {"status", "", 1}, {"C_C", "", 4}, {"C_F", "", 4}, {"C_G", "", 4},
                       {"latency", "ms", 4}, {"time", "ms", 3}});
  const auto sp_split = channels_of(three, sp3);
  t.add_row({std::string("sequential GP"), std::string(to_string(sp3.status())), channel(sp_split, "cpu"),
             channel(sp_split, "fpga"), channel(sp_split, "gpu"),
             sp3.has_values() ? sp3.objective() * 1e3 : std::nan(""), sp3.solve_time() * 1e3});
  t.add_row({std::string("exact integer"), std::string(to_string(exact3.status)), channel(exact3.split, "cpu"),
             channel(exact3.split, "fpga"), channel(exact3.split, "gpu"), exact3.latency_ms, exact3.seconds * 1e3});
  return t;
}

/// Fig. 4.2 (the split per iteration) and Fig. 4.3 (latency, beside the
/// sequential GP's and the exact optimum's), over the first iterations.
void draw_setup1_figures(examples::Outputs& outputs, const ychart::baselines::AlphaSweepResult& sweep,
                                std::size_t fpga, std::size_t gpu, const ychart::Solution& sp,
                                const ExactSplit& exact, int iterations, double alpha_start_us,
                                double alpha_step_us) {
  namespace io = ychart::io;
  io::LineChart split_chart;
  split_chart.title = "Alpha sweep: channels per device (study 000, Fig. 4.2)";
  split_chart.x_label = "iteration (alpha = " + std::to_string(static_cast<int>(alpha_start_us)) + " + " +
                        std::to_string(static_cast<int>(alpha_step_us)) + " (k - 1) us)";
  split_chart.y_label = "channels";
  io::Series sf{"C_F (FPGA)", {}, {}}, sg{"C_G (GPU)", {}, {}}, sum{"C_F + C_G", {}, {}};
  sum.dashed = true;
  io::LineChart latency_chart;
  latency_chart.title = "Alpha sweep: latency without the penalty (study 000, Fig. 4.3)";
  latency_chart.x_label = "iteration";
  latency_chart.y_label = "latency (ms)";
  io::Series lat{"alpha sweep", {}, {}}, sp_line{"sequential GP (local optimum)", {}, {}},
      ex_line{"exact integer (proven)", {}, {}};
  sp_line.markers = ex_line.markers = false;
  sp_line.dashed = true;
  for (std::size_t i = 0; i < sweep.iterations.size() && i < static_cast<std::size_t>(iterations); ++i) {
    const auto& it = sweep.iterations[i];
    if (it.values.empty()) continue;
    const double k = it.iteration;
    sf.x.push_back(k), sf.y.push_back(it.values[fpga]);
    sg.x.push_back(k), sg.y.push_back(it.values[gpu]);
    sum.x.push_back(k), sum.y.push_back(it.values[fpga] + it.values[gpu]);
    lat.x.push_back(k), lat.y.push_back(it.objective * 1e3);
    if (sp.has_values()) sp_line.x.push_back(k), sp_line.y.push_back(sp.objective() * 1e3);
    if (exact.status == ychart::Status::optimal) ex_line.x.push_back(k), ex_line.y.push_back(exact.latency_ms);
  }
  split_chart.series = {sf, sg, sum};
  latency_chart.series = {lat, sp_line, ex_line};
  outputs.figure("fig4_2_alpha_sweep_split.svg", split_chart);
  outputs.figure("fig4_3_alpha_sweep_latency.svg", latency_chart);
}

namespace {

/// The "setup1" result: the accepted iterate of the sweep (none: 0
/// iterations, null channels) beside the thesis's, sequential GP's split
/// and the two exact splits.
Setup1Answers setup1_answers(const Setup1& s, const ychart::baselines::AlphaIteration* accepted, std::size_t fpga,
                             std::size_t gpu, const ychart::Solution& sp, const Channels& sp_split,
                             const ExactSplit& exact, const ExactSplit& exact3) {
  AlphaSweepAnswer alpha{0, std::nan(""), std::nullopt, std::nan(""),
                         {s.thesis_iteration, s.thesis_alpha, {{"fpga", s.thesis_fpga}, {"gpu", s.thesis_gpu}}}};
  if (accepted)
    alpha = {accepted->iteration, accepted->alpha * 1e6,
             Channels{{"fpga", accepted->values[fpga]}, {"gpu", accepted->values[gpu]}}, accepted->objective,
             alpha.thesis};
  return Setup1Answers{alpha,
                       {std::string(to_string(sp.status())), sp_split, sp.has_values() ? sp.objective() : std::nan(""),
                        sp.iterations()},
                       exact_answer(exact),
                       {exact_answer(exact3)}};
}

}  // namespace

void run_setup1(examples::Outputs& outputs, const std::filesystem::path& data_dir, const Setup1Options& o) {
  const Setup1 s = load_setup1(data_dir / "carballo2022" / "setup1.json");
  std::printf("Setup 1: GConv 112x112, C = %.0f, k = 1, N = 32; flydel coefficients are assumptions "
              "(carballo2022/setup1.json)\n\n", s.channels);

  // ---- the thesis's alpha sweep, condensed at the balanced guess ----
  auto two = split_model(s, {"fpga", "gpu"});
  two.model.start(two.c.at("fpga"), s.hat_fpga);
  two.model.start(two.c.at("gpu"), s.hat_gpu);
  ychart::baselines::AlphaSweepOptions ao;
  ao.alpha_start = o.alpha_start_us * 1e-6;  // the objective is in seconds
  ao.alpha_step = o.alpha_step_us * 1e-6;
  ao.tolerance = o.tolerance;
  ao.max_iterations = std::max(o.figure_iterations, 200);
  ao.stop_at_first = false;
  const auto sweep = ychart::baselines::alpha_penalty_sweep(two.model, ao);
  const auto fpga = two.c.at("fpga").index(), gpu = two.c.at("gpu").index();
  const auto sweep_table = alpha_sweep_table(sweep, fpga, gpu);
  if (sweep.accepted < 0)
    std::printf("alpha sweep: no iterate reached (C_F + C_G) / C >= %g in %d iterations\n", 1 - o.tolerance,
                ao.max_iterations);
  const auto* accepted = sweep.accepted >= 0 ? &sweep.iterations[static_cast<std::size_t>(sweep.accepted)] : nullptr;
  double sweep_to_acceptance_ms = 0;
  for (int i = 0; i <= sweep.accepted; ++i) sweep_to_acceptance_ms += sweep.iterations[std::size_t(i)].seconds * 1e3;

  // ---- sequential GP, and the exact integer split ----
  auto sp_model = split_model(s, {"fpga", "gpu"});
  const auto sp = sp_model.model.solve();
  const auto sp_split = channels_of(sp_model, sp);
  const ExactSplit exact = exact_split(s, {"fpga", "gpu"});
  const auto summary = setup1_summary(s, accepted, sweep_to_acceptance_ms, fpga, gpu, sp, sp_split, exact);
  std::printf("FPGA + GPU (Eq. 4.7); the thesis's latency is our flydels at its split\n");
  summary.print(std::cout);
  std::printf("\nthe alpha sweep, condensed at C_F = C_G = %.0f, alpha += %g us:\n", s.hat_fpga, o.alpha_step_us);
  ychart::io::Table head({sweep_table.columns()});
  for (std::size_t i = 0; i < sweep.iterations.size() && i < std::size_t(std::max(sweep.accepted + 3, 5)); ++i)
    head.add_row(sweep_table.rows()[i]);
  head.print(std::cout);

  // ---- CPU + GPU + FPGA (Eq. 4.9) ----
  auto three = split_model(s, {"cpu", "fpga", "gpu"});
  const auto sp3 = three.model.solve();
  const ExactSplit exact3 = exact_split(s, {"cpu", "fpga", "gpu"});
  const auto ext = three_device_table(three, sp3, exact3);
  std::printf("\nCPU + GPU + FPGA (Eq. 4.9; the thesis gives no numbers, Fig. 4.4 puts most on the FPGA)\n");
  ext.print(std::cout);

  draw_setup1_figures(outputs, sweep, fpga, gpu, sp, exact, o.figure_iterations, o.alpha_start_us, o.alpha_step_us);
  outputs.add_table("setup1", summary);
  outputs.add_table("setup1_alpha_sweep", sweep_table);
  outputs.add_table("setup1_cpu_gpu_fpga", ext);
  outputs.add_result("setup1", setup1_answers(s, accepted, fpga, gpu, sp, sp_split, exact, exact3));
}

}  // namespace study000
