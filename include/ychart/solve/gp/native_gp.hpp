// ychart/solve/gp/native_gp.hpp
// ychart's own GP solver: a primal-dual interior-point method (Mehrotra
// predictor-corrector) for the log-space standard form, on Eigen.
//
//   minimise c.y + c0  s.t.  lse(A_i y + b_i) <= 0   (posynomial rows, log-sum-exp)
//                            a_i.y + b_i <= 0, == 0  (monomial rows)
//                            sum_k exp(a_k.y + b_k) + d.y + e <= 0  (mixed rows)
//                            lower <= y <= upper
//
// Why our own: Ipopt + MUMPS spend over 95 % of a small GP in fixed costs
// (option handling, MUMPS's set-up, timers); branch and bound and sweeps
// solve thousands of small GPs. Posynomial rows are taken in log-sum-exp form
// (bounded gradients, no overflow, the form GP interior-point methods use);
// the rank-one part of its Hessian, -lambda q q^T with q = A^T p, is lifted
// into one extra variable t = q.dy per row, so that the Newton system stays
// as sparse as A. Each iteration factorises the quasi-definite augmented
// system
//
//   [ H + Sigma + dI    J^T         E^T ] [dy]
//   [ J                -S/Lambda     0  ] [dl]
//   [ E                  0         -dI  ] [dv]
//
// with LDL^T: dense (Eigen::LDLT) for small problems, sparse
// (Eigen::SimplicialLDLT, AMD ordering, pattern analysed once per form) for
// large ones; a quasi-definite matrix has an LDL^T factorisation in any
// symmetric order, so no pivoting is needed. Two steps of iterative
// refinement against the unregularised matrix remove the regularisation.
//
// The result uses the same conventions as the Ipopt back end (gp_result.hpp):
// Model::solve and the mixed-integer searches take either. Like Ipopt, the
// method does not decide infeasibility: a run that fails is followed by the
// feasibility relaxation, which is always feasible.
#pragma once

#include "../../lower/gp_standard_form.hpp"
#include "../../model/status.hpp"
#include "../../model/tolerances.hpp"
#include "gp_request.hpp"
#include "gp_result.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace ychart::solve::gp {

namespace detail {

/// The parts of the interior-point method that depend only on the form: row
/// classes, the KKT matrix's pattern and where every derivative goes in it.
class NativeGpStructure {
 public:
  enum class Row : char { linear_le, linear_eq, lse, mixed };

  explicit NativeGpStructure(const lower::GpStandardForm& f) : f_(f) {
    const int m = f.constraint_count();
    n_ = f.n;
    row_.resize(m);
    block_index_.resize(m);
    lift_index_.assign(m, -1);
    int lse = 0, ineq = 0, eq = 0;
    for (int i = 0; i < m; ++i) {
      switch (f.kind[i]) {
        case lower::RowKind::linear_le: row_[i] = Row::linear_le; break;
        case lower::RowKind::linear_eq: row_[i] = Row::linear_eq; break;
        case lower::RowKind::expsum_le: row_[i] = Row::lse; break;
        case lower::RowKind::mixed_le: row_[i] = Row::mixed; break;
      }
      if (row_[i] == Row::lse) lift_index_[i] = lse++;
      block_index_[i] = row_[i] == Row::linear_eq ? eq++ : ineq++;
    }
    n_lift_ = lse, m_ineq_ = ineq, m_eq_ = eq;
    term_row_.resize(f.A.rows());
    for (int i = 0; i < m; ++i)
      for (int r = f.first_term[i]; r < f.first_term[i + 1]; ++r) term_row_[r] = i;
    dim_ = n_ + n_lift_ + m_ineq_ + m_eq_;
    build_pattern();
  }

  const lower::GpStandardForm& form() const { return f_; }
  int n() const { return n_; }
  int dim() const { return dim_; }
  Row row(int i) const { return row_[i]; }
  /// Position in the KKT matrix of row i's multiplier, and of row i's lifted variable.
  int multiplier_position(int i) const {
    return row_[i] == Row::linear_eq ? n_ + n_lift_ + m_ineq_ + block_index_[i] : n_ + n_lift_ + block_index_[i];
  }
  int lift_position(int i) const { return n_ + lift_index_[i]; }
  int term_row(int r) const { return term_row_[r]; }
  bool is_exp_term(int i, int r) const {
    return row_[i] == Row::lse || (row_[i] == Row::mixed && r + 1 < f_.first_term[i + 1]);
  }

  // The KKT matrix's lower triangle, one slot per entry.
  int slot_count() const { return int(slot_row_.size()); }
  const std::vector<int>& slot_row() const { return slot_row_; }
  const std::vector<int>& slot_col() const { return slot_col_; }
  int diagonal_slot(int k) const { return diag_slot_[k]; }
  /// Per nonzero of A: its slot in the Jacobian row of its constraint, and
  /// (lse rows) in the lifted variable's coupling row.
  const std::vector<int>& jac_slot() const { return jac_slot_; }
  const std::vector<int>& lift_slot() const { return lift_slot_; }
  struct HessianEntry {
    int term, slot;
    double coef;  // a_p a_q
  };
  const std::vector<HessianEntry>& hessian() const { return hessian_; }
  /// The matrix with the pattern (values zero), column-major lower triangle,
  /// and where each slot sits in its value array.
  const Eigen::SparseMatrix<double>& pattern() const { return pattern_; }
  const std::vector<int>& slot_to_value() const { return slot_to_value_; }

