// ychart/lower/minlp_form.hpp
// Lowers a model with discrete or real variables to one convex form over
// columns in two spaces (docs/solvers.md, "Mixed-integer models"):
//   * log columns y = log x for positive variables and for discrete
//     variables that appear in monomials (all values > 0);
//   * linear columns for reals, discrete values, tabulated values, and the
//     binary encoding z of a discrete n that is used in log space, in a
//     table, or has an explicit value set:
//         sum_v z_v = 1,  n = sum_v v z_v,  log n = sum_v log(v) z_v,
//         f(n) = sum_v f(v) z_v,
//     all linear in z;
//   * GP constraints as in lower_gp (monomial rows linear, posynomial rows
//     sums of exponentials), affine constraints as linear rows, and
//     `posynomial <= affine` as a mixed row sum exp(.) + d.x + e <= 0.
// The objective is linear in the columns: log(monomial), a log-space
// epigraph for a posynomial, or t + affine with sum exp(.) <= t (linear t)
// when a posynomial and an affine part are added.
// One reduction keeps mixed-integer models linear where they can be: a
// positive variable x that appears only in objective terms c * x and on the
// larger side of constraints `sum_k c_k g_k(n_k) <= a * x` (each g_k a power
// of one discrete variable, or a constant) gets a linear column, and those
// constraints become linear rows in the encodings (II >= WCET / N is
// II >= sum_v (WCET / v) [N = v]). It is exact at integer points and leaves
// the relaxation at least as tight. Relaxing integrality gives
// a convex NLP; fixing the integer columns gives the outer-approximation
// subproblem.
#pragma once

#include "gp_standard_form.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ychart::lower {

/// The binary encoding of one discrete variable.
struct Encoding {
  std::uint32_t var;           // registry index
  int first = 0;               // first z column
  std::vector<double> values;  // value of each z column
};

/// What a column stands for, independent of where the lowering put it, so
/// that cuts learnt on one model can be carried to a related one.
struct ColumnKey {
  enum Kind : std::uint8_t { value, log, encoding, objective } kind;
  std::uint32_t var = 0;    // registry index (value, log, encoding)
  std::uint32_t index = 0;  // position in the encoding
  auto operator<=>(const ColumnKey&) const = default;
};

struct MinlpForm {
  GpStandardForm nlp;               // the continuous relaxation (integrality dropped)
  std::vector<ColumnKey> column_key;  // per column
  std::vector<char> integer;        // integrality of each column
  std::vector<int> value_column;    // per registry variable: column holding its value (log column for positives)
  std::vector<int> log_column;      // per registry variable: its log column, or -1
  std::vector<Encoding> encodings;
  /// The user's objective is sign * exp(phi) (log_objective) or sign * phi,
  /// where phi = c.v + c0 is what the form minimises.
  bool log_objective = false;
  double sign = 1.0;
  /// Bound propagation showed that no point exists; the reason says where.
  bool infeasible = false;
  std::string infeasible_reason;
  int objective_column = -1;        // epigraph column of the objective, if any

  double user_objective(double phi) const { return log_objective ? sign * std::exp(phi) : sign * phi; }
  int integer_count() const {
    int k = 0;
    for (char c : integer) k += c;
    return k;
  }
};

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
        throw model_error("ychart: `" + where + "` has a nonlinear term in its affine part");
      const auto& rec = reg_.variables[fac[0].var];
      if (rec.kind == ychart::detail::VariableKind::positive && !f_.nlp.is_linear_column(f_.value_column[fac[0].var]))
        throw model_error("ychart: the positive variable `" + rec.name + "` appears in the affine part of `" + where +
                          "`; positive variables live in log space. Declare it with real() to use it linearly.");
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
        const double tol = 1e-9 * std::max(1.0, std::abs(limit));
        if (a > 0 && limit < hi[j] - tol) {
          const double v = vars[j].is_integer_range() ? std::floor(limit + tol) : limit;
          if (v < hi[j]) hi[j] = v, changed = true;
        } else if (a < 0 && limit > lo[j] + tol) {
          const double v = vars[j].is_integer_range() ? std::ceil(limit - tol) : limit;
          if (v > lo[j]) lo[j] = v, changed = true;
        }
        if (lo[j] > hi[j] + 1e-9) return int(j);
      }
    }
    if (!changed) break;
  }
  return -1;
}

/// Largest domain encoded with one binary per value.
inline constexpr double largest_encoded_domain = 100000;

