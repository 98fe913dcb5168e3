// examples/study000/main.cpp
// Study 000 (E. Carballo-Hernandez, PhD thesis, 2022), chapter 4, Setup 1:
// the channels of one grouped-convolution layer (112x112, C = 16, k = 1,
// N = 32) split between an FPGA and a GPU, minimising
// LAT_F(C_F) + LAT_G(C_G) + LAT_Comm(C_F) under the FPGA's ALM, ALUT, LAB
// and M20K budgets with C_F + C_G = C (Eq. 4.7); then the CPU+GPU+FPGA
// extension (Eq. 4.9). Three answers side by side with the thesis's:
//   alpha sweep     the thesis's method: condense at the balanced guess,
//                   penalise alpha / h_bar, raise alpha by a step until
//                   C_F + C_G reaches C (baselines/alpha_penalty.hpp);
//   sequential GP   SignomialModel::solve: a local optimum of the continuous
//                   split, no alpha;
//   exact integer   integer channels (0 = the device is unused), the
//                   tabulated flydels, proven optimal by the MIGP engine.
// The flydel coefficients are MADE UP (the thesis publishes none):
// examples/data/carballo2022/setup1.json states every assumption.
// Figures: the alpha sweep's split per iteration (Fig. 4.2) and its latency
// (Fig. 4.3).
//
// Setup 2 (Eq. 4.10, Fig. 4.8): AlexNet, VGG16 and ResNet18, every layer
// split across CPU, GPU and FPGA under one FPGA budget: the exact integer
// split, sequential GP, the alpha sweep with one alpha per layer, and the
// fused-layer variant (the thesis's x^200 surrogate beside an exact binary
// decision); per-layer speed-ups against CPU only; figures like Fig. 4.8.
// --json prints {"setup1": {"alpha_sweep", "sp", "exact", ...},
// "setup2": {"alexnet": {"speedup_min", "speedup_max", ...}, ...}}.
#include "common/cli.hpp"
#include "study000/setup1.hpp"
#include "study000/setup2_report.hpp"

#include <ychart/io/svg.hpp>
#include <ychart/core.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <filesystem>
#include <map>
#include <string>
#include <vector>
#include <ychart/baselines/alpha_penalty.hpp>

namespace {

using namespace ychart;
using namespace study000;

void write_channels(io::JsonWriter& json, const std::map<std::string, double>& split) {
  json.begin_object();
  for (const auto& [d, c] : split) json.key(d).value(c);
  json.end_object();
}

}  // namespace