 private:
  void build_pattern() {
    const auto& A = f_.A;
    std::vector<std::uint64_t> keys;
    auto key = [](int r, int c) { return (std::uint64_t(std::max(r, c)) << 32) | std::uint64_t(std::min(r, c)); };
    for (int k = 0; k < dim_; ++k) keys.push_back(key(k, k));
    const int m = f_.constraint_count();
    std::vector<std::uint64_t> jac_keys(A.nonZeros()), lift_keys(A.nonZeros(), 0);
    std::vector<std::uint64_t> hess_keys;
    for (int i = 0; i < m; ++i) {
      const int mult = multiplier_position(i);
      for (int r = f_.first_term[i]; r < f_.first_term[i + 1]; ++r) {
        const int begin = A.outerIndexPtr()[r], end = A.outerIndexPtr()[r + 1];
        for (int p = begin; p < end; ++p) {
          const int col = A.innerIndexPtr()[p];
          jac_keys[p] = key(mult, col);
          if (row_[i] == Row::lse) lift_keys[p] = key(lift_position(i), col);
        }
        if (!is_exp_term(i, r)) continue;
        for (int p = begin; p < end; ++p)
          for (int q = begin; q <= p; ++q) {
            hess_keys.push_back(key(A.innerIndexPtr()[p], A.innerIndexPtr()[q]));
            hessian_.push_back({r, 0, A.valuePtr()[p] * A.valuePtr()[q]});
          }
      }
    }
    keys.insert(keys.end(), jac_keys.begin(), jac_keys.end());
    for (int i = 0; i < m; ++i)
      if (row_[i] == Row::lse)
        for (int p = A.outerIndexPtr()[f_.first_term[i]]; p < A.outerIndexPtr()[f_.first_term[i + 1]]; ++p)
          keys.push_back(lift_keys[p]);
    keys.insert(keys.end(), hess_keys.begin(), hess_keys.end());
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    auto slot_of = [&](std::uint64_t k) { return int(std::lower_bound(keys.begin(), keys.end(), k) - keys.begin()); };
    slot_row_.resize(keys.size());
    slot_col_.resize(keys.size());
    for (std::size_t s = 0; s < keys.size(); ++s) slot_row_[s] = int(keys[s] >> 32), slot_col_[s] = int(keys[s] & 0xffffffffu);
    diag_slot_.resize(dim_);
    for (int k = 0; k < dim_; ++k) diag_slot_[k] = slot_of(key(k, k));
    jac_slot_.resize(A.nonZeros());
    lift_slot_.assign(A.nonZeros(), -1);
    for (Eigen::Index p = 0; p < A.nonZeros(); ++p) jac_slot_[p] = slot_of(jac_keys[p]);
    for (int i = 0; i < m; ++i)
      if (row_[i] == Row::lse)
        for (int p = A.outerIndexPtr()[f_.first_term[i]]; p < A.outerIndexPtr()[f_.first_term[i + 1]]; ++p)
          lift_slot_[p] = slot_of(lift_keys[p]);
    for (std::size_t h = 0; h < hessian_.size(); ++h) hessian_[h].slot = slot_of(hess_keys[h]);

    std::vector<Eigen::Triplet<double>> trip;
    trip.reserve(keys.size());
    for (std::size_t s = 0; s < keys.size(); ++s) trip.emplace_back(slot_row_[s], slot_col_[s], double(s + 1));
    pattern_.resize(dim_, dim_);
    pattern_.setFromTriplets(trip.begin(), trip.end());
    pattern_.makeCompressed();
    slot_to_value_.resize(keys.size());
    for (Eigen::Index v = 0; v < pattern_.nonZeros(); ++v) {
      slot_to_value_[std::size_t(pattern_.valuePtr()[v]) - 1] = int(v);
      pattern_.valuePtr()[v] = 0.0;
    }
  }

  const lower::GpStandardForm& f_;
  int n_ = 0, n_lift_ = 0, m_ineq_ = 0, m_eq_ = 0, dim_ = 0;
  std::vector<Row> row_;
  std::vector<int> block_index_, lift_index_, term_row_;
  std::vector<int> slot_row_, slot_col_, diag_slot_, jac_slot_, lift_slot_, slot_to_value_;
  std::vector<HessianEntry> hessian_;
  Eigen::SparseMatrix<double> pattern_;
};

}  // namespace detail

/// The native interior-point method on one form. Keep one per form: the
/// pattern and (for large forms) the symbolic factorisation are reused
/// between runs, whatever the column bounds.
class NativeGpSolver {
 public:
  /// Problems whose KKT matrix has at most this many rows use a dense
  /// factorisation (measured: below it the sparse machinery costs more than
  /// it saves).
  static constexpr int dense_limit = 160;

  explicit NativeGpSolver(const lower::GpStandardForm& form) : s_(form) {}

  /// Solves the form as `request` asks (gp_request.hpp).
  GpResult run(const SolveOptions& o, const GpRequest& request);

  int dim() const { return s_.dim(); }

 private:
  using Vec = Eigen::VectorXd;
  const lower::GpStandardForm& form() const { return s_.form(); }

  // One iterate and the quantities derived from it.
  struct State {
    Vec y, s, lambda, nu, zl, zu;  // s, lambda per row (inequalities), nu per row (equalities)
    Vec z_terms;                   // A y + b
    Vec w_terms;                   // per term: p_k (lse), exp(z_k) (mixed exp terms), 1 (linear)
    Vec g;                         // row values (lse for lse rows)
    Vec grad_lagrangian;           // c + J^T lambda + E^T nu - zl + zu
  };

  // A Newton direction: the step in (y, lifted variables, multipliers) from
  // the KKT system, and the slack and bound-multiplier steps recovered from it.
  struct Step {
    Vec d, ds, dl, dzl, dzu;
  };
  // The complementarity each pair aims at: the predictor's is 0 (no
  // predictor given); the corrector's is sigma mu minus the predictor's
  // second-order term (Mehrotra), or sigma mu alone (a centring step).
  struct Targets {
    double smu = 0.0;
    const Step* predictor = nullptr;
    double row(int i) const { return smu - (predictor ? predictor->ds[i] * predictor->dl[i] : 0.0); }
    double lo(int j) const { return smu - (predictor ? predictor->d[j] * predictor->dzl[j] : 0.0); }
    double hi(int j) const { return smu + (predictor ? predictor->d[j] * predictor->dzu[j] : 0.0); }
  };
  // How far an iterate is from optimal, scaled as Ipopt scales its test.
  struct Residuals {
    double primal = 0.0, dual = 0.0, dual_size = 0.0, gap = 0.0, mu = 0.0, s_d = 1.0, error = 0.0;
  };
  // What the stopping rules remember between iterations.
  struct Progress {
    std::chrono::steady_clock::time_point start;
    double diverging_at = 0.0;  // |y| of a non-linear column past which the iterates diverge
    double best_primal = std::numeric_limits<double>::infinity();
    double best_error = std::numeric_limits<double>::infinity();
    double best_mu = std::numeric_limits<double>::infinity();
    int best_primal_iter = 1, best_error_iter = 0;
    int short_steps = 0;  // consecutive steps below 0.1
    std::vector<double> recent_phi;
  };
  struct Stop {
    GpRunStatus status;
    const char* message;
  };
  // One iteration's step, for the log.
  struct Direction {
    double sigma = 0.0, ap = 0.0, ad = 0.0;
    bool may_reduce = false, corrected = false, centred = false, proximal = false;
  };

  // The iteration's parts, in the order run() takes them.
  bool set_bounds(const GpRequest& request, double& diverging_at);
  State starting_point(const GpRequest& request);
  void prepare_workspace();
  double complementarity(const State& x) const;
  Residuals measure(const State& st) const;
  std::optional<Stop> stop_test(int iter, const State& st, const Residuals& r, const SolveOptions& o,
                                Progress& progress) const;
  // A stop within the acceptable KKT error is solved_acceptable, else `otherwise`.
  static GpRunStatus acceptable_or(const Residuals& r, GpRunStatus otherwise) {
    return r.error <= tolerances::acceptable ? GpRunStatus::solved_acceptable : otherwise;
  }
  // A run that cannot go on: suspected infeasible while rows are violated.
  static GpRunStatus stuck_status(const Residuals& r, const SolveOptions& o) {
    return acceptable_or(r, r.primal > 10 * std::max(o.tolerance, 1e-14) ? GpRunStatus::suspected_infeasible
                                                                         : GpRunStatus::failed);
  }
  bool factorise_at(const State& st);
  void build_rhs(const State& x, const Targets& target);
  void recover(const State& x, Step& step, const Targets& target) const;
  std::pair<double, double> step_lengths(const State& x, const Step& step, double tau) const;
  Targets newton_direction(const State& st, const Residuals& r, Direction& info);
  static constexpr double proximal_trigger = 1e-6;
  Targets proximal_direction(const State& st, const Residuals& r, double tau, Targets target, Direction& info);
  void end_proximal() { reg_primal_ = default_reg_primal, refine_ = true; }
  double residual(const State& x, const Targets& target) const;
  double primal_violation(const State& x) const;
  void step_along(const State& from, const Step& step, double a, State& to) const;
  double line_search(const State& st, const Targets& target, const Residuals& r, double tau, Direction& info,
                     Progress& progress);
  void move_tight_bounds(const State& st);
  GpResult finish(const State& st, GpResult& res, GpRunStatus status, const char* message) const;