/// Lowers any model (GP, mixed-integer GP, MILP) to a MinlpForm.
inline MinlpForm lower_minlp(const Model& model) {
  using ychart::detail::TermList;
  using ychart::detail::VariableKind;
  if (!model.has_objective()) throw model_error("ychart: the model has no objective; call minimize() or maximize()");
  const auto& reg = model.registry();
  const auto& vars = reg.variables;
  const int nv = static_cast<int>(vars.size());
  constexpr double inf = std::numeric_limits<double>::infinity();

  // Which discrete variables appear in log-space terms, and which are tabulated.
  std::vector<char> in_log(nv, 0), needs_encoding(nv, 0);
  auto mark_log = [&](const TermList& t, const std::string& where) {
    for (std::size_t k = 0; k < t.size(); ++k)
      for (const auto& fac : t.factors(k)) {
        const auto& r = vars[fac.var];
        if (r.kind == VariableKind::real || r.kind == VariableKind::tabulated)
          throw model_error("ychart: the " + detail::kind_text(r) + " variable `" + r.name + "` appears in a " +
                            "monomial in `" + where + "`; it may appear only in affine expressions");
        if (r.kind == VariableKind::discrete) in_log[fac.var] = 1;
      }
  };
  const auto& cons = model.constraints();
  for (const auto& c : cons) {
    if (c.form() == Constraint::Form::gp) {
      mark_log(c.posynomial(), c.to_string());
      mark_log(c.monomial(), c.to_string());
    } else if (c.form() == Constraint::Form::mixed) {
      mark_log(c.posynomial(), c.to_string());
    }
  }
  for (const auto& e : reg.epigraphs) mark_log(e.lhs, vars[e.var].name);
  mark_log(model.objective(), "the objective");

  // Positive variables that can live in linear space (see the header).
  std::vector<char> linear_positive(nv, 0);
  {
    std::vector<char> eligible(nv, 0);
    for (int j = 0; j < nv; ++j) eligible[j] = vars[j].kind == VariableKind::positive && !vars[j].auxiliary;
    auto disqualify = [&](const TermList& t) {
      for (std::size_t k = 0; k < t.size(); ++k)
        for (const auto& fac : t.factors(k)) eligible[fac.var] = 0;
    };
    const bool any_discrete = std::any_of(vars.begin(), vars.end(),
                                          [](const auto& r) { return r.kind != VariableKind::positive; });
    if (!any_discrete || model.sense() == Model::Sense::maximize) std::fill(eligible.begin(), eligible.end(), 0);
    const auto& obj_terms = model.objective();
    for (std::size_t k = 0; k < obj_terms.size(); ++k) {
      const auto fac = obj_terms.factors(k);
      if (fac.size() == 1 && fac[0].exponent == 1.0) continue;  // c * x
      for (const auto& x : fac) eligible[x.var] = 0;
    }
    for (const auto& e : reg.epigraphs) disqualify(e.lhs), eligible[e.var] = 0;
    for (const auto& c : cons) {
      if (c.form() == Constraint::Form::mixed) disqualify(c.posynomial());
      if (c.form() != Constraint::Form::gp) continue;
      if (!detail::is_linear_lower_bound(c, vars)) disqualify(c.posynomial()), disqualify(c.monomial());
    }
    linear_positive = eligible;
  }
  // Domains tightened by the affine rows.
  std::vector<double> lo(nv), hi(nv);
  for (int j = 0; j < nv; ++j) {
    const bool positive = vars[j].kind == VariableKind::positive;
    lo[j] = positive ? -std::numeric_limits<double>::infinity() : vars[j].lower;
    hi[j] = positive ? std::numeric_limits<double>::infinity() : vars[j].upper;
  }
  int empty = propagate_bounds(model, lo, hi);
  for (int j = 0; j < nv; ++j) {  // all marks first: a table comes after its argument
    const auto& r = vars[j];
    if (r.kind == VariableKind::tabulated) needs_encoding[r.argument] = 1;
    if (r.kind == VariableKind::discrete && (in_log[j] || !r.values.empty())) needs_encoding[j] = 1;
  }
  // The values of each encoded variable that survive propagation, in order.
  std::vector<std::vector<double>> domains(nv);
  for (int j = 0; j < nv; ++j) {
    const auto& r = vars[j];
    if (in_log[j] && !(r.value_at(0) > 0.0))  // values are sorted: the first is the smallest
      throw model_error("ychart: the discrete variable `" + r.name + "` appears in a monomial, so its values "
                        "must be >= 1 (positive for a choice), but it can take " +
                        ychart::detail::format_number(r.value_at(0)) +
                        ". Raise its lower bound, or use it in affine expressions only.");
    if (!needs_encoding[j] || empty >= 0) continue;
    const double count = r.is_integer_range() ? std::floor(hi[j] + 1e-9) - std::ceil(lo[j] - 1e-9) + 1.0
                                              : r.domain_size();
    if (count > largest_encoded_domain)
      throw model_error("ychart: the discrete variable `" + r.name + "` has " +
                        ychart::detail::format_number(count) +
                        " values; a variable used in a monomial or a table may have at most 100000");
    for (std::size_t i = 0; i < std::size_t(r.domain_size()); ++i) {
      const double v = r.value_at(i);
      if (v >= lo[j] - 1e-9 && v <= hi[j] + 1e-9) domains[j].push_back(v);
    }
    if (domains[j].empty()) empty = j;  // a choice none of whose values lies within the bounds
  }

  MinlpForm m;
  if (empty >= 0) {
    m.infeasible = true;
    m.infeasible_reason = "the affine constraints leave the discrete variable `" + vars[empty].name + "` no value";
    return m;
  }
  GpStandardForm& f = m.nlp;
  m.value_column.assign(nv, -1);
  m.log_column.assign(nv, -1);
  auto add_column = [&](double lo, double hi, bool linear, bool integer) {
    f.lower.push_back(lo);
    f.upper.push_back(hi);
    f.linear_column.push_back(linear ? 1 : 0);
    m.integer.push_back(integer ? 1 : 0);
    return f.n++;
  };
  // Registry variables first: column j is variable j, so n_model columns
  // line up with the model's variables as in lower_gp.
  for (int j = 0; j < nv; ++j) {
    const auto& r = vars[j];
    switch (r.kind) {
      case VariableKind::positive:
        if (linear_positive[j]) {
          m.value_column[j] = add_column(r.lower, r.upper, true, false);
          break;
        }
        m.value_column[j] = m.log_column[j] = add_column(detail::log_bound(r.lower), detail::log_bound(r.upper), false,
                                                         false);
        break;
      case VariableKind::discrete:
        // Integral through its encoding as well, but marking the value
        // column too lets a MILP solver branch n <= floor / n >= ceil, which
        // splits the domain evenly where a branch on one binary does not.
        m.value_column[j] = add_column(lo[j], hi[j], true, r.is_integer_range());
        break;
      case VariableKind::real:
        m.value_column[j] = add_column(r.lower, r.upper, true, false);
        break;
      case VariableKind::tabulated:
        m.value_column[j] = add_column(r.lower, r.upper, true, false);
        break;
    }
  }
  f.n_model = nv;
  for (int j = 0; j < nv; ++j)
    if (in_log[j]) m.log_column[j] = add_column(std::log(domains[j].front()), std::log(domains[j].back()), false, false);
  for (int j = 0; j < nv; ++j) {
    if (!needs_encoding[j]) continue;
    Encoding e{std::uint32_t(j), f.n, domains[j]};
    for (std::size_t i = 0; i < e.values.size(); ++i) add_column(0.0, 1.0, true, true);
    m.encodings.push_back(std::move(e));
  }

  // Objective. Terms c * x of linearized variables join the affine part.
  TermList obj, obj_affine = model.objective_affine();
  for (std::size_t k = 0; k < model.objective().size(); ++k) {
    const auto fac = model.objective().factors(k);
    if (fac.size() == 1 && linear_positive[fac[0].var]) obj_affine.push_term(model.objective().coefficient(k), fac);
    else obj.push_term(model.objective().coefficient(k), fac);
  }
  const bool maximize = model.sense() == Model::Sense::maximize;
  m.sign = maximize ? -1.0 : 1.0;
  int obj_col = -1;
  if (obj_affine.empty()) {
    m.log_objective = true;
    if (obj.size() > 1) obj_col = add_column(-inf, inf, false, false);  // log epigraph
  } else if (!obj.empty()) {
    obj_col = add_column(0.0, inf, true, false);  // t >= posynomial, linear space
  }
  m.objective_column = obj_col;
  f.c = Eigen::VectorXd::Zero(f.n);

  // Rows.
  std::vector<Eigen::Triplet<double, int>> trip;
  std::vector<double> b;
  auto close = [&](RowKind k, Origin o) {
    f.first_term.push_back(int(b.size()));
    f.kind.push_back(k);
    f.origin.push_back(o);
  };
  // Log-space term: exponents map each variable to its log column.
  auto log_term = [&](int row, std::span<const ychart::detail::Factor> fac, double sign) {
    for (const auto& x : fac) trip.emplace_back(row, m.log_column[x.var], sign * x.exponent);
  };
  // posynomial / monomial <= 1 (== 1), optionally with an epigraph column shift.
  auto gp_rows = [&](const TermList& p, const TermList* mono, int shift, Constraint::Sense sense, Origin o) {
    if (p.empty()) return;
    const double log_m = mono ? std::log(mono->coefficient(0)) : 0.0;
    for (std::size_t k = 0; k < p.size(); ++k) {
      const int row = int(b.size());
      b.push_back(std::log(p.coefficient(k)) - log_m);
      log_term(row, p.factors(k), 1.0);
      if (mono) log_term(row, mono->factors(0), -1.0);
      if (shift >= 0) trip.emplace_back(row, shift, -1.0);
    }
    close(sense == Constraint::Sense::equal ? RowKind::linear_eq
          : p.size() == 1                    ? RowKind::linear_le
                                             : RowKind::expsum_le,
          o);
  };
  detail::LinearRows linear(trip, m, reg);

  if (m.log_objective) {
    if (obj_col >= 0) {
      f.c[obj_col] = 1.0;
      gp_rows(obj, nullptr, obj_col, Constraint::Sense::less_equal, {Origin::objective, 0});
    } else {
      for (const auto& fac : obj.factors(0)) f.c[m.log_column[fac.var]] += m.sign * fac.exponent;
      f.c0 = m.sign * std::log(obj.coefficient(0));
    }
  } else {
    // minimise sign * (t + affine), t >= posynomial.
    std::vector<Eigen::Triplet<double, int>> obj_trip;
    detail::LinearRows objective_terms(obj_trip, m, reg);
    f.c0 = m.sign * objective_terms.add(0, obj_affine, 1.0, "the objective");
    for (const auto& t : obj_trip) f.c[t.col()] += m.sign * t.value();
    if (obj_col >= 0) {
      if (maximize) throw model_error("ychart: maximize() of a posynomial plus an affine part is not convex");
      f.c[obj_col] += 1.0;
      for (std::size_t k = 0; k < obj.size(); ++k) {
        const int row = int(b.size());
        b.push_back(std::log(obj.coefficient(k)));
        log_term(row, obj.factors(k), 1.0);
      }
      const int row = int(b.size());
      b.push_back(0.0);
      trip.emplace_back(row, obj_col, -1.0);
      close(RowKind::mixed_le, {Origin::objective, 0});
    }
  }

  for (std::size_t i = 0; i < cons.size(); ++i) {
    const auto& c = cons[i];
    const Origin o{Origin::user, i};
    switch (c.form()) {
      case Constraint::Form::gp: {
        const auto& mono = c.monomial();
        if (!detail::is_linear_lower_bound(c, vars) || !linear_positive[mono.factors(0)[0].var]) {
          gp_rows(c.posynomial(), &mono, -1, c.sense(), o);
          break;
        }
        // sum_k c_k g_k(n_k) - a x <= 0, g_k tabulated over n_k's encoding; scaled by a.
        const double a = mono.coefficient(0);
        const int row = int(b.size());
        double constant = 0.0;
        const auto& p = c.posynomial();
        for (std::size_t k = 0; k < p.size(); ++k) {
          const auto fac = p.factors(k);
          if (fac.empty()) {
            constant += p.coefficient(k) / a;
            continue;
          }
          const Encoding* e = nullptr;
          for (const auto& enc : m.encodings)
            if (enc.var == fac[0].var) e = &enc;
          for (std::size_t i = 0; i < e->values.size(); ++i)
            trip.emplace_back(row, e->first + int(i), p.coefficient(k) * std::pow(e->values[i], fac[0].exponent) / a);
        }
        trip.emplace_back(row, m.value_column[mono.factors(0)[0].var], -1.0);
        b.push_back(constant);
        close(RowKind::linear_le, o);
        break;
      }
      case Constraint::Form::affine: {  // (smaller - larger) / scale (<= or ==) 0
        const int row = int(b.size());
        const auto text = c.to_string();
        const std::size_t first = trip.size();
        double constant = linear.add(row, c.smaller(), 1.0, text);
        constant += linear.add(row, c.larger(), -1.0, text);
        double scale = 0.0;  // the largest coefficient: tolerances become relative
        for (std::size_t t = first; t < trip.size(); ++t) scale = std::max(scale, std::abs(trip[t].value()));
        if (!(scale > 0.0)) scale = 1.0;
        for (std::size_t t = first; t < trip.size(); ++t)
          trip[t] = Eigen::Triplet<double, int>(trip[t].row(), trip[t].col(), trip[t].value() / scale);
        b.push_back(constant / scale);
        close(c.sense() == Constraint::Sense::equal ? RowKind::linear_eq : RowKind::linear_le, o);
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
          const int row = int(b.size());
          b.push_back(std::log(p.coefficient(k)) - std::log(scale));
          log_term(row, p.factors(k), 1.0);
        }
        const int row = int(b.size());
        const std::size_t first = trip.size();
        b.push_back(linear.add(row, c.larger(), -1.0, c.to_string()) / scale);
        for (std::size_t t = first; t < trip.size(); ++t)
          trip[t] = Eigen::Triplet<double, int>(trip[t].row(), trip[t].col(), trip[t].value() / scale);
        close(RowKind::mixed_le, o);
        break;
      }
    }
  }
  for (std::size_t e = 0; e < reg.epigraphs.size(); ++e)
    gp_rows(reg.epigraphs[e].lhs, nullptr, int(reg.epigraphs[e].var), Constraint::Sense::less_equal,
            {Origin::epigraph, e});

  // Encodings: sum z = 1, n = sum v z, log n = sum log(v) z, f(n) = sum f(v) z.
  for (const auto& e : m.encodings) {
    const int count = int(e.values.size());
    const Origin o{Origin::encoding, e.var};
    int row = int(b.size());
    for (int i = 0; i < count; ++i) trip.emplace_back(row, e.first + i, 1.0);
    b.push_back(-1.0);
    close(RowKind::linear_eq, o);
    row = int(b.size());
    trip.emplace_back(row, m.value_column[e.var], -1.0);
    for (int i = 0; i < count; ++i) trip.emplace_back(row, e.first + i, e.values[i]);
    b.push_back(0.0);
    close(RowKind::linear_eq, o);
    if (m.log_column[e.var] >= 0) {
      row = int(b.size());
      trip.emplace_back(row, m.log_column[e.var], -1.0);
      for (int i = 0; i < count; ++i) trip.emplace_back(row, e.first + i, std::log(e.values[i]));
      b.push_back(0.0);
      close(RowKind::linear_eq, o);
    }
  }
  for (int j = 0; j < nv; ++j) {
    const auto& r = vars[j];
    if (r.kind != VariableKind::tabulated) continue;
    const Encoding* e = nullptr;
    for (const auto& enc : m.encodings)
      if (enc.var == r.argument) e = &enc;
    const int row = int(b.size());
    trip.emplace_back(row, m.value_column[j], -1.0);
    const auto& arg = vars[r.argument];
    for (std::size_t i = 0; i < e->values.size(); ++i) {  // the table by value: the encoding may be trimmed
      const double v = e->values[i];
      const std::size_t at =
          arg.values.empty() ? std::size_t(std::llround(v - std::ceil(arg.lower)))
                             : std::size_t(std::lower_bound(arg.values.begin(), arg.values.end(), v) - arg.values.begin());
      trip.emplace_back(row, e->first + int(i), r.table[at]);
    }
    b.push_back(0.0);
    close(RowKind::linear_eq, {Origin::encoding, std::size_t(j)});
  }

  f.A.resize(int(b.size()), f.n);
  f.A.setFromTriplets(trip.begin(), trip.end());
  f.A.makeCompressed();
  f.b = Eigen::Map<Eigen::VectorXd>(b.data(), Eigen::Index(b.size()));
  // A log column in no row and not in the objective can take any value; a
  // MILP solver would park it on the artificial box and it would look
  // unbounded. Fix it at 1 in its unit (or its nearest bound).
  {
    std::vector<char> used(f.n, 0);
    for (const auto& t : trip) used[t.col()] = 1;
    for (int j = 0; j < f.n; ++j) {
      if (used[j] || f.c[j] != 0.0 || f.is_linear_column(j)) continue;
      const double v = std::clamp(0.0, f.lower[j], f.upper[j]);
      f.lower[j] = f.upper[j] = v;
    }
  }
  m.column_key.assign(f.n, {ColumnKey::value, 0, 0});
  for (int j = 0; j < nv; ++j) {
    m.column_key[m.value_column[j]] = {m.log_column[j] == m.value_column[j] ? ColumnKey::log : ColumnKey::value,
                                       std::uint32_t(j), 0};
    if (m.log_column[j] >= 0) m.column_key[m.log_column[j]] = {ColumnKey::log, std::uint32_t(j), 0};
  }
  for (const auto& e : m.encodings)
    for (std::size_t i = 0; i < e.values.size(); ++i)
      m.column_key[e.first + int(i)] = {ColumnKey::encoding, e.var, std::uint32_t(i)};
  if (obj_col >= 0) m.column_key[obj_col] = {ColumnKey::objective, 0, 0};
  return m;
}

}  // namespace ychart::lower
