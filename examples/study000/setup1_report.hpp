// examples/study000/setup1_report.hpp
// The study000 example's Setup 1 part, shown: the summary of the three
// methods beside the thesis, the alpha sweep iteration by iteration, the
// CPU+GPU+FPGA extension, Figures 4.2 and 4.3, and the "setup1" result that
// --json writes (structs declared with BOOST_HANA_DEFINE_STRUCT,
// ychart/io/reflect.hpp).
#pragma once

#include "common/cli.hpp"
#include "study000/setup1.hpp"

#include <ychart/baselines/alpha_penalty.hpp>
#include <ychart/io/reflect.hpp>
#include <ychart/io/svg.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace study000 {

using Channels = std::map<std::string, double>;

struct ThesisSplit {
  BOOST_HANA_DEFINE_STRUCT(ThesisSplit, (int, iterations), (double, alpha), (Channels, channels));
};

/// The alpha sweep's accepted iterate (none: 0 iterations, null channels).
struct AlphaSweepAnswer {
  BOOST_HANA_DEFINE_STRUCT(AlphaSweepAnswer, (int, iterations), (double, alpha), (std::optional<Channels>, channels),
                           (double, latency_s), (ThesisSplit, thesis));
};

struct SequentialGpAnswer {
  BOOST_HANA_DEFINE_STRUCT(SequentialGpAnswer, (std::string, status), (Channels, channels), (double, latency_s),
                           (int, gp_solves));
};

struct ExactAnswer {
  BOOST_HANA_DEFINE_STRUCT(ExactAnswer, (std::string, status), (Channels, channels), (double, latency_s));
};

struct ThreeDevices {
  BOOST_HANA_DEFINE_STRUCT(ThreeDevices, (ExactAnswer, exact));
};

struct Setup1Answers {
  BOOST_HANA_DEFINE_STRUCT(Setup1Answers, (AlphaSweepAnswer, alpha_sweep), (SequentialGpAnswer, sp),
                           (ExactAnswer, exact), (ThreeDevices, cpu_gpu_fpga));
};

inline ExactAnswer exact_answer(const ExactSplit& e) {
  return {std::string(ychart::to_string(e.status)), e.split, e.latency_ms * 1e-3};
}

/// The channels a solution gives each device (empty without values).
inline Channels channels_of(const SplitModel& m, const ychart::Solution& s) {
  Channels split;
  if (s.has_values())
    for (const auto& [device, c] : m.c) split[device] = s[c];
  return split;
}

inline double channel(const Channels& split, const std::string& device) {
  return split.count(device) ? split.at(device) : std::nan("");
}

/// The sweep, one row per iteration.
inline ychart::io::Table alpha_sweep_table(const ychart::baselines::AlphaSweepResult& sweep, std::size_t fpga,
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
inline ychart::io::Table setup1_summary(const Setup1& s, const ychart::baselines::AlphaIteration* accepted,
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
inline ychart::io::Table three_device_table(const SplitModel& three, const ychart::Solution& sp3,
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
inline void draw_setup1_figures(examples::Outputs& outputs, const ychart::baselines::AlphaSweepResult& sweep,
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

}  // namespace study000
