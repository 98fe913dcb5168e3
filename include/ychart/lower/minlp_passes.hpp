// ychart/lower/minlp_passes.hpp
// The passes that lower a model to a MinlpForm, each a small step with its
// own test (tests/test_minlp_passes.cpp), in the manner of CVXPY's
// reductions: which discrete variables live in log space, which positive
// variables may live in linear space, the domains left by bound
// propagation, the columns, the objective, the constraint rows, the
// encodings' rows, the unused log columns and the column keys.
// lower/lower_minlp.hpp chains them.
#pragma once

#include "../model/tolerances.hpp"
#include "minlp_form.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace ychart::lower {

namespace detail {

inline std::string kind_text(const ychart::detail::VariableRecord& r) {
  using K = ychart::detail::VariableKind;
  switch (r.kind) {
    case K::positive: return "positive";
    case K::discrete: return "discrete";
    case K::real: return "real";
    case K::tabulated: return "tabulated";
  }
  return "?";
}

/// `sum_k c_k g_k(n_k) <= a * x`: x positive with exponent 1 alone on the
/// larger side, every term of the smaller side a constant or a power of one
/// discrete variable.
inline bool is_linear_lower_bound(const Constraint& c, const std::vector<ychart::detail::VariableRecord>& vars) {
  using ychart::detail::VariableKind;
  if (c.form() != Constraint::Form::gp || c.sense() != Constraint::Sense::less_equal) return false;
  const auto& m = c.monomial();
  if (m.size() != 1 || m.factors(0).size() != 1 || m.factors(0)[0].exponent != 1.0) return false;
  if (vars[m.factors(0)[0].var].kind != VariableKind::positive) return false;
  const auto& p = c.posynomial();
  for (std::size_t k = 0; k < p.size(); ++k) {
    const auto f = p.factors(k);
    if (f.size() > 1) return false;
    if (f.size() == 1 && vars[f[0].var].kind != VariableKind::discrete) return false;
  }
  return true;
}

/// Adds rows of a linear expression (terms with at most one factor, exponent 1).
class LinearRows {
 public:
  LinearRows(std::vector<Eigen::Triplet<double, int>>& trip, const MinlpForm& f, const ychart::detail::Registry& reg)
      : trip_(trip), f_(f), reg_(reg) {}

  /// Appends sign * terms to row `row`; returns the constant part.
  double add(int row, const ychart::detail::TermList& t, double sign, const std::string& where) {
    double constant = 0.0;
    for (std::size_t k = 0; k < t.size(); ++k) {
      const auto fac = t.factors(k);
      if (fac.empty()) {
        constant += sign * t.coefficient(k);
        continue;
      }
      if (fac.size() != 1 || fac[0].exponent != 1.0)
        throw model_error("ychart: `" + where + "` has a nonlinear term in its affine part", where);
      const auto& rec = reg_.variables[fac[0].var];
      if (rec.kind == ychart::detail::VariableKind::positive && !f_.nlp.is_linear_column(f_.value_column[fac[0].var]))
        throw model_error("ychart: the positive variable `" + rec.name + "` appears in the affine part of `" + where +
                          "`; positive variables live in log space. Declare it with real() to use it linearly.", rec.name);
      trip_.emplace_back(row, f_.value_column[fac[0].var], sign * t.coefficient(k));
    }
    return constant;
  }

 private:
  std::vector<Eigen::Triplet<double, int>>& trip_;
  const MinlpForm& f_;
  const ychart::detail::Registry& reg_;
};

}  // namespace detail