  void evaluate(State& st) const;
  void assemble(const State& st);
  bool factorise();
  void solve_kkt(const Vec& rhs, Vec& x);
  void kkt_times(const Vec& x, Vec& out) const;

  detail::NativeGpStructure s_;
  // Per run
  std::span<const double> lo_in_, hi_in_;  // the bounds as given (the request's or the form's)
  std::vector<double> lo_, hi_;            // relaxed, boxed and moved as the iterates need
  std::vector<char> fixed_, active_, has_lo_, has_hi_;
  int pairs_ = 0;  // complementarity pairs
  Vec rhs_;
  Step affine_, direction_, correction_;
  State trial_, soc_;
  static constexpr double default_reg_primal = 1e-9;
  double reg_primal_ = default_reg_primal, reg_dual_ = 1e-9;
  bool refine_ = true;  // false while a proximal direction's term is kept
  // KKT storage
  std::vector<double> slot_value_;
  Eigen::MatrixXd dense_;
  Eigen::LDLT<Eigen::MatrixXd> dense_ldlt_;
  Eigen::SparseMatrix<double> sparse_;
  std::unique_ptr<Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>>> sparse_ldlt_;
  bool analysed_ = false;
};

// ---------------------------------------------------------------------------

inline void NativeGpSolver::evaluate(State& st) const {
  const auto& f = form();
  const auto& A = f.A;
  st.z_terms.noalias() = A * st.y;
  st.z_terms += f.b;
  st.w_terms.resize(A.rows());
  st.g.resize(f.constraint_count());
  st.grad_lagrangian = f.c;
  for (int i = 0; i < f.constraint_count(); ++i) {
    const int r0 = f.first_term[i], r1 = f.first_term[i + 1];
    using Row = detail::NativeGpStructure::Row;
    switch (s_.row(i)) {
      case Row::linear_le:
      case Row::linear_eq:
        st.g[i] = st.z_terms[r0];
        st.w_terms[r0] = 1.0;
        break;
      case Row::lse: {
        double mx = -std::numeric_limits<double>::infinity();
        for (int r = r0; r < r1; ++r) mx = std::max(mx, st.z_terms[r]);
        double sum = 0.0;
        for (int r = r0; r < r1; ++r) sum += (st.w_terms[r] = std::exp(st.z_terms[r] - mx));
        for (int r = r0; r < r1; ++r) st.w_terms[r] /= sum;
        st.g[i] = mx + std::log(sum);
        break;
      }
      case Row::mixed: {
        double v = 0.0;
        for (int r = r0; r + 1 < r1; ++r) v += (st.w_terms[r] = std::exp(std::min(st.z_terms[r], 700.0)));
        st.w_terms[r1 - 1] = 1.0;
        st.g[i] = v + st.z_terms[r1 - 1];
        break;
      }
    }
    if (!active_[i]) continue;
    const double mult = s_.row(i) == Row::linear_eq ? st.nu[i] : st.lambda[i];
    if (mult == 0.0) continue;
    for (int r = r0; r < r1; ++r)
      for (int p = A.outerIndexPtr()[r]; p < A.outerIndexPtr()[r + 1]; ++p)
        st.grad_lagrangian[A.innerIndexPtr()[p]] += mult * st.w_terms[r] * A.valuePtr()[p];
  }
  st.grad_lagrangian -= st.zl;
  st.grad_lagrangian += st.zu;
}

// Fills the KKT matrix (regularised) at the state.
inline void NativeGpSolver::assemble(const State& st) {
  const auto& f = form();
  const auto& A = f.A;
  const int n = s_.n();
  std::fill(slot_value_.begin(), slot_value_.end(), 0.0);
  using Row = detail::NativeGpStructure::Row;
  for (int i = 0; i < f.constraint_count(); ++i) {
    const int pos = s_.multiplier_position(i);
    if (!active_[i]) {
      slot_value_[s_.diagonal_slot(pos)] = -1.0;
      if (s_.row(i) == Row::lse) slot_value_[s_.diagonal_slot(s_.lift_position(i))] = 1.0;
      continue;
    }
    const double lam = s_.row(i) == Row::linear_eq ? 0.0 : st.lambda[i];
    for (int r = f.first_term[i]; r < f.first_term[i + 1]; ++r)
      for (int p = A.outerIndexPtr()[r]; p < A.outerIndexPtr()[r + 1]; ++p) {
        const double d = st.w_terms[r] * A.valuePtr()[p];
        slot_value_[s_.jac_slot()[p]] += d;
        if (s_.row(i) == Row::lse) slot_value_[s_.lift_slot()[p]] -= lam * d;
      }
    if (s_.row(i) == Row::linear_eq) slot_value_[s_.diagonal_slot(pos)] = -reg_dual_;
    else slot_value_[s_.diagonal_slot(pos)] = -(st.s[i] / st.lambda[i]) - reg_dual_;
    if (s_.row(i) == Row::lse) slot_value_[s_.diagonal_slot(s_.lift_position(i))] = lam + reg_primal_;
  }
  // Hessian of the Lagrangian: lambda_i w_k a_p a_q per exponential term k of row i.
  for (const auto& h : s_.hessian()) {
    const int i = s_.term_row(h.term);
    if (active_[i]) slot_value_[h.slot] += st.lambda[i] * st.w_terms[h.term] * h.coef;
  }
  for (int j = 0; j < n; ++j) {
    double sigma = reg_primal_;
    if (has_lo_[j]) sigma += st.zl[j] / (st.y[j] - lo_[j]);
    if (has_hi_[j]) sigma += st.zu[j] / (hi_[j] - st.y[j]);
    slot_value_[s_.diagonal_slot(j)] += sigma;
  }
  // Fixed columns: dy_j = 0 (their couplings are zeroed, their diagonal is 1).
  bool any_fixed = false;
  for (int j = 0; j < n && !any_fixed; ++j) any_fixed = fixed_[j];
  if (any_fixed) {
    const auto& rows = s_.slot_row();
    const auto& cols = s_.slot_col();
    for (int k = 0; k < s_.slot_count(); ++k) {
      const bool fr = rows[k] < n && fixed_[rows[k]], fc = cols[k] < n && fixed_[cols[k]];
      if (fr || fc) slot_value_[k] = rows[k] == cols[k] ? 1.0 : 0.0;
    }
  }
}

