// ychart/synthesis/synthesis_model.hpp
// The exact synthesis model (study 003): allocation, binding, parameter
// choice and routing as one integer-linear model, which the MIGP engine
// hands to GLPK or, for large models, CBC and proves optimal -- where the
// thesis samples the same space with a SAT-decoding evolutionary search.
//   a_r   resource r allocated            m_o   mapping option o used
//   z_kv  parameter k takes its v-th value, sum_v z_kv = a_r (none when r
//         is unallocated)
//   y_ov  option o used with value v: sum_v y_ov = m_o, y_ov <= z_kv
//   u_ca  communication c uses arc a (a link in one direction)
// Routes, one of two ways (Routing):
//   tree  on a forest of undirected links, u_cl >= S_side + Q_other - 1:
//         c crosses link l when its sender is on one side and a receiver
//         on the other; pairs farther apart than max_hops are excluded;
//   flow  f_cqa, the flow of c towards its receiver q over arc a
//         (continuous): out - in = m(sender on r) - m(q on r) at every
//         resource r, f_cqa <= u_ca, u_ca <= sum_q f_cqa (no idle link
//         uses); at most one arc into each resource and none into the
//         sender's (EQ12, EQ13: trees); with a hop bound that can cut a
//         simple path, f is indexed by hop (OpenDSE's HOP encoding).
// Rows: sum_o m_o = 1 per task (4.7); m_o <= a_r (4.8); u <= a at both
// ends; a_r <= its uses (EQ30: nothing allocated for nothing). Cost = execution +
// link costs of the routes + allocation costs, in seconds. Optional
// epsilon rows bound a parameter's value, the power, or the allocated
// processors -- the fronts of synthesis/pareto.hpp. build_synthesis_model()
// returns the model before it is solved, for constraints of one's own.
#pragma once

#include "../config.hpp"
#include "../result/solve_report.hpp"
#include "detail/routability.hpp"
#include "implementation.hpp"

#include "../model/model.hpp"
#include "../solve/lexicographic.hpp"
#include "../solve/solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ychart::synthesis {

/// How routes are modelled. `flow`: per-receiver flows over directed link
/// uses, any architecture (hop-indexed when the hop bound can cut a path).
/// `tree`: for undirected links without cycles, a link is used when the
/// sender is on one side and a receiver on the other -- no flow variables.
/// `automatic` takes `tree` where it applies.
enum class Routing { automatic, flow, tree };

/// A second objective of a synthesis problem: a parameter's value (0 while
/// its resource is unallocated), the power of the allocated resources and
/// parameter values, or the number of allocated processors.
enum class SecondObjective { parameter, power, processors };

struct SynthesisOptions {
  Routing routing = Routing::automatic;
  /// Epsilon-constraints: the value of a parameter (0 while its resource
  /// is unallocated), the power, the number of allocated processors.
  std::optional<std::pair<std::size_t, double>> parameter_limit;  // (parameter, largest value)
  std::optional<Constant<dim::power>> power_limit;
  std::optional<std::size_t> processor_limit;
  /// Evaluate rather than explore: the binding (option per process) and,
  /// optionally, the parameter values are fixed; routes and allocation
  /// are still chosen exactly.
  std::optional<std::vector<std::size_t>> fixed_binding;
  std::optional<std::vector<std::size_t>> fixed_parameter_values;
  /// The MIGP engine's neighbourhood search for a first incumbent. Off by
  /// default here: GLPK's presolver and cuts (which a start point turns
  /// off) solve these models faster -- the 13-node example in 1.5 ms
  /// instead of 17.5 ms (docs/performance.md).
  bool start_heuristic = false;
  /// Among the implementations of least cost, the least value of this
  /// objective (`then_minimize_parameter` names the parameter), as a second
  /// stage (solve_lexicographic) rather than a small weight, which would sit
  /// below GLPK's gap. pareto_front() sets it for every point.
  std::optional<SecondObjective> then_minimize;
  std::size_t then_minimize_parameter = 0;
};

/// objective and bound: the implementation's cost in seconds (the proven
/// optimum when optimal).
struct SynthesisResult : SolveReport {
  std::optional<Implementation> implementation;
  Breakdown breakdown;      // evaluate() on the implementation
  std::size_t variables = 0, constraints = 0;
};

namespace detail {
struct SynthesisModelState;
}

/// The synthesis model built but not solved, for rows of one's own before
/// solving: build_synthesis_model(), add constraints to model() over the
/// variables below, solve(). solve_synthesis() is build and solve without
/// the middle step (plus a fallback implementation when a limit stops the MILP solver
/// without one, and the infeasibility diagnosis). The specification and its
/// index must outlive the model.
class SynthesisModel {
 public:
  YCHART_DECL SynthesisModel(SynthesisModel&&) noexcept;
  YCHART_DECL SynthesisModel& operator=(SynthesisModel&&) noexcept;
  YCHART_DECL ~SynthesisModel();

  /// The model: the rows the header lists, cost minimised (in units of the
  /// largest cost, so that GLPK's coefficients stay near 1).
  YCHART_DECL Model& model();
  /// m_o, 1 when process task `process` (an index into ix.processes) runs on
  /// its `option`-th mapping option (an index into ix.options[process]);
  /// empty when no route can reach that option's resource (the option is
  /// not in the model). model_error for indices out of range.
  YCHART_DECL std::optional<Discrete<>> option_used(std::size_t process, std::size_t option) const;
  /// a_r, 1 when resource `resource` is allocated.
  YCHART_DECL Discrete<> allocated(std::size_t resource) const;
  /// Solves the model as it stands and prices the implementation with
  /// evaluate(): objective and bound in seconds, as solve_synthesis's;
  /// seconds: building and solving, not the time between.
  YCHART_DECL SynthesisResult solve(const SolveOptions& solve_options = {});

 private:
  friend YCHART_DECL SynthesisModel build_synthesis_model(const Specification&, const IndexedSpecification&,
                                                          const SynthesisOptions&);
  explicit SynthesisModel(std::unique_ptr<detail::SynthesisModelState> state);
  std::unique_ptr<detail::SynthesisModelState> state_;
};

/// The synthesis model of `spec` under the options, built and not solved.
/// specification_error (naming the task) when a task has no resource from
/// which one of its communications can be routed.
YCHART_DECL SynthesisModel build_synthesis_model(const Specification& spec, const IndexedSpecification& ix,
                                                 const SynthesisOptions& o = {});

/// Solves the synthesis problem exactly. `optimal` means the MILP back end
/// (SolveOptions::milp_solver: GLPK, or CBC from 2,000 columns) proved the
/// least cost. A solve stopped by a limit keeps its incumbent, or else a
/// feasible fallback (said in the message), with its bound if it has
/// one. `infeasible` names a task and communication that cannot be routed
/// (or, when the propagation finds none, the communications of an
/// irreducible conflict, or the epsilon limit that excludes everything).
YCHART_DECL SynthesisResult solve_synthesis(const Specification& spec, const IndexedSpecification& ix,
                                            const SynthesisOptions& o = {}, const SolveOptions& solve_options = {});

YCHART_DECL SynthesisResult solve_synthesis(const Specification& spec, const SynthesisOptions& o = {},
                                            const SolveOptions& solve_options = {});

}  // namespace ychart::synthesis

#if YCHART_HEADER_ONLY
#include "impl/synthesis_model.ipp"
#endif