/// Bounds implied by the affine constraints (activity-based propagation,
/// a few passes): the domain of every discrete variable shrinks to the values
/// some row still allows, before anything is encoded. `lo`/`hi` hold the
/// declared bounds on entry (infinite for positive variables, whose rows are
/// skipped). Returns the index of a variable left with an empty domain, or -1.
inline int propagate_bounds(const Model& model, std::vector<double>& lo, std::vector<double>& hi) {
  using ychart::detail::VariableKind;
  const auto& vars = model.registry().variables;
  struct Row {
    std::vector<std::pair<std::uint32_t, double>> a;
    double c;  // sum a x + c <= 0
  };
  std::vector<Row> rows;
  for (const auto& con : model.constraints()) {
    if (con.form() != Constraint::Form::affine) continue;
    const auto net = con.net_affine();
    Row r{{net.coef.begin(), net.coef.end()}, net.constant};
    if (std::any_of(r.a.begin(), r.a.end(), [&](const auto& t) { return vars[t.first].kind == VariableKind::positive; }))
      continue;
    rows.push_back(r);
    if (con.sense() == Constraint::Sense::equal) {
      for (auto& [j, a] : r.a) a = -a;
      r.c = -r.c;
      rows.push_back(std::move(r));
    }
  }
  for (int pass = 0; pass < 8; ++pass) {
    bool changed = false;
    for (const auto& r : rows) {
      // Least activity, and how many terms make it -infinity.
      double least = r.c;
      int unbounded = 0;
      for (const auto& [j, a] : r.a) {
        const double v = a > 0 ? a * lo[j] : a * hi[j];
        if (std::isinf(v)) ++unbounded;
        else least += v;
      }
      if (unbounded > 1) continue;
      for (const auto& [j, a] : r.a) {
        if (vars[j].kind != VariableKind::discrete) continue;
        const double own = a > 0 ? a * lo[j] : a * hi[j];
        if (std::isinf(own) ? unbounded != 1 : unbounded != 0) continue;
        const double rest = std::isinf(own) ? least : least - own;  // least activity of the other terms
        const double limit = -rest / a;  // a > 0: x <= limit; a < 0: x >= limit
        const double tol = tolerances::allowance(limit);
        if (a > 0 && limit < hi[j] - tol) {
          const double v = vars[j].is_integer_range() ? std::floor(limit + tol) : limit;
          if (v < hi[j]) hi[j] = v, changed = true;
        } else if (a < 0 && limit > lo[j] + tol) {
          const double v = vars[j].is_integer_range() ? std::ceil(limit - tol) : limit;
          if (v > lo[j]) lo[j] = v, changed = true;
        }
        if (lo[j] > hi[j] + tolerances::integrality) return int(j);
      }
    }
    if (!changed) break;
  }
  return -1;
}

/// Largest domain encoded with one binary per value.
inline constexpr double largest_encoded_domain = 100000;

// ---------------------------------------------------------------------------
// The passes of lower_minlp (lower/lower_minlp.hpp), in the order it runs
// them. The first three read the model only; the rest build the form.
// ---------------------------------------------------------------------------

/// Pass 1. Per registry variable: 1 for a discrete variable that appears in
/// a monomial (a GP constraint, the posynomial side of a mixed constraint,
/// an epigraph or the objective), whose log then needs a column. A real or
/// tabulated variable in a monomial is a model_error naming it and where.
inline std::vector<char> discrete_in_log_space(const Model& model) {
  using ychart::detail::TermList;
  using ychart::detail::VariableKind;
  const auto& reg = model.registry();
  const auto& vars = reg.variables;
  std::vector<char> in_log(vars.size(), 0);
  auto mark_log = [&](const TermList& t, const std::string& where) {
    for (std::size_t k = 0; k < t.size(); ++k)
      for (const auto& fac : t.factors(k)) {
        const auto& r = vars[fac.var];
        if (r.kind == VariableKind::real || r.kind == VariableKind::tabulated)
          throw model_error("ychart: the " + detail::kind_text(r) + " variable `" + r.name + "` appears in a " +
                            "monomial in `" + where + "`; it may appear only in affine expressions", r.name);
        if (r.kind == VariableKind::discrete) in_log[fac.var] = 1;
      }
  };
  for (const auto& c : model.constraints()) {
    if (c.form() == Constraint::Form::gp) {
      mark_log(c.posynomial(), c.to_string());
      mark_log(c.monomial(), c.to_string());
    } else if (c.form() == Constraint::Form::mixed) {
      mark_log(c.posynomial(), c.to_string());
    }
  }
  for (const auto& e : reg.epigraphs) mark_log(e.lhs, vars[e.var].name);
  mark_log(model.objective(), "the objective");
  return in_log;
}

