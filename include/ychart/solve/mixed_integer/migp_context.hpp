// ychart/solve/mixed_integer/migp_context.hpp
// What the mixed-integer methods share: the lowered form, Ipopt on it with
// any column bounds (relaxations, fixed integers), the verdict on a failed
// Ipopt run (the feasibility relaxation decides whether it is infeasible),
// the GLPK master built from its linear rows, tangent cuts of its convex
// rows, the incumbent, the gap test, limits, and the progress line.
#pragma once

#include "../../model/tolerances.hpp"
#include "../../lower/minlp_form.hpp"
#include "../milp/solve_milp.hpp"
#include "../gp/gp_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ychart::solve::mixed_integer {

/// A linear inequality a.v <= rhs over the form's columns (a tangent cut of
/// convex row `row`, or -1 for other cuts).
struct Cut {
  std::vector<std::pair<int, double>> a;
  double rhs = 0.0;
  int row = -1;
};

}  // namespace ychart::solve::mixed_integer

namespace ychart::solve::mixed_integer::detail {

/// Tangent cuts keyed by the exact content of the convex row they cut, with
/// columns named by what they stand for: valid in any model that has the
/// same row, whatever else changed (a resource cap, another constraint).
struct CutPool {
  struct PortableCut {
    std::vector<std::pair<lower::ColumnKey, double>> a;
    double rhs;
  };
  std::map<std::string, std::vector<PortableCut>> by_row;
};

}  // namespace ychart::solve::mixed_integer::detail

namespace ychart::solve::mixed_integer {

struct NlpOutcome {
  enum Kind { optimal, infeasible, failed } kind = failed;
  std::vector<double> x;  // optimal: the solution; infeasible: the least-violation point
  double phi = std::numeric_limits<double>::infinity();
  int iterations = 0;
  std::string message;
};

class MigpContext {
 public:
  using clock = std::chrono::steady_clock;
  static constexpr double integrality_tolerance = 1e-6;

  MigpContext(const lower::MinlpForm& form, gp::LazyIpopt& ipopt, const SolveOptions& options)
      : form_(form),
        ipopt_(ipopt),
        nlp_(form.nlp, ipopt),
        options_(options),
        box_(options.bound_exponent * std::log(10.0)),
        start_(clock::now()) {
    for (auto k : form.nlp.kind)
      if (k == lower::RowKind::expsum_le || k == lower::RowKind::mixed_le) linear_ = false;
    nlp_options_ = options;
    nlp_options_.verbosity = options.verbosity >= 5 ? options.verbosity - 4 : 0;
  }

  const lower::MinlpForm& form() const { return form_; }
  const SolveOptions& options() const { return options_; }
  double elapsed() const { return std::chrono::duration<double>(clock::now() - start_).count(); }
  double remaining() const { return options_.time_limit - elapsed(); }
  bool out_of_time() const { return remaining() <= 0.0; }
  int ipopt_iterations() const { return ipopt_iterations_; }
  /// Subproblems and feasibility relaxations the native GP method failed
  /// and Ipopt was given.
  int gp_fallbacks() const { return nlp_.fallbacks() + relaxation_fallbacks_; }

  // ---- incumbent and gap ----
  bool has_incumbent() const { return !incumbent_.empty(); }
  const std::vector<double>& incumbent() const { return incumbent_; }
  double incumbent_phi() const { return incumbent_phi_; }
  /// Offers a point that satisfies every constraint with integral integer
  /// columns; keeps it if it improves the incumbent.
  bool offer(const std::vector<double>& x, double phi) {
    if (phi >= incumbent_phi_) return false;
    incumbent_ = x;
    incumbent_phi_ = phi;
    return true;
  }
  /// The gap between the incumbent and a bound, in the user's objective.
  double relative_gap(double bound_phi) const {
    if (!has_incumbent()) return std::numeric_limits<double>::infinity();
    const double u = form_.user_objective(incumbent_phi_), l = form_.user_objective(bound_phi);
    return std::abs(u - l) / std::max(std::abs(u), tolerances::tiny);
  }
  bool gap_closed(double bound_phi) const {
    if (!has_incumbent()) return false;
    if (bound_phi >= incumbent_phi_) return true;
    const double u = form_.user_objective(incumbent_phi_), l = form_.user_objective(bound_phi);
    return std::abs(u - l) <= options_.absolute_gap || std::abs(u - l) <= options_.relative_gap * std::abs(u);
  }
  /// phi values at or above this cannot improve the incumbent enough to matter.
  double cutoff() const {
    if (!has_incumbent()) return std::numeric_limits<double>::infinity();
    // Largest phi whose user objective is within the gap tolerances of the incumbent.
    const double u = form_.user_objective(incumbent_phi_);
    const double slack = std::max(options_.absolute_gap, options_.relative_gap * std::abs(u));
    const double target = u - form_.sign * slack;  // a better user objective by `slack`
    if (form_.log_objective) {
      const double v = form_.sign * target;
      return v > 0 ? std::log(v) : -std::numeric_limits<double>::infinity();
    }
    return form_.sign * target;
  }

