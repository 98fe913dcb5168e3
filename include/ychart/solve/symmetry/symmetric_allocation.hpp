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

namespace detail {

/// The checks of find_symmetric_structure(), in order: the groups, their
/// tables, where group variables appear, each constraint's role, and the
/// packing problem the per-device rows make. Each returns false as soon as
/// the model is not of this structure.
class StructureFinder {
 public:
  StructureFinder(const Model& model, const std::vector<std::vector<std::uint32_t>>& decl)
      : model_(model), vars_(model.registry().variables), decl_(decl) {}

  std::optional<SymmetricStructure> find() {
    if (decl_.size() < 2 || decl_.front().empty()) return std::nullopt;
    if (!groups() || !tables() || !outside_objective_and_epigraphs()) return std::nullopt;
    const auto& cons = model_.constraints();
    s_.device_row.assign(cons.size(), 0);
    s_.linking_row.assign(cons.size(), 0);
    s_.spread_row.assign(cons.size(), 0);
    per_device_.resize(std::size_t(s_.devices));
    for (std::size_t i = 0; i < cons.size(); ++i)
      if (!classify(i)) return std::nullopt;
    if (!packing()) return std::nullopt;
    return std::move(s_);
  }

 private:
  const Model& model_;
  const std::vector<ychart::detail::VariableRecord>& vars_;
  const std::vector<std::vector<std::uint32_t>>& decl_;
  SymmetricStructure s_;
  std::vector<std::vector<double>> table_;  // per type
  std::vector<char> has_table_;             // per type
  // Per-device rows, keyed by device, as (coefficients by type, capacity).
  std::vector<std::vector<std::pair<std::vector<double>, double>>> per_device_;

  bool group_var(std::uint32_t j) const { return s_.type_of[j] >= 0 || s_.tab_type[j] >= 0; }

  bool touches(const ychart::detail::TermList& t) const {
    for (std::size_t k = 0; k < t.size(); ++k)
      for (const auto& fac : t.factors(k))
        if (group_var(fac.var)) return true;
    return false;
  }

  /// Every group variable an integer from 0, with its type's bound on every device, in one group.
  bool groups() {
    s_.devices = int(decl_.size());
    s_.types = int(decl_.front().size());
    s_.group = decl_;
    s_.type_of.assign(vars_.size(), -1);
    s_.device_of.assign(vars_.size(), -1);
    s_.tab_type.assign(vars_.size(), -1);
    s_.tab_device.assign(vars_.size(), -1);
    for (int f = 0; f < s_.devices; ++f)
      for (int k = 0; k < s_.types; ++k) {
        const auto j = decl_[f][k];
        const auto& r = vars_[j];
        const auto& first = vars_[decl_[0][k]];
        if (r.kind != ychart::detail::VariableKind::discrete || !r.is_integer_range() || r.lower != 0.0 ||
            r.upper != first.upper || s_.type_of[j] != -1)
          return false;
        s_.type_of[j] = k;
        s_.device_of[j] = f;
      }
    return true;
  }

  /// Tables of group variables: the same table for one type on every
  /// device, from 0 and non-decreasing.
  bool tables() {
    table_.resize(std::size_t(s_.types));
    has_table_.assign(std::size_t(s_.types), 0);
    for (std::size_t j = 0; j < vars_.size(); ++j) {
      if (vars_[j].kind != ychart::detail::VariableKind::tabulated || s_.type_of[vars_[j].argument] < 0) continue;
      const int k = s_.type_of[vars_[j].argument];
      const auto& t = vars_[j].table;
      if (has_table_[k] && table_[k] != t) return false;
      if (t.empty() || t[0] != 0.0) return false;
      for (std::size_t i = 1; i < t.size(); ++i)
        if (t[i] < t[i - 1]) return false;
      table_[k] = t;
      has_table_[k] = 1;
      s_.tab_type[j] = k;
      s_.tab_device[j] = s_.device_of[vars_[j].argument];
    }
    return true;
  }

  /// Group variables in log space or in the objective: not this structure.
  bool outside_objective_and_epigraphs() const {
    if (touches(model_.objective()) || touches(model_.objective_affine())) return false;
    for (const auto& e : model_.registry().epigraphs)
      if (touches(e.lhs)) return false;
    return true;
  }