/// Pass 2. Per registry variable: 1 for a positive variable that can live in
/// linear space (lower/lower_minlp.hpp's header): only in objective terms
/// c * x and alone on the larger side of `sum_k c_k g_k(n_k) <= a * x`, in a
/// minimised model that has discrete variables.
inline std::vector<char> linear_positive_variables(const Model& model) {
  using ychart::detail::TermList;
  using ychart::detail::VariableKind;
  const auto& reg = model.registry();
  const auto& vars = reg.variables;
  const int nv = static_cast<int>(vars.size());
  std::vector<char> eligible(nv, 0);
  for (int j = 0; j < nv; ++j) eligible[j] = vars[j].kind == VariableKind::positive && !vars[j].auxiliary;
  auto disqualify = [&](const TermList& t) {
    for (std::size_t k = 0; k < t.size(); ++k)
      for (const auto& fac : t.factors(k)) eligible[fac.var] = 0;
  };
  const bool any_discrete =
      std::any_of(vars.begin(), vars.end(), [](const auto& r) { return r.kind != VariableKind::positive; });
  if (!any_discrete || model.sense() == Model::Sense::maximize) std::fill(eligible.begin(), eligible.end(), 0);
  const auto& obj_terms = model.objective();
  for (std::size_t k = 0; k < obj_terms.size(); ++k) {
    const auto fac = obj_terms.factors(k);
    if (fac.size() == 1 && fac[0].exponent == 1.0) continue;  // c * x
    for (const auto& x : fac) eligible[x.var] = 0;
  }
  for (const auto& e : reg.epigraphs) disqualify(e.lhs), eligible[e.var] = 0;
  for (const auto& c : model.constraints()) {
    if (c.form() == Constraint::Form::mixed) disqualify(c.posynomial());
    if (c.form() != Constraint::Form::gp) continue;
    if (!detail::is_linear_lower_bound(c, vars)) disqualify(c.posynomial()), disqualify(c.monomial());
  }
  return eligible;
}

/// What pass 3 leaves of every variable's domain.
struct DiscreteDomains {
  std::vector<double> lower, upper;         // bounds after propagation (positives: infinite)
  std::vector<char> needs_encoding;         // in log space, tabulated, or given a value set
  std::vector<std::vector<double>> values;  // per encoded variable: its values within the bounds, ascending
  int empty = -1;                           // a variable left with no value, or -1
};

/// Pass 3. Bounds propagated through the affine rows, then the values of
/// each variable that needs a binary encoding (a discrete variable in log
/// space or with a value set, the argument of a table). A discrete variable
/// in log space whose smallest value is not positive, or an encoding of more
/// than largest_encoded_domain values, is a model_error.
inline DiscreteDomains discrete_domains(const Model& model, const std::vector<char>& in_log) {
  using ychart::detail::VariableKind;
  const auto& vars = model.registry().variables;
  const int nv = static_cast<int>(vars.size());
  DiscreteDomains d;
  d.lower.resize(nv);
  d.upper.resize(nv);
  for (int j = 0; j < nv; ++j) {
    const bool positive = vars[j].kind == VariableKind::positive;
    d.lower[j] = positive ? -std::numeric_limits<double>::infinity() : vars[j].lower;
    d.upper[j] = positive ? std::numeric_limits<double>::infinity() : vars[j].upper;
  }
  d.empty = propagate_bounds(model, d.lower, d.upper);
  d.needs_encoding.assign(nv, 0);
  for (int j = 0; j < nv; ++j) {  // all marks first: a table comes after its argument
    const auto& r = vars[j];
    if (r.kind == VariableKind::tabulated) d.needs_encoding[r.argument] = 1;
    if (r.kind == VariableKind::discrete && (in_log[j] || !r.values.empty())) d.needs_encoding[j] = 1;
  }
  d.values.resize(nv);
  for (int j = 0; j < nv; ++j) {
    const auto& r = vars[j];
    if (in_log[j] && !(r.value_at(0) > 0.0))  // values are sorted: the first is the smallest
      throw model_error("ychart: the discrete variable `" + r.name + "` appears in a monomial, so its values "
                        "must be >= 1 (positive for a choice), but it can take " +
                        ychart::detail::format_number(r.value_at(0)) +
                        ". Raise its lower bound, or use it in affine expressions only.", r.name);
    if (!d.needs_encoding[j] || d.empty >= 0) continue;
    const double count = r.is_integer_range()
                             ? std::floor(d.upper[j] + tolerances::integrality) - std::ceil(d.lower[j] - tolerances::integrality) + 1.0
                             : r.domain_size();
    if (count > largest_encoded_domain)
      throw model_error("ychart: the discrete variable `" + r.name + "` has " + ychart::detail::format_number(count) +
                        " values; a variable used in a monomial or a table may have at most 100000", r.name);
    for (std::size_t i = 0; i < std::size_t(r.domain_size()); ++i) {
      const double v = r.value_at(i);
      if (v >= d.lower[j] - tolerances::integrality && v <= d.upper[j] + tolerances::integrality) d.values[j].push_back(v);
    }
    if (d.values[j].empty()) d.empty = j;  // a choice none of whose values lies within the bounds
  }
  return d;
}

