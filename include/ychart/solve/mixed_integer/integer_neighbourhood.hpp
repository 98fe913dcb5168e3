// ychart/solve/mixed_integer/integer_neighbourhood.hpp
// A local search over integer neighbours, evaluated exactly, that gives the
// GLPK path an incumbent before its branch and cut starts. From a point
// (a related model's solution: the previous master of a decomposition, the
// neighbouring point of a sweep) it moves one discrete variable to an
// adjacent value of its domain, or one up and another down, and takes the
// best move while the objective improves. Each neighbour is evaluated with
// its integer columns fixed: an LP over the continuous columns (GLPK's dual
// simplex from the previous basis), so the objective and the feasibility of
// a neighbour are exact. The start need not be feasible: a point that a new
// cut excludes is repaired by the best feasible neighbour. It proves
// nothing; GLPK still proves the optimum, and with a good incumbent it
// prunes from the first node on.
#pragma once

#include "../../model/tolerances.hpp"
#include "../../lower/minlp_form.hpp"
#include "../milp/glpk_milp.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace ychart::solve::mixed_integer {

struct NeighbourhoodResult {
  std::vector<double> x;   // a feasible point of the MILP, integer columns exact
  double objective = 0.0;  // c.x + c0
  long evaluations = 0;    // LPs solved
  int moves = 0;           // moves taken
};

namespace detail {

/// The discrete variables of a form as the search moves them: an encoded
/// variable moves along its domain's list, a plain integer column by one.
struct DiscreteHandle {
  int value_column = -1;
  int first = -1;                     // first binary of the encoding, or -1
  const std::vector<double>* values;  // the domain, for encoded variables
};

/// Evaluates integer assignments of a MILP exactly: the LP over the
/// continuous columns with every integer column fixed.
class FixedIntegerLp {
 public:
  explicit FixedIntegerLp(const milp::MilpForm& m) : m_(m) {
    milp::detail::load(prob_.p, m, false);
    fixed_.assign(std::size_t(m.n), std::numeric_limits<double>::quiet_NaN());
  }

  /// The LP's optimum with the integer columns at x's values, or nothing
  /// when that assignment has no feasible completion.
  std::optional<std::pair<double, std::vector<double>>> evaluate(const std::vector<double>& x) {
    if (!prob_.alive) return std::nullopt;
    for (int j = 0; j < m_.n; ++j) {
      if (!m_.integer[j] || fixed_[std::size_t(j)] == x[std::size_t(j)]) continue;
      if (x[std::size_t(j)] < m_.lower[j] || x[std::size_t(j)] > m_.upper[j]) return std::nullopt;
      glp_set_col_bnds(prob_.p, j + 1, GLP_FX, x[std::size_t(j)], x[std::size_t(j)]);
      fixed_[std::size_t(j)] = x[std::size_t(j)];
    }
    ++evaluations;
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_DUALP;  // only bounds change between calls: the basis stays dual feasible
    const int rc = milp::detail::call_guarded(prob_, [&] {
      int code = glp_simplex(prob_.p, &parm);
      if (code != 0) {  // a basis gone singular: once more from a fresh one
        glp_std_basis(prob_.p);
        code = glp_simplex(prob_.p, &parm);
      }
      return code;
    });
    if (rc != 0 || glp_get_status(prob_.p) != GLP_OPT) return std::nullopt;
    std::vector<double> out(std::size_t(m_.n));
    for (int j = 0; j < m_.n; ++j) out[std::size_t(j)] = m_.integer[j] ? x[std::size_t(j)] : glp_get_col_prim(prob_.p, j + 1);
    if (!milp::detail::feasible_point(m_, out)) return std::nullopt;
    return std::pair{glp_get_obj_val(prob_.p), std::move(out)};
  }

  /// The LP relaxation's solution (nothing fixed), or nothing.
  std::optional<std::vector<double>> relaxation() {
    milp::detail::GlpkProblem relaxed;
    milp::detail::load(relaxed.p, m_, false);
    if (!milp::detail::solve_relaxation(relaxed, 1e20)) return std::nullopt;
    std::vector<double> x(std::size_t(m_.n));
    for (int j = 0; j < m_.n; ++j) x[std::size_t(j)] = glp_get_col_prim(relaxed.p, j + 1);
    return x;
  }

