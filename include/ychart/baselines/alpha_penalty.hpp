// ychart/baselines/alpha_penalty.hpp
// The penalty method of study 000 (Carballo-Hernandez 2022, Eqs. 4.6-4.8),
// kept as a baseline to compare sequential GP with. Each posynomial equality
// `P == N` (N a monomial, such as the channel count C) is relaxed to
// `P <= N`, and the objective gets a penalty alpha / h_bar, where h_bar is
// P / N condensed once, at a fixed point x_hat (the thesis's "naive
// partitioning"; here the model's start values). alpha grows by a step each
// iteration; the sweep accepts the first iterate where every P / N reaches
// 1 - tolerance (the thesis's stopping rule), or runs them all. With several
// equalities (one per layer, Eq. 4.10), each has its own alpha_e = alpha *
// scale_e, and the thesis's multi-layer rule can be asked for: raise them
// together and stop raising each one once its equality holds.
//
// What to expect (study 000 digest, section 4.8): a large alpha pulls the
// split toward x_hat's proportions, so the accepted answer depends on the
// step and the stopping rule; it is a heuristic with no optimality claim.
// alpha_penalty_sweep reports every iteration so that this can be seen.
#pragma once

#include "../config.hpp"
#include "../model/signomial_model.hpp"
#include "../model/status.hpp"

#include <limits>
#include <vector>

namespace ychart::baselines {

struct AlphaSweepOptions {
  double alpha_start = 10.0;  // the first alpha, in the objective's SI unit
  double alpha_step = 10.0;   // added each iteration (the thesis's figures step by 10)
  int max_iterations = 100;
  /// Accept an iterate when P / N >= 1 - tolerance for every equality.
  double tolerance = 1e-3;
  /// The thesis's rule: stop at the first accepted iterate. false: run all
  /// max_iterations, as Fig. 4.3 plots them.
  bool stop_at_first = true;
  /// Eq. 4.8 as printed: h_bar = prod (u_t / N)^eps_t, without Eq. 4.5's
  /// 1 / eps_t factors (smaller by prod eps_t^eps_t, 1/2 for a balanced
  /// split, which alpha absorbs). false: Eq. 4.5, h_bar = P condensed / N.
  bool thesis_condensation = true;
  /// Per equality, in the order they were added: alpha_e = alpha * scale[e]
  /// (empty: 1 for all), so that layers of different sizes get penalties of
  /// their own size. Positive.
  std::vector<double> scale;
  /// Eq. 4.10's rule: an equality's alpha stops growing while it holds
  /// (P / N >= 1 - tolerance) and resumes, from where it stopped, if it no
  /// longer does; the others keep stepping.
  bool freeze_satisfied = false;
};

struct AlphaIteration {
  int iteration = 0;  // 1-based, as the thesis counts
  double alpha = 0;            // alpha_start + (k - 1) alpha_step
  std::vector<double> alphas;  // per equality: the alpha its penalty used (scale and freezing applied)
  int satisfied = 0;           // equalities with P / N >= 1 - tolerance
  Status status = Status::numerical_error;
  std::vector<double> values;  // per registry index, in the variables' units
  std::vector<double> ratio;   // P / N per equality, at the iterate
  double objective = std::numeric_limits<double>::quiet_NaN();  // without the penalty (SI)
  double seconds = 0;          // this iteration's GP
  bool accepted = false;
};

struct AlphaSweepResult {
  std::vector<AlphaIteration> iterations;
  int accepted = -1;  // index into iterations of the first accepted one; -1: none
  double seconds = 0;
};

/// The thesis's alpha sweep on a SignomialModel whose signomial constraints
/// are `posynomial == monomial` equalities, condensed at its start values.
YCHART_DECL AlphaSweepResult alpha_penalty_sweep(const SignomialModel& model, const AlphaSweepOptions& options = {},
                                                 const SolveOptions& solve_options = {});

}  // namespace ychart::baselines

#if YCHART_HEADER_ONLY
#include "impl/alpha_penalty.ipp"
#endif
