// ychart/solve/symmetry/symmetric_allocation.hpp
// Exact solution of allocations over interchangeable devices (declared with
// Model::interchangeable) by decomposition, instead of a search over every
// permutation of the same allocation:
//   * master: the model with each device-indexed variable n_kf replaced by
//     its total S_k = sum_f n_kf. Per-device resource rows become their sum
//     over devices plus the cuts "at most floor(cap / a) units of size >= a
//     per device"; spreading terms sum_f h(n_kf) become the least value any
//     split of S_k can have (a table of S_k, by dynamic programming). It is
//     a relaxation, solved exactly by the mixed-integer solver.
//   * subproblem: place the master's totals on the devices
//     (symmetric_packing.hpp), needing the least spreading.
//   * cuts: packing is monotone (fewer units never hurt), so a totals vector
//     that cannot be packed excludes every vector above it: "some S_k below
//     S*_k", over a minimal infeasible subset of the types; a packing that
//     needs more spreading y_min than the master assumed adds
//     "y >= y_min unless some S_k is below S*_k".
// The loop ends when the master's optimum can be packed as it assumed: then
// the master's bound is attained and the allocation is optimal.
// It applies when the declared groups are integer variables >= 0 that occur
// only in per-device rows (nonnegative coefficients, <=, identical on every
// device), in rows that use their sums over devices, and in spreading rows
// sum c * h(n_kf) <= gamma * y + b with tables h(0) = 0, nondecreasing. The
// check is exact; any other use falls back to the general methods.
#pragma once

#include "../../model/tolerances.hpp"
#include "../../progress.hpp"
#include "../../model/model.hpp"
#include "../../result/solution.hpp"
#include "../../model/detail/model_editor.hpp"
#include "../mixed_integer/migp.hpp"
#include "symmetric_packing.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ychart::solve::symmetry {

/// What the check finds in a model that the decomposition applies to.
struct SymmetricStructure {
  int devices = 0, types = 0;
  std::vector<std::vector<std::uint32_t>> group;  // [device][type] registry index
  std::vector<int> type_of, device_of;            // per registry index, -1 if not in a group
  std::vector<int> tab_type, tab_device;          // per registry index: tabulated terms of group variables
  std::vector<char> device_row;                   // per constraint: a per-device resource row
  std::vector<char> linking_row;                  // per constraint: uses sums over devices
  std::vector<char> spread_row;                   // per constraint: a spreading row
  PackingProblem packing;                  // rows, capacities, per-type bounds, tables
  std::vector<std::size_t> spread_constraint;     // constraint of packing.spread[r]
  int y = -1;                                     // the spreading variable, if any
};