  long evaluations = 0;

 private:
  const milp::MilpForm& m_;
  milp::detail::GlpkProblem prob_;
  std::vector<double> fixed_;
};

}  // namespace detail

/// The local search over one MILP (whose columns are those of `form`).
/// Minimises m's objective; stops when no move improves or at the deadline.
class IntegerNeighbourhood {
 public:
  using clock = std::chrono::steady_clock;

  IntegerNeighbourhood(const milp::MilpForm& m, const lower::MinlpForm& form, clock::time_point deadline)
      : quiet_{glp_term_out(GLP_OFF)}, m_(m), lp_(m), deadline_(deadline) {
    std::vector<char> encoded(std::size_t(m.n), 0);
    for (const auto& e : form.encodings) {
      handles_.push_back({form.value_column[e.var], e.first, &e.values});
      for (std::size_t i = 0; i < e.values.size(); ++i) encoded[std::size_t(e.first) + i] = 1;
      encoded[std::size_t(form.value_column[e.var])] = 1;  // moved with its binaries
    }
    for (int c : form.value_column)
      if (c >= 0 && m.integer[c] && !encoded[std::size_t(c)]) {
        encoded[std::size_t(c)] = 1;
        handles_.push_back({c, -1, nullptr});
      }
  }

  /// The best point the search reaches from `start`, or nothing if it met
  /// no feasible point.
  std::optional<NeighbourhoodResult> from(const std::vector<double>& start) {
    if (start.size() != std::size_t(m_.n) || m_.maximize) return std::nullopt;
    std::vector<double> base = start;
    for (int j = 0; j < m_.n; ++j)
      if (m_.integer[j]) base[std::size_t(j)] = std::round(base[std::size_t(j)]);
    auto at = lp_.evaluate(base);  // before base is moved from: argument order is unspecified
    return search(std::move(base), std::move(at));
  }

  /// Relaxation rounding with repair: the LP relaxation's point rounded
  /// down, to the nearest value and up (each discrete variable over its
  /// domain), the best feasible of the three (or the nearest) improved or
  /// repaired by the search.
  std::optional<NeighbourhoodResult> from_relaxation() {
    if (m_.maximize) return std::nullopt;
    const auto relaxed = lp_.relaxation();
    if (!relaxed) return std::nullopt;
    std::optional<std::pair<double, std::vector<double>>> best;
    std::vector<double> best_base, nearest;
    for (int way : {0, 1, 2}) {  // down, nearest, up
      std::vector<double> x = *relaxed;
      for (const auto& h : handles_) round_handle(x, h, way);
      for (int j = 0; j < m_.n; ++j)
        if (m_.integer[j]) x[std::size_t(j)] = std::round(x[std::size_t(j)]);
      if (way == 1) nearest = x;
      auto r = lp_.evaluate(x);
      if (r && (!best || r->first < best->first)) {
        best = std::move(r);
        best_base = x;
      }
    }
    if (!best) return search(std::move(nearest), std::nullopt);
    return search(std::move(best_base), std::move(best));
  }

  long evaluations() const { return lp_.evaluations; }

  IntegerNeighbourhood(const IntegerNeighbourhood&) = delete;
  IntegerNeighbourhood& operator=(const IntegerNeighbourhood&) = delete;
  ~IntegerNeighbourhood() { glp_term_out(quiet_.previous); }

