// ychart/solve/gp/ipopt_gp.hpp
// Solves a GpStandardForm with Ipopt. Linear rows (monomial constraints) have
// constant Jacobians and no Hessian; posynomial rows are sums of
// exponentials, whose Hessian sum_k e_k a_k a_k^T touches only the variables
// of each term, so derivatives stay sparse end to end. The sparsity maps are
// computed once per form.
#pragma once

#include "../../lower/gp_standard_form.hpp"
#include "gp_request.hpp"
#include "gp_result.hpp"

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <IpTNLP.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace ychart::solve::gp {

/// The sparsity structure of a form's Jacobian and Hessian, computed once.
struct GpDerivativeMaps {
  std::vector<Ipopt::Index> jac_row, jac_col;
  std::vector<int> a_to_jac;  // per nonzero of A, its Jacobian slot
  std::vector<Ipopt::Index> hess_row, hess_col;
  struct HessTerm {
    int term, constraint, slot;
    double coef;
  };
  std::vector<HessTerm> hess_terms;
  std::vector<int> term_constraint;  // row of A -> constraint
  std::vector<char> term_is_exp;

  explicit GpDerivativeMaps(const lower::GpStandardForm& f) {
    const auto& A = f.A;
    a_to_jac.resize(A.nonZeros());
    term_constraint.resize(A.rows());
    term_is_exp.resize(A.rows());
    std::vector<int> cols;
    std::vector<std::uint64_t> hess_keys;
    for (int i = 0; i < f.constraint_count(); ++i) {
      cols.clear();
      for (int r = f.first_term[i]; r < f.first_term[i + 1]; ++r) {
        term_constraint[r] = i;
        term_is_exp[r] = f.is_exp_term(i, r);
        for (auto it = lower::GpStandardForm::SparseRows::InnerIterator(A, r); it; ++it) cols.push_back(it.col());
      }
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
      const int base = static_cast<int>(jac_row.size());
      for (int c : cols) jac_row.push_back(i), jac_col.push_back(c);
      for (int r = f.first_term[i]; r < f.first_term[i + 1]; ++r) {
        const int begin = A.outerIndexPtr()[r], end = A.outerIndexPtr()[r + 1];
        for (int p = begin; p < end; ++p)
          a_to_jac[p] = base + int(std::lower_bound(cols.begin(), cols.end(), A.innerIndexPtr()[p]) - cols.begin());
        if (!f.is_exp_term(i, r)) continue;
        for (int p = begin; p < end; ++p)
          for (int q = begin; q <= p; ++q) {  // columns are sorted: col(p) >= col(q), lower triangle
            const auto key = (std::uint64_t(A.innerIndexPtr()[p]) << 32) | std::uint64_t(A.innerIndexPtr()[q]);
            hess_keys.push_back(key);
            hess_terms.push_back({r, i, 0, A.valuePtr()[p] * A.valuePtr()[q]});
          }
      }
    }
    std::vector<std::uint64_t> unique_keys = hess_keys;
    std::sort(unique_keys.begin(), unique_keys.end());
    unique_keys.erase(std::unique(unique_keys.begin(), unique_keys.end()), unique_keys.end());
    for (auto k : unique_keys) hess_row.push_back(Ipopt::Index(k >> 32)), hess_col.push_back(Ipopt::Index(k & 0xffffffffu));
    for (std::size_t t = 0; t < hess_terms.size(); ++t)
      hess_terms[t].slot =
          int(std::lower_bound(unique_keys.begin(), unique_keys.end(), hess_keys[t]) - unique_keys.begin());
  }
};

class GpTnlp : public Ipopt::TNLP {
 public:
  /// `box` bounds log variables that lack a bound of their own, so that an
  /// unbounded model stops at the box and can be recognised. With
  /// `box_all == false` only variables with no bound on either side get it:
  /// they need it (a free variable leaves a zero on the KKT diagonal, which
  /// makes MUMPS's factorisations slow), while a box on the open side of a
  /// one-sided variable only costs interior-point iterations.
  ///
  /// The request's bounds replace the form's (branch-and-bound nodes, fixed
  /// integers) and its start is the starting point (gp_request.hpp).
  GpTnlp(const lower::GpStandardForm& form, const GpDerivativeMaps& maps, const GpRequest& request, GpResult& out)
      : f_(form),
        maps_(maps),
        box_(request.box),
        box_all_(request.box_all),
        out_(out),
        lower_(request.lower.empty() ? std::span<const double>(form.lower) : request.lower),
        upper_(request.upper.empty() ? std::span<const double>(form.upper) : request.upper),
        start_(request.start),
        free_rows_(request.free_rows),
        z_(form.A.rows()),
        e_(form.A.rows()) {}

  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac, Ipopt::Index& nnz_h,
                    IndexStyleEnum& style) override {
    n = f_.n + guard_column();
    m = f_.constraint_count();
    nnz_jac = Ipopt::Index(maps_.jac_row.size());
    nnz_h = Ipopt::Index(maps_.hess_row.size());
    style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Ipopt::Index, Ipopt::Number* xl, Ipopt::Number* xu, Ipopt::Index m, Ipopt::Number* gl,
                       Ipopt::Number* gu) override {
    constexpr double none = 2e19;  // Ipopt's "no bound"
    if (guard_column()) xl[f_.n] = -1.0, xu[f_.n] = 1.0;
    for (int j = 0; j < f_.n; ++j) {
      const bool boxed = !f_.is_linear_column(j) &&
                         (box_all_ || (!std::isfinite(lower_[j]) && !std::isfinite(upper_[j])));
      xl[j] = std::isfinite(lower_[j]) ? lower_[j] : boxed ? -box_ : -none;
      xu[j] = std::isfinite(upper_[j]) ? upper_[j] : boxed ? box_ : none;
    }
    for (int i = 0; i < m; ++i) {
      gl[i] = f_.kind[i] == lower::RowKind::linear_eq ? 0.0 : -2e19;
      gu[i] = f_.kind[i] == lower::RowKind::expsum_le ? 1.0 : 0.0;
      if (!free_rows_.empty() && free_rows_[i]) gl[i] = -2e19, gu[i] = 2e19;  // constant here, and known to hold
    }
    return true;
  }

  bool get_starting_point(Ipopt::Index, bool, Ipopt::Number* x, bool, Ipopt::Number*, Ipopt::Number*,
                          Ipopt::Index, bool, Ipopt::Number*) override {
    // x = 1 in each variable's unit, or the geometric mean of its bounds
    // (log columns); 0 or the middle of the bounds (linear columns).
    if (guard_column()) x[f_.n] = 0.0;
    for (int j = 0; j < f_.n; ++j) {
      const double lo = std::isfinite(lower_[j]) ? lower_[j] : -box_;
      const double hi = std::isfinite(upper_[j]) ? upper_[j] : box_;
      double v = std::isfinite(lower_[j]) && std::isfinite(upper_[j]) ? 0.5 * (lo + hi) : 0.0;
      if (!start_.empty()) v = start_[j];
      x[j] = std::clamp(v, std::min(lo, hi), std::max(lo, hi));
    }
    return true;
  }

  bool eval_f(Ipopt::Index, const Ipopt::Number* x, bool, Ipopt::Number& obj) override {
    obj = f_.c0 + Eigen::Map<const Eigen::VectorXd>(x, f_.n).dot(f_.c);
    return true;
  }
  bool eval_grad_f(Ipopt::Index n, const Ipopt::Number*, bool, Ipopt::Number* grad) override {
    Eigen::Map<Eigen::VectorXd>(grad, f_.n) = f_.c;
    if (n > f_.n) grad[f_.n] = 0.0;
    return true;
  }

  bool eval_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index m, Ipopt::Number* g) override {
    if (!update(n, x, new_x)) return false;
    for (int i = 0; i < m; ++i) {
      const int r0 = f_.first_term[i], r1 = f_.first_term[i + 1];
      if (f_.kind[i] == lower::RowKind::linear_le || f_.kind[i] == lower::RowKind::linear_eq) {
        g[i] = z_[r0];
      } else {
        double s = 0.0;
        for (int r = r0; r < r1; ++r) s += maps_.term_is_exp[r] ? e_[r] : z_[r];
        g[i] = s;
      }
    }
    return true;
  }

  bool eval_jac_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index, Ipopt::Index nele,
                  Ipopt::Index* row, Ipopt::Index* col, Ipopt::Number* values) override {
    if (!values) {
      std::copy(maps_.jac_row.begin(), maps_.jac_row.end(), row);
      std::copy(maps_.jac_col.begin(), maps_.jac_col.end(), col);
      return true;
    }
    if (!update(n, x, new_x)) return false;
    std::fill(values, values + nele, 0.0);
    const auto& A = f_.A;
    for (int r = 0; r < A.rows(); ++r) {
      const double w = maps_.term_is_exp[r] ? e_[r] : 1.0;
      for (int p = A.outerIndexPtr()[r]; p < A.outerIndexPtr()[r + 1]; ++p) values[maps_.a_to_jac[p]] += w * A.valuePtr()[p];
    }
    return true;
  }

  bool eval_h(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Number, Ipopt::Index,
              const Ipopt::Number* lambda, bool, Ipopt::Index nele, Ipopt::Index* row, Ipopt::Index* col,
              Ipopt::Number* values) override {
    if (!values) {
      std::copy(maps_.hess_row.begin(), maps_.hess_row.end(), row);
      std::copy(maps_.hess_col.begin(), maps_.hess_col.end(), col);
      return true;
    }
    if (!update(n, x, new_x)) return false;
    std::fill(values, values + nele, 0.0);  // the objective is linear in log space
    for (const auto& h : maps_.hess_terms) values[h.slot] += lambda[h.constraint] * e_[h.term] * h.coef;
    return true;
  }

  void finalize_solution(Ipopt::SolverReturn, Ipopt::Index n, const Ipopt::Number* x, const Ipopt::Number* zl,
                         const Ipopt::Number* zu, Ipopt::Index m, const Ipopt::Number* g,
                         const Ipopt::Number* lambda, Ipopt::Number obj, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    n = f_.n;  // without the guard column
    out_.y.assign(x, x + n);
    out_.z_lower.assign(zl, zl + n);
    out_.z_upper.assign(zu, zu + n);
    out_.g.assign(g, g + m);
    out_.lambda.assign(lambda, lambda + m);
    out_.objective = obj;
  }

 private:
  // z = A y + b for every term; e = exp(z). Returns false on overflow so that
  // Ipopt shortens its step instead of continuing with infinities.
  bool update(Ipopt::Index, const Ipopt::Number* x, bool new_x) {
    if (!new_x && evaluated_) return ok_;
    evaluated_ = true;
    z_.noalias() = f_.A * Eigen::Map<const Eigen::VectorXd>(x, f_.n);
    z_ += f_.b;
    ok_ = true;
    for (Eigen::Index r = 0; r < z_.size(); ++r) {
      if (!maps_.term_is_exp[r]) continue;
      if (z_[r] > 700.0) ok_ = false;
      e_[r] = std::exp(z_[r]);
    }
    return ok_;
  }

  // Ipopt treats a problem with as many free columns as equality rows as
  // square: it stops at the first feasible point and ignores the objective,
  // which is wrong when equalities are dependent (measured: a branch-and-bound
  // node with two identical rows ended 3e-5 above its optimum). One extra
  // column in [-1, 1], in no row and not in the objective, keeps such a
  // problem an optimisation; it is dropped from the result.
  int guard_column() const {
    if (guard_ < 0) {
      int free_columns = 0, equalities = 0;
      for (int j = 0; j < f_.n; ++j) free_columns += !(lower_[j] == upper_[j]);
      for (int i = 0; i < f_.constraint_count(); ++i)
        equalities += f_.kind[i] == lower::RowKind::linear_eq && !(!free_rows_.empty() && free_rows_[i]);
      guard_ = equalities > 0 && free_columns == equalities;
    }
    return guard_;
  }

  const lower::GpStandardForm& f_;
  const GpDerivativeMaps& maps_;
  mutable int guard_ = -1;
  double box_;
  bool box_all_;
  GpResult& out_;
  std::span<const double> lower_, upper_, start_;
  std::span<const char> free_rows_;
  Eigen::VectorXd z_, e_;
  bool evaluated_ = false, ok_ = true;
};

