// ychart/solve/mixed_integer/migp.hpp
// Solves a model with discrete or real variables: lowers it to the convex
// MINLP form, sends a form without convex rows (an integer-linear model, or
// a mixed-integer GP whose posynomials are all monomials) to GLPK as one
// MILP, and otherwise runs the rounding heuristic and then outer
// approximation or branch and bound. Fills the Solution with the incumbent,
// the proven bound and the gap; `optimal` only when the gap is closed.
#pragma once

#include "../../model/tolerances.hpp"
#include "../../lower/lower_minlp.hpp"
#include "../../model/model.hpp"
#include "../../result/solution.hpp"
#include "../detail/solution_skeleton.hpp"
#include "branch_and_bound.hpp"
#include "integer_neighbourhood.hpp"
#include "outer_approximation.hpp"
#include "rounding_heuristic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace ychart::solve::mixed_integer {

/// True when the model needs the mixed-integer machinery.
inline bool needs_migp(const Model& m) {
  if (!m.objective_affine().empty()) return true;
  for (const auto& v : m.registry().variables)
    if (v.kind != ychart::detail::VariableKind::positive) return true;
  for (const auto& c : m.constraints())
    if (c.form() != Constraint::Form::gp) return true;
  return false;
}

/// Whether the lowered form has rows that are not linear.
inline bool has_convex_rows(const lower::MinlpForm& f) {
  for (auto k : f.nlp.kind)
    if (k == lower::RowKind::expsum_le || k == lower::RowKind::mixed_le) return true;
  return false;
}

/// Columns of the form from a previous solution's values, if they fit.
inline bool warm_point(const lower::MinlpForm& f, const ychart::detail::Registry& reg, const Solution& s, std::vector<double>& x) {
  const auto& vars = reg.variables;
  // Another model's solution must list the same variables; the same model
  // may have grown since (a decomposition's cuts add tabulated variables),
  // which is fine unless a new variable is discrete: its value is unknown.
  if (!s.has_values() || s.variables().size() > vars.size()) return false;
  if (s.variables().size() != vars.size() && SolutionBuilder::model_of(s) != &reg) return false;
  x.assign(f.nlp.n, 0.0);
  for (std::size_t j = 0; j < vars.size(); ++j) {
    if (j >= s.variables().size()) {
      if (vars[j].kind == ychart::detail::VariableKind::discrete) return false;
      continue;
    }
    const double v = s.variables()[j].value;
    if (!std::isfinite(v)) return false;
    if (vars[j].kind != ychart::detail::VariableKind::discrete) continue;
    x[f.value_column[j]] = v;
  }
  for (const auto& e : f.encodings) {
    const double v = x[f.value_column[e.var]];
    bool found = false;
    for (std::size_t i = 0; i < e.values.size(); ++i)
      if (std::abs(e.values[i] - v) <= tolerances::allowance(v)) x[e.first + int(i)] = 1.0, found = true;
    if (!found) return false;  // the value is not in this model's domain
  }
  for (std::size_t j = 0; j < vars.size(); ++j) {
    if (vars[j].kind != ychart::detail::VariableKind::discrete || !vars[j].is_integer_range()) continue;
    const double v = x[f.value_column[j]];
    if (v < vars[j].lower || v > vars[j].upper) return false;
  }
  return true;
}

/// A point over the registry with integers rounded and every table
/// evaluated at its argument.
inline std::vector<double> complete_point(const Model& model, std::vector<double> point) {
  const auto& vars = model.registry().variables;
  for (std::size_t j = 0; j < vars.size(); ++j)
    if (vars[j].kind == ychart::detail::VariableKind::discrete && vars[j].is_integer_range()) point[j] = std::round(point[j]);
  for (std::size_t j = 0; j < vars.size(); ++j) {
    if (vars[j].kind != ychart::detail::VariableKind::tabulated) continue;
    const auto& arg = vars[vars[j].argument];
    for (std::size_t i = 0; i < vars[j].table.size(); ++i)
      if (arg.value_at(i) == point[vars[j].argument]) point[j] = vars[j].table[i];
  }
  return point;
}