int main(int argc, char** argv) {
  std::string data;
  double alpha_step_us = 10, alpha_start_us = 10, tolerance = 1e-3;
  int figure_iterations = 60;
  double setup2_alpha_step = 0.05;
  std::vector<std::string> networks;
  examples::Outputs outputs("study000", "study000");
  examples::CommandLine cli("Study 000, chapter 4, Setup 1: one layer's channels split across FPGA and GPU (and CPU): the "
               "thesis's alpha sweep, sequential GP and the exact integer split");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  cli.option("--alpha-start", alpha_start_us, "First alpha of the sweep (us; the thesis gives no unit)").show_default().positive();
  cli.option("--alpha-step", alpha_step_us, "Alpha added per iteration (us; the thesis steps by 10)")
      .show_default()
      .positive();
  cli.option("--tolerance", tolerance, "Accept when (C_F + C_G) / C >= 1 - tolerance").show_default();
  cli.option("--figure-iterations", figure_iterations, "Iterations drawn in the figures").show_default();
  cli.option("--setup2-alpha-step", setup2_alpha_step,
                 "Setup 2's alpha step, as a fraction of each layer's latency at the balanced split")
      .show_default()
      .positive();
  cli.option("--networks", networks, "Setup 2's networks (default: all in setup2.json)");
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  try {
    if (int rc = outputs.begin()) return rc;
    const std::filesystem::path dir = data.empty() ? std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) : std::filesystem::path(data);
    const Setup1 s = load_setup1(dir / "carballo2022" / "setup1.json");
    std::printf("Setup 1: GConv 112x112, C = %.0f, k = 1, N = 32; flydel coefficients are assumptions "
                "(carballo2022/setup1.json)\n\n", s.channels);

    // ---- the thesis's alpha sweep, condensed at the balanced guess ----
    auto two = split_model(s, {"fpga", "gpu"});
    two.model.start(two.c.at("fpga"), s.hat_fpga);
    two.model.start(two.c.at("gpu"), s.hat_gpu);
    baselines::AlphaSweepOptions ao;
    ao.alpha_start = alpha_start_us * 1e-6;  // the objective is in seconds
    ao.alpha_step = alpha_step_us * 1e-6;
    ao.tolerance = tolerance;
    ao.max_iterations = std::max(figure_iterations, 200);
    ao.stop_at_first = false;
    const auto sweep = baselines::alpha_penalty_sweep(two.model, ao);
    const auto fpga = two.c.at("fpga").index(), gpu = two.c.at("gpu").index();
    io::Table sweep_table({{"iteration", "", 1}, {"alpha", "us", 4}, {"C_F", "", 4}, {"C_G", "", 4}, {"sum / C", "", 4},
                           {"latency", "ms", 4}, {"time", "ms", 3}, {"status", "", 1}});
    for (const auto& it : sweep.iterations)
      sweep_table.add_row({long{it.iteration}, it.alpha * 1e6, it.values.empty() ? std::nan("") : it.values[fpga],
                           it.values.empty() ? std::nan("") : it.values[gpu], it.ratio.empty() ? std::nan("") : it.ratio[0],
                           it.objective * 1e3, it.seconds * 1e3, std::string(to_string(it.status))});
    if (sweep.accepted < 0) {
      std::printf("alpha sweep: no iterate reached (C_F + C_G) / C >= %g in %d iterations\n", 1 - tolerance,
                  ao.max_iterations);
    }
    const baselines::AlphaIteration* accepted = sweep.accepted >= 0 ? &sweep.iterations[static_cast<std::size_t>(sweep.accepted)] : nullptr;
    double sweep_to_acceptance_ms = 0;
    for (int i = 0; i <= sweep.accepted; ++i) sweep_to_acceptance_ms += sweep.iterations[static_cast<std::size_t>(i)].seconds * 1e3;

    // ---- sequential GP ----
    auto sp_model = split_model(s, {"fpga", "gpu"});
    const auto sp = sp_model.model.solve();
    std::map<std::string, double> sp_split;
    if (sp.has_values())
      for (const auto& [d, v] : sp_model.c) sp_split[d] = sp[v];

    // ---- exact integer split ----
    const ExactSplit exact = exact_split(s, {"fpga", "gpu"});

    io::Table summary({{"method", "", 1}, {"status", "", 1}, {"iteration", "", 1}, {"alpha", "us", 4}, {"C_F", "", 4},
                       {"C_G", "", 4}, {"latency", "ms", 4}, {"GP solves", "", 1}, {"time", "ms", 3}});
    summary.add_row({std::string("thesis (reported)"), std::string("-"), long{s.thesis_iteration}, s.thesis_alpha,
                     s.thesis_fpga, s.thesis_gpu, latency_ms(s, {{"fpga", s.thesis_fpga}, {"gpu", s.thesis_gpu}}),
                     std::monostate{}, std::monostate{}});
    if (accepted)
      summary.add_row({std::string("alpha sweep (ours)"), std::string("accepted"), long{accepted->iteration},
                       accepted->alpha * 1e6, accepted->values[fpga], accepted->values[gpu], accepted->objective * 1e3,
                       long{accepted->iteration}, sweep_to_acceptance_ms});
    summary.add_row({std::string("sequential GP"), std::string(to_string(sp.status())), std::monostate{},
                     std::monostate{}, sp.has_values() ? sp_split["fpga"] : std::nan(""),
                     sp.has_values() ? sp_split["gpu"] : std::nan(""), sp.has_values() ? sp.objective() * 1e3 : std::nan(""),
                     long{sp.iterations()}, sp.solve_time() * 1e3});
    summary.add_row({std::string("exact integer"), std::string(to_string(exact.status)), std::monostate{},
                     std::monostate{}, exact.split.count("fpga") ? exact.split.at("fpga") : std::nan(""),
                     exact.split.count("gpu") ? exact.split.at("gpu") : std::nan(""), exact.latency_ms,
                     std::monostate{}, exact.seconds * 1e3});
    std::printf("FPGA + GPU (Eq. 4.7); the thesis's latency is our flydels at its split\n");
    summary.print(std::cout);
    std::printf("\nthe alpha sweep, condensed at C_F = C_G = %.0f, alpha += %g us:\n", s.hat_fpga, alpha_step_us);
    io::Table head({sweep_table.columns()});
    for (std::size_t i = 0; i < sweep.iterations.size() && i < static_cast<std::size_t>(std::max(sweep.accepted + 3, 5)); ++i)
      head.add_row(sweep_table.rows()[i]);
    head.print(std::cout);

    // ---- CPU + GPU + FPGA (Eq. 4.9) ----
    auto three = split_model(s, {"cpu", "fpga", "gpu"});
    const auto sp3 = three.model.solve();
    const ExactSplit exact3 = exact_split(s, {"cpu", "fpga", "gpu"});
    io::Table ext({{"method", "", 1}, {"status", "", 1}, {"C_C", "", 4}, {"C_F", "", 4}, {"C_G", "", 4},
                   {"latency", "ms", 4}, {"time", "ms", 3}});
    ext.add_row({std::string("sequential GP"), std::string(to_string(sp3.status())),
                 sp3.has_values() ? sp3[three.c.at("cpu")] : std::nan(""),
                 sp3.has_values() ? sp3[three.c.at("fpga")] : std::nan(""),
                 sp3.has_values() ? sp3[three.c.at("gpu")] : std::nan(""),
                 sp3.has_values() ? sp3.objective() * 1e3 : std::nan(""), sp3.solve_time() * 1e3});
    ext.add_row({std::string("exact integer"), std::string(to_string(exact3.status)),
                 exact3.split.count("cpu") ? exact3.split.at("cpu") : std::nan(""),
                 exact3.split.count("fpga") ? exact3.split.at("fpga") : std::nan(""),
                 exact3.split.count("gpu") ? exact3.split.at("gpu") : std::nan(""), exact3.latency_ms,
                 exact3.seconds * 1e3});
    std::printf("\nCPU + GPU + FPGA (Eq. 4.9; the thesis gives no numbers, Fig. 4.4 puts most on the FPGA)\n");
    ext.print(std::cout);

    // ---- figures: Fig. 4.2 (split per iteration) and Fig. 4.3 (latency) ----
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
    for (std::size_t i = 0; i < sweep.iterations.size() && i < static_cast<std::size_t>(figure_iterations); ++i) {
      const auto& it = sweep.iterations[i];
      if (it.values.empty()) continue;
      const double k = it.iteration;
      sf.x.push_back(k), sf.y.push_back(it.values[fpga]);
      sg.x.push_back(k), sg.y.push_back(it.values[gpu]);
      sum.x.push_back(k), sum.y.push_back(it.values[fpga] + it.values[gpu]);
      lat.x.push_back(k), lat.y.push_back(it.objective * 1e3);
      if (sp.has_values()) sp_line.x.push_back(k), sp_line.y.push_back(sp.objective() * 1e3);
      if (exact.status == Status::optimal) ex_line.x.push_back(k), ex_line.y.push_back(exact.latency_ms);
    }
    split_chart.series = {sf, sg, sum};
    latency_chart.series = {lat, sp_line, ex_line};
    outputs.figure("fig4_2_alpha_sweep_split.svg", split_chart);
    outputs.figure("fig4_3_alpha_sweep_latency.svg", latency_chart);

    outputs.add_table("setup1", summary);
    outputs.add_table("setup1_alpha_sweep", sweep_table);
    outputs.add_table("setup1_cpu_gpu_fpga", ext);
    outputs.add_json("setup1", [&](io::JsonWriter& json) {
      json.begin_object().key("alpha_sweep").begin_object();
      json.key("iterations").value(accepted ? accepted->iteration : 0);
      json.key("alpha").value(accepted ? accepted->alpha * 1e6 : std::nan(""));
      json.key("channels");
      if (accepted) write_channels(json, {{"fpga", accepted->values[fpga]}, {"gpu", accepted->values[gpu]}});
      else json.value(nullptr);
      json.key("latency_s").value(accepted ? accepted->objective : std::nan(""));
      json.key("thesis").begin_object().key("iterations").value(s.thesis_iteration).key("alpha").value(s.thesis_alpha);
      json.key("channels");
      write_channels(json, {{"fpga", s.thesis_fpga}, {"gpu", s.thesis_gpu}});
      json.end_object().end_object();
      json.key("sp").begin_object().key("status").value(std::string(to_string(sp.status())));
      json.key("channels");
      write_channels(json, sp_split);
      json.key("latency_s").value(sp.has_values() ? sp.objective() : std::nan(""));
      json.key("gp_solves").value(sp.iterations()).end_object();
      json.key("exact").begin_object().key("status").value(std::string(to_string(exact.status)));
      json.key("channels");
      write_channels(json, exact.split);
      json.key("latency_s").value(exact.latency_ms * 1e-3).end_object();
      json.key("cpu_gpu_fpga").begin_object().key("exact").begin_object();
      json.key("status").value(std::string(to_string(exact3.status))).key("channels");
      write_channels(json, exact3.split);
      json.key("latency_s").value(exact3.latency_ms * 1e-3).end_object().end_object();
      json.end_object();
    });

    // ---- Setup 2: full CNNs ----
    const Setup2 s2 = load_setup2(dir / "carballo2022" / "setup2.json");
    if (networks.empty()) networks = s2.network_names;
    std::vector<NetworkReport> reports;
    for (const auto& name : networks) {
      if (!s2.networks.count(name)) {
        std::fprintf(stderr, "study000: --networks: no network `%s` in setup2.json\n", name.c_str());
        return 2;
      }
      reports.push_back(run_network(s2, name, setup2_alpha_step));
    }
    report_setup2(outputs, s2, reports);
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study000: %s\n", e.what());
    return 1;
  }
}