inline bool NativeGpSolver::factorise() {
  const int dim = s_.dim();
  if (dim <= dense_limit) {
    dense_.setZero(dim, dim);
    const auto& rows = s_.slot_row();
    const auto& cols = s_.slot_col();
    for (int k = 0; k < s_.slot_count(); ++k) dense_(rows[k], cols[k]) = slot_value_[k];
    dense_ldlt_.compute(dense_);
    return dense_ldlt_.info() == Eigen::Success;
  }
  if (!sparse_ldlt_) {
    sparse_ = s_.pattern();
    sparse_ldlt_ = std::make_unique<
        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>>>();
  }
  const auto& map = s_.slot_to_value();
  for (int k = 0; k < s_.slot_count(); ++k) sparse_.valuePtr()[map[k]] = slot_value_[k];
  if (!analysed_) {
    sparse_ldlt_->analyzePattern(sparse_);
    analysed_ = true;
  }
  sparse_ldlt_->factorize(sparse_);
  return sparse_ldlt_->info() == Eigen::Success;
}

// out = K x with K the unregularised matrix (the lower triangle mirrored).
inline void NativeGpSolver::kkt_times(const Vec& x, Vec& out) const {
  out.setZero(x.size());
  const auto& rows = s_.slot_row();
  const auto& cols = s_.slot_col();
  for (int k = 0; k < s_.slot_count(); ++k) {
    const double v = slot_value_[k];
    out[rows[k]] += v * x[cols[k]];
    if (rows[k] != cols[k]) out[cols[k]] += v * x[rows[k]];
  }
  // Remove the regularisation: +reg on primal diagonals, -reg on dual ones.
  const int n = s_.n();
  const auto& f = form();
  for (int j = 0; j < n; ++j)
    if (!fixed_[j]) out[j] -= reg_primal_ * x[j];
  for (int i = 0; i < f.constraint_count(); ++i) {
    if (!active_[i]) continue;
    out[s_.multiplier_position(i)] += reg_dual_ * x[s_.multiplier_position(i)];
    if (s_.row(i) == detail::NativeGpStructure::Row::lse) out[s_.lift_position(i)] -= reg_primal_ * x[s_.lift_position(i)];
  }
}

inline void NativeGpSolver::solve_kkt(const Vec& rhs, Vec& x) {
  auto solve_once = [&](const Vec& b, Vec& out) {
    if (s_.dim() <= dense_limit) out = dense_ldlt_.solve(b);
    else out = sparse_ldlt_->solve(b);
  };
  solve_once(rhs, x);
  Vec r, d;
  for (int step = 0; refine_ && step < 2; ++step) {  // iterative refinement
    kkt_times(x, r);
    r = rhs - r;
    solve_once(r, d);
    x += d;
  }
}

inline bool NativeGpSolver::set_bounds(const GpRequest& request, double& diverging_at) {
  const auto& f = form();
  const int n = f.n, m = f.constraint_count();
  const double box = request.box;
  lo_in_ = request.lower.empty() ? std::span<const double>(f.lower) : request.lower;
  hi_in_ = request.upper.empty() ? std::span<const double>(f.upper) : request.upper;
  lo_.assign(n, 0.0), hi_.assign(n, 0.0);
  fixed_.assign(n, 0), has_lo_.assign(n, 0), has_hi_.assign(n, 0);
  double largest_bound = box;
  for (int j = 0; j < n; ++j) {
    const bool linear = f.is_linear_column(j);
    const bool boxed = !linear && (request.box_all || (!std::isfinite(lo_in_[j]) && !std::isfinite(hi_in_[j])));
    lo_[j] = std::isfinite(lo_in_[j]) ? lo_in_[j] : boxed ? -box : -std::numeric_limits<double>::infinity();
    hi_[j] = std::isfinite(hi_in_[j]) ? hi_in_[j] : boxed ? box : std::numeric_limits<double>::infinity();
    if (lo_[j] > hi_[j]) return false;
    fixed_[j] = lo_[j] == hi_[j] ||
                (std::isfinite(lo_[j]) && hi_[j] - lo_[j] <= tolerances::ulps * std::max(1.0, std::abs(lo_[j])));
    has_lo_[j] = !fixed_[j] && std::isfinite(lo_[j]);
    has_hi_[j] = !fixed_[j] && std::isfinite(hi_[j]);
    // Bounds are relaxed by 1e-10 relative, as Ipopt relaxes its own
    // (bound_relax_factor): an iterate converging to a bound keeps y - lower
    // well above rounding, where the barrier term z / (y - lower) stays finite.
    // The returned point is projected back onto the bounds.
    constexpr double bound_relax_factor = 1e-10;
    if (has_lo_[j]) lo_[j] -= bound_relax_factor * std::max(1.0, std::abs(lo_[j]));
    if (has_hi_[j]) hi_[j] += bound_relax_factor * std::max(1.0, std::abs(hi_[j]));
    if (!linear) {
      if (std::isfinite(lo_in_[j])) largest_bound = std::max(largest_bound, std::abs(lo_in_[j]));
      if (std::isfinite(hi_in_[j])) largest_bound = std::max(largest_bound, std::abs(hi_in_[j]));
    }
  }
  diverging_at = f.linear_column.empty() ? 1.01 * largest_bound : std::numeric_limits<double>::infinity();
  active_.assign(m, 1);
  if (!request.free_rows.empty())
    for (int i = 0; i < m; ++i) active_[i] = !request.free_rows[i];
  slot_value_.assign(s_.slot_count(), 0.0);
  return true;
}

// As Ipopt's: the middle of finite bounds, else 0, or the given start (the
// warm start's point first), pushed into the interior of the bounds; slacks
// and multipliers from the warm start, floored, or 1.
inline NativeGpSolver::State NativeGpSolver::starting_point(const GpRequest& request) {
  const auto& f = form();
  const int n = f.n, m = f.constraint_count();
  using Row = detail::NativeGpStructure::Row;
  State st;
  st.y.resize(n);
  const GpWarmStart& warm = request.warm;
  const std::span<const double> y_start = warm.y.empty() ? request.start : warm.y;
  for (int j = 0; j < n; ++j) {
    if (fixed_[j]) {
      st.y[j] = lo_[j];
      continue;
    }
    // The middle of the column's own bounds, not of the artificial box: a
    // column bounded on one side (a feasibility relaxation's slack, sigma >=
    // 0) started half a box away, at e^115, and the first steps overshot.
    double v = std::isfinite(lo_in_[j]) && std::isfinite(hi_in_[j]) ? 0.5 * (lo_[j] + hi_[j]) : 0.0;
    if (!y_start.empty()) v = y_start[j];
    if (!std::isfinite(v)) v = 0.0;
    const double push_lo = has_lo_[j] ? 1e-2 * std::max(1.0, std::abs(lo_[j])) : 0.0;
    const double push_hi = has_hi_[j] ? 1e-2 * std::max(1.0, std::abs(hi_[j])) : 0.0;
    const double a = has_lo_[j] ? lo_[j] + std::min(push_lo, 0.5 * (hi_[j] - lo_[j])) : -std::numeric_limits<double>::infinity();
    const double b = has_hi_[j] ? hi_[j] - std::min(push_hi, 0.5 * (hi_[j] - lo_[j])) : std::numeric_limits<double>::infinity();
    st.y[j] = std::clamp(v, a, b);
  }
  st.s = Vec::Zero(m), st.lambda = Vec::Zero(m), st.nu = Vec::Zero(m);
  st.zl = Vec::Zero(n), st.zu = Vec::Zero(n);
  const bool warm_duals = !warm.y.empty() && int(warm.lambda.size()) == m;
  const double dual_floor = warm_duals ? 1e-3 : 1.0;
  for (int j = 0; j < n; ++j) {
    if (has_lo_[j]) st.zl[j] = !warm.z_lower.empty() ? std::max(warm.z_lower[j], dual_floor) : 1.0;
    if (has_hi_[j]) st.zu[j] = !warm.z_upper.empty() ? std::max(warm.z_upper[j], dual_floor) : 1.0;
  }
  evaluate(st);  // g at the start (multipliers are zero so far)
  for (int i = 0; i < m; ++i) {
    if (!active_[i]) continue;
    if (s_.row(i) == Row::linear_eq) {
      st.nu[i] = warm_duals ? warm.lambda[i] : 0.0;
      continue;
    }
    st.lambda[i] = warm_duals ? std::max(warm.lambda[i], dual_floor) : 1.0;
    st.s[i] = std::max(-st.g[i], warm_duals ? 1e-3 : 1.0);
  }
  evaluate(st);
  return st;
}