/// The structure of `model` with `decl` ([device][type] registry indices) as
/// its interchangeable groups, if the decomposition applies to it.
inline std::optional<SymmetricStructure> find_symmetric_structure(
    const Model& model, const std::vector<std::vector<std::uint32_t>>& decl) {
  if (decl.size() < 2 || decl.front().empty()) return std::nullopt;
  const auto& reg = model.registry();
  const auto& vars = reg.variables;
  SymmetricStructure s;
  s.devices = int(decl.size());
  s.types = int(decl.front().size());
  s.group = decl;
  s.type_of.assign(vars.size(), -1);
  s.device_of.assign(vars.size(), -1);
  s.tab_type.assign(vars.size(), -1);
  s.tab_device.assign(vars.size(), -1);
  for (int f = 0; f < s.devices; ++f)
    for (int k = 0; k < s.types; ++k) {
      const auto j = decl[f][k];
      const auto& r = vars[j];
      const auto& first = vars[decl[0][k]];
      if (r.kind != ychart::detail::VariableKind::discrete || !r.is_integer_range() || r.lower != 0.0 || r.upper != first.upper ||
          s.type_of[j] != -1)
        return std::nullopt;
      s.type_of[j] = k;
      s.device_of[j] = f;
    }
  // Tables of group variables: the same table for one type on every device.
  std::vector<std::vector<double>> table(s.types);
  std::vector<char> has_table(s.types, 0);
  for (std::size_t j = 0; j < vars.size(); ++j) {
    if (vars[j].kind != ychart::detail::VariableKind::tabulated || s.type_of[vars[j].argument] < 0) continue;
    const int k = s.type_of[vars[j].argument];
    const auto& t = vars[j].table;
    if (has_table[k] && table[k] != t) return std::nullopt;
    if (t.empty() || t[0] != 0.0) return std::nullopt;
    for (std::size_t i = 1; i < t.size(); ++i)
      if (t[i] < t[i - 1]) return std::nullopt;
    table[k] = t;
    has_table[k] = 1;
    s.tab_type[j] = k;
    s.tab_device[j] = s.device_of[vars[j].argument];
  }
  auto group_var = [&](std::uint32_t j) { return s.type_of[j] >= 0 || s.tab_type[j] >= 0; };
  // Group variables in log space or in the objective: not this structure.
  auto touches = [&](const ychart::detail::TermList& t) {
    for (std::size_t k = 0; k < t.size(); ++k)
      for (const auto& fac : t.factors(k))
        if (group_var(fac.var)) return true;
    return false;
  };
  if (touches(model.objective()) || touches(model.objective_affine())) return std::nullopt;
  for (const auto& e : reg.epigraphs)
    if (touches(e.lhs)) return std::nullopt;

  const auto& cons = model.constraints();
  s.device_row.assign(cons.size(), 0);
  s.linking_row.assign(cons.size(), 0);
  s.spread_row.assign(cons.size(), 0);
  // Per-device rows, keyed by device, as (coefficients by type, capacity).
  std::vector<std::vector<std::pair<std::vector<double>, double>>> per_device(s.devices);
  for (std::size_t i = 0; i < cons.size(); ++i) {
    const auto& c = cons[i];
    if (!touches(c.smaller()) && !touches(c.larger())) continue;
    if (c.form() != Constraint::Form::affine) return std::nullopt;
    // Net row: sum coef * var + constant (<= or ==) 0.
    // Net row: sum coef * var + constant (<= or ==) 0.
    const auto [coef, constant] = c.net_affine();
    bool any_tab = false, any_plain = false, any_other = false;
    std::set<int> devices_seen;
    for (const auto& [j, a] : coef) {
      if (s.tab_type[j] >= 0) any_tab = true, devices_seen.insert(s.tab_device[j]);
      else if (s.type_of[j] >= 0) any_plain = true, devices_seen.insert(s.device_of[j]);
      else any_other = true;
    }
    const bool less_equal = c.sense() == Constraint::Sense::less_equal;
    if (any_plain && !any_tab && !any_other && devices_seen.size() == 1 && less_equal && s.devices > 1) {
      std::vector<double> a(s.types, 0.0);
      for (const auto& [j, v] : coef) {
        if (v < 0) return std::nullopt;
        a[s.type_of[j]] += v;
      }
      per_device[*devices_seen.begin()].emplace_back(std::move(a), -constant);
      s.device_row[i] = 1;
      continue;
    }
    // Rows over all devices must treat every device alike.
    auto symmetric = [&](bool tabulated) {
      std::vector<std::vector<double>> by(s.types, std::vector<double>(s.devices, 0.0));
      for (const auto& [j, v] : coef) {
        if (tabulated ? s.tab_type[j] < 0 : s.type_of[j] < 0) continue;
        const int k = tabulated ? s.tab_type[j] : s.type_of[j];
        const int f = tabulated ? s.tab_device[j] : s.device_of[j];
        by[k][f] += v;
      }
      std::vector<double> out(s.types, 0.0);
      for (int k = 0; k < s.types; ++k) {
        for (int f = 1; f < s.devices; ++f)
          if (by[k][f] != by[k][0]) return std::optional<std::vector<double>>();
        out[k] = by[k][0];
      }
      return std::optional<std::vector<double>>(out);
    };
    if (any_plain && !any_tab) {
      if (!symmetric(false)) return std::nullopt;
      s.linking_row[i] = 1;
      continue;
    }
    if (any_tab && !any_plain && less_equal) {
      // sum c_k T_k - gamma * y + constant <= 0, c_k >= 0, at most one other variable y (gamma >= 0).
      auto c_by_type = symmetric(true);
      if (!c_by_type) return std::nullopt;
      PackingProblem::SpreadRow row;
      for (int k = 0; k < s.types; ++k) {
        if ((*c_by_type)[k] < 0) return std::nullopt;
        if ((*c_by_type)[k] > 0) row.terms.emplace_back(k, (*c_by_type)[k]);
      }
      for (const auto& [j, v] : coef) {
        if (group_var(j)) continue;
        if (v > 0 || (s.y >= 0 && s.y != int(j)) || vars[j].kind != ychart::detail::VariableKind::real ||
            !std::isfinite(vars[j].lower))
          return std::nullopt;
        s.y = int(j);
        row.gamma = -v;
      }
      // A spreading row without a spreading variable (sum_f h(n_kf) <= b) is
      // a hard limit the packing search does not enforce: leave such models
      // to the general methods.
      if (!(row.gamma > 0)) return std::nullopt;
      row.b = -constant;
      s.packing.spread.push_back(std::move(row));
      s.spread_constraint.push_back(i);
      s.spread_row[i] = 1;
      continue;
    }
    return std::nullopt;
  }
  // The per-device rows must be the same on every device.
  for (auto& rows : per_device) std::sort(rows.begin(), rows.end());
  for (int f = 1; f < s.devices; ++f)
    if (per_device[f] != per_device[0]) return std::nullopt;
  auto& p = s.packing;
  p.devices = s.devices;
  p.per_device_max.resize(s.types);
  for (int k = 0; k < s.types; ++k) p.per_device_max[k] = int(vars[decl[0][k]].upper);
  p.use.assign(per_device[0].size(), std::vector<double>(s.types, 0.0));
  for (std::size_t r = 0; r < per_device[0].size(); ++r) {
    p.use[r] = per_device[0][r].first;
    p.capacity.push_back(per_device[0][r].second);
    if (p.capacity.back() < 0) return std::nullopt;
    // The bound each row implies: at most floor(cap / use) units of a type per device.
    for (int k = 0; k < s.types; ++k)
      if (p.use[r][k] > 0)
        p.per_device_max[k] = std::min(p.per_device_max[k], int(std::floor(p.capacity[r] / p.use[r][k] + 1e-9)));
  }
  if (!p.spread.empty()) {
    p.table.resize(s.types);
    for (int k = 0; k < s.types; ++k)
      if (has_table[k]) p.table[k] = table[k];
  }
  return s;
}