/// Sets the Solution's values from a point over the registry (values in the
/// variables' units), completed as above, the objective evaluated, and which
/// constraints are tight.
inline void fill_point(SolutionBuilder& b, const Model& model, std::vector<double> point) {
  const auto& vars = model.registry().variables;
  point = complete_point(model, std::move(point));
  for (std::size_t j = 0; j < vars.size(); ++j) b.variables()[j].value = point[j];
  b.point() = std::move(point);
  b.has_point() = true;
  b.objective() = model.objective().evaluate(b.point()) + model.objective_affine().evaluate(b.point());
  const auto& cons = model.constraints();
  for (std::size_t i = 0; i < cons.size(); ++i) {
    const auto& c = cons[i];
    const double lhs = c.smaller().evaluate(b.point()), rhs = c.larger().evaluate(b.point());
    const double scale = std::max({std::abs(lhs), std::abs(rhs), tolerances::ulps});
    b.constraints()[i].tight = c.sense() == Constraint::Sense::equal || std::abs(rhs - lhs) <= tolerances::acceptable * scale;
  }
}

/// A Solution with every variable and constraint listed and no values yet.
inline Solution empty_solution(const Model& model) {
  Solution s;
  SolutionBuilder b{s};
  solve::detail::describe_model(model, b);
  for (auto& c : b.constraints()) c.sensitivity = std::nan("");  // no duals in a mixed-integer search
  return s;
}

/// Symmetry breaking for interchangeable blocks (blocks[b][p] registry
/// indices of discrete variables; any permutation of the blocks maps the
/// model onto itself): rows key(block b) >= key(block b + 1), where
/// key = sum_p (P - p) * value(block[p]). Sorting the blocks of any
/// solution by a key gives a solution with the same objective, so the rows
/// keep an optimum and cut the permutations of every other one off the
/// search (the relaxation, branch and bound, the outer-approximation and
/// GLPK masters all see them). Integer weights keep the rows exact in GLPK.
inline void add_ordering_rows(lower::MinlpForm& m, const std::vector<std::vector<std::uint32_t>>& blocks) {
  auto& f = m.nlp;
  if (blocks.size() < 2 || m.infeasible) return;
  const std::size_t P = blocks.front().size();
  std::vector<Eigen::Triplet<double, int>> trip;
  trip.reserve(std::size_t(f.A.nonZeros()) + 2 * P * blocks.size());
  for (int r = 0; r < f.A.rows(); ++r)
    for (lower::GpStandardForm::SparseRows::InnerIterator it(f.A, r); it; ++it)
      trip.emplace_back(r, it.col(), it.value());
  int rows = int(f.A.rows());
  std::vector<double> b(f.b.data(), f.b.data() + f.b.size());
  for (std::size_t k = 0; k + 1 < blocks.size(); ++k) {
    // key(next) - key(this) <= 0, as a row a.v + b <= 0.
    std::map<int, double> a;
    for (std::size_t p = 0; p < P; ++p) {
      const double w = double(P - p);
      a[m.value_column[blocks[k + 1][p]]] += w;
      a[m.value_column[blocks[k][p]]] -= w;
    }
    for (const auto& [column, coefficient] : a)
      if (coefficient != 0.0) trip.emplace_back(rows, column, coefficient);
    b.push_back(0.0);
    ++rows;
    f.first_term.push_back(rows);
    f.kind.push_back(lower::RowKind::linear_le);
    f.origin.push_back({lower::Origin::symmetry, k});
  }
  f.A.resize(rows, f.n);
  f.A.setFromTriplets(trip.begin(), trip.end());
  f.A.makeCompressed();
  f.b = Eigen::Map<Eigen::VectorXd>(b.data(), Eigen::Index(b.size()));
}

