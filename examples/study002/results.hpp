// examples/study002/results.hpp
// What study 002 reports, as data: each struct is declared with
// BOOST_HANA_DEFINE_STRUCT, so `--json` writes it member by member
// (ychart/io/reflect.hpp). Times in seconds, energies in joules.
#pragma once

#include <ychart/io/reflect.hpp>

#include <string>
#include <vector>

namespace study002 {

using ychart::io::Members;

/// Layer l1 on NEURAghe, the quantities the paper's listings give.
struct WorkedExample {
  BOOST_HANA_DEFINE_STRUCT(WorkedExample, (double, ops_th), (double, ops_re), (Members<long long>, trip_counts),
                           (long long, tiles), (long long, of_per_tile), (Members<double>, traffic_bytes),
                           (double, latency_s), (double, energy_j), (std::string, bottleneck),
                           (double, ops_estimate_s), (double, roofline_estimate_s));
};

/// 1 - OPS_th / OPS_re over the Table 6 grid.
struct RoundingEffect {
  BOOST_HANA_DEFINE_STRUCT(RoundingEffect, (double, max_underestimation), (double, mean_underestimation),
                           (long, layers), (double, mean_kernel_fits));
};

/// Algorithm 1 against the exact bindings of the Table 6 chain.
struct BindingSummary {
  BOOST_HANA_DEFINE_STRUCT(BindingSummary, (double, algorithm1_latency_s), (double, latency_s),
                           (double, algorithm1_pipelined_fps), (double, pipelined_fps), (double, energy_j),
                           (double, algorithm1_energy_j), (std::string, status));
};

struct FrontPoint {
  BOOST_HANA_DEFINE_STRUCT(FrontPoint, (double, latency_s), (double, energy_j));
};

/// The least-latency accelerator and the proven latency-energy front.
struct DesignSummary {
  BOOST_HANA_DEFINE_STRUCT(DesignSummary, (std::string, status), (double, relaxation_s), (double, latency_s),
                           (double, model_latency_s), (std::vector<double>, parallelism), (double, seconds),
                           (std::vector<FrontPoint>, front),
                           // The least latency and the least energy over every tile count
                           // (TileSpace::every_count), beside ALOHA's rule's (the rows above).
                           (std::string, every_count_status), (double, every_count_latency_s),
                           (double, least_energy_j), (double, every_count_energy_j));
};

}  // namespace study002