/// The least sum_f h(n_f) over splits of s units on `devices` devices with at
/// most `most` per device: the master's lower bound on a spreading term.
inline std::vector<double> least_spread(const std::vector<double>& h, int devices, int most) {
  const int total = devices * most;
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> best(total + 1, inf);
  best[0] = 0.0;
  for (int f = 0; f < devices; ++f) {  // one more device at a time
    std::vector<double> next(total + 1, inf);
    for (int s = 0; s <= total; ++s) {
      if (best[s] == inf) continue;
      for (int v = 0; v <= most && s + v <= total; ++v) next[s + v] = std::min(next[s + v], best[s] + h[v]);
    }
    best = std::move(next);
  }
  return best;
}

/// The largest use of row r one device can reach with whole units, at most
/// per_device_max of each type; an upper bound (sizes rounded down on a grid).
inline double most_fill(const PackingProblem& p, std::size_t r) {
  std::vector<std::pair<double, int>> units;
  for (std::size_t k = 0; k < p.per_device_max.size(); ++k) units.emplace_back(p.use[r][k], p.per_device_max[k]);
  return fill_bound(units, p.capacity[r], 1 << 15).back();
}

struct Master {
  Model model;
  std::vector<Discrete<>> total;  // S_k
};

inline Master build_master(const Model& original, const SymmetricStructure& st) {
  Master m;
  ychart::detail::Registry& reg = ychart::detail::ModelEditor::registry(m.model);
  const auto& vars = original.registry().variables;
  // The same variables at the same indices, so terms copy unchanged; group
  // variables and their tables become unused fixed reals.
  for (std::size_t j = 0; j < vars.size(); ++j) {
    ychart::detail::VariableRecord r = vars[j];
    if (st.type_of[j] >= 0 || st.tab_type[j] >= 0) {
      r.kind = ychart::detail::VariableKind::real;
      r.lower = r.upper = 0.0;
      r.values.clear();
      r.table.clear();
    }
    reg.add(std::move(r));
  }
  reg.epigraphs = original.registry().epigraphs;
  const int F = st.devices;
  const auto& cons = original.constraints();
  // `x == sum_f n_kf` with x a discrete variable: x is the total of type k
  // itself, and a second variable (a second encoding) would only weaken the
  // master's relaxation.
  std::vector<int> alias(st.types, -1);
  std::vector<char> alias_row(cons.size(), 0);
  for (std::size_t i = 0; i < cons.size(); ++i) {
    const auto& c = cons[i];
    if (!st.linking_row[i] || c.sense() != Constraint::Sense::equal) continue;
    const auto [coef, constant] = c.net_affine();
    int x = -1, type = -1;
    double x_coef = 0.0;
    bool ok = constant == 0.0;
    for (const auto& [j, a] : coef) {
      if (st.type_of[j] >= 0) {
        if (type >= 0 && type != st.type_of[j]) ok = false;
        type = st.type_of[j];
      } else if (x < 0 && vars[j].kind == ychart::detail::VariableKind::discrete && vars[j].is_integer_range()) {
        x = int(j);
        x_coef = a;
      } else {
        ok = false;
      }
    }
    if (!ok || x < 0 || type < 0 || alias[type] >= 0) continue;
    for (const auto& [j, a] : coef)
      if (st.type_of[j] >= 0 && a != -x_coef) ok = false;
    if (!ok) continue;
    alias[type] = x;
    alias_row[i] = 1;
  }
  for (int k = 0; k < st.types; ++k) {
    const auto& first = vars[st.group[0][k]];
    const double most = F * double(st.packing.per_device_max[k]);  // bounds the rows imply
    if (alias[k] >= 0) {
      const auto& x = vars[alias[k]];
      m.total.emplace_back(&reg, std::uint32_t(alias[k]), x.si_scale);
      if (most < x.upper) m.model.subject_to(m.total.back() <= most);  // as a row: may be infeasible
      continue;
    }
    m.total.push_back(m.model.integer("sum over devices of " + first.name, 0, most));
  }
  auto without_group = [&](const ychart::detail::TermList& t) {
    ychart::detail::TermList out;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const auto f = t.factors(i);
      if (!f.empty() && (st.type_of[f[0].var] >= 0 || st.tab_type[f[0].var] >= 0)) continue;
      out.push_term(t.coefficient(i), f);
    }
    return out;
  };
  std::size_t spread_index = 0;
  for (std::size_t i = 0; i < cons.size(); ++i) {
    const auto& c = cons[i];
    if (st.device_row[i] || alias_row[i]) continue;
    if (st.linking_row[i]) {  // a * n_kf on each device -> (a / F) * S_k, summing to a * S_k
      ychart::detail::TermList sides[2] = {c.smaller(), c.larger()};
      ychart::detail::TermList out[2];
      for (int side = 0; side < 2; ++side)
        for (std::size_t t = 0; t < sides[side].size(); ++t) {
          const auto f = sides[side].factors(t);
          if (!f.empty() && st.type_of[f[0].var] >= 0) {
            const auto& S = m.total[st.type_of[f[0].var]];
            out[side].append(ychart::detail::TermList::variable(S.index(), sides[side].coefficient(t) / F));
          } else {
            out[side].push_term(sides[side].coefficient(t), f);
          }
        }
      ychart::detail::ModelEditor::add_constraint(m.model, Constraint(&reg, std::move(out[0]), std::move(out[1]), c.sense(),
                                                      c.written_reversed(), c.form()).named(c.name()));
      continue;
    }
    if (st.spread_row[i]) {  // sum c_k sum_f h_k(n_kf) -> sum c_k H_k(S_k)
      const auto& row = st.packing.spread[spread_index++];
      ychart::detail::TermList smaller = without_group(c.smaller());
      for (auto [k, coef] : row.terms) {
        const auto H = least_spread(st.packing.table[k], F, st.packing.per_device_max[k]);
        // Totals above F * most cannot be split at all; a row of the master
        // excludes them, so any finite value stands in for them here.
        auto term = tabulate(m.total[k], [&](double v) { return H[std::min(std::size_t(v), H.size() - 1)]; },
                             "least spread of " + vars[st.group[0][k]].name);
        smaller.append((coef * term).terms());
      }
      ychart::detail::ModelEditor::add_constraint(m.model, Constraint(&reg, std::move(smaller), without_group(c.larger()), c.sense(),
                                                      c.written_reversed(), c.form()).named(c.name()));
      continue;
    }
    ychart::detail::ModelEditor::add_constraint(m.model, Constraint(&reg, c.smaller(), c.larger(), c.sense(), c.written_reversed(),
                                                    c.form()).named(c.name()));
  }
  // Per-device rows summed over the devices, and per row the count cuts
  // "at most floor(cap / a) units of size >= a on one device".
  const auto& p = st.packing;
  for (std::size_t r = 0; r < p.capacity.size(); ++r) {
    Affine<> sum_row;
    std::vector<double> sizes;
    for (int k = 0; k < st.types; ++k)
      if (p.use[r][k] > 0) sum_row += p.use[r][k] * m.total[k], sizes.push_back(p.use[r][k]);
    if (sizes.empty()) continue;
    // No device fills beyond the largest sum of unit sizes that fits in it
    // (a knapsack over the types, sizes rounded down on a fine grid so the
    // value is never below the true one).
    m.model.subject_to(sum_row <= F * std::min(p.capacity[r], most_fill(p, r)));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (double a : sizes) {
      Affine<> count;
      for (int k = 0; k < st.types; ++k)
        if (p.use[r][k] >= a) count += m.total[k];
      m.model.subject_to(count <= F * std::floor(p.capacity[r] / a + 1e-9));
    }
  }
  ychart::detail::ModelEditor::set_objective(m.model, original);
  return m;
}