  // ---- NLP with given column bounds ----
  NlpOutcome solve_nlp(const std::vector<double>& given_lower, const std::vector<double>& given_upper,
                       const std::vector<double>* start = nullptr) {
    if (linear_) return solve_lp(given_lower, given_upper);
    NlpOutcome out;
    for (int j = 0; j < form_.nlp.n; ++j)
      if (given_lower[j] > given_upper[j]) {  // an empty box (Ipopt would throw)
        out.kind = NlpOutcome::infeasible;
        out.x = given_lower;
        return out;
      }
    // An equality row left with one free column fixes that column: its
    // bounds become the value, and the row a constant (checked below).
    // Two such rows on one column (a one-value encoding: z = 1 and n = z
    // with n fixed) are otherwise a rank-deficient Jacobian on which both
    // interior-point solvers fail.
    std::vector<double> lower = given_lower, upper = given_upper;
    if (!fix_singleton_rows(lower, upper) || !one_column_rows_leave_a_box(lower, upper)) {
      out.kind = NlpOutcome::infeasible;
      out.x = given_lower;
      return out;
    }
    // Rows over fixed columns only are constants: checked here and left out,
    // since Ipopt cannot handle an equality whose Jacobian row is zero. A
    // stored zero coefficient (log 1 in an encoding row) does not make a row
    // depend on its column.
    std::vector<char> free_rows(form_.nlp.constraint_count(), 0);
    {
      const auto& f = form_.nlp;
      std::vector<char> fixed(f.n);
      for (int j = 0; j < f.n; ++j) fixed[j] = lower[j] == upper[j];
      for (int i = 0; i < f.constraint_count(); ++i) {
        bool constant = true;
        double value = 0.0;
        for (int r = f.first_term[i]; r < f.first_term[i + 1] && constant; ++r) {
          double z = f.b[r];
          for (lower::GpStandardForm::SparseRows::InnerIterator it(f.A, r); it; ++it) {
            if (!fixed[it.col()] && it.value() != 0.0) constant = false;
            z += it.value() * lower[it.col()];
          }
          value += f.is_exp_term(i, r) ? std::exp(z) : z;
        }
        if (!constant) continue;
        const double limit = f.kind[i] == lower::RowKind::expsum_le ? 1.0 : 0.0;
        const double tol = tolerances::allowance(value);
        const bool holds = f.kind[i] == lower::RowKind::linear_eq ? std::abs(value) <= tol : value <= limit + tol;
        if (!holds) {
          out.kind = NlpOutcome::infeasible;
          out.x = lower;
          return out;
        }
        free_rows[i] = 1;
      }
    }
    auto o = nlp_options_;
    o.time_limit = std::max(1e-3, remaining());
    const gp::GpRequest request{.box = box_,
                                .box_all = true,
                                .lower = lower,
                                .upper = upper,
                                .start = start ? std::span<const double>(*start) : std::span<const double>{},
                                .free_rows = free_rows};
    auto r = nlp_.run(o, request);
    ipopt_iterations_ += r.iterations;
    out.iterations = r.iterations;
    if (r.success()) {
      out.kind = NlpOutcome::optimal;
      out.x = std::move(r.y);
      out.phi = r.objective;
      return out;
    }
    // The feasibility relaxation (constraints get slacks, bounds stay hard)
    // decides whether the subproblem is infeasible.
    if (r.status == gp::GpRunStatus::time_limit) {
      out.message = "time limit";
      return out;
    }
    std::vector<char> hard(form_.nlp.n, 1);
    const auto relaxed = lower::relax(form_.nlp, hard, &lower, &upper);
    gp::GpBackend relaxed_nlp(relaxed, ipopt_, /*feasible_by_construction=*/true);
    auto rr = relaxed_nlp.run(o, {.box = box_, .box_all = true});
    ipopt_iterations_ += rr.iterations;
    relaxation_fallbacks_ += relaxed_nlp.fallbacks();
    // Ipopt on the subproblem, when the native solver ran it: true if it
    // solved it (out then holds the optimum).
    bool ipopt_says_infeasible = gp::ipopt_found_infeasible(r);
    auto ipopt_solves_it = [&] {
      if (!nlp_.may_fall_back(r, o)) return false;
      auto again = nlp_.fall_back(r, o, request);
      ipopt_iterations_ += again.iterations;
      ipopt_says_infeasible = gp::ipopt_found_infeasible(again);
      if (!again.success()) return false;
      out.kind = NlpOutcome::optimal;
      out.x = std::move(again.y);
      out.phi = again.objective;
      return true;
    };
    if (!rr.success()) {
      // The native solver may have stalled on both (an iteration limit on a
      // degenerate face); Ipopt gets the subproblem before giving up.
      if (ipopt_solves_it()) return out;
      out.message = "the GP solver failed on the subproblem and on its feasibility relaxation";
      return out;
    }
    const double total = gp::total_slack(rr, form_.nlp.n);
    if (total <= tolerances::slack) {
      // The native solver only suspected infeasibility.
      if (ipopt_solves_it()) return out;
      out.message = "the GP solver failed on a feasible subproblem";
      return out;
    }
    // A slack within what the solver's tolerance leaves does not decide
    // alone: Ipopt must find the subproblem infeasible too.
    if (!gp::proves_infeasible(rr, form_.nlp.n)) {
      if (ipopt_solves_it()) return out;
      if (!ipopt_says_infeasible) {
        out.message = gp::undecided_relaxation(total, "subproblem");
        return out;
      }
    }
    out.kind = NlpOutcome::infeasible;
    out.x.assign(rr.y.begin(), rr.y.begin() + form_.nlp.n);
    return out;
  }