namespace detail {

/// Whether the model is a MILP after the log transform: no convex rows, and
/// an objective that is one monomial or affine.
inline bool is_milp(const lower::MinlpForm& form, const Model& model) {
  if (!form.infeasible) return !has_convex_rows(form);
  // The form was not built; judge from the model.
  bool linear = model.objective().size() <= 1 && (model.objective().empty() || model.objective_affine().empty());
  for (const auto& c : model.constraints())
    if (c.form() == Constraint::Form::mixed || (c.form() == Constraint::Form::gp && c.posynomial().size() > 1))
      linear = false;
  return linear;
}

/// A MILP by GLPK, from a first incumbent: a related model's solution (warm
/// start), or the LP relaxation rounded, improved by a local search over
/// integer neighbours evaluated exactly.
inline SearchResult search_by_glpk(MigpContext& ctx, const lower::MinlpForm& form, const Model& model,
                                   const SolveOptions& options, std::chrono::steady_clock::time_point start) {
  using clock = std::chrono::steady_clock;
  milp::MilpOptions mo;
  mo.time_limit = options.time_limit;
  mo.relative_gap = options.relative_gap;
  mo.gomory_cuts = options.milp_gomory_cuts;
  mo.progress = options.verbosity >= 1;  // a progress line about once a second
  mo.live_progress = options.progress;   // or a live line on a terminal
  mo.verbose = options.verbosity >= 2;   // and GLPK's own output
  auto milp = ctx.master({});
  if (options.heuristic) {
    const double budget = std::clamp(0.2 * ctx.remaining(), 1e-3, 1.0);
    IntegerNeighbourhood search(
        milp, form, clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(budget)));
    std::vector<double> warm;
    const bool from_warm = options.warm_start && warm_point(form, model.registry(), *options.warm_start, warm);
    if (auto found = from_warm ? search.from(warm) : search.from_relaxation()) {
      if (options.verbosity >= 1)
        std::fprintf(stderr, "ychart neighbourhood search: %8.2f s  incumbent %-12.6g  from the %s, %d moves, %ld LPs\n",
                     std::chrono::duration<double>(clock::now() - start).count(),
                     form.user_objective(found->objective), from_warm ? "warm start" : "relaxation rounded",
                     found->moves, found->evaluations);
      mo.start = std::move(found->x);
    }
  }
  mo.time_limit = std::max(1e-3, options.time_limit - std::chrono::duration<double>(clock::now() - start).count());
  mo.solver = milp::choose_milp_solver(milp, options.milp_solver);
  auto r = milp::solve_milp(milp, mo);
  SearchResult res;
  res.milp_solver = mo.solver;
  res.status = r.status;
  res.message = r.message;
  if (!r.x.empty()) ctx.offer(r.x, r.objective);
  // The MILP's own bound, also when it stopped at the requested gap: the
  // incumbent in its place claimed a proof the search had not made.
  res.bound_phi = std::isfinite(r.bound) ? r.bound : r.objective;
  return res;
}

/// A convex MINLP by outer approximation or branch and bound, from the root
/// relaxation (or the cuts a warm start brings). Outer approximation whose
/// cuts stall below Ipopt's tolerance is finished by branch and bound, and
/// the method's name says so.
inline SearchResult search_by_nlp(MigpContext& ctx, const lower::MinlpForm& form, const Model& model,
                                  const SolveOptions& options, Method method, SolutionBuilder& b) {
  // Cuts a related model learnt (warm start) stand in for the root
  // relaxation's, when there are any for this model's rows.
  std::vector<Cut> cuts;
  const auto* pool = options.warm_start ? SolutionBuilder::cuts(*options.warm_start).get() : nullptr;
  if (pool && method == Method::outer_approximation) cuts = ctx.import_cuts(*pool);
  if (options.warm_start) {
    std::vector<double> x;
    if (warm_point(form, model.registry(), *options.warm_start, x)) ctx.solve_fixed(x);
  }
  NlpOutcome root;
  if (cuts.empty() || method == Method::branch_and_bound) {
    // Root relaxation: a bound, the first cuts, and the heuristic's start.
    root = ctx.solve_nlp(form.nlp.lower, form.nlp.upper);
    if (root.kind == NlpOutcome::optimal) {
      ctx.add_cuts(root.x, cuts);
      if (ctx.integral(root.x)) ctx.solve_fixed(root.x);
      if (options.heuristic && !ctx.has_incumbent())
        rounding_heuristic(ctx, root.x, cuts, std::max(0.05, 0.1 * ctx.remaining()));
    }
  } else {
    root.kind = NlpOutcome::optimal;  // the cuts bound the master instead
    root.phi = -std::numeric_limits<double>::infinity();
  }
  SearchResult res;
  if (root.kind == NlpOutcome::infeasible) {
    res.status = Status::infeasible;
    res.message = "the continuous relaxation is infeasible";
    return res;
  }
  if (root.kind == NlpOutcome::failed) {
    res.status = ctx.out_of_time() ? Status::time_limit : Status::numerical_error;
    res.message = "continuous relaxation: " + root.message;
    return res;
  }
  res = method == Method::branch_and_bound ? branch_and_bound(ctx) : outer_approximation(ctx, cuts);
  if (res.stalled) {
    // The cuts cannot close the last gap (below Ipopt's tolerance).
    // Branch and bound on the same context keeps the incumbent, so it
    // prunes at once wherever the incumbent is within the gap.
    const SearchResult stalled = res;
    res = branch_and_bound(ctx);
    res.count += stalled.count;
    res.bound_phi = std::max(res.bound_phi, stalled.bound_phi);
    b.method() += "+branch_and_bound";
  }
  res.bound_phi = std::max(res.bound_phi, root.phi);
  if (method == Method::outer_approximation) b.cuts() = ctx.export_cuts(cuts, pool);
  return res;
}

