// ychart/solve/gp/gp_result.hpp
// What one run of a GP back end (the native interior-point method or Ipopt)
// returns, in log space and in the same conventions whichever back end ran:
// multipliers >= 0 for active `<=` rows, bound multipliers >= 0, and row
// values as the form states them (a posynomial row's sum of exponentials is
// compared with 1, every other row with 0); and when such runs settle that a
// form is infeasible.
#pragma once

#include "../../model/tolerances.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace ychart::solve::gp {

enum class GpRunStatus {
  solved,             // converged to the requested tolerance
  solved_acceptable,  // stopped early, but within a looser tolerance (1e-6)
  diverging,          // an iterate passed the box: the model may be unbounded
  iteration_limit,
  time_limit,
  suspected_infeasible,  // no progress towards feasibility: the feasibility relaxation decides
  failed,             // anything else (no convergence, singular, ...)
};

struct GpResult {
  GpRunStatus status = GpRunStatus::failed;
  std::string message;                   // the back end's own words when not solved
  std::vector<double> y;                 // log-space point
  std::vector<double> lambda;            // one multiplier per row of the form
  std::vector<double> z_lower, z_upper;  // bound multipliers
  std::vector<double> g;                 // row values
  double objective = 0.0;                // c.y + c0
  int iterations = 0;
  const char* solver = "";               // "native" or "ipopt"

  bool success() const { return status == GpRunStatus::solved || status == GpRunStatus::solved_acceptable; }
  bool limit_hit() const { return status == GpRunStatus::iteration_limit || status == GpRunStatus::time_limit; }
};

/// The log of the product of a feasibility relaxation's slacks: the sum of
/// its columns past the relaxed form's first `model_columns` (the model's).
inline double total_slack(const GpResult& relaxation, int model_columns) {
  if (int(relaxation.y.size()) <= model_columns) return 0.0;
  return std::accumulate(relaxation.y.begin() + model_columns, relaxation.y.end(), 0.0);
}

/// Whether a feasibility relaxation's run proves the relaxed form infeasible
/// by itself: it succeeded and its total slack is above
/// tolerances::decisive_slack and above what the acceptable tolerance may
/// leave on each slack column (those past the first `model_columns`).
inline bool proves_infeasible(const GpResult& relaxation, int model_columns) {
  const int slack_count = int(relaxation.y.size()) - model_columns;
  return relaxation.success() && total_slack(relaxation, model_columns) >
                                     std::max(tolerances::decisive_slack, slack_count * tolerances::acceptable);
}

/// Why a relaxation that needs `total_slack` decided nothing, for a status
/// message; `what` names the form ("model", "subproblem").
inline std::string undecided_relaxation(double total_slack, const char* what) {
  char text[200];
  std::snprintf(text, sizeof text,
                "the feasibility relaxation needs a total slack of %.3g, within what its solver leaves, and no back "
                "end found the %s infeasible",
                total_slack, what);
  return text;
}

/// Whether `r`, a run of the form itself, is Ipopt finding it infeasible: a
/// second opinion beside a feasibility relaxation that does not decide alone.
inline bool ipopt_found_infeasible(const GpResult& r) {
  return std::strcmp(r.solver, "ipopt") == 0 && r.status == GpRunStatus::suspected_infeasible;
}

}  // namespace ychart::solve::gp