/// Appends one column to the form; returns its index.
inline int add_column(MinlpForm& m, double lower, double upper, bool linear, bool integer) {
  GpStandardForm& f = m.nlp;
  f.lower.push_back(lower);
  f.upper.push_back(upper);
  f.linear_column.push_back(linear ? 1 : 0);
  m.integer.push_back(integer ? 1 : 0);
  return f.n++;
}

/// Pass 4. The variables' columns: registry variables first (column j is
/// variable j, so the first n_model columns line up with the model's
/// variables as in lower_gp), then the log columns of discrete variables in
/// log space, then each encoding's binaries.
inline void add_variable_columns(const Model& model, const std::vector<char>& linear_positive,
                                 const std::vector<char>& in_log, const DiscreteDomains& d, MinlpForm& m) {
  using ychart::detail::VariableKind;
  const auto& vars = model.registry().variables;
  const int nv = static_cast<int>(vars.size());
  m.value_column.assign(nv, -1);
  m.log_column.assign(nv, -1);
  for (int j = 0; j < nv; ++j) {
    const auto& r = vars[j];
    switch (r.kind) {
      case VariableKind::positive:
        if (linear_positive[j]) {
          m.value_column[j] = add_column(m, r.lower, r.upper, true, false);
          break;
        }
        m.value_column[j] = m.log_column[j] =
            add_column(m, detail::log_bound(r.lower), detail::log_bound(r.upper), false, false);
        break;
      case VariableKind::discrete:
        // Integral through its encoding as well, but marking the value
        // column too lets a MILP solver branch n <= floor / n >= ceil, which
        // splits the domain evenly where a branch on one binary does not.
        m.value_column[j] = add_column(m, d.lower[j], d.upper[j], true, r.is_integer_range());
        break;
      case VariableKind::real:
      case VariableKind::tabulated:
        m.value_column[j] = add_column(m, r.lower, r.upper, true, false);
        break;
    }
  }
  m.nlp.n_model = nv;
  for (int j = 0; j < nv; ++j)
    if (in_log[j])
      m.log_column[j] = add_column(m, std::log(d.values[j].front()), std::log(d.values[j].back()), false, false);
  for (int j = 0; j < nv; ++j) {
    if (!d.needs_encoding[j]) continue;
    Encoding e{std::uint32_t(j), m.nlp.n, d.values[j]};
    for (std::size_t i = 0; i < e.values.size(); ++i) add_column(m, 0.0, 1.0, true, true);
    m.encodings.push_back(std::move(e));
  }
}

/// The objective split by pass 5.
struct ObjectiveParts {
  ychart::detail::TermList posynomial;  // in log space
  ychart::detail::TermList affine;      // linear, with the c * x terms of linear positives
};

/// Pass 5. The objective's sense and shape: a log-space objective (one
/// monomial, or a log epigraph column for a posynomial), or t + affine with
/// a linear epigraph column t >= posynomial. Sizes the cost vector.
inline ObjectiveParts add_objective_column(const Model& model, const std::vector<char>& linear_positive,
                                           MinlpForm& m) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  ObjectiveParts parts{{}, model.objective_affine()};
  for (std::size_t k = 0; k < model.objective().size(); ++k) {
    const auto fac = model.objective().factors(k);
    if (fac.size() == 1 && linear_positive[fac[0].var]) parts.affine.push_term(model.objective().coefficient(k), fac);
    else parts.posynomial.push_term(model.objective().coefficient(k), fac);
  }
  m.sign = model.sense() == Model::Sense::maximize ? -1.0 : 1.0;
  int column = -1;
  if (parts.affine.empty()) {
    m.log_objective = true;
    if (parts.posynomial.size() > 1) column = add_column(m, -inf, inf, false, false);  // log epigraph
  } else if (!parts.posynomial.empty()) {
    column = add_column(m, 0.0, inf, true, false);  // t >= posynomial, linear space
  }
  m.objective_column = column;
  m.nlp.c = Eigen::VectorXd::Zero(m.nlp.n);
  return parts;
}

