// ychart/solve/lexicographic.hpp
// Lexicographic objectives: minimise the first; then, holding it at its
// optimum, the second; and so on, each stage a solve of its own. A small
// weight on the second objective beside the first would sit below the
// solver's gap tolerance and break ties at random (issue 31 found such
// ties in loop-nest bindings and FPGA partitions). The model comes back as
// it was given: its objective and rows are restored after the stages.
#pragma once

#include "../error.hpp"
#include "../expr/operators.hpp"
#include "../model/detail/model_editor.hpp"
#include "../model/model.hpp"
#include "../model/tolerances.hpp"
#include "../result/solution.hpp"
#include "solve.hpp"

#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ychart {

struct LexicographicSolution {
  /// The last stage proven optimal; the first stage's outcome when it was not.
  Solution solution;
  /// Each stage's status, in order, up to the first that is not optimal.
  std::vector<Status> stages;
  /// The optimum of every stage proven optimal, in order.
  std::vector<double> optima;
  /// Empty when every stage is proven; else which stage stopped, and why.
  std::string message;

  bool all_proven(std::size_t objectives) const { return optima.size() == objectives; }

  /// What a caller that reports the first stage's outcome as its own adds
  /// to the solution's message: when the first stage is proven and a later
  /// one is not, "<what> is not proven (<which stage stopped, and why>)";
  /// otherwise nothing. `what` names the later objective ("the least
  /// latency at that interval").
  std::string message_with_later_stages(const std::string& what) const {
    std::string m = solution.message();
    if (optima.empty() || message.empty()) return m;
    return m + (m.empty() ? "" : "; ") + what + " is not proven (" + message + ")";
  }
};

struct LexicographicOptions {
  /// The value a proven stage's objective is held at (at most, up to a few
  /// ulps) in the later stages, from that stage's solution; empty: the
  /// solver's optimum. A caller whose objective has an exact value of its
  /// own gives it here (loopnest: the interval of the binding, evaluated),
  /// so that later stages hold that value, not the solver's, which may sit
  /// below it by the solver's feasibility tolerance.
  std::function<double(std::size_t stage, const Solution&)> hold_at;
  /// Rows that holding a stage's objective at `held` implies, added after
  /// the held row, before the next stage: fixings that shrink that stage's
  /// search (partition: a folding too slow for the held interval). They
  /// must not cut off any solution that holds the objective; they go with
  /// the stage rows when the model is given back.
  std::function<void(Model&, std::size_t stage, double held)> implied_rows;
};

/// Minimises `objectives` in priority order. Stage k holds every earlier
/// objective at most at its optimum (up to a few ulps), so a later stage
/// never trades an earlier objective away. Stops at the first stage that is
/// not proven optimal; its solution is then the previous stage's.
inline LexicographicSolution solve_lexicographic(Model& m, const std::vector<Affine<>>& objectives,
                                                 const SolveOptions& options = {},
                                                 const LexicographicOptions& lexicographic = {}) {
  if (objectives.empty()) throw model_error("ychart: solve_lexicographic needs at least one objective");
  const auto saved = detail::ModelEditor::objective_of(m);
  const std::size_t rows = m.constraints().size();
  std::optional<Solution> kept;
  std::vector<Status> stages;
  std::vector<double> optima;
  std::string message;
  for (std::size_t k = 0; k < objectives.size(); ++k) {
    m.minimize(objectives[k]);
    Solution sol = m.solve(options);
    stages.push_back(sol.status());
    if (sol.status() != Status::optimal) {
      message = "lexicographic stage " + std::to_string(k + 1) + " of " + std::to_string(objectives.size()) +
                " ended " + std::string(to_string(sol.status())) + (sol.message().empty() ? "" : ": " + sol.message());
      if (!kept) kept = std::move(sol);
      break;
    }
    optima.push_back(sol.objective());
    if (k + 1 < objectives.size()) {
      const double hold = lexicographic.hold_at ? lexicographic.hold_at(k, sol) : sol.objective();
      m.subject_to(objectives[k] <= hold + std::abs(hold) * tolerances::ulps,
                   "lexicographic stage " + std::to_string(k + 1) + " at its optimum");
      if (lexicographic.implied_rows) lexicographic.implied_rows(m, k, hold);
    }
    kept = std::move(sol);
  }
  detail::ModelEditor::restore(m, saved, rows);
  return {std::move(*kept), std::move(stages), std::move(optima), std::move(message)};
}

}  // namespace ychart