namespace detail {

inline std::string ipopt_status_text(Ipopt::ApplicationReturnStatus s) {
  switch (s) {
    case Ipopt::Solve_Succeeded: return "solved";
    case Ipopt::Solved_To_Acceptable_Level: return "solved to acceptable level";
    case Ipopt::Infeasible_Problem_Detected: return "Ipopt detected infeasibility";
    case Ipopt::Search_Direction_Becomes_Too_Small: return "search direction became too small";
    case Ipopt::Diverging_Iterates: return "iterates diverged";
    case Ipopt::User_Requested_Stop: return "stopped";
    case Ipopt::Feasible_Point_Found: return "feasible point found";
    case Ipopt::Maximum_Iterations_Exceeded: return "iteration limit reached";
    case Ipopt::Restoration_Failed: return "Ipopt restoration phase failed";
    case Ipopt::Error_In_Step_Computation: return "error in step computation";
    case Ipopt::Maximum_CpuTime_Exceeded: return "time limit reached";
    case Ipopt::Not_Enough_Degrees_Of_Freedom: return "more independent equalities than variables";
    case Ipopt::Invalid_Problem_Definition: return "invalid problem definition";
    case Ipopt::Invalid_Option: return "invalid option";
    case Ipopt::Invalid_Number_Detected: return "invalid number (NaN or infinity) in evaluation";
    default: return "Ipopt internal error " + std::to_string(int(s));
  }
}

inline GpRunStatus run_status(Ipopt::ApplicationReturnStatus s) {
  switch (s) {
    case Ipopt::Solve_Succeeded: return GpRunStatus::solved;
    case Ipopt::Solved_To_Acceptable_Level: return GpRunStatus::solved_acceptable;
    case Ipopt::Diverging_Iterates: return GpRunStatus::diverging;
    case Ipopt::Infeasible_Problem_Detected: return GpRunStatus::suspected_infeasible;
    case Ipopt::Maximum_Iterations_Exceeded: return GpRunStatus::iteration_limit;
    case Ipopt::Maximum_CpuTime_Exceeded: return GpRunStatus::time_limit;
    default: return GpRunStatus::failed;
  }
}

/// One lock for every Ipopt solve in the process (see IpoptRunner::run).
inline std::mutex& ipopt_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace detail

/// An Ipopt application created once per model and reused between solves.
class IpoptRunner {
 public:
  IpoptRunner() {
    std::lock_guard<std::mutex> one_at_a_time(detail::ipopt_mutex());  // option registration is global too
    app_ = IpoptApplicationFactory();
    app_->Options()->SetStringValue("sb", "yes");  // no banner
    app_->Options()->SetIntegerValue("print_level", 0);
    app_->Initialize();
  }
  ~IpoptRunner() {
    std::lock_guard<std::mutex> one_at_a_time(detail::ipopt_mutex());  // releasing MUMPS's instance
    app_ = nullptr;
  }
  IpoptRunner(const IpoptRunner&) = delete;
  IpoptRunner& operator=(const IpoptRunner&) = delete;