  /// Row i as `coefficient * y_column + rest`, when only one of its
  /// columns is free under the bounds (the fixed ones are in `rest`).
  struct OneFreeColumn {
    int column = -1;
    double coefficient = 0.0, rest = 0.0;
  };
  std::optional<OneFreeColumn> one_free_column(int i, const std::vector<double>& lower,
                                               const std::vector<double>& upper) const {
    const auto& f = form_.nlp;
    OneFreeColumn row;
    for (int r = f.first_term[i]; r < f.first_term[i + 1]; ++r) {
      row.rest += f.b[r];
      for (lower::GpStandardForm::SparseRows::InnerIterator it(f.A, r); it; ++it) {
        if (it.value() == 0.0) continue;
        if (lower[it.col()] == upper[it.col()]) row.rest += it.value() * lower[it.col()];
        else if (row.column < 0 || row.column == it.col()) row.column = it.col(), row.coefficient += it.value();
        else return std::nullopt;
      }
    }
    if (row.column < 0 || row.coefficient == 0.0) return std::nullopt;
    return row;
  }

  /// Fixes every column that an equality row leaves alone among free
  /// columns, until none is left; false when a fixed value leaves a bound.
  bool fix_singleton_rows(std::vector<double>& lower, std::vector<double>& upper) const {
    const auto& f = form_.nlp;
    for (bool changed = true; changed;) {
      changed = false;
      for (int i = 0; i < f.constraint_count(); ++i) {
        if (f.kind[i] != lower::RowKind::linear_eq) continue;
        const auto row = one_free_column(i, lower, upper);
        if (!row) continue;
        const int j = row->column;
        const double value = -row->rest / row->coefficient;
        const double tol = tolerances::allowance(value);
        if (value < lower[j] - tol || value > upper[j] + tol) return false;
        lower[j] = upper[j] = std::clamp(value, lower[j], upper[j]);
        changed = true;
      }
    }
    return true;
  }