  /// A row over all devices as coefficients by type, if it treats every
  /// device alike (over the group variables, or over their tables).
  std::optional<std::vector<double>> symmetric(const std::map<std::uint32_t, double>& coef, bool tabulated) const {
    std::vector<std::vector<double>> by(std::size_t(s_.types), std::vector<double>(std::size_t(s_.devices), 0.0));
    for (const auto& [j, v] : coef) {
      if (tabulated ? s_.tab_type[j] < 0 : s_.type_of[j] < 0) continue;
      const int k = tabulated ? s_.tab_type[j] : s_.type_of[j];
      const int f = tabulated ? s_.tab_device[j] : s_.device_of[j];
      by[k][f] += v;
    }
    std::vector<double> out(std::size_t(s_.types), 0.0);
    for (int k = 0; k < s_.types; ++k) {
      for (int f = 1; f < s_.devices; ++f)
        if (by[k][f] != by[k][0]) return std::nullopt;
      out[k] = by[k][0];
    }
    return out;
  }

  /// Constraint i's role: untouched, a per-device resource row, a row
  /// linking the devices, or a spreading row; false for anything else.
  bool classify(std::size_t i) {
    const auto& c = model_.constraints()[i];
    if (!touches(c.smaller()) && !touches(c.larger())) return true;
    if (c.form() != Constraint::Form::affine) return false;
    // Net row: sum coef * var + constant (<= or ==) 0.
    const auto [coef, constant] = c.net_affine();
    bool any_tab = false, any_plain = false, any_other = false;
    std::set<int> devices_seen;
    for (const auto& [j, a] : coef) {
      if (s_.tab_type[j] >= 0) any_tab = true, devices_seen.insert(s_.tab_device[j]);
      else if (s_.type_of[j] >= 0) any_plain = true, devices_seen.insert(s_.device_of[j]);
      else any_other = true;
    }
    const bool less_equal = c.sense() == Constraint::Sense::less_equal;
    if (any_plain && !any_tab && !any_other && devices_seen.size() == 1 && less_equal && s_.devices > 1) {
      std::vector<double> a(std::size_t(s_.types), 0.0);
      for (const auto& [j, v] : coef) {
        if (v < 0) return false;
        a[s_.type_of[j]] += v;
      }
      per_device_[*devices_seen.begin()].emplace_back(std::move(a), -constant);
      s_.device_row[i] = 1;
      return true;
    }
    if (any_plain && !any_tab) {
      if (!symmetric(coef, false)) return false;
      s_.linking_row[i] = 1;
      return true;
    }
    if (any_tab && !any_plain && less_equal) return spread_row(i, coef, constant);
    return false;
  }

  /// sum c_k T_k - gamma * y + constant <= 0, c_k >= 0, at most one other
  /// variable y (gamma >= 0).
  bool spread_row(std::size_t i, const std::map<std::uint32_t, double>& coef, double constant) {
    auto c_by_type = symmetric(coef, true);
    if (!c_by_type) return false;
    PackingProblem::SpreadRow row;
    for (int k = 0; k < s_.types; ++k) {
      if ((*c_by_type)[k] < 0) return false;
      if ((*c_by_type)[k] > 0) row.terms.emplace_back(k, (*c_by_type)[k]);
    }
    for (const auto& [j, v] : coef) {
      if (group_var(j)) continue;
      if (v > 0 || (s_.y >= 0 && s_.y != int(j)) || vars_[j].kind != ychart::detail::VariableKind::real ||
          !std::isfinite(vars_[j].lower))
        return false;
      s_.y = int(j);
      row.gamma = -v;
    }
    // A spreading row without a spreading variable (sum_f h(n_kf) <= b) is
    // a hard limit the packing search does not enforce: leave such models
    // to the general methods.
    if (!(row.gamma > 0)) return false;
    row.b = -constant;
    s_.packing.spread.push_back(std::move(row));
    s_.spread_constraint.push_back(i);
    s_.spread_row[i] = 1;
    return true;
  }

