// ychart/lower/gp_standard_form.hpp
// The log-space standard form of a GP, and the reductions that produce it:
//   * epigraph of a multi-term objective (minimise t, objective <= t),
//   * epigraph definitions from max() atoms,
//   * the log transform y = log x: a monomial constraint becomes a linear row
//     a.y + b <= 0 (or == 0), a posynomial one the sum of exponentials
//     sum_k exp(a_k.y + b_k) <= 1, whose Hessian stays sparse,
// each row group remembering where it came from so that multipliers map back
// to the user's constraints.
#pragma once

#include "../model/model.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cmath>
#include <limits>
#include <vector>

namespace ychart::lower {

/// linear_le / linear_eq: one row, a.y + b <= 0 (== 0).
/// expsum_le: sum_k exp(a_k.y + b_k) <= 1 (a posynomial constraint).
/// mixed_le: sum_k exp(a_k.y + b_k) + (d.x + e) <= 0, the exponential rows
///   first and one linear row last (a posynomial bounded by an affine
///   expression; only mixed-integer models have these).
enum class RowKind { linear_le, linear_eq, expsum_le, mixed_le };

/// Where a constraint of the standard form comes from.
struct Origin {
  enum Kind { user, epigraph, objective, variable_lower, variable_upper, encoding, symmetry } kind;
  std::size_t index;  // user constraint, epigraph definition, or variable
};

struct GpStandardForm {
  using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
  int n = 0;                         // log-space variables
  int n_model = 0;                   // the first n_model are the model's variables
  std::vector<double> lower, upper;  // bounds on y (+-inf where none)
  Eigen::VectorXd c;                 // minimise c.y + c0
  double c0 = 0.0;
  SparseRows A;                      // one row per term of every constraint
  Eigen::VectorXd b;                 // log coefficients
  std::vector<int> first_term{0};    // constraint i owns rows [first_term[i], first_term[i+1])
  std::vector<RowKind> kind;
  std::vector<Origin> origin;
  /// Columns in linear space (reals, integers, encodings) rather than log
  /// space; they get no artificial box. Empty: every column is in log space.
  std::vector<char> linear_column;

  int constraint_count() const { return static_cast<int>(kind.size()); }
  bool is_linear_column(int j) const { return !linear_column.empty() && linear_column[j]; }
  /// Whether row r of A is an exponential term of constraint i.
  bool is_exp_term(int i, int r) const {
    return kind[i] == RowKind::expsum_le || (kind[i] == RowKind::mixed_le && r + 1 < first_term[i + 1]);
  }
};

namespace detail {

class FormBuilder {
 public:
  explicit FormBuilder(GpStandardForm& f) : f_(f) {}

  /// Adds `posynomial / monomial <= 1` (or `== 1`), with an optional extra
  /// column shift (used for epigraph variables: posynomial <= x_shift).
  void add(const ychart::detail::TermList& p, const ychart::detail::TermList* m, int shift_var,
           Constraint::Sense sense, Origin origin) {
    if (p.empty()) return;  // 0 <= m always holds
    const double log_m = m ? std::log(m->coefficient(0)) : 0.0;
    for (std::size_t k = 0; k < p.size(); ++k) {
      const int row = static_cast<int>(b_.size());
      b_.push_back(std::log(p.coefficient(k)) - log_m);
      merge_row(row, p.factors(k), m ? std::span(m->factors(0)) : std::span<const ychart::detail::Factor>{},
                shift_var);
    }
    f_.first_term.push_back(static_cast<int>(b_.size()));
    f_.kind.push_back(sense == Constraint::Sense::equal ? RowKind::linear_eq
                      : p.size() == 1                    ? RowKind::linear_le
                                                         : RowKind::expsum_le);
    f_.origin.push_back(origin);
  }

