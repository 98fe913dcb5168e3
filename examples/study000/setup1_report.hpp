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

ExactAnswer exact_answer(const ExactSplit& e);

/// The channels a solution gives each device (empty without values).
Channels channels_of(const SplitModel& m, const ychart::Solution& s);

/// The sweep, one row per iteration.
ychart::io::Table alpha_sweep_table(const ychart::baselines::AlphaSweepResult& sweep, std::size_t fpga,
                                    std::size_t gpu);

/// The thesis's reported split, the alpha sweep's, sequential GP's and the exact one.
ychart::io::Table setup1_summary(const Setup1& s, const ychart::baselines::AlphaIteration* accepted, double sweep_ms,
                                 std::size_t fpga, std::size_t gpu, const ychart::Solution& sp,
                                 const Channels& sp_split, const ExactSplit& exact);

/// Eq. 4.9: sequential GP and the exact split on CPU + GPU + FPGA.
ychart::io::Table three_device_table(const SplitModel& three, const ychart::Solution& sp3, const ExactSplit& exact3);

/// Fig. 4.2 (the split per iteration) and Fig. 4.3 (latency, beside the
/// sequential GP's and the exact optimum's), over the first iterations.
void draw_setup1_figures(examples::Outputs& outputs, const ychart::baselines::AlphaSweepResult& sweep,
                         std::size_t fpga, std::size_t gpu, const ychart::Solution& sp, const ExactSplit& exact,
                         int iterations, double alpha_start_us, double alpha_step_us);

}  // namespace study000