  /// The per-device rows, the same on every device, as a packing problem.
  bool packing() {
    for (auto& rows : per_device_) std::sort(rows.begin(), rows.end());
    for (int f = 1; f < s_.devices; ++f)
      if (per_device_[f] != per_device_[0]) return false;
    auto& p = s_.packing;
    p.devices = s_.devices;
    p.per_device_max.resize(std::size_t(s_.types));
    for (int k = 0; k < s_.types; ++k) p.per_device_max[k] = int(vars_[decl_[0][k]].upper);
    p.use.assign(per_device_[0].size(), std::vector<double>(std::size_t(s_.types), 0.0));
    for (std::size_t r = 0; r < per_device_[0].size(); ++r) {
      p.use[r] = per_device_[0][r].first;
      p.capacity.push_back(per_device_[0][r].second);
      if (p.capacity.back() < 0) return false;
      // The bound each row implies: at most floor(cap / use) units of a type per device.
      for (int k = 0; k < s_.types; ++k)
        if (p.use[r][k] > 0)
          p.per_device_max[k] = std::min(p.per_device_max[k], int(std::floor(p.capacity[r] / p.use[r][k] + tolerances::roundoff)));
    }
    if (!p.spread.empty()) {
      p.table.resize(std::size_t(s_.types));
      for (int k = 0; k < s_.types; ++k)
        if (has_table_[k]) p.table[k] = table_[k];
    }
    return true;
  }
};

}  // namespace detail

