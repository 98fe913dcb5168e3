// ychart/partition/partition_model.hpp
// The CPU/FPGA partition of a sequential graph as an exact model, where
// study 004 enumerated: a binary x_g per segment (1 = FPGA), and at every
// boundary j between segments j - 1 and j an entry u_j >= x_j - x_{j-1} and
// an exit v_j >= x_{j-1} - x_j (x_{-1} = x_G = 0), each paying the transfer
// of the tensor crossing that boundary. Sum u_j <= max_fpga_ranges bounds the
// number of FPGA ranges (1: study 004's single contiguous range).
//   sequential: min sum_g (1 - x_g) T_cpu,g + x_g cycles_g / f
//                     + sum_j u_j T_in(s_j) + v_j T_out(s_j)
//   pipelined:  min tau  s.t.  tau >= the CPU's sum, tau >= the link's sum,
//                              tau >= x_g max_node_cycles_g / f for every g
// with the resources sum_g x_g R_g,k <= budget_k. FINN's rule that an FPGA
// range holds a MultiThreshold and more than one node becomes
// x_g <= x_{g-1} + x_{g+1} for a segment that lacks a threshold or has one
// node (exact when no two neighbouring segments lack a threshold, which holds
// when the cut points are the thresholds; otherwise graph_error). GLPK solves
// it through the MIGP engine; enumerate.hpp is the oracle in the tests.
#pragma once

#include "../config.hpp"
#include "../result/solve_report.hpp"
#include "../model/model.hpp"
#include "../solve/solve.hpp"
#include "evaluate.hpp"
#include "enumerate.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::partition {

struct PartitionOptions {
  int max_fpga_ranges = 1;
  int min_fpga_ranges = 0;  // 1: the FPGA must be used (then no fit is `infeasible`)
  Schedule schedule = Schedule::sequential;
  bool check_resources = true;
  /// Non-empty: these ranges, and only these, run on the FPGA (to fold a
  /// given partition, or to cost it under the same rules).
  std::vector<NodeRange> fixed_fpga;
};

/// objective: the model's, in seconds (the tests compare it with cost).
struct PartitionResult : SolveReport {
  PartitionCost cost;  // of the optimum (evaluate() on it, not the model's objective)
  std::string binding;  // when infeasible: the resource no valid range fits
};

YCHART_DECL PartitionResult solve_partition(const SequentialGraph& g, const Platform& p, const PartitionOptions& o = {},
                                            const SolveOptions& solve_options = {});

}  // namespace ychart::partition

#if YCHART_HEADER_ONLY
#include "impl/partition_model.ipp"
#endif