 private:
  // Handle h of x rounded from its relaxed value: way 0 down, 1 nearest, 2 up.
  void round_handle(std::vector<double>& x, const detail::DiscreteHandle& h, int way) const {
    if (h.first < 0) {
      const double v = x[std::size_t(h.value_column)];
      x[std::size_t(h.value_column)] = way == 0 ? std::floor(v + tolerances::integrality) : way == 1 ? std::round(v) : std::ceil(v - tolerances::integrality);
      return;
    }
    const auto& values = *h.values;
    double v = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) v += values[i] * x[std::size_t(h.first) + i];
    std::size_t pick = way == 2 ? values.size() - 1 : 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (way == 0 && values[i] <= v + tolerances::integrality) pick = i;  // the largest at or below v
      if (way == 1 && std::abs(values[i] - v) < std::abs(values[pick] - v)) pick = i;
      if (way == 2 && values[i] >= v - tolerances::integrality) {  // the smallest at or above v
        pick = i;
        break;
      }
    }
    for (std::size_t i = 0; i < values.size(); ++i) x[std::size_t(h.first) + i] = i == pick ? 1.0 : 0.0;
    x[std::size_t(h.value_column)] = values[pick];
  }

  // The position of handle h in its domain (encoded) or its value (plain).
  static int position(const std::vector<double>& x, const detail::DiscreteHandle& h) {
    if (h.first < 0) return int(std::lround(x[std::size_t(h.value_column)]));
    for (std::size_t i = 0; i < h.values->size(); ++i)
      if (x[std::size_t(h.first) + i] > 0.5) return int(i);
    return -1;
  }

  // x with handle h moved by `step`; false when that leaves the domain.
  bool move(std::vector<double>& x, const detail::DiscreteHandle& h, int step) const {
    const int at = position(x, h);
    if (h.first < 0) {
      const double v = at + step;
      if (v < m_.lower[h.value_column] || v > m_.upper[h.value_column]) return false;
      x[std::size_t(h.value_column)] = v;
      return true;
    }
    const int to = at + step;
    if (at < 0 || to < 0 || to >= int(h.values->size())) return false;
    x[std::size_t(h.first + at)] = 0.0;
    x[std::size_t(h.first + to)] = 1.0;
    x[std::size_t(h.value_column)] = (*h.values)[std::size_t(to)];
    return true;
  }

  bool past_deadline() const { return clock::now() >= deadline_; }
  static constexpr int max_pair_handles = 300;

  // Best-improvement descent from `base` (evaluated as `at`, nothing if infeasible).
  std::optional<NeighbourhoodResult> search(std::vector<double> base,
                                            std::optional<std::pair<double, std::vector<double>>> at) {
    std::optional<NeighbourhoodResult> best;
    if (at) best = NeighbourhoodResult{std::move(at->second), at->first, 0, 0};
    const int H = int(handles_.size());
    while (!past_deadline()) {
      std::optional<std::pair<double, std::vector<double>>> chosen;
      std::vector<double> chosen_base;
      auto consider = [&](const std::vector<double>& candidate) {
        auto r = lp_.evaluate(candidate);
        if (r && (!chosen || r->first < chosen->first)) {
          chosen = std::move(r);
          chosen_base = candidate;
        }
      };
      for (int h = 0; h < H && !past_deadline(); ++h)
        for (int step : {-1, 1}) {
          auto candidate = base;
          if (move(candidate, handles_[std::size_t(h)], step)) consider(candidate);
        }
      const double tolerance = best ? tolerances::allowance(best->objective) : 0.0;
      const bool improves = chosen && (!best || chosen->first < best->objective - tolerance);
      if (!improves && best && H <= max_pair_handles) {
        // No single move improves: one variable up and another down (units
        // traded between two discrete variables under a shared resource).
        // H^2 LPs: with many discrete variables (study 004's 1,280 option
        // binaries: 1.6 million) the pairs would spend the whole budget
        // before GLPK starts, so they are tried on small models only.
        for (int up = 0; up < H && !past_deadline(); ++up)
          for (int down = 0; down < H && !past_deadline(); ++down) {
            if (up == down) continue;
            auto candidate = base;
            if (move(candidate, handles_[std::size_t(up)], 1) && move(candidate, handles_[std::size_t(down)], -1))
              consider(candidate);
          }
      }
      if (!chosen || (best && chosen->first >= best->objective - tolerance)) break;
      best = NeighbourhoodResult{std::move(chosen->second), chosen->first, 0, best ? best->moves + 1 : 1};
      base = std::move(chosen_base);
    }
    if (best) best->evaluations = lp_.evaluations;
    return best;
  }

  // GLPK's terminal output is off while the search runs (only the MILP
  // solver captures it); the previous setting comes back at the end.
  struct Quiet {
    int previous;
  } quiet_;
  const milp::MilpForm& m_;
  detail::FixedIntegerLp lp_;
  clock::time_point deadline_;
  std::vector<detail::DiscreteHandle> handles_;
};

}  // namespace ychart::solve::mixed_integer
