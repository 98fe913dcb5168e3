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
// build_partition_model() returns the model before it is solved, so that a
// user can add rows of their own over the x_g (on_fpga()); solve_partition()
// is build and solve.
#pragma once

#include "../config.hpp"
#include "../result/solve_report.hpp"
#include "../model/detail/model_editor.hpp"
#include "../model/model.hpp"
#include "../solve/lexicographic.hpp"
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

/// The partition model built but not solved: build_partition_model(), add
/// constraints to model() over on_fpga(segment), solve(). It keeps its own
/// copies of the graph, the platform and the options.
class PartitionModel {
 public:
  /// The model: the rows the header lists, the schedule's cost minimised (s):
  /// sequential, the latency; pipelined, the interval (solve() then takes
  /// the least latency among the partitions at that interval, unless the
  /// objective was changed).
  Model& model() { return model_; }
  /// x_g, 1 when segment `segment` (an index into the graph's segments) runs
  /// on the FPGA; model_error for an index out of range.
  YCHART_DECL Discrete<> on_fpga(std::size_t segment) const;
  /// Solves the model as it stands and prices the optimum with evaluate();
  /// seconds: building and solving, not the time between. Pipelined, with
  /// the objective as built, it is two stages (solve_lexicographic): the
  /// least interval, then the least latency at it; objective is the interval.
  /// When it is infeasible and no rows were added, binding names the
  /// resources that no valid range fits.
  YCHART_DECL PartitionResult solve(const SolveOptions& solve_options = {});

 private:
  friend YCHART_DECL PartitionModel build_partition_model(const SequentialGraph&, const Platform&,
                                                          const PartitionOptions&);
  PartitionModel(const SequentialGraph& g, const Platform& p, const PartitionOptions& o) : graph_(g), platform_(p), options_(o) {}
  SequentialGraph graph_;
  Platform platform_;
  PartitionOptions options_;
  Model model_;
  std::vector<Discrete<>> on_fpga_;
  std::size_t built_rows_ = 0;  // rows after build_partition_model: more are the user's
  std::vector<Affine<>> lexicographic_;  // pipelined: the interval, then the latency
  ychart::detail::ModelEditor::SavedObjective built_objective_;  // to see whether the user changed it
  double build_seconds_ = 0;    // counted in the result's seconds, the time between is not
};

/// Validates the graph, the platform and the options (graph_error) and
/// builds the model.
YCHART_DECL PartitionModel build_partition_model(const SequentialGraph& g, const Platform& p,
                                                 const PartitionOptions& o = {});

YCHART_DECL PartitionResult solve_partition(const SequentialGraph& g, const Platform& p, const PartitionOptions& o = {},
                                            const SolveOptions& solve_options = {});

}  // namespace ychart::partition

#if YCHART_HEADER_ONLY
#include "impl/partition_model.ipp"
#endif
