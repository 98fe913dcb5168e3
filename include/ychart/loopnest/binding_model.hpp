// ychart/loopnest/binding_model.hpp
// Exact binding of a CNN's layers to a heterogeneous platform's processors,
// where ALOHA only evaluates a given schedule (study 002, issue 19 (a)):
// x_ij = 1 when layer i runs on processor j, sum_j x_ij = 1, x_ij = 0 where
// the cost table forbids the pair, and one of
//   latency:    min sum_ij t_ij x_ij (sequential; Algorithm 1 is optimal
//               here, since the paper charges no transfer between layers);
//   throughput: min tau, tau >= sum_i t_ij x_ij for every j, with each
//               processor's layers one contiguous stage (entry indicators
//               e_ij >= x_ij - x_{i-1,j}, sum_i e_ij <= 1), as in the
//               pipeline of ALOHA's ref. [39]; ties go to the least latency;
//   energy:     min Eq. 12 with the frame period T = the latency limit:
//               sum_ij x_ij (E_ij - P_idle,j t_ij) + T sum_j P_idle,j,
//               subject to the sequential latency (or, pipelined, the stage
//               interval) <= T.
// GLPK proves the optimum through the MIGP engine, or, for pipelines, a
// dynamic program over the stages (detail/stage_dp.hpp, the default there);
// evaluate_schedule() gives the metrics of the binding either returns.
#pragma once

#include "../config.hpp"
#include "../result/solve_report.hpp"
#include "cnn.hpp"
#include "detail/stage_dp.hpp"

#include "../model/model.hpp"
#include "../solve/lexicographic.hpp"
#include "../solve/solve.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::loopnest {

enum class BindingGoal { latency, throughput, energy };

struct BindingOptions {
  BindingGoal goal = BindingGoal::latency;
  /// Pipelined execution (Eq. 11's first case) with contiguous stages;
  /// implied by goal == throughput.
  bool pipeline = false;
  /// For goal == energy: the latency constraint (the stage interval when
  /// pipelined), which is also Eq. 12's frame period.
  std::optional<Constant<dim::time>> latency_limit;
  /// Pipelined bindings: dynamic programming over the stages (automatic up
  /// to 10 processors; on request up to 16) or the MILP through the MIGP engine.
  enum class Method { automatic, milp, dynamic_programming } method = Method::automatic;
};

/// objective: the model's, in s (latency, interval) or J (energy).
struct BindingResult : SolveReport {
  Binding binding;
  CnnMetrics metrics;  // evaluate_schedule() on the binding
};

YCHART_DECL BindingResult solve_binding(const CostTable& t, const Platform& platform, const BindingOptions& o = {},
                                        const SolveOptions& solve_options = {});

}  // namespace ychart::loopnest

#if YCHART_HEADER_ONLY
#include "impl/binding_model.ipp"
#endif