// Work vectors sized for this form, and the number of complementarity pairs.
inline void NativeGpSolver::prepare_workspace() {
  const int n = form().n, m = form().constraint_count(), dim = s_.dim();
  using Row = detail::NativeGpStructure::Row;
  pairs_ = 0;
  for (int i = 0; i < m; ++i) pairs_ += active_[i] && s_.row(i) != Row::linear_eq;
  for (int j = 0; j < n; ++j) pairs_ += has_lo_[j] + has_hi_[j];
  rhs_.resize(dim);
  for (Step* step : {&affine_, &direction_, &correction_}) {
    step->d.resize(dim);
    step->ds.resize(m), step->dl.resize(m), step->dzl.resize(n), step->dzu.resize(n);
  }
}

inline double NativeGpSolver::complementarity(const State& x) const {
  const int n = form().n, m = form().constraint_count();
  using Row = detail::NativeGpStructure::Row;
  double gap = 0.0;
  for (int i = 0; i < m; ++i)
    if (active_[i] && s_.row(i) != Row::linear_eq) gap += x.s[i] * x.lambda[i];
  for (int j = 0; j < n; ++j) {
    if (has_lo_[j]) gap += (x.y[j] - lo_[j]) * x.zl[j];
    if (has_hi_[j]) gap += (hi_[j] - x.y[j]) * x.zu[j];
  }
  return gap;
}

inline NativeGpSolver::Residuals NativeGpSolver::measure(const State& st) const {
  const int n = form().n, m = form().constraint_count();
  using Row = detail::NativeGpStructure::Row;
  Residuals r;
  for (int i = 0; i < m; ++i) {
    if (!active_[i]) continue;
    if (s_.row(i) == Row::linear_eq) {
      r.primal = std::max(r.primal, std::abs(st.g[i]));
      r.dual_size += std::abs(st.nu[i]);
    } else {
      r.primal = std::max(r.primal, std::abs(st.g[i] + st.s[i]));
      r.dual_size += st.lambda[i];
    }
  }
  for (int j = 0; j < n; ++j) {
    if (!fixed_[j]) r.dual = std::max(r.dual, std::abs(st.grad_lagrangian[j]));
    r.dual_size += st.zl[j] + st.zu[j];
  }
  r.gap = complementarity(st);
  r.mu = pairs_ ? r.gap / pairs_ : 0.0;
  r.s_d = std::max(100.0, r.dual_size / std::max(1, pairs_ + m)) / 100.0;
  r.error = std::max({r.primal, r.dual / r.s_d, r.gap});
  return r;
}

inline std::optional<NativeGpSolver::Stop> NativeGpSolver::stop_test(int iter, const State& st, const Residuals& r,
                                                                     const SolveOptions& o, Progress& progress) const {
  const auto& f = form();
  const double tol = std::max(o.tolerance, 1e-14);
  if (!std::isfinite(r.error)) return Stop{GpRunStatus::failed, "the iterates became non-finite"};
  // The gap bounds the objective's error: relative to the objective where
  // it is small (a linear objective in seconds), absolute above 1.
  const double objective_scale = std::clamp(std::abs(f.c0 + f.c.dot(st.y)), 1e-3, 1.0);
  if (r.primal <= 10 * tol && r.dual <= 10 * tol * r.s_d && r.gap <= 10 * tol * objective_scale)
    return Stop{GpRunStatus::solved, nullptr};
  for (int j = 0; j < f.n; ++j)
    if (!f.is_linear_column(j) && std::abs(st.y[j]) > progress.diverging_at)
      return Stop{GpRunStatus::diverging, "iterates diverged"};
  // Infeasible models (decided elsewhere, by the feasibility relaxation)
  // show here as primal residuals that stop falling while the multipliers
  // grow: stop early rather than run to the iteration limit.
  // (The start is not counted: a feasible start can become infeasible
  // through the nonlinear rows on the way to the optimum.)
  // Progress is the primal residual falling, or mu falling: mu falls only
  // while the residuals are within a multiple of it, and the residual of a
  // feasible model rises a little each time mu does.
  if (iter >= 1 && (r.primal < 0.99 * progress.best_primal || r.mu < 0.99 * progress.best_mu)) {
    progress.best_primal = std::min(progress.best_primal, r.primal);
    progress.best_mu = std::min(progress.best_mu, r.mu);
    progress.best_primal_iter = iter;
  }
  if (r.error < 0.99 * progress.best_error) progress.best_error = r.error, progress.best_error_iter = iter;
  // A stall within the acceptable tolerance is an answer, not a sign of
  // infeasibility (a subproblem stalled at a primal residual of 1.4e-8).
  if (r.primal > 10 * tol && iter - progress.best_primal_iter >= 15)
    return Stop{acceptable_or(r, GpRunStatus::suspected_infeasible), "no progress towards feasibility"};
  // Likewise a stall of the whole error (a relaxation's optimum at a bound
  // stalls with a gap near 1e-8). With rows still violated the model may be
  // infeasible: the feasibility relaxation decides before Ipopt is asked
  // (chapter 4's GP relaxations on too few FPGAs stall here).
  if (iter - progress.best_error_iter >= 30) return Stop{stuck_status(r, o), "no progress"};
  if (r.dual_size > 1e12) return Stop{GpRunStatus::suspected_infeasible, "the multipliers diverged"};
  if (iter >= o.max_iterations) return Stop{acceptable_or(r, GpRunStatus::iteration_limit), "iteration limit reached"};
  if (std::chrono::duration<double>(std::chrono::steady_clock::now() - progress.start).count() > o.time_limit)
    return Stop{GpRunStatus::time_limit, "time limit reached"};
  return std::nullopt;
}

// The KKT matrix at st, factorised; a singular one (dependent equalities)
// is tried once more with a hundredfold regularisation.
inline bool NativeGpSolver::factorise_at(const State& st) {
  assemble(st);
  if (factorise()) return true;
  reg_primal_ *= 100, reg_dual_ *= 100;
  assemble(st);
  const bool ok = factorise();
  reg_primal_ /= 100, reg_dual_ /= 100;
  return ok;
}

