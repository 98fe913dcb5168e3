// examples/study000/setup2_report.hpp
// The study000 example's Setup 2 part: per network, the exact integer split,
// the sequential-GP split, the thesis's alpha sweep (one alpha per layer,
// Eq. 4.10's rule), and the fused-layer variant (the thesis's x^2k
// surrogate beside an exact binary decision); tables, the Fig. 4.8-style
// figures and the "setup2" result that --json writes (structs declared with
// BOOST_HANA_DEFINE_STRUCT, ychart/io/reflect.hpp).
#pragma once

#include "common/cli.hpp"
#include "study000/setup2.hpp"

#include <ychart/io/reflect.hpp>
#include <ychart/io/svg.hpp>
#include <ychart/core.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace study000 {

struct MethodResult {
  std::string method;
  std::string status;
  std::vector<LayerSplit> split;  // empty: no point
  NetworkCost cost;
  int solves = 0;       // GP solves (SP, alpha) or 0
  double seconds = 0;
  double model_ms = std::numeric_limits<double>::quiet_NaN();  // what the method's own objective said
};

std::pair<double, double> speedup_range(const NetworkCost& c);

struct NetworkReport {
  std::string name;
  MethodResult exact, sp, alpha, fused_exact, fused_surrogate;
  int alpha_iterations = 0;
};

NetworkReport run_network(const Setup2& s, const std::string& name, double alpha_step);

std::string layer_share_text(const LayerSplit& x);

/// One layer's channels on each device (the members are device_names).
struct LayerChannels {
  BOOST_HANA_DEFINE_STRUCT(LayerChannels, (std::string, layer), (double, cpu), (double, gpu), (double, fpga));
};

/// One method's answer for a network; gp_solves only for the methods that
/// solve GPs, channels and resources only for the exact split.
struct MethodAnswer {
  BOOST_HANA_DEFINE_STRUCT(MethodAnswer, (std::string, status), (double, latency_s), (double, speedup_min),
                           (double, speedup_max), (io::Omittable<int>, gp_solves), (double, seconds),
                           (io::Omittable<std::vector<LayerChannels>>, channels),
                           (io::Omittable<io::Members<double>>, resources));
};

struct FusedAnswer {
  BOOST_HANA_DEFINE_STRUCT(FusedAnswer, (MethodAnswer, exact), (MethodAnswer, surrogate),
                           (double, surrogate_objective_s), (long, fused_pairs));
};

/// Setup 2's result for one network, as --json writes it.
struct NetworkAnswer {
  BOOST_HANA_DEFINE_STRUCT(NetworkAnswer, (long, layers), (double, speedup_min), (double, speedup_max),
                           (std::vector<double>, thesis_speedup), (double, cpu_only_s), (MethodAnswer, exact),
                           (MethodAnswer, sp), (MethodAnswer, alpha), (FusedAnswer, fused));
};

NetworkAnswer network_answer(const Setup2& s, const NetworkReport& r);

void report_setup2(examples::Outputs& outputs, const Setup2& s, const std::vector<NetworkReport>& reports);

}  // namespace study000