/// The positive variables the incumbent pushed against the log-space box:
/// the objective improves without limit along them.
inline void report_unbounded(const lower::MinlpForm& form, const Model& model, const MigpContext& ctx,
                             SolutionBuilder& b) {
  const auto& vars = model.registry().variables;
  const auto& x = ctx.incumbent();
  for (std::size_t j = 0; j < vars.size(); ++j) {
    if (vars[j].kind != ychart::detail::VariableKind::positive || form.nlp.is_linear_column(form.value_column[j])) continue;
    const double y = x[form.value_column[j]];
    const bool boxed_low = !std::isfinite(form.nlp.lower[j]) && y <= -ctx.box() + 1e-3;
    const bool boxed_high = !std::isfinite(form.nlp.upper[j]) && y >= ctx.box() - 1e-3;
    if ((boxed_low || boxed_high) && !vars[j].auxiliary) b.unbounded().push_back({vars[j].name, boxed_low});
  }
}

/// The incumbent as values in each variable's unit, exact domain values for
/// encoded variables.
inline std::vector<double> incumbent_values(const lower::MinlpForm& form, const Model& model, const MigpContext& ctx) {
  const auto& vars = model.registry().variables;
  const auto& x = ctx.incumbent();
  std::vector<double> point(vars.size());
  for (std::size_t j = 0; j < vars.size(); ++j) {
    const double v = x[form.value_column[j]];
    const bool log_space =
        vars[j].kind == ychart::detail::VariableKind::positive && !form.nlp.is_linear_column(form.value_column[j]);
    point[j] = log_space ? std::exp(v) : v;
  }
  for (const auto& e : form.encodings)
    for (std::size_t i = 0; i < e.values.size(); ++i)
      if (x[e.first + int(i)] > 0.5) point[e.var] = e.values[i];
  return point;
}

}  // namespace detail

/// `blocks`: interchangeable blocks (found or declared, verified) to break
/// with ordering rows, or nullptr.
inline Solution solve_mixed_integer(const Model& model, const SolveOptions& options, gp::LazyIpopt& ipopt,
                                    const std::vector<std::vector<std::uint32_t>>* blocks = nullptr) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto form = lower::lower_minlp(model);
  if (blocks && !blocks->empty()) {
    add_ordering_rows(form, *blocks);
    if (options.verbosity >= 1)
      std::fprintf(stderr, "ychart symmetry: %zu interchangeable blocks of %zu variables kept in order\n",
                   blocks->size(), blocks->front().size());
  }
  Solution s = empty_solution(model);
  SolutionBuilder b{s};
  auto finish = [&](Status st, std::string msg) {
    b.status() = st;
    b.message() = std::move(msg);
    b.solve_time() = std::chrono::duration<double>(clock::now() - start).count();
    return s;
  };
  MigpContext ctx(form, ipopt, options);
  const bool linear = detail::is_milp(form, model);
  Method method = options.method;
  if (method == Method::glpk && !linear)
    throw model_error("ychart: Method::glpk needs a model whose posynomials are all monomials (a MILP after the "
                      "log transform); this one has posynomial constraints or a posynomial objective");
  if (method == Method::automatic) method = linear ? Method::glpk : Method::outer_approximation;
  b.method() = std::string(to_string(method));
  // Proven infeasible while lowering, by bound propagation.
  if (form.infeasible) return finish(Status::infeasible, form.infeasible_reason);

  auto res = method == Method::glpk ? detail::search_by_glpk(ctx, form, model, options, start)
                                    : detail::search_by_nlp(ctx, form, model, options, method, b);
  // One MILP: the method says which back end solved it ("glpk" or "cbc").
  if (method == Method::glpk) b.method() = std::string(to_string(res.milp_solver));
  b.nodes() = res.count;
  b.iterations() = ctx.ipopt_iterations();
  b.gp_fallbacks() = ctx.gp_fallbacks();
  if (std::isfinite(res.bound_phi)) b.bound() = form.user_objective(res.bound_phi);
  if (!ctx.has_incumbent()) {
    if (res.status == Status::optimal) res.status = Status::infeasible;  // nothing found, nothing left
    return finish(res.status, res.message);
  }
  detail::report_unbounded(form, model, ctx, b);
  if (!b.unbounded().empty())
    return finish(Status::unbounded, "the objective improves without limit as variables run to 0 or infinity");
  fill_point(b, model, detail::incumbent_values(form, model, ctx));
  const double objective = b.objective();
  const double bound = b.bound();
  b.gap() = std::isfinite(bound) ? std::abs(objective - bound) / std::max(std::abs(objective), tolerances::tiny) : std::nan("");
  ctx.progress(b.method().c_str(), res.bound_phi, res.count, "nodes or iterations", true);
  return finish(res.status, res.message);
}

}  // namespace ychart::solve::mixed_integer