  /// Whether the inequality rows with one free column (t >= 2.5 and
  /// t <= 1.8 in a node's subproblem) leave each such column a non-empty
  /// interval. An empty one is infeasibility proven by arithmetic; the
  /// interior-point solvers stall on it (and the native one on its
  /// feasibility relaxation too, where the two rows' slacks are degenerate).
  bool one_column_rows_leave_a_box(const std::vector<double>& lower, const std::vector<double>& upper) const {
    const auto& f = form_.nlp;
    std::vector<double> lo = lower, hi = upper;
    for (int i = 0; i < f.constraint_count(); ++i) {
      if (f.kind[i] != lower::RowKind::linear_le) continue;
      const auto row = one_free_column(i, lower, upper);
      if (!row) continue;
      const int j = row->column;
      const double limit = -row->rest / row->coefficient;  // coefficient * y + rest <= 0
      if (row->coefficient > 0) hi[j] = std::min(hi[j], limit);
      else lo[j] = std::max(lo[j], limit);
      if (lo[j] > hi[j] + tolerances::allowance(hi[j])) return false;
    }
    return true;
  }

  /// A form without convex rows: the relaxation is an LP, solved exactly by
  /// GLPK's simplex (a vertex, not an interior point 1e-5 from it).
  NlpOutcome solve_lp(const std::vector<double>& lower, const std::vector<double>& upper) {
    NlpOutcome out;
    auto m = master({}, &lower, &upper);
    std::fill(m.integer.begin(), m.integer.end(), 0);
    milp::MilpOptions mo;
    mo.solver = MilpSolver::glpk;  // an LP: GLPK's simplex at any size
    mo.time_limit = std::max(1e-3, remaining());
    auto r = milp::solve_milp(m, mo);
    if (r.status == Status::optimal) {
      out.kind = NlpOutcome::optimal;
      out.x = std::move(r.x);
      out.phi = r.objective;
    } else if (r.status == Status::infeasible) {
      out.kind = NlpOutcome::infeasible;
      out.x = lower;
    } else {
      out.message = "LP relaxation: " + r.message;
    }
    return out;
  }

  /// Bounds with every integer column fixed to the (rounded) value in x.
  std::pair<std::vector<double>, std::vector<double>> fixed_bounds(const std::vector<double>& x) const {
    auto lo = form_.nlp.lower, hi = form_.nlp.upper;
    for (int j = 0; j < form_.nlp.n; ++j)
      if (form_.integer[j]) lo[j] = hi[j] = std::round(x[j]);
    // Encoded variables: their value and log columns follow from z.
    for (const auto& e : form_.encodings) {
      double v = 0.0;
      for (std::size_t i = 0; i < e.values.size(); ++i)
        if (lo[e.first + int(i)] > 0.5) v = e.values[i];
      const int vc = form_.value_column[e.var];
      lo[vc] = hi[vc] = v;
      if (const int lc = form_.log_column[e.var]; lc >= 0) lo[lc] = hi[lc] = std::log(v);
    }
    return {std::move(lo), std::move(hi)};
  }

  /// Solves the NLP with the integers of x fixed; offers the result.
  NlpOutcome solve_fixed(const std::vector<double>& x) {
    auto [lo, hi] = fixed_bounds(x);
    auto out = solve_nlp(lo, hi, &x);
    if (out.kind == NlpOutcome::optimal) {
      for (int j = 0; j < form_.nlp.n; ++j)
        if (lo[j] == hi[j]) out.x[j] = lo[j];  // exact integers, not Ipopt's 1e-9 perturbations
      offer(out.x, out.phi);
    }
    return out;
  }

  bool integral(const std::vector<double>& x) const {
    for (int j = 0; j < form_.nlp.n; ++j)
      if (form_.integer[j] && std::abs(x[j] - std::round(x[j])) > integrality_tolerance) return false;
    return true;
  }