// Right-hand side for the target complementarities: the predictor aims at
// 0, the corrector at sigma mu minus the predictor's second-order term.
inline void NativeGpSolver::build_rhs(const State& x, const Targets& target) {
  const int n = form().n, m = form().constraint_count(), dim = s_.dim();
  using Row = detail::NativeGpStructure::Row;
  for (int j = 0; j < n; ++j) {
    if (fixed_[j]) {
      rhs_[j] = 0.0;
      continue;
    }
    double r = x.grad_lagrangian[j];
    // -z_l + z_l  replaced by  -target / s_l (and likewise above)
    if (has_lo_[j]) r += x.zl[j] - target.lo(j) / (x.y[j] - lo_[j]);
    if (has_hi_[j]) r += -x.zu[j] + target.hi(j) / (hi_[j] - x.y[j]);
    rhs_[j] = -r;
  }
  for (int k = n; k < dim; ++k) rhs_[k] = 0.0;
  for (int i = 0; i < m; ++i) {
    if (!active_[i]) continue;
    const int pos = s_.multiplier_position(i);
    if (s_.row(i) == Row::linear_eq) rhs_[pos] = -x.g[i];
    else rhs_[pos] = -x.g[i] - target.row(i) / x.lambda[i];
  }
}

// Recovers ds, dlambda, dz from step.d (dy, dlambda) and the targets.
inline void NativeGpSolver::recover(const State& x, Step& step, const Targets& target) const {
  const int n = form().n, m = form().constraint_count();
  using Row = detail::NativeGpStructure::Row;
  const Vec& d = step.d;
  for (int i = 0; i < m; ++i) {
    step.ds[i] = step.dl[i] = 0.0;
    if (!active_[i] || s_.row(i) == Row::linear_eq) continue;
    step.dl[i] = d[s_.multiplier_position(i)];
    step.ds[i] = (target.row(i) - x.s[i] * x.lambda[i] - x.s[i] * step.dl[i]) / x.lambda[i];
  }
  for (int j = 0; j < n; ++j) {
    step.dzl[j] = step.dzu[j] = 0.0;
    if (has_lo_[j]) {
      const double sl = x.y[j] - lo_[j];
      step.dzl[j] = (target.lo(j) - sl * x.zl[j] - x.zl[j] * d[j]) / sl;
    }
    if (has_hi_[j]) {
      const double su = hi_[j] - x.y[j];
      step.dzu[j] = (target.hi(j) - su * x.zu[j] + x.zu[j] * d[j]) / su;
    }
  }
}

// Largest steps in (0, 1] keeping primal slacks and duals above (1 - tau) of their values.
inline std::pair<double, double> NativeGpSolver::step_lengths(const State& x, const Step& step, double tau) const {
  const int n = form().n, m = form().constraint_count();
  using Row = detail::NativeGpStructure::Row;
  double ap = 1.0, ad = 1.0;
  auto limit = [&](double& a, double v, double dv) {
    if (dv < 0.0) a = std::min(a, -tau * v / dv);
  };
  for (int i = 0; i < m; ++i) {
    if (!active_[i] || s_.row(i) == Row::linear_eq) continue;
    limit(ap, x.s[i], step.ds[i]);
    limit(ad, x.lambda[i], step.dl[i]);
  }
  for (int j = 0; j < n; ++j) {
    if (has_lo_[j]) limit(ap, x.y[j] - lo_[j], step.d[j]), limit(ad, x.zl[j], step.dzl[j]);
    if (has_hi_[j]) limit(ap, hi_[j] - x.y[j], -step.d[j]), limit(ad, x.zu[j], step.dzu[j]);
  }
  return std::pair{ap, ad};
}

// Mehrotra's predictor-corrector: the affine-scaling step (target 0) gives
// sigma = (mu_aff / mu)^3, and the corrector aims at sigma mu minus the
// predictor's second-order term. Leaves the corrector in direction_ and
// returns its targets.
inline NativeGpSolver::Targets NativeGpSolver::newton_direction(const State& st, const Residuals& r,
                                                               Direction& info) {
  const int n = form().n, m = form().constraint_count();
  using Row = detail::NativeGpStructure::Row;
  const Targets zero;
  build_rhs(st, zero);
  solve_kkt(rhs_, affine_.d);
  recover(st, affine_, zero);
  const auto [ap_aff, ad_aff] = step_lengths(st, affine_, 1.0);
  double gap_aff = 0.0;
  for (int i = 0; i < m; ++i)
    if (active_[i] && s_.row(i) != Row::linear_eq)
      gap_aff += (st.s[i] + ap_aff * affine_.ds[i]) * (st.lambda[i] + ad_aff * affine_.dl[i]);
  for (int j = 0; j < n; ++j) {
    if (has_lo_[j]) gap_aff += (st.y[j] - lo_[j] + ap_aff * affine_.d[j]) * (st.zl[j] + ad_aff * affine_.dzl[j]);
    if (has_hi_[j]) gap_aff += (hi_[j] - st.y[j] - ap_aff * affine_.d[j]) * (st.zu[j] + ad_aff * affine_.dzu[j]);
  }
  const double mu_aff = pairs_ ? gap_aff / pairs_ : 0.0;
  info.sigma = r.mu > 0 ? std::clamp(std::pow(mu_aff / r.mu, 3.0), 0.0, 1.0) : 0.0;

  // mu falls only once the primal and dual residuals are within a multiple
  // of it (Ipopt's monotone rule): complementarity that runs ahead of
  // feasibility leaves slacks near zero that cut every later step short.
  info.may_reduce = r.primal <= 10.0 * r.mu && r.dual <= 10.0 * r.mu * r.s_d;
  const double smu = info.may_reduce ? info.sigma * r.mu : r.mu;
  const Targets target{smu, &affine_};
  build_rhs(st, target);
  solve_kkt(rhs_, direction_.d);
  recover(st, direction_, target);
  // The second-order term assumes the predictor's full step; when the
  // boundary cuts that step to almost nothing, the term is large and aims
  // the corrector at the boundary too. A pair whose complementarity fell
  // far below mu then stops every step (a sequential-phases relaxation of
  // the heterogeneous benchmark took boundary steps of 1e-7 for nine
  // iterations and failed at 2e-18). Safeguard as in PCx and LOQO: when
  // the corrector's step is a small fraction of the predictor's, drop the
  // term and centre at sigma mu.
  constexpr double safeguard_ratio = 0.1;
  const auto [ap, ad] = step_lengths(st, direction_, 0.99);
  if (std::min(ap, ad) < safeguard_ratio * std::min({ap_aff, ad_aff, 1.0})) {
    const Targets centring{smu, nullptr};
    build_rhs(st, centring);
    solve_kkt(rhs_, direction_.d);
    recover(st, direction_, centring);
    info.centred = true;
    return centring;
  }
  return target;
}