  /// Runs Ipopt. Iterates that pass the box (possible for one-sided variables
  /// when `box_all` is false) stop the run with Diverging_Iterates.
  GpResult run(const lower::GpStandardForm& form, const GpDerivativeMaps& maps, const SolveOptions& o,
               const GpRequest& request) {
    const std::span<const double> lo = request.lower.empty() ? std::span<const double>(form.lower) : request.lower;
    const std::span<const double> hi = request.upper.empty() ? std::span<const double>(form.upper) : request.upper;
    double largest_bound = request.box;
    for (int j = 0; j < form.n; ++j) {
      if (form.is_linear_column(j)) continue;  // linear columns are not in the divergence test
      if (std::isfinite(lo[j])) largest_bound = std::max(largest_bound, std::abs(lo[j]));
      if (std::isfinite(hi[j])) largest_bound = std::max(largest_bound, std::abs(hi[j]));
    }
    if (!form.linear_column.empty()) largest_bound = 1e19;  // reals may be large; the box decides instead
    auto opt = app_->Options();
    opt->SetNumericValue("diverging_iterates_tol", 1.01 * largest_bound);
    opt->SetIntegerValue("print_level", std::clamp(o.verbosity, 0, 12));
    opt->SetNumericValue("tol", o.tolerance);
    // The log objective's error is bounded by the sum of the complementarity
    // products over all bounds; with thousands of bounds Ipopt's default
    // per-pair threshold (1e-4) let study 001's relaxation at K = 10000 stop
    // 1.5e-6 from the optimum. 0.1 * tol gives 6e-8 for one more iteration.
    opt->SetNumericValue("compl_inf_tol", 0.1 * o.tolerance);
    opt->SetIntegerValue("max_iter", o.max_iterations);
    opt->SetNumericValue("max_cpu_time", o.time_limit);
    opt->SetStringValue("mu_strategy", "adaptive");
    // Mixed-integer forms have rows in linear space (scaled to unit
    // coefficients); Ipopt's default 1e-4 absolute violation is too loose there.
    opt->SetNumericValue("constr_viol_tol", form.linear_column.empty() ? 1e-4 : std::max(1e-8, o.tolerance));
    GpResult result;
    result.solver = "ipopt";
    Ipopt::SmartPtr<Ipopt::TNLP> nlp = new GpTnlp(form, maps, request, result);
    {
      // MUMPS, Ipopt's linear solver in Debian's build, keeps global state
      // and is not thread-safe (coin-or/Ipopt#733); parallel sweeps
      // serialise their Ipopt solves here and run everything else at once.
      std::lock_guard<std::mutex> one_at_a_time(detail::ipopt_mutex());
      const auto status = app_->OptimizeTNLP(nlp);
      result.status = detail::run_status(status);
      if (status != Ipopt::Solve_Succeeded) result.message = detail::ipopt_status_text(status);
    }
    if (auto stats = app_->Statistics(); Ipopt::IsValid(stats)) result.iterations = stats->IterationCount();
    return result;
  }

 private:
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app_;
};

}  // namespace ychart::solve::gp