/// The rows under construction: triplets of A, the right-hand sides b, and
/// each block's kind and origin as the form records them.
class RowBuilder {
 public:
  explicit RowBuilder(MinlpForm& m) : m_(m) {}

  int next_row() const { return int(b.size()); }

  /// Ends a block of rows.
  void close(RowKind kind, Origin origin) {
    m_.nlp.first_term.push_back(int(b.size()));
    m_.nlp.kind.push_back(kind);
    m_.nlp.origin.push_back(origin);
  }

  /// A log-space term: each factor's exponent on its variable's log column.
  void log_term(int row, std::span<const ychart::detail::Factor> factors, double sign) {
    for (const auto& x : factors) trip.emplace_back(row, m_.log_column[x.var], sign * x.exponent);
  }

  /// posynomial / monomial <= 1 (== 1), with an epigraph column subtracted
  /// when `shift` >= 0.
  void gp_rows(const ychart::detail::TermList& p, const ychart::detail::TermList* mono, int shift,
               Constraint::Sense sense, Origin origin) {
    if (p.empty()) return;
    const double log_m = mono ? std::log(mono->coefficient(0)) : 0.0;
    for (std::size_t k = 0; k < p.size(); ++k) {
      const int row = next_row();
      b.push_back(std::log(p.coefficient(k)) - log_m);
      log_term(row, p.factors(k), 1.0);
      if (mono) log_term(row, mono->factors(0), -1.0);
      if (shift >= 0) trip.emplace_back(row, shift, -1.0);
    }
    close(sense == Constraint::Sense::equal ? RowKind::linear_eq
          : p.size() == 1                    ? RowKind::linear_le
                                             : RowKind::expsum_le,
          origin);
  }

  /// Divides the triplets from `first` on by `scale`.
  void scale_from(std::size_t first, double scale) {
    for (std::size_t t = first; t < trip.size(); ++t)
      trip[t] = Eigen::Triplet<double, int>(trip[t].row(), trip[t].col(), trip[t].value() / scale);
  }

  /// The columns some triplet names (explicit zeros included).
  std::vector<char> used_columns() const {
    std::vector<char> used(m_.nlp.n, 0);
    for (const auto& t : trip) used[t.col()] = 1;
    return used;
  }

  /// Writes A and b into the form.
  void assemble() {
    GpStandardForm& f = m_.nlp;
    f.A.resize(int(b.size()), f.n);
    f.A.setFromTriplets(trip.begin(), trip.end());
    f.A.makeCompressed();
    f.b = Eigen::Map<Eigen::VectorXd>(b.data(), Eigen::Index(b.size()));
  }

  std::vector<Eigen::Triplet<double, int>> trip;
  std::vector<double> b;

 private:
  MinlpForm& m_;
};

/// Pass 6. The objective's coefficients and rows: c on the log columns of a
/// monomial, the log epigraph's rows, or c on the affine part plus the
/// mixed row sum exp(.) <= t. Maximising a posynomial plus an affine part is
/// a model_error (not convex).
inline void add_objective_rows(const Model& model, const ObjectiveParts& parts, RowBuilder& rows, MinlpForm& m) {
  GpStandardForm& f = m.nlp;
  const int column = m.objective_column;
  if (m.log_objective) {
    if (column >= 0) {
      f.c[column] = 1.0;
      rows.gp_rows(parts.posynomial, nullptr, column, Constraint::Sense::less_equal, {Origin::objective, 0});
    } else {
      for (const auto& fac : parts.posynomial.factors(0)) f.c[m.log_column[fac.var]] += m.sign * fac.exponent;
      f.c0 = m.sign * std::log(parts.posynomial.coefficient(0));
    }
    return;
  }
  // minimise sign * (t + affine), t >= posynomial.
  std::vector<Eigen::Triplet<double, int>> obj_trip;
  detail::LinearRows objective_terms(obj_trip, m, model.registry());
  f.c0 = m.sign * objective_terms.add(0, parts.affine, 1.0, "the objective");
  for (const auto& t : obj_trip) f.c[t.col()] += m.sign * t.value();
  if (column < 0) return;
  if (model.sense() == Model::Sense::maximize)
    throw model_error("ychart: maximize() of a posynomial plus an affine part is not convex");
  f.c[column] += 1.0;
  for (std::size_t k = 0; k < parts.posynomial.size(); ++k) {
    const int row = rows.next_row();
    rows.b.push_back(std::log(parts.posynomial.coefficient(k)));
    rows.log_term(row, parts.posynomial.factors(k), 1.0);
  }
  const int row = rows.next_row();
  rows.b.push_back(0.0);
  rows.trip.emplace_back(row, column, -1.0);
  rows.close(RowKind::mixed_le, {Origin::objective, 0});
}

