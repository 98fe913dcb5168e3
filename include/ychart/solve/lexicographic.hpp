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
};

/// Minimises `objectives` in priority order. Stage k holds every earlier
/// objective at most at its optimum (up to a few ulps), so a later stage
/// never trades an earlier objective away. Stops at the first stage that is
/// not proven optimal; its solution is then the previous stage's.
inline LexicographicSolution solve_lexicographic(Model& m, const std::vector<Affine<>>& objectives,
                                                 const SolveOptions& options = {}) {
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
    const double optimum = sol.objective();
    optima.push_back(optimum);
    kept = std::move(sol);
    if (k + 1 < objectives.size())
      m.subject_to(objectives[k] <= optimum + std::abs(optimum) * tolerances::ulps,
                   "lexicographic stage " + std::to_string(k + 1) + " at its optimum");
  }
  detail::ModelEditor::restore(m, saved, rows);
  return {std::move(*kept), std::move(stages), std::move(optima), std::move(message)};
}

}  // namespace ychart