// A direction that the boundary cuts below proximal_trigger even after
// centring: on a face of optima (columns that no row or objective binds,
// rows whose multipliers went to 1e-11) the KKT matrix is nearly singular
// along the face, and the direction has components of 1e4 in log space
// along it (the heterogeneous benchmark's sequential-phases relaxation:
// boundary steps of 1e-10, then "the step became too small" and Ipopt).
// A proximal term delta I on the primal block, kept (no refinement
// removes it), bounds those components by the residual over delta. delta
// grows tenfold from 1e-7 until the step is reasonable; measured on that
// relaxation, 1e-7 and 1e-6 converge in 32-34 iterations, 1e-5 damps every
// later step and needs 540. When no delta gives a step of proximal_trigger
// or a factorisation fails, the plain direction is taken again.
inline NativeGpSolver::Targets NativeGpSolver::proximal_direction(const State& st, const Residuals& r, double tau,
                                                                  Targets target, Direction& info) {
  constexpr double reasonable_step = 1e-3;
  refine_ = false;
  for (double delta : {1e-7, 1e-6, 1e-5}) {
    reg_primal_ = delta;
    if (!factorise_at(st)) {
      info.proximal = false;  // the factorisation is gone: plain direction
      break;
    }
    target = newton_direction(st, r, info);
    std::tie(info.ap, info.ad) = step_lengths(st, direction_, tau);
    info.proximal = true;
    if (std::min(info.ap, info.ad) >= reasonable_step) return target;  // the line search keeps this factorisation
  }
  if (info.proximal && std::min(info.ap, info.ad) >= proximal_trigger) return target;
  // No proximal direction helps: back to the plain one.
  end_proximal();
  info = Direction{};
  if (factorise_at(st)) target = newton_direction(st, r, info);
  std::tie(info.ap, info.ad) = step_lengths(st, direction_, tau);
  return target;
}

// The residual of the system the direction is Newton's step for (dual and
// primal residuals, complementarity minus its targets).
inline double NativeGpSolver::residual(const State& x, const Targets& target) const {
  const int n = form().n, m = form().constraint_count();
  using Row = detail::NativeGpStructure::Row;
  double r2 = x.grad_lagrangian.squaredNorm();
  for (int j = 0; j < n; ++j) {
    if (fixed_[j]) r2 -= x.grad_lagrangian[j] * x.grad_lagrangian[j];
    if (has_lo_[j]) r2 += std::pow((x.y[j] - lo_[j]) * x.zl[j] - target.lo(j), 2);
    if (has_hi_[j]) r2 += std::pow((hi_[j] - x.y[j]) * x.zu[j] - target.hi(j), 2);
  }
  for (int i = 0; i < m; ++i) {
    if (!active_[i]) continue;
    if (s_.row(i) == Row::linear_eq) {
      r2 += x.g[i] * x.g[i];
    } else {
      r2 += std::pow(x.g[i] + x.s[i], 2) + std::pow(x.s[i] * x.lambda[i] - target.row(i), 2);
    }
  }
  return std::sqrt(r2);
}

// The largest violation of a row, as measure() counts it.
inline double NativeGpSolver::primal_violation(const State& x) const {
  using Row = detail::NativeGpStructure::Row;
  double v = 0.0;
  for (int i = 0; i < form().constraint_count(); ++i)
    if (active_[i]) v = std::max(v, std::abs(s_.row(i) == Row::linear_eq ? x.g[i] : x.g[i] + x.s[i]));
  return v;
}

// to = from + a step; then a slack reset: each inequality row that the new
// point satisfies, -g > 0, takes s = -g when that is within a factor of 2
// of its stepped slack. A row far from active has a tiny multiplier, so the
// Newton model all but ignores its curvature; a step that moves its
// exponential terms leaves g + s far from 0 although the row holds with
// room, and the residual line search cut every step to about 1 % until the
// run stopped "without progress towards feasibility" (the mixed rows of
// mixed-integer feasibility relaxations: all 5 fallbacks of a pipeline
// test). The factor keeps a near-active row's complementarity from
// collapsing in one step.
inline void NativeGpSolver::step_along(const State& from, const Step& step, double a, State& to) const {
  const int n = form().n, m = form().constraint_count();
  using Row = detail::NativeGpStructure::Row;
  to.y = from.y + a * step.d.head(n);
  to.s = from.s, to.lambda = from.lambda, to.nu = from.nu;
  for (int i = 0; i < m; ++i) {
    if (!active_[i]) continue;
    if (s_.row(i) == Row::linear_eq) {
      to.nu[i] += a * step.d[s_.multiplier_position(i)];
    } else {
      to.s[i] += a * step.ds[i];
      to.lambda[i] += a * step.dl[i];
    }
  }
  to.zl = from.zl + a * step.dzl;
  to.zu = from.zu + a * step.dzu;
  evaluate(to);
  constexpr double slack_reset_factor = 2.0;
  for (int i = 0; i < m; ++i) {
    if (!active_[i] || s_.row(i) == Row::linear_eq) continue;
    const double room = -to.g[i];
    if (room > 0.0 && room * slack_reset_factor >= to.s[i] && room <= slack_reset_factor * to.s[i]) to.s[i] = room;
  }
}

// One step length for primal and dual (the Hessian's multipliers stay
// consistent with the point), judged by residual(): nonlinear rows make a
// full step overshoot far from the solution. Leaves the new point in trial_
// and returns the step length taken.
inline double NativeGpSolver::line_search(const State& st, const Targets& target, const Residuals& r, double tau,
                                          Direction& info, Progress& progress) {
  const int m = form().constraint_count();
  using Row = detail::NativeGpStructure::Row;
  double a = std::min(info.ap, info.ad);
  // Once the rows hold to 1e-2 (log space), the step must not raise the
  // residual above its largest value over this and the last three
  // iterations (a nonmonotone line search, as in Grippo, Lampariello and
  // Lucidi); before that, above its current value. Models whose optimum
  // is a face, not a point (study 001's relaxations: the N_k of stages
  // that do not bind II), have Newton steps that re-centre along the face
  // and raise the residual for one iteration through an inactive row's
  // curvature; a monotone test halved those steps to nothing (VGG's
  // relaxation stalled at iteration 5 and needed a second run; the
  // K = 10000 relaxation took 103 iterations, now 52). Far from
  // feasibility the relaxed test let iterates wander (an 8-variable
  // allocation with every column boxed failed).
  const double phi_now = residual(st, target);
  double phi0 = phi_now;
  auto& recent_phi = progress.recent_phi;
  if (r.primal <= 1e-2)
    for (std::size_t k = 0; k < 3 && k < recent_phi.size(); ++k)
      phi0 = std::max(phi0, recent_phi[recent_phi.size() - 1 - k]);
  recent_phi.push_back(phi_now);
  // The residual's norm weighs the rows against the complementarity terms:
  // a step that cut a large gap could raise the rows' violation a
  // hundredfold and still pass (maximising xy under 0.5x + 5e-4y <= 1 went
  // from a violation of 0.3 to 158 in one step and never recovered). Like
  // Ipopt's filter with its largest violation, a step may raise the rows'
  // violation only to a bounded multiple of today's.
  const double most_violation = std::max(10 * r.primal, 1.0);
  const auto accepted = [&](const State& x, double phi_x) {
    return std::isfinite(phi_x) && phi_x <= phi0 && primal_violation(x) <= most_violation;
  };
  step_along(st, direction_, a, trial_);
  double phi = residual(trial_, target);
  info.corrected = false;
  if (!accepted(trial_, phi)) {
    // Second-order correction (Ipopt's): the rows' curvature along a long
    // step leaves a primal residual. Solve again on the same
    // factorisation, from the same point, with each row's residual
    // replaced by a r(y) + r(y + a d), which for linear rows is r(y)
    // again and otherwise adds the curvature's share. Without it, the
    // step is halved until the residual falls, and near the solution each
    // halved step cuts mu by a quarter instead of a hundredfold (K = 10000
    // alternated steps of 0.225 with restoring steps).
    // rhs_ still holds the corrector's right-hand side; only the rows change.
    for (int i = 0; i < m; ++i) {
      if (!active_[i]) continue;
      const int pos = s_.multiplier_position(i);
      if (s_.row(i) == Row::linear_eq) rhs_[pos] = -(a * st.g[i] + trial_.g[i]);
      else rhs_[pos] = -(a * (st.g[i] + st.s[i]) + trial_.g[i] + trial_.s[i]) + st.s[i] - target.row(i) / st.lambda[i];
    }
    solve_kkt(rhs_, correction_.d);
    recover(st, correction_, target);
    const auto [cp, cd] = step_lengths(st, correction_, tau);
    // A correction that the boundary cuts far shorter than the step it
    // corrects stays near the current point, where the nonmonotone test
    // holds trivially: it is no progress (a MIGP feasibility relaxation took
    // a correction of 8e-21 and stopped), so backtracking decides instead.
    if (std::isfinite(cp) && std::isfinite(cd) && correction_.d.allFinite() && std::min(cp, cd) >= 0.1 * a) {
      step_along(st, correction_, std::min(cp, cd), soc_);
      const double phi_soc = residual(soc_, target);
      if (accepted(soc_, phi_soc)) std::swap(trial_, soc_), a = std::min(cp, cd), info.corrected = true;
    }
  }
  if (!info.corrected)
    for (int backtrack = 0; !accepted(trial_, phi) && backtrack < 40; ++backtrack) {
      a *= 0.5;
      step_along(st, direction_, a, trial_);
      phi = residual(trial_, target);
    }
  return a;
}