/// The encoding of registry variable `var` (lower_minlp encodes every
/// variable it looks up here).
inline const Encoding& encoding_of(const MinlpForm& m, std::uint32_t var) {
  const Encoding* e = nullptr;
  for (const auto& enc : m.encodings)
    if (enc.var == var) e = &enc;
  return *e;
}

/// Pass 7. One block of rows per user constraint, in order, then the
/// epigraphs': GP rows in log space, `sum_k c_k g_k(n_k) <= a x` of a linear
/// positive x as one linear row over the encodings, affine rows scaled by
/// their largest coefficient, mixed rows by their affine side's.
inline void add_constraint_rows(const Model& model, const std::vector<char>& linear_positive, RowBuilder& rows,
                                MinlpForm& m) {
  const auto& reg = model.registry();
  const auto& vars = reg.variables;
  const auto& cons = model.constraints();
  detail::LinearRows linear(rows.trip, m, reg);
  for (std::size_t i = 0; i < cons.size(); ++i) {
    const auto& c = cons[i];
    const Origin o{Origin::user, i};
    switch (c.form()) {
      case Constraint::Form::gp: {
        const auto& mono = c.monomial();
        if (!detail::is_linear_lower_bound(c, vars) || !linear_positive[mono.factors(0)[0].var]) {
          rows.gp_rows(c.posynomial(), &mono, -1, c.sense(), o);
          break;
        }
        // sum_k c_k g_k(n_k) - a x <= 0, g_k tabulated over n_k's encoding; scaled by a.
        const double a = mono.coefficient(0);
        const int row = rows.next_row();
        double constant = 0.0;
        const auto& p = c.posynomial();
        for (std::size_t k = 0; k < p.size(); ++k) {
          const auto fac = p.factors(k);
          if (fac.empty()) {
            constant += p.coefficient(k) / a;
            continue;
          }
          const Encoding& e = encoding_of(m, fac[0].var);
          for (std::size_t v = 0; v < e.values.size(); ++v)
            rows.trip.emplace_back(row, e.first + int(v), p.coefficient(k) * std::pow(e.values[v], fac[0].exponent) / a);
        }
        rows.trip.emplace_back(row, m.value_column[mono.factors(0)[0].var], -1.0);
        rows.b.push_back(constant);
        rows.close(RowKind::linear_le, o);
        break;
      }
      case Constraint::Form::affine: {  // (smaller - larger) / scale (<= or ==) 0
        const int row = rows.next_row();
        const auto text = c.to_string();
        const std::size_t first = rows.trip.size();
        double constant = linear.add(row, c.smaller(), 1.0, text);
        constant += linear.add(row, c.larger(), -1.0, text);
        double scale = 0.0;  // the largest coefficient: tolerances become relative
        for (std::size_t t = first; t < rows.trip.size(); ++t) scale = std::max(scale, std::abs(rows.trip[t].value()));
        if (!(scale > 0.0)) scale = 1.0;
        rows.scale_from(first, scale);
        rows.b.push_back(constant / scale);
        rows.close(c.sense() == Constraint::Sense::equal ? RowKind::linear_eq : RowKind::linear_le, o);
        break;
      }
      case Constraint::Form::mixed: {  // (sum exp(.) - affine) / scale <= 0
        // Scaled by the largest coefficient of the affine side, so that
        // Ipopt's absolute feasibility tolerance means the same in any unit.
        double scale = 0.0;
        for (std::size_t k = 0; k < c.larger().size(); ++k) scale = std::max(scale, std::abs(c.larger().coefficient(k)));
        if (!(scale > 0.0)) scale = 1.0;
        const auto& p = c.posynomial();
        for (std::size_t k = 0; k < p.size(); ++k) {
          const int row = rows.next_row();
          rows.b.push_back(std::log(p.coefficient(k)) - std::log(scale));
          rows.log_term(row, p.factors(k), 1.0);
        }
        const int row = rows.next_row();
        const std::size_t first = rows.trip.size();
        rows.b.push_back(linear.add(row, c.larger(), -1.0, c.to_string()) / scale);
        rows.scale_from(first, scale);
        rows.close(RowKind::mixed_le, o);
        break;
      }
    }
  }
  for (std::size_t e = 0; e < reg.epigraphs.size(); ++e)
    rows.gp_rows(reg.epigraphs[e].lhs, nullptr, int(reg.epigraphs[e].var), Constraint::Sense::less_equal,
                 {Origin::epigraph, e});
}