  void finish() {
    f_.A.resize(static_cast<int>(b_.size()), f_.n);
    f_.A.setFromTriplets(triplets_.begin(), triplets_.end());
    f_.A.makeCompressed();
    f_.b = Eigen::Map<Eigen::VectorXd>(b_.data(), static_cast<Eigen::Index>(b_.size()));
  }

  void reserve(std::size_t rows, std::size_t nnz) {
    b_.reserve(rows);
    triplets_.reserve(nnz);
  }

 private:
  // Row = exponents of the term minus those of the monomial, minus 1 in the
  // epigraph column. setFromTriplets sums duplicates, so no ordering is needed.
  void merge_row(int row, std::span<const ychart::detail::Factor> a, std::span<const ychart::detail::Factor> m,
                 int shift_var) {
    for (const auto& x : a) triplets_.emplace_back(row, int(x.var), x.exponent);
    for (const auto& x : m) triplets_.emplace_back(row, int(x.var), -x.exponent);
    if (shift_var >= 0) triplets_.emplace_back(row, shift_var, -1.0);
  }

  GpStandardForm& f_;
  std::vector<Eigen::Triplet<double, int>> triplets_;
  std::vector<double> b_;
};

inline double log_bound(double v) {
  if (v <= 0.0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(v)) return std::numeric_limits<double>::infinity();
  return std::log(v);
}

}  // namespace detail

/// Lowers a model to the log-space standard form.
inline GpStandardForm lower_gp(const Model& model) {
  if (!model.has_objective()) throw model_error("ychart: the model has no objective; call minimize() or maximize()");
  const auto& reg = model.registry();
  GpStandardForm f;
  f.n_model = static_cast<int>(reg.variables.size());
  const auto& obj = model.objective();
  const bool epigraph_objective = obj.size() > 1;
  f.n = f.n_model + (epigraph_objective ? 1 : 0);
  f.lower.resize(f.n);
  f.upper.resize(f.n);
  for (int j = 0; j < f.n_model; ++j) {
    f.lower[j] = detail::log_bound(reg.variables[j].lower);
    f.upper[j] = detail::log_bound(reg.variables[j].upper);
  }
  f.c = Eigen::VectorXd::Zero(f.n);
  std::size_t rows = obj.size(), nnz = obj.factor_count();
  for (const auto& c : model.constraints()) {
    rows += c.posynomial().size();
    nnz += c.posynomial().factor_count() + c.posynomial().size() * (c.monomial().factor_count() + 1);
  }
  detail::FormBuilder builder(f);
  builder.reserve(rows, nnz);

  if (epigraph_objective) {
    const int t = f.n_model;
    f.lower[t] = -std::numeric_limits<double>::infinity();
    f.upper[t] = std::numeric_limits<double>::infinity();
    f.c[t] = 1.0;
    builder.add(obj, nullptr, t, Constraint::Sense::less_equal, {Origin::objective, 0});
  } else {
    const double sign = model.sense() == Model::Sense::minimize ? 1.0 : -1.0;
    for (const auto& fac : obj.factors(0)) f.c[fac.var] += sign * fac.exponent;
    f.c0 = sign * std::log(obj.coefficient(0));
  }
  const auto& cons = model.constraints();
  for (std::size_t i = 0; i < cons.size(); ++i)
    builder.add(cons[i].posynomial(), &cons[i].monomial(), -1, cons[i].sense(), {Origin::user, i});
  for (std::size_t e = 0; e < reg.epigraphs.size(); ++e)
    builder.add(reg.epigraphs[e].lhs, nullptr, int(reg.epigraphs[e].var), Constraint::Sense::less_equal,
                {Origin::epigraph, e});
  builder.finish();
  return f;
}

/// The feasibility relaxation: every constraint and every finite bound gets
/// its own slack s_i >= 1 (sigma_i = log s_i >= 0) and the objective becomes
/// the product of the slacks. Always feasible; optimal value 1 (all sigma 0)
/// exactly when the original model is feasible.
/// Columns whose `hard` flag is set keep their bounds (fixed integers in an
/// outer-approximation subproblem); `lower`/`upper` override the form's.
inline GpStandardForm relax(const GpStandardForm& f, const std::vector<char>& hard = {},
                            const std::vector<double>* lower = nullptr, const std::vector<double>* upper = nullptr) {
  GpStandardForm r;
  const int m = f.constraint_count();
  const auto& lo = lower ? *lower : f.lower;
  const auto& hi = upper ? *upper : f.upper;
  std::vector<int> bounded_lower, bounded_upper;
  r.lower.assign(f.n, -std::numeric_limits<double>::infinity());
  r.upper.assign(f.n, std::numeric_limits<double>::infinity());
  for (int j = 0; j < f.n; ++j) {
    if (!hard.empty() && hard[j]) {
      r.lower[j] = lo[j], r.upper[j] = hi[j];
      continue;
    }
    if (std::isfinite(lo[j])) bounded_lower.push_back(j);
    if (std::isfinite(hi[j])) bounded_upper.push_back(j);
  }
  const int n_slack = m + int(bounded_lower.size() + bounded_upper.size());
  r.n = f.n + n_slack;
  r.n_model = f.n_model;
  r.lower.resize(r.n, -std::numeric_limits<double>::infinity());
  r.upper.resize(r.n, std::numeric_limits<double>::infinity());
  if (!f.linear_column.empty()) {
    r.linear_column = f.linear_column;
    r.linear_column.resize(r.n, 0);
  }
  r.c = Eigen::VectorXd::Zero(r.n);
  for (int s = f.n; s < r.n; ++s) r.lower[s] = 0.0, r.c[s] = 1.0;

  std::vector<Eigen::Triplet<double, int>> trip;
  std::vector<double> b;
  auto copy_row = [&](int src, double sign, int slack) {
    const int row = int(b.size());
    for (GpStandardForm::SparseRows::InnerIterator it(f.A, src); it; ++it) trip.emplace_back(row, it.col(), sign * it.value());
    trip.emplace_back(row, slack, -1.0);
    b.push_back(sign * f.b[src]);
  };
  auto close = [&](RowKind k, Origin o) {
    r.first_term.push_back(int(b.size()));
    r.kind.push_back(k);
    r.origin.push_back(o);
  };
  for (int i = 0; i < m; ++i) {
    const int slack = f.n + i;
    if (f.kind[i] == RowKind::linear_eq) {
      copy_row(f.first_term[i], 1.0, slack);
      close(RowKind::linear_le, f.origin[i]);
      copy_row(f.first_term[i], -1.0, slack);
      close(RowKind::linear_le, f.origin[i]);
    } else {
      for (int row = f.first_term[i]; row < f.first_term[i + 1]; ++row) copy_row(row, 1.0, slack);
      close(f.kind[i], f.origin[i]);
    }
  }
  int slack = f.n + m;
  for (int j : bounded_lower) {  // lower_j - y_j - sigma <= 0
    const int row = int(b.size());
    trip.emplace_back(row, j, -1.0);
    trip.emplace_back(row, slack++, -1.0);
    b.push_back(lo[j]);
    close(RowKind::linear_le, {Origin::variable_lower, std::size_t(j)});
  }
  for (int j : bounded_upper) {  // y_j - upper_j - sigma <= 0
    const int row = int(b.size());
    trip.emplace_back(row, j, 1.0);
    trip.emplace_back(row, slack++, -1.0);
    b.push_back(-hi[j]);
    close(RowKind::linear_le, {Origin::variable_upper, std::size_t(j)});
  }
  r.A.resize(int(b.size()), r.n);
  r.A.setFromTriplets(trip.begin(), trip.end());
  r.A.makeCompressed();
  r.b = Eigen::Map<Eigen::VectorXd>(b.data(), Eigen::Index(b.size()));
  return r;
}

}  // namespace ychart::lower