/// The structure of `model` with `decl` ([device][type] registry indices) as
/// its interchangeable groups, if the decomposition applies to it.
inline std::optional<SymmetricStructure> find_symmetric_structure(
    const Model& model, const std::vector<std::vector<std::uint32_t>>& decl) {
  return detail::StructureFinder(model, decl).find();
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
      m.model.subject_to(count <= F * std::floor(p.capacity[r] / a + tolerances::roundoff));
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

namespace detail {

/// The decomposition's loop: solve the master over the totals N_k, lower
/// them as far as the master allows, pack them onto the devices; a packing
/// is an incumbent (optimal when it needs no more spreading than the master
/// assumed), an unpackable vector or a shortfall of spreading becomes a cut
/// over a minimal core of types, and the master is solved again.
class SymmetricDecomposition {
  using clock = std::chrono::steady_clock;

 public:
  SymmetricDecomposition(const Model& model, const SymmetricStructure& st, const SolveOptions& options)
      : model_(model), st_(st), options_(options), start_(clock::now()),
        // Clamped: the default limit (1e20 s) in nanoseconds overflows the clock's
        // 64-bit count, which put the deadline in the past.
        deadline_(start_ + std::chrono::duration_cast<clock::duration>(
                               std::chrono::duration<double>(std::clamp(options.time_limit, 0.0, 1e9)))),
        out_(mixed_integer::empty_solution(model)), b_{out_}, master_(build_master(model, st)),
        sense_(model.sense() == Model::Sense::minimize ? 1.0 : -1.0), K_(st.types),
        status_line_(options.verbosity >= 1, options.progress) {
    b_.method() = "symmetric decomposition";
  }

  Solution run() {
    for (long it = 0;; ++it) {
      b_.nodes() = it;
      if (it >= options_.node_limit) return finish(Status::node_limit, "iteration limit of the decomposition reached");
      Solution ms;
      if (auto done = solve_master(it, ms)) return *done;
      const auto point = lowered_point(ms);
      PackingProblem p = st_.packing;
      p.count = totals_;
      auto packed = pack(p, std::numeric_limits<double>::infinity(), deadline_);
      if (!packed.complete) return out_of_time();
      previous_ = ms;
      have_previous_ = true;
      if (!packed.feasible) {
        if (auto done = cut_unpackable(p, packed)) return *done;
        continue;
      }
      take_packing(point, packed);
      const double y_master = st_.y >= 0 ? point[std::size_t(st_.y)] : 0.0;
      if (st_.y < 0 || packed.y_needed <= y_master + tolerances::allowance(y_master)) {
        // The master's optimum is attained: proven optimal.
        if (best_point_.empty()) return finish(Status::numerical_error, "the packed allocation violates a constraint");
        return finish(Status::optimal, "");
      }
      if (!cut_spreading(p, packed.y_needed)) return out_of_time();
    }
  }

 private:
  const Model& model_;
  const SymmetricStructure& st_;
  const SolveOptions& options_;
  const clock::time_point start_, deadline_;
  Solution out_;
  SolutionBuilder b_;
  Master master_;
  const double sense_;
  const int K_;
  ychart::detail::StatusLine status_line_;
  double bound_ = -std::numeric_limits<double>::infinity();
  double best_ = std::numeric_limits<double>::infinity();  // incumbent objective (minimised sense)
  std::vector<double> best_point_;
  Solution previous_;
  bool have_previous_ = false;
  double master_seconds_ = 0.0;  // the rest of the time is spent packing
  std::vector<int> totals_;      // the master's totals, lowered
  std::vector<char> in_core_;    // per type: in the cut's core

  double elapsed() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

  Solution finish(Status status, std::string msg) {
    b_.status() = status;
    b_.message() = std::move(msg);
    b_.solve_time() = elapsed();
    if (b_.has_point() && std::isfinite(b_.bound()))
      b_.gap() = std::abs(b_.objective() - b_.bound()) / std::max(std::abs(b_.objective()), tolerances::tiny);
    return out_;
  }

  Solution out_of_time() { return finish(Status::time_limit, "time limit reached while placing units on devices"); }

  /// Solves the master into `ms`; a result when the search ends here (the
  /// master infeasible or not solved, or the gap closed).
  std::optional<Solution> solve_master(long it, Solution& ms) {
    SolveOptions mo = options_;
    mo.time_limit = options_.time_limit - elapsed();
    mo.verbosity = options_.verbosity >= 3 ? 2 : 0;
    mo.detect_symmetry = false;     // the master has no devices left to swap
    mo.progress = Progress::never;  // the decomposition's own line covers it
    mo.warm_start = have_previous_ ? &previous_ : nullptr;
    if (mo.time_limit <= 0) return finish(Status::time_limit, "time limit reached");
    const double master_start = elapsed();
    ms = master_.model.solve(mo);
    master_seconds_ += elapsed() - master_start;
    b_.iterations() += ms.iterations();
    b_.gp_fallbacks() += ms.gp_fallbacks();
    if (ms.status() == Status::infeasible) {
      if (best_point_.empty()) return finish(Status::infeasible, "the totals over devices admit no solution");
      return finish(Status::optimal, "");
    }
    if (ms.status() != Status::optimal) {
      if (std::isfinite(ms.bound())) bound_ = std::max(bound_, sense_ * ms.bound());
      if (std::isfinite(bound_)) b_.bound() = sense_ * bound_;
      return finish(ms.status(), "master problem: " + ms.message());
    }
    bound_ = std::max(bound_, sense_ * ms.objective());
    b_.bound() = sense_ * bound_;
    status_line_.update(elapsed(), [&] {
      const double gap = best_point_.empty() ? std::nan("") : (best_ - bound_) / std::max(std::abs(best_), tolerances::tiny);
      char text[256];
      std::snprintf(text, sizeof text,
                    "ychart symmetric decomposition: %8.2f s  incumbent %-12.6g  bound %-12.6g  gap %8.4f %%  %ld "
                    "iterations (master %.2f s, packing %.2f s)",
                    elapsed(), sense_ * best_, sense_ * bound_, 100.0 * gap, it, master_seconds_,
                    elapsed() - master_seconds_);
      return std::string(text);
    });
    if (!best_point_.empty() &&
        best_ - bound_ <= std::max(options_.absolute_gap, options_.relative_gap * std::abs(best_)))
      return finish(Status::optimal, "");
    return std::nullopt;
  }

  /// The master's point, with every total lowered as far as the master's
  /// constraints allow (cuts from a smaller vector exclude more); sets totals_.
  std::vector<double> lowered_point(const Solution& ms) {
    const ychart::detail::Registry& mreg = master_.model.registry();
    std::vector<double> point(mreg.variables.size());
    for (std::size_t j = 0; j < point.size(); ++j) point[j] = ms.variables()[j].value;
    totals_.assign(std::size_t(K_), 0);
    for (int k = 0; k < K_; ++k) {
      const auto j = master_.total[k].index();
      while (point[j] - 1 >= mreg.variables[j].lower) {
        auto trial = point;
        set_discrete(mreg, trial, j, point[j] - 1);
        if (!satisfies(master_.model, trial)) break;
        point = std::move(trial);
      }
      totals_[k] = int(std::lround(point[j]));
    }
    return point;
  }

  /// Deletion filter: drop each type whose removal keeps `still(packing)`
  /// true, leaving a minimal set of types with the property in in_core_;
  /// false when the deadline passes first.
  template <class Still>
  bool minimal_core(const PackingProblem& base, Still still, const std::vector<int>* start_from) {
    in_core_.assign(std::size_t(K_), 0);
    for (int k = 0; k < K_; ++k) in_core_[k] = totals_[k] > 0 && !start_from;
    if (start_from)
      for (int k : *start_from) in_core_[k] = 1;
    for (int k = 0; k < K_; ++k) {
      if (!in_core_[k]) continue;
      auto q = base;
      for (int i = 0; i < K_; ++i) q.count[i] = in_core_[i] && i != k ? totals_[i] : 0;
      const auto r = pack(q, std::numeric_limits<double>::infinity(), deadline_);
      if (!r.complete) return false;
      if (still(r)) in_core_[k] = 0;
    }
    return true;
  }

  /// How many of the core's totals lie below this vector's.
  Affine<> count_below() const {
    Affine<> below;
    for (int k = 0; k < K_; ++k) {
      if (!in_core_[k]) continue;
      const double limit = totals_[k] - 1;
      below += tabulate(master_.total[k], [limit](double v) { return v <= limit ? 1.0 : 0.0; });
    }
    return below;
  }

  /// Totals that cannot be packed: some total of a minimal unpackable core
  /// must be lower. A result when that leaves nothing (or time runs out).
  std::optional<Solution> cut_unpackable(const PackingProblem& p, const PackingResult& packed) {
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
    auto q = p;
    for (int i = 0; i < K_; ++i) q.count[i] = in_core_[i] ? totals_[i] : 0;
    const auto r = pack(q, std::numeric_limits<double>::infinity(), deadline_);
    if (!(r.complete && !r.feasible))
      for (int k = 0; k < K_; ++k) in_core_[k] = totals_[k] > 0;
    const Affine<> below = count_below();
    if (below.terms().empty()) return finish(Status::infeasible, "no allocation fits the devices");
    master_.model.subject_to(below >= 1.0);
    return std::nullopt;
  }

  /// A packing: a feasible point of the original model, kept if it is the
  /// best so far.
  void take_packing(const std::vector<double>& point, const PackingResult& packed) {
    const auto& vars = model_.registry().variables;
    std::vector<double> x(vars.size(), 0.0);
    for (std::size_t j = 0; j < vars.size(); ++j)
      if (st_.type_of[j] < 0 && st_.tab_type[j] < 0) x[j] = point[j];
    for (int k = 0; k < K_; ++k)
      for (int f = 0; f < st_.devices; ++f) x[st_.group[f][k]] = packed.n[k][f];
    const double y_master = st_.y >= 0 ? point[std::size_t(st_.y)] : 0.0;
    if (st_.y >= 0 && packed.y_needed > y_master) x[std::size_t(st_.y)] = packed.y_needed;
    x = mixed_integer::complete_point(model_, std::move(x));
    if (!satisfies(model_, x)) return;
    const double objective = model_.objective().evaluate(x) + model_.objective_affine().evaluate(x);
    if (sense_ * objective < best_) {
      best_ = sense_ * objective;
      best_point_ = x;
      mixed_integer::fill_point(b_, model_, best_point_);
    }
  }

  /// Needs more spreading than the master assumed: y >= y_min unless some
  /// total is lower, over a minimal set of types that still needs y_min.
  /// False when time runs out.
  bool cut_spreading(const PackingProblem& p, double y_min) {
    const auto& vars = model_.registry().variables;
    const double y_lo = vars[std::size_t(st_.y)].lower;
    if (!minimal_core(
            p, [y_min](const PackingResult& r) { return !r.feasible || r.y_needed >= y_min - tolerances::ulps; }, nullptr))
      return false;
    Real<> y(&ychart::detail::ModelEditor::registry(master_.model), std::uint32_t(st_.y),
             vars[std::size_t(st_.y)].si_scale);
    master_.model.subject_to(y + (y_min - y_lo) * count_below() >= y_min);
    return true;
  }
};

}  // namespace detail

/// Solves a model of this structure exactly by the decomposition.
inline Solution solve_symmetric_allocation(const Model& model, const SymmetricStructure& st,
                                           const SolveOptions& options) {
  return detail::SymmetricDecomposition(model, st, options).run();
}
}  // namespace ychart::solve::symmetry