  // ---- cuts carried between models ----
  /// The content of convex row i, columns by key: equal strings, equal rows.
  std::string row_signature(int i) const {
    const auto& f = form_.nlp;
    std::string key = std::to_string(int(f.kind[i]));
    char buf[64];
    for (int r = f.first_term[i]; r < f.first_term[i + 1]; ++r) {
      std::snprintf(buf, sizeof buf, "|%a:", f.b[r]);
      key += buf;
      for (lower::GpStandardForm::SparseRows::InnerIterator it(f.A, r); it; ++it) {
        const auto& c = form_.column_key[it.col()];
        std::snprintf(buf, sizeof buf, "%d.%u.%u=%a,", int(c.kind), c.var, c.index, it.value());
        key += buf;
      }
    }
    return key;
  }
  std::shared_ptr<const detail::CutPool> export_cuts(const std::vector<Cut>& cuts,
                                                     const detail::CutPool* inherited) const {
    auto pool = std::make_shared<detail::CutPool>();
    if (inherited) *pool = *inherited;
    constexpr std::size_t most_per_row = 64;  // keep the pool from growing without end in long sweeps
    std::map<int, std::string> signature;
    for (const auto& c : cuts) {
      if (c.row < 0) continue;
      auto [it, fresh] = signature.try_emplace(c.row);
      if (fresh) it->second = row_signature(c.row);
      auto& list = pool->by_row[it->second];
      if (list.size() >= most_per_row) list.erase(list.begin());
      detail::CutPool::PortableCut p{{}, c.rhs};
      for (const auto& [j, v] : c.a) p.a.emplace_back(form_.column_key[j], v);
      list.push_back(std::move(p));
    }
    return pool;
  }
  /// The pool's cuts whose rows exist here, in this form's columns.
  std::vector<Cut> import_cuts(const detail::CutPool& pool) const {
    std::vector<Cut> out;
    std::map<lower::ColumnKey, int> column;
    for (int j = 0; j < form_.nlp.n; ++j) column.emplace(form_.column_key[j], j);
    const auto& f = form_.nlp;
    for (int i = 0; i < f.constraint_count(); ++i) {
      if (f.kind[i] != lower::RowKind::expsum_le && f.kind[i] != lower::RowKind::mixed_le) continue;
      const auto it = pool.by_row.find(row_signature(i));
      if (it == pool.by_row.end()) continue;
      for (const auto& p : it->second) {
        Cut c{{}, p.rhs, i};
        bool ok = true;
        for (const auto& [key, v] : p.a) {
          const auto col = column.find(key);
          if (col == column.end()) {
            ok = false;
            break;
          }
          c.a.emplace_back(col->second, v);
        }
        if (ok) out.push_back(std::move(c));
      }
    }
    return out;
  }

  // ---- cuts ----
  /// Tangent cuts of every convex (non-linear) row at x. Posynomial rows are
  /// cut in log-sum-exp form, the tighter of the two convex forms.
  void add_cuts(const std::vector<double>& x, std::vector<Cut>& cuts) const {
    const auto& f = form_.nlp;
    for (int i = 0; i < f.constraint_count(); ++i) {
      if (f.kind[i] != lower::RowKind::expsum_le && f.kind[i] != lower::RowKind::mixed_le) continue;
      const int r0 = f.first_term[i], r1 = f.first_term[i + 1];
      std::vector<double> z(r1 - r0);
      double zmax = -std::numeric_limits<double>::infinity();
      for (int r = r0; r < r1; ++r) {
        double v = f.b[r];
        for (lower::GpStandardForm::SparseRows::InnerIterator it(f.A, r); it; ++it) v += it.value() * x[it.col()];
        z[r - r0] = v;
        if (f.is_exp_term(i, r)) zmax = std::max(zmax, v);
      }
      std::vector<double> grad(f.n, 0.0);
      std::vector<int> touched;
      auto accumulate = [&](int r, double w) {
        for (lower::GpStandardForm::SparseRows::InnerIterator it(f.A, r); it; ++it) {
          if (grad[it.col()] == 0.0) touched.push_back(it.col());
          grad[it.col()] += w * it.value();
        }
      };
      double value = 0.0;  // g(x)
      if (f.kind[i] == lower::RowKind::expsum_le) {
        double s = 0.0;
        for (int r = r0; r < r1; ++r) s += std::exp(z[r - r0] - zmax);
        value = zmax + std::log(s);
        for (int r = r0; r < r1; ++r) accumulate(r, std::exp(z[r - r0] - zmax) / s);
      } else {
        for (int r = r0; r < r1; ++r) {
          const bool e = f.is_exp_term(i, r);
          const double w = e ? std::exp(std::min(z[r - r0], 700.0)) : 1.0;
          value += e ? w : z[r - r0];
          accumulate(r, w);
        }
      }
      // g(x) + grad.(v - x) <= 0  ->  grad.v <= grad.x - g(x)
      Cut c;
      double gx = 0.0;
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      for (int j : touched) {
        if (grad[j] == 0.0) continue;
        c.a.emplace_back(j, grad[j]);
        gx += grad[j] * x[j];
      }
      c.rhs = gx - value;
      c.row = i;
      if (std::isfinite(c.rhs)) cuts.push_back(std::move(c));
    }
  }