/// Pass 8. Each encoding's rows, sum z = 1, n = sum v z and (in log space)
/// log n = sum log(v) z, then each table's f(n) = sum f(v) z, looked up by
/// value because propagation may have trimmed the encoding.
inline void add_encoding_rows(const Model& model, RowBuilder& rows, MinlpForm& m) {
  using ychart::detail::VariableKind;
  const auto& vars = model.registry().variables;
  for (const auto& e : m.encodings) {
    const int count = int(e.values.size());
    const Origin o{Origin::encoding, e.var};
    int row = rows.next_row();
    for (int i = 0; i < count; ++i) rows.trip.emplace_back(row, e.first + i, 1.0);
    rows.b.push_back(-1.0);
    rows.close(RowKind::linear_eq, o);
    row = rows.next_row();
    rows.trip.emplace_back(row, m.value_column[e.var], -1.0);
    for (int i = 0; i < count; ++i) rows.trip.emplace_back(row, e.first + i, e.values[i]);
    rows.b.push_back(0.0);
    rows.close(RowKind::linear_eq, o);
    if (m.log_column[e.var] >= 0) {
      row = rows.next_row();
      rows.trip.emplace_back(row, m.log_column[e.var], -1.0);
      for (int i = 0; i < count; ++i) rows.trip.emplace_back(row, e.first + i, std::log(e.values[i]));
      rows.b.push_back(0.0);
      rows.close(RowKind::linear_eq, o);
    }
  }
  for (std::size_t j = 0; j < vars.size(); ++j) {
    const auto& r = vars[j];
    if (r.kind != VariableKind::tabulated) continue;
    const Encoding& e = encoding_of(m, r.argument);
    const int row = rows.next_row();
    rows.trip.emplace_back(row, m.value_column[j], -1.0);
    const auto& arg = vars[r.argument];
    for (std::size_t i = 0; i < e.values.size(); ++i) {
      const double v = e.values[i];
      const std::size_t at =
          arg.values.empty() ? std::size_t(std::llround(v - std::ceil(arg.lower)))
                             : std::size_t(std::lower_bound(arg.values.begin(), arg.values.end(), v) - arg.values.begin());
      rows.trip.emplace_back(row, e.first + int(i), r.table[at]);
    }
    rows.b.push_back(0.0);
    rows.close(RowKind::linear_eq, {Origin::encoding, j});
  }
}

/// Pass 9. A log column in no row and not in the objective can take any
/// value; a MILP solver would park it on the artificial box and it would
/// look unbounded. Fixes it at 0 (1 in its unit), or its nearest bound.
inline void fix_unused_log_columns(GpStandardForm& f, const std::vector<char>& used) {
  for (int j = 0; j < f.n; ++j) {
    if (used[j] || f.c[j] != 0.0 || f.is_linear_column(j)) continue;
    const double v = std::clamp(0.0, f.lower[j], f.upper[j]);
    f.lower[j] = f.upper[j] = v;
  }
}

/// Pass 10. What every column stands for (ColumnKey), so that cuts learnt on
/// this form can be carried to a related one.
inline void assign_column_keys(MinlpForm& m) {
  m.column_key.assign(m.nlp.n, {ColumnKey::value, 0, 0});
  for (int j = 0; j < m.nlp.n_model; ++j) {
    m.column_key[m.value_column[j]] = {m.log_column[j] == m.value_column[j] ? ColumnKey::log : ColumnKey::value,
                                       std::uint32_t(j), 0};
    if (m.log_column[j] >= 0) m.column_key[m.log_column[j]] = {ColumnKey::log, std::uint32_t(j), 0};
  }
  for (const auto& e : m.encodings)
    for (std::size_t i = 0; i < e.values.size(); ++i)
      m.column_key[e.first + int(i)] = {ColumnKey::encoding, e.var, std::uint32_t(i)};
  if (m.objective_column >= 0) m.column_key[m.objective_column] = {ColumnKey::objective, 0, 0};
}

}  // namespace ychart::lower