// A bound slack below rounding moves its bound, as Ipopt's slack_move
// does: y - lower must stay representable for the barrier term.
inline void NativeGpSolver::move_tight_bounds(const State& st) {
  for (int j = 0; j < form().n; ++j) {
    const double floor_j = 1e-13 * std::max(1.0, std::abs(st.y[j]));
    if (has_lo_[j] && st.y[j] - lo_[j] < floor_j) lo_[j] = st.y[j] - floor_j;
    if (has_hi_[j] && hi_[j] - st.y[j] < floor_j) hi_[j] = st.y[j] + floor_j;
  }
}

// The result at st: the point projected onto the unrelaxed bounds, the
// multipliers, the row values as the form states them.
inline GpResult NativeGpSolver::finish(const State& st, GpResult& res, GpRunStatus status, const char* message) const {
  const auto& f = form();
  const int n = f.n, m = f.constraint_count();
  using Row = detail::NativeGpStructure::Row;
  res.status = status;
  if (message) res.message = message;
  res.y.assign(st.y.data(), st.y.data() + n);
  for (int j = 0; j < n; ++j) {  // project onto the unrelaxed bounds
    if (std::isfinite(lo_in_[j])) res.y[j] = std::max(res.y[j], lo_in_[j]);
    if (std::isfinite(hi_in_[j])) res.y[j] = std::min(res.y[j], hi_in_[j]);
  }
  res.lambda.assign(m, 0.0);
  for (int i = 0; i < m; ++i)
    if (active_[i]) res.lambda[i] = s_.row(i) == Row::linear_eq ? st.nu[i] : st.lambda[i];
  res.z_lower.assign(st.zl.data(), st.zl.data() + n);
  res.z_upper.assign(st.zu.data(), st.zu.data() + n);
  res.g.resize(m);
  for (int i = 0; i < m; ++i) res.g[i] = s_.row(i) == Row::lse ? std::exp(std::min(st.g[i], 700.0)) : st.g[i];
  res.objective = f.c0 + f.c.dot(st.y);
  return res;
}

// A primal-dual interior-point method with Mehrotra's predictor-corrector,
// Ipopt's scaled convergence test, a nonmonotone line search on the Newton
// system's residual and Ipopt's second-order correction.
inline GpResult NativeGpSolver::run(const SolveOptions& o, const GpRequest& request) {
  GpResult res;
  res.solver = "native";
  Progress progress;
  progress.start = std::chrono::steady_clock::now();
  if (!set_bounds(request, progress.diverging_at)) {
    res.message = "empty column bounds";
    return res;
  }
  State st = starting_point(request);
  prepare_workspace();
  const auto& f = form();
  for (int iter = 0;; ++iter) {
    res.iterations = iter;
    const Residuals r = measure(st);
    if (o.verbosity >= 3)
      std::fprintf(stderr, "native %3d  obj %-14.8g primal %.2e dual %.2e gap %.2e mu %.2e duals %.2e\n", iter,
                   f.c0 + f.c.dot(st.y), r.primal, r.dual, r.gap, r.mu, r.dual_size);
    if (const auto stop = stop_test(iter, st, r, o, progress)) return finish(st, res, stop->status, stop->message);
    // A run stuck with rows still violated may be infeasible: it says so,
    // and the feasibility relaxation decides (an over-tight cap of study
    // 001 stuck at a violation of 0.04 with multipliers at 2e9, and Ipopt,
    // given it as a failure, found it infeasible too; Boyd's tutorial
    // example as printed ended with a singular Newton system at a violation
    // of 0.9, and Ipopt took 945 iterations to fail on it).
    const auto stuck = stuck_status(r, o);
    if (!factorise_at(st)) return finish(st, res, stuck, "the Newton system is singular");

    Direction info;
    Targets target = newton_direction(st, r, info);
    // Fraction to the boundary: 0.99, tending to 1 with mu, but never 1 (a
    // step onto a bound makes its barrier term infinite).
    constexpr double least_fraction = 0.99, most_fraction = 1.0 - 1e-8;
    const double tau = std::clamp(1.0 - r.mu, least_fraction, most_fraction);
    std::tie(info.ap, info.ad) = step_lengths(st, direction_, tau);
    if (std::min(info.ap, info.ad) < proximal_trigger) target = proximal_direction(st, r, tau, target, info);
    if (!std::isfinite(info.ap) || !std::isfinite(info.ad) || !direction_.d.allFinite())
      return finish(st, res, stuck, "the Newton step is not finite");
    const double a = line_search(st, target, r, tau, info, progress);
    end_proximal();
    std::swap(st, trial_);
    if (o.verbosity >= 3)
      std::fprintf(stderr, "       step %.3e (boundary %.3e / %.3e) sigma %.2e%s%s%s%s\n", a, info.ap, info.ad, info.sigma,
                   info.may_reduce ? "" : " (mu kept)", info.corrected ? " (corrected)" : "",
                   info.centred ? " (centred)" : "", info.proximal ? " (proximal)" : "");
    move_tight_bounds(st);
    evaluate(st);
    // Steps that stay short converge, if at all, at a few per cent per
    // iteration (a random GP of the test suite took 3000 iterations); Ipopt,
    // the fallback, solves such models in tens.
    progress.short_steps = a < 0.1 ? progress.short_steps + 1 : 0;
    if (progress.short_steps >= 50) return finish(st, res, stuck, "the steps stay short");
    if (a < 1e-11) return finish(st, res, stuck, "the step became too small");
  }
}

}  // namespace ychart::solve::gp