/// Whether every constraint of `model` holds at `point` (within tolerance).
inline bool satisfies(const Model& model, const std::vector<double>& point) {
  for (const auto& c : model.constraints()) {
    const double lhs = c.smaller().evaluate(point), rhs = c.larger().evaluate(point);
    if (!std::isfinite(lhs) || !std::isfinite(rhs)) return false;  // e.g. W / N at N = 0
    const double tol = tolerances::allowance(std::max(std::abs(lhs), std::abs(rhs)));
    if (c.sense() == Constraint::Sense::equal ? std::abs(lhs - rhs) > tol : lhs > rhs + tol) return false;
  }
  return true;
}

/// Sets discrete variable j to value v in the point and re-evaluates the tables of j.
inline void set_discrete(const ychart::detail::Registry& reg, std::vector<double>& point, std::uint32_t j, double v) {
  point[j] = v;
  for (std::size_t t = 0; t < reg.variables.size(); ++t) {
    const auto& r = reg.variables[t];
    if (r.kind != ychart::detail::VariableKind::tabulated || r.argument != j) continue;
    const auto& arg = reg.variables[j];
    for (std::size_t i = 0; i < r.table.size(); ++i)
      if (arg.value_at(i) == v) point[t] = r.table[i];
  }
}

inline Solution solve_symmetric_allocation(const Model& model, const SymmetricStructure& st,
                                           const SolveOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  Solution out = mixed_integer::empty_solution(model);
  SolutionBuilder b{out};
  b.method() = "symmetric decomposition";
  Master master = build_master(model, st);
  const ychart::detail::Registry& mreg = master.model.registry();
  const auto& vars = model.registry().variables;
  const int F = st.devices, K = st.types;
  auto finish = [&](Status status, std::string msg) {
    b.status() = status;
    b.message() = std::move(msg);
    b.solve_time() = elapsed();
    if (b.has_point() && std::isfinite(b.bound()))
      b.gap() = std::abs(b.objective() - b.bound()) / std::max(std::abs(b.objective()), 1e-300);
    return out;
  };
  double bound = -std::numeric_limits<double>::infinity();
  double best = std::numeric_limits<double>::infinity();  // incumbent objective (minimised sense)
  const double sense = model.sense() == Model::Sense::minimize ? 1.0 : -1.0;
  std::vector<double> best_point;
  Solution previous;
  bool have_previous = false;
  ychart::detail::StatusLine status_line(options.verbosity >= 1, options.progress);
  double master_seconds = 0.0;  // the rest of the time is spent packing
  for (long it = 0;; ++it) {
    b.nodes() = it;
    if (it >= options.node_limit) return finish(Status::node_limit, "iteration limit of the decomposition reached");
    SolveOptions mo = options;
    mo.time_limit = options.time_limit - elapsed();
    mo.verbosity = options.verbosity >= 3 ? 2 : 0;
    mo.detect_symmetry = false;  // the master has no devices left to swap
    mo.progress = Progress::never;  // the decomposition's own line covers it
    mo.warm_start = have_previous ? &previous : nullptr;
    if (mo.time_limit <= 0) return finish(Status::time_limit, "time limit reached");
    const double master_start = elapsed();
    Solution ms = master.model.solve(mo);
    master_seconds += elapsed() - master_start;
    b.iterations() += ms.iterations();
    if (ms.status() == Status::infeasible) {
      if (best_point.empty()) return finish(Status::infeasible, "the totals over devices admit no solution");
      return finish(Status::optimal, "");
    }
    if (ms.status() != Status::optimal) {
      if (std::isfinite(ms.bound())) bound = std::max(bound, sense * ms.bound());
      if (std::isfinite(bound)) b.bound() = sense * bound;
      return finish(ms.status(), "master problem: " + ms.message());
    }
    bound = std::max(bound, sense * ms.objective());
    b.bound() = sense * bound;
    status_line.update(elapsed(), [&] {
      const double gap = best_point.empty() ? std::nan("") : (best - bound) / std::max(std::abs(best), 1e-300);
      char text[256];
      std::snprintf(text, sizeof text,
                    "ychart symmetric decomposition: %8.2f s  incumbent %-12.6g  bound %-12.6g  gap %8.4f %%  %ld "
                    "iterations (master %.2f s, packing %.2f s)",
                    elapsed(), sense * best, sense * bound, 100.0 * gap, it, master_seconds,
                    elapsed() - master_seconds);
      return std::string(text);
    });
    if (!best_point.empty() && best - bound <= std::max(options.absolute_gap, options.relative_gap * std::abs(best)))
      return finish(Status::optimal, "");
    // The master's point, with every total lowered as far as the master's
    // constraints allow: cuts from a smaller vector exclude more.
    std::vector<double> point(mreg.variables.size());
    for (std::size_t j = 0; j < point.size(); ++j) point[j] = ms.variables()[j].value;
    std::vector<int> totals(K);
    for (int k = 0; k < K; ++k) {
      const auto j = master.total[k].index();
      while (point[j] - 1 >= mreg.variables[j].lower) {
        auto trial = point;
        set_discrete(mreg, trial, j, point[j] - 1);
        if (!satisfies(master.model, trial)) break;
        point = std::move(trial);
      }
      totals[k] = int(std::lround(point[j]));
    }
    PackingProblem p = st.packing;
    p.count = totals;
    // Clamped: the default limit (1e20 s) in nanoseconds overflows the clock's
    // 64-bit count, which put the deadline in the past.
    const auto deadline = start + std::chrono::duration_cast<clock::duration>(
                                      std::chrono::duration<double>(std::clamp(options.time_limit, 0.0, 1e9)));
    auto packed = pack(p, std::numeric_limits<double>::infinity(), deadline);
    if (!packed.complete) return finish(Status::time_limit, "time limit reached while placing units on devices");
    previous = ms;
    have_previous = true;
    // Deletion filter: drop each type whose removal keeps `still(packing)`
    // true, leaving a minimal set of types with the property; false when the
    // deadline passes first.
    std::vector<char> in_core(K);
    auto minimal_core = [&](const PackingProblem& base, auto still, const std::vector<int>* start_from) {
      for (int k = 0; k < K; ++k) in_core[k] = totals[k] > 0 && !start_from;
      if (start_from)
        for (int k : *start_from) in_core[k] = 1;
      for (int k = 0; k < K; ++k) {
        if (!in_core[k]) continue;
        auto q = base;
        for (int i = 0; i < K; ++i) q.count[i] = in_core[i] && i != k ? totals[i] : 0;
        const auto r = pack(q, std::numeric_limits<double>::infinity(), deadline);
        if (!r.complete) return false;
        if (still(r)) in_core[k] = 0;
      }
      return true;
    };
    // How many of the core's totals lie below this vector's.
    auto count_below = [&] {
      Affine<> below;
      for (int k = 0; k < K; ++k) {
        if (!in_core[k]) continue;
        const double limit = totals[k] - 1;
        below += tabulate(master.total[k], [limit](double v) { return v <= limit ? 1.0 : 0.0; });
      }
      return below;
    };
    const auto out_of_time = [&] {
      return finish(Status::time_limit, "time limit reached while placing units on devices");
    };
    if (!packed.feasible) {
      // A minimal set of types that still cannot be packed, resources only.
      auto resources_only = p;
      resources_only.spread.clear();
      resources_only.table.clear();
      // The types the configuration LP priced, if it refuted the totals,
      // are a core already; the filter then only shrinks it.
      const std::vector<int>* lp_core = packed.refuting_types.empty() ? nullptr : &packed.refuting_types;
      if (!minimal_core(resources_only, [](const PackingResult& r) { return !r.feasible; }, lp_core))
        return out_of_time();
      // Spreading rows can make a packable vector infeasible: then the core
      // is found with them, and it is the whole vector if need be.
      {
        auto q = p;
        for (int i = 0; i < K; ++i) q.count[i] = in_core[i] ? totals[i] : 0;
        const auto r = pack(q, std::numeric_limits<double>::infinity(), deadline);
        if (!(r.complete && !r.feasible))
          for (int k = 0; k < K; ++k) in_core[k] = totals[k] > 0;
      }
      const Affine<> below = count_below();
      if (below.terms().empty()) return finish(Status::infeasible, "no allocation fits the devices");
      master.model.subject_to(below >= 1.0);
      continue;
    }
    // A packing: a feasible point of the original model.
    std::vector<double> x(vars.size(), 0.0);
    for (std::size_t j = 0; j < vars.size(); ++j)
      if (st.type_of[j] < 0 && st.tab_type[j] < 0) x[j] = point[j];
    for (int k = 0; k < K; ++k)
      for (int f = 0; f < F; ++f) x[st.group[f][k]] = packed.n[k][f];
    const double y_master = st.y >= 0 ? point[st.y] : 0.0;
    if (st.y >= 0 && packed.y_needed > y_master) x[st.y] = packed.y_needed;
    x = mixed_integer::complete_point(model, std::move(x));
    if (satisfies(model, x)) {
      const double objective = model.objective().evaluate(x) + model.objective_affine().evaluate(x);
      if (sense * objective < best) {
        best = sense * objective;
        best_point = x;
        mixed_integer::fill_point(b, model, best_point);
      }
    }
    if (st.y < 0 || packed.y_needed <= y_master + tolerances::allowance(y_master)) {
      // The master's optimum is attained: proven optimal.
      if (best_point.empty()) return finish(Status::numerical_error, "the packed allocation violates a constraint");
      return finish(Status::optimal, "");
    }
    // Needs more spreading than the master assumed: y >= y_min unless some
    // total is lower, over a minimal set of types that still needs y_min.
    const double y_lo = vars[st.y].lower;
    const double y_min = packed.y_needed;
    if (!minimal_core(
            p, [y_min](const PackingResult& r) { return !r.feasible || r.y_needed >= y_min - 1e-12; },
            nullptr))
      return out_of_time();
    Real<> y(&ychart::detail::ModelEditor::registry(master.model), std::uint32_t(st.y), vars[st.y].si_scale);
    master.model.subject_to(y + (y_min - y_lo) * count_below() >= y_min);
  }
}
}  // namespace ychart::solve::symmetry