  // ---- the GLPK master ----
  /// The MILP over the linear rows, the integrality of the form, the given
  /// cuts, and optionally replaced column bounds. Log columns with an open
  /// side are boxed, so the master is bounded wherever the GP is.
  milp::MilpForm master(const std::vector<Cut>& cuts, const std::vector<double>* lower = nullptr,
                  const std::vector<double>* upper = nullptr) const {
    const auto& f = form_.nlp;
    milp::MilpForm m;
    m.n = f.n;
    m.lower = lower ? *lower : f.lower;
    m.upper = upper ? *upper : f.upper;
    for (int j = 0; j < f.n; ++j) {
      if (f.is_linear_column(j)) continue;
      if (!std::isfinite(m.lower[j])) m.lower[j] = -box_;
      if (!std::isfinite(m.upper[j])) m.upper[j] = box_;
    }
    m.integer = form_.integer;
    m.c.assign(f.c.data(), f.c.data() + f.n);
    m.c0 = f.c0;
    std::vector<Eigen::Triplet<double, int>> trip;
    int row = 0;
    constexpr double inf = std::numeric_limits<double>::infinity();
    for (int i = 0; i < f.constraint_count(); ++i) {
      if (f.kind[i] != lower::RowKind::linear_le && f.kind[i] != lower::RowKind::linear_eq) continue;
      const int r = f.first_term[i];
      for (lower::GpStandardForm::SparseRows::InnerIterator it(f.A, r); it; ++it)
        trip.emplace_back(row, it.col(), it.value());
      m.row_upper.push_back(-f.b[r]);
      m.row_lower.push_back(f.kind[i] == lower::RowKind::linear_eq ? -f.b[r] : -inf);
      ++row;
    }
    for (const auto& c : cuts) {
      for (const auto& [j, v] : c.a) trip.emplace_back(row, j, v);
      m.row_upper.push_back(c.rhs);
      m.row_lower.push_back(-inf);
      ++row;
    }
    m.A.resize(row, f.n);
    m.A.setFromTriplets(trip.begin(), trip.end());
    m.A.makeCompressed();
    return m;
  }

  double box() const { return box_; }

  // ---- progress ----
  /// A log line about once a second (verbosity >= 1), or a live status line
  /// on a terminal once the solve passes 1 s; `final` ends it.
  void progress(const char* method, double bound_phi, long count, const char* counted, bool final = false) {
    if (!status_line_.active()) return;
    status_line_.update(
        elapsed(),
        [&] {
          const double inc = has_incumbent() ? form_.user_objective(incumbent_phi_) : std::nan("");
          const double bnd = std::isfinite(bound_phi) ? form_.user_objective(bound_phi) : std::nan("");
          char line[256];
          std::snprintf(line, sizeof line, "ychart %s: %8.2f s  incumbent %-12.6g  bound %-12.6g  gap %8.4f %%  %ld %s",
                        method, elapsed(), inc, bnd, 100.0 * relative_gap(bound_phi), count, counted);
          return std::string(line);
        },
        final);
  }

 private:
  const lower::MinlpForm& form_;
  gp::LazyIpopt& ipopt_;
  gp::GpBackend nlp_;
  SolveOptions options_, nlp_options_;
  double box_;
  clock::time_point start_;
  std::vector<double> incumbent_;
  double incumbent_phi_ = std::numeric_limits<double>::infinity();
  int ipopt_iterations_ = 0;
  int relaxation_fallbacks_ = 0;
  ychart::detail::StatusLine status_line_{options_.verbosity >= 1, options_.progress};
  bool linear_ = true;  // no convex rows: relaxations are LPs
};

}  // namespace ychart::solve::mixed_integer
