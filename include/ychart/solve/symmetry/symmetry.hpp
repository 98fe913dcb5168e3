// ychart/solve/symmetry/symmetry.hpp
// Interchangeable blocks of discrete variables (the CU counts of identical
// devices, say): found in a model as written, and checked exactly.
//   * find_interchangeable_blocks(): colour refinement on the graph of
//     variables and constraints (as symmetry-handling MIP solvers do) gives
//     candidate orbits; a class of like rows that share no variable (one
//     resource row per device) cuts them into blocks; rows across the blocks
//     (a kernel's total over devices) align their positions; every swap of
//     two blocks is verified by SymmetryChecker before the blocks are
//     returned.
//   * SymmetryChecker: the permutation that swaps two blocks position by
//     position (tabulated terms follow their arguments) maps the objective
//     onto itself and every constraint onto a constraint of the model, or
//     the checker names the first constraint that breaks it. Rows are
//     compared in a canonical form (affine rows as one net row scaled to a
//     largest coefficient of 1; GP rows as posynomial / monomial <= 1), so a
//     row written with its sides swapped still matches.
// Model::solve uses the blocks for the symmetric decomposition
// (symmetric_allocation.hpp), and verifies blocks declared with
// Model::interchangeable: a declaration that is not a symmetry is a
// model_error naming a constraint that breaks it, never a wrong answer.
#pragma once

#include "../../error.hpp"
#include "../../model/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace ychart::solve::symmetry {

/// Blocks of discrete variables, [block][position] registry indices: block
/// b's position p plays the role of block 0's position p.
using Blocks = std::vector<std::vector<std::uint32_t>>;

class SymmetryChecker {
 public:
  explicit SymmetryChecker(const Model& model) : model_(model) {
    const auto& vars = model.registry().variables;
    tabulated_of_.resize(vars.size());
    for (std::uint32_t j = 0; j < vars.size(); ++j)
      if (vars[j].kind == ychart::detail::VariableKind::tabulated) tabulated_of_[vars[j].argument].push_back(j);
    identity_.resize(vars.size());
    std::iota(identity_.begin(), identity_.end(), 0u);
    for (std::size_t i = 0; i < model.constraints().size(); ++i) rows_.push_back(canonical(constraint_row(i), identity_));
    for (const auto& e : model.registry().epigraphs) rows_.push_back(canonical(epigraph_row(e), identity_));
    std::sort(rows_.begin(), rows_.end());
  }

  /// Whether swapping the blocks pairwise maps the model onto itself: every
  /// transposition (0 b) is checked, and they generate all permutations of
  /// the blocks. Returns what breaks it, or nothing.
  std::optional<std::string> check(const Blocks& blocks) const {
    for (std::size_t b = 1; b < blocks.size(); ++b)
      if (auto broken = check_swap(blocks, 0, b)) return broken;
    return std::nullopt;
  }

  /// Whether swapping blocks a and b maps the model onto itself.
  std::optional<std::string> check_swap(const Blocks& blocks, std::size_t a, std::size_t b) const {
    const auto& vars = model_.registry().variables;
    auto name = [&](std::uint32_t j) { return "`" + vars[j].name + "`"; };
    if (blocks[a].size() != blocks[b].size()) return "blocks of different sizes";
    std::vector<std::uint32_t> perm = identity_;
    std::vector<char> moved(vars.size(), 0);
    for (std::size_t p = 0; p < blocks[a].size(); ++p) {
      const auto x = blocks[a][p], y = blocks[b][p];
      if (x >= vars.size() || y >= vars.size()) return "a variable of another model";
      const auto &rx = vars[x], &ry = vars[y];
      if (rx.kind != ychart::detail::VariableKind::discrete || ry.kind != ychart::detail::VariableKind::discrete)
        return name(x) + " or " + name(y) + " is not a discrete variable";
      if (rx.lower != ry.lower || rx.upper != ry.upper || rx.values != ry.values || rx.si_scale != ry.si_scale)
        return name(x) + " and " + name(y) + " have different domains";
      if (moved[x] || moved[y]) return name(x) + " or " + name(y) + " is in two places";
      perm[x] = y, perm[y] = x;
      moved[x] = moved[y] = 1;
      // Tabulated terms of x go to the term of y with the same table.
      for (const auto t : tabulated_of_[x]) {
        const auto* image = same_table(t, y);
        if (!image) return "the tabulated term " + name(t) + " of " + name(x) + " has no counterpart of " + name(y);
        perm[t] = *image, perm[*image] = t;
        moved[t] = moved[*image] = 1;
      }
      for (const auto t : tabulated_of_[y])
        if (!same_table(t, x)) return "the tabulated term " + name(t) + " of " + name(y) + " has no counterpart of " + name(x);
    }
    auto touches = [&](const ychart::detail::TermList& t) {
      for (std::size_t k = 0; k < t.size(); ++k)
        for (const auto& f : t.factors(k))
          if (moved[f.var]) return true;
      return false;
    };
    const std::string swap = "swapping " + name(blocks[a].front()) + ".. with " + name(blocks[b].front()) + "..";
    if (touches(model_.objective()) || touches(model_.objective_affine())) {
      if (canonical_terms(model_.objective(), perm) != canonical_terms(model_.objective(), identity_) ||
          canonical_terms(model_.objective_affine(), perm) != canonical_terms(model_.objective_affine(), identity_))
        return swap + " changes the objective";
    }
    const auto& cons = model_.constraints();
    for (std::size_t i = 0; i < cons.size(); ++i) {
      if (!touches(cons[i].smaller()) && !touches(cons[i].larger())) continue;
      if (!std::binary_search(rows_.begin(), rows_.end(), canonical(constraint_row(i), perm))) {
        const std::string label = cons[i].name().empty() ? "" : " (" + cons[i].name() + ")";
        return swap + " maps constraint " + std::to_string(i) + label + " `" + cons[i].to_string() +
               "` onto no constraint of the model";
      }
    }
    for (const auto& e : model_.registry().epigraphs)
      if (touches(e.lhs) && !std::binary_search(rows_.begin(), rows_.end(), canonical(epigraph_row(e), perm)))
        return swap + " maps the definition of " + name(e.var) + " onto no row of the model";
    return std::nullopt;
  }

 private:
  // A row as the checker sees it: its form, its sense and two sides.
  struct Row {
    Constraint::Form form;
    Constraint::Sense sense;
    const ychart::detail::TermList* smaller;
    const ychart::detail::TermList* larger;
    ychart::detail::TermList larger_storage;  // for epigraphs
  };
  Row constraint_row(std::size_t i) const {
    const auto& c = model_.constraints()[i];
    return {c.form(), c.sense(), &c.smaller(), &c.larger(), {}};
  }
  Row epigraph_row(const ychart::detail::EpigraphDefinition& e) const {
    Row r{Constraint::Form::gp, Constraint::Sense::less_equal, &e.lhs, nullptr, ychart::detail::TermList::variable(e.var, 1.0)};
    return r;
  }

  const std::uint32_t* same_table(std::uint32_t t, std::uint32_t argument) const {
    const auto& vars = model_.registry().variables;
    for (const auto& u : tabulated_of_[argument])
      if (vars[u].table == vars[t].table) return &u;
    return nullptr;
  }

  // One term as a sequence: coefficient, factor count, (variable, exponent)...
  using Code = std::vector<double>;

  static void push_term(std::vector<Code>& terms, double coef, std::vector<ychart::detail::Factor> f,
                        const std::vector<std::uint32_t>& perm) {
    for (auto& x : f) x.var = perm[x.var];
    std::sort(f.begin(), f.end(), [](const ychart::detail::Factor& a, const ychart::detail::Factor& b) { return a.var < b.var; });
    Code c{coef, double(f.size())};
    for (const auto& x : f) c.push_back(double(x.var)), c.push_back(x.exponent);
    terms.push_back(std::move(c));
  }
  static Code join(std::vector<Code> terms) {
    std::sort(terms.begin(), terms.end(), [](const Code& a, const Code& b) {
      return std::lexicographical_compare(a.begin() + 1, a.end(), b.begin() + 1, b.end()) ||
             (std::equal(a.begin() + 1, a.end(), b.begin() + 1, b.end()) && a[0] < b[0]);
    });
    Code out{double(terms.size())};
    for (const auto& t : terms) out.insert(out.end(), t.begin(), t.end());
    return out;
  }
  static Code canonical_terms(const ychart::detail::TermList& t, const std::vector<std::uint32_t>& perm) {
    std::vector<Code> terms;
    for (std::size_t k = 0; k < t.size(); ++k) {
      const auto f = t.factors(k);
      push_term(terms, t.coefficient(k), {f.begin(), f.end()}, perm);
    }
    return join(std::move(terms));
  }

  Code canonical(const Row& r, const std::vector<std::uint32_t>& perm) const {
    const ychart::detail::TermList& larger = r.larger ? *r.larger : r.larger_storage;
    const double sense = r.sense == Constraint::Sense::equal ? 1.0 : 0.0;
    if (r.form == Constraint::Form::affine) {
      // sum a_j x_j + constant (<= or ==) 0, scaled to a largest |a_j| of 1;
      // an equality also as its negation, whichever sorts first.
      std::map<std::uint32_t, double> coef;
      double constant = 0.0;
      for (int side = 0; side < 2; ++side) {
        const ychart::detail::TermList& t = side == 0 ? *r.smaller : larger;
        for (std::size_t k = 0; k < t.size(); ++k) {
          const auto f = t.factors(k);
          if (f.empty()) constant += (side == 0 ? 1 : -1) * t.coefficient(k);
          else coef[perm[f[0].var]] += (side == 0 ? 1 : -1) * t.coefficient(k);
        }
      }
      double scale = 0.0;
      for (const auto& [j, a] : coef) scale = std::max(scale, std::abs(a));
      if (scale == 0.0) scale = 1.0;
      auto code = [&](double sign) {
        Code c{0.0, sense, sign * constant / scale};
        for (const auto& [j, a] : coef)
          if (a != 0.0) c.push_back(double(j)), c.push_back(sign * a / scale);
        return c;
      };
      if (r.sense == Constraint::Sense::equal) return std::min(code(1.0), code(-1.0));
      return code(1.0);
    }
    if (r.form == Constraint::Form::gp && larger.size() == 1) {
      // posynomial / monomial (<= or ==) 1; an equality of monomials also
      // as its reciprocal.
      auto divide = [&](const ychart::detail::TermList& num, const ychart::detail::TermList& den) {
        const auto d = den.factors(0);
        std::vector<Code> terms;
        for (std::size_t k = 0; k < num.size(); ++k) {
          std::map<std::uint32_t, double> e;
          for (const auto& x : num.factors(k)) e[x.var] += x.exponent;
          for (const auto& x : d) e[x.var] -= x.exponent;
          std::vector<ychart::detail::Factor> f;
          for (const auto& [v, a] : e)
            if (a != 0.0) f.push_back({v, a});
          push_term(terms, num.coefficient(k) / den.coefficient(0), std::move(f), perm);
        }
        Code c{1.0, sense};
        const Code j = join(std::move(terms));
        c.insert(c.end(), j.begin(), j.end());
        return c;
      };
      Code c = divide(*r.smaller, larger);
      if (r.sense == Constraint::Sense::equal && r.smaller->size() == 1) c = std::min(c, divide(larger, *r.smaller));
      return c;
    }
    Code c{2.0, sense};
    for (const ychart::detail::TermList* t : {r.smaller, &larger}) {
      const Code j = canonical_terms(*t, perm);
      c.insert(c.end(), j.begin(), j.end());
    }
    return c;
  }

  const Model& model_;
  std::vector<std::vector<std::uint32_t>> tabulated_of_;
  std::vector<std::uint32_t> identity_;
  std::vector<Code> rows_;
};

namespace detail {

/// splitmix64 of the combination: a well-spread hash of colour tuples.
inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  std::uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// A double's bits, -0 and +0 alike.
inline std::uint64_t bits(double d) {
  std::uint64_t u;
  static_assert(sizeof u == sizeof d);
  std::memcpy(&u, &d, sizeof u);
  return d == 0.0 ? 0ull : u;
}

/// The graph colour refinement runs on: one edge node per constraint,
/// epigraph, objective part and tabulated term (in that order, so that the
/// first rows are the constraints and epigraphs); incidences labelled by
/// side, coefficient and exponent.
struct ColourGraph {
  struct Incidence {
    std::uint32_t var;
    std::uint64_t label;
  };
  std::vector<std::vector<Incidence>> edges;
  std::vector<std::uint64_t> edge_colour;
  std::vector<std::vector<std::pair<std::size_t, std::uint64_t>>> incident;  // per variable: (edge, label)
  std::vector<std::uint64_t> colour;                                         // per variable

  explicit ColourGraph(const Model& model) {
    add_constraints(model);
    for (const auto& ep : model.registry().epigraphs) {
      auto& e = edges.emplace_back();
      add_terms(e, ep.lhs, 2);
      e.push_back({ep.var, 4});
      edge_colour.push_back(5);
    }
    for (int part = 0; part < 2; ++part) {
      auto& e = edges.emplace_back();
      add_terms(e, part == 0 ? model.objective() : model.objective_affine(), 6 + part);
      edge_colour.push_back(8 + part);
    }
    const auto& vars = model.registry().variables;
    for (std::uint32_t j = 0; j < vars.size(); ++j)
      if (vars[j].kind == ychart::detail::VariableKind::tabulated) {
        edges.push_back({{vars[j].argument, 10}, {j, 11}});
        edge_colour.push_back(12);
      }
    incident.resize(vars.size());
    for (std::size_t e = 0; e < edges.size(); ++e)
      for (const auto& x : edges[e]) incident[x.var].push_back({e, x.label});
    colour.resize(vars.size());
    for (std::uint32_t j = 0; j < vars.size(); ++j) {
      const auto& v = vars[j];
      std::uint64_t h = mix(mix(std::uint64_t(v.kind), bits(v.lower)), mix(bits(v.upper), bits(v.si_scale)));
      for (double x : v.values) h = mix(h, bits(x));
      for (double x : v.table) h = mix(h, bits(x));
      colour[j] = h;
    }
  }

  /// Colour refinement (1-dimensional Weisfeiler-Leman) until the number
  /// of variable classes stops growing, at most 64 rounds.
  void refine() {
    std::size_t count = classes();
    std::vector<std::uint64_t> scratch;
    for (int round = 0; round < 64; ++round) {
      for (std::size_t e = 0; e < edges.size(); ++e) {
        scratch.clear();
        for (const auto& x : edges[e]) scratch.push_back(mix(colour[x.var], x.label));
        edge_colour[e] = hash_sorted(edge_colour[e], scratch);
      }
      std::vector<std::uint64_t> next(colour.size());
      for (std::uint32_t j = 0; j < colour.size(); ++j) {
        scratch.clear();
        for (const auto& [e, label] : incident[j]) scratch.push_back(mix(edge_colour[e], label));
        next[j] = hash_sorted(colour[j], scratch);
      }
      colour = std::move(next);
      const std::size_t now = classes();
      if (now == count) break;
      count = now;
    }
  }

 private:
  static std::uint64_t hash_sorted(std::uint64_t h, std::vector<std::uint64_t>& parts) {
    std::sort(parts.begin(), parts.end());
    for (auto s : parts) h = mix(h, s);
    return h;
  }

  std::size_t classes() const {
    auto c = colour;
    std::sort(c.begin(), c.end());
    return std::size_t(std::unique(c.begin(), c.end()) - c.begin());
  }

  void add_terms(std::vector<Incidence>& out, const ychart::detail::TermList& t, std::uint64_t side) {
    for (std::size_t k = 0; k < t.size(); ++k)
      for (const auto& f : t.factors(k))
        out.push_back({f.var, mix(mix(side, bits(t.coefficient(k))), mix(bits(f.exponent), t.factors(k).size()))});
  }

  void add_constraints(const Model& model) {
    for (const auto& c : model.constraints()) {
      auto& e = edges.emplace_back();
      if (c.form() != Constraint::Form::affine) {
        add_terms(e, c.smaller(), 2);
        add_terms(e, c.larger(), 3);
        edge_colour.push_back(mix(mix(2, std::uint64_t(c.form())), std::uint64_t(c.sense())));
        continue;
      }
      const auto net = c.net_affine();
      double scale = 0.0;
      for (const auto& [j, a] : net.coef) scale = std::max(scale, std::abs(a));
      if (scale == 0.0) scale = 1.0;
      // An equality's sign is arbitrary: label by |a| there.
      const bool equal = c.sense() == Constraint::Sense::equal;
      for (const auto& [j, a] : net.coef) e.push_back({j, mix(1, bits(equal ? std::abs(a / scale) : a / scale))});
      edge_colour.push_back(mix(mix(1, std::uint64_t(c.sense())),
                                bits(equal ? std::abs(net.constant / scale) : net.constant / scale)));
    }
  }
};

/// Candidate blocks from refined colours. Candidate orbits: discrete
/// variables whose colour class has two or more members. Blocks come from a
/// class of rows with one colour whose rows share no candidate variable (one
/// resource row per device): each row's candidates form a block. Other such
/// classes with as many rows add their variables to the block their row
/// meets, if it meets only one.
class BlockCandidates {
 public:
  BlockCandidates(const Model& model, const ColourGraph& g) : colour_(g.colour) {
    const auto& vars = model.registry().variables;
    const std::size_t n = vars.size();
    std::map<std::uint64_t, int> class_size;
    for (std::uint32_t j = 0; j < n; ++j) class_size[colour_[j]]++;
    std::vector<char> movable(n, 0);
    for (std::uint32_t j = 0; j < n; ++j)
      movable[j] = vars[j].kind == ychart::detail::VariableKind::discrete && class_size[colour_[j]] >= 2;
    const std::size_t rows = model.constraints().size() + model.registry().epigraphs.size();
    row_vars_.resize(rows);
    for (std::size_t e = 0; e < rows; ++e) {
      for (const auto& x : g.edges[e])
        if (movable[x.var]) row_vars_[e].push_back(x.var);
      std::sort(row_vars_[e].begin(), row_vars_[e].end());
      row_vars_[e].erase(std::unique(row_vars_[e].begin(), row_vars_[e].end()), row_vars_[e].end());
    }
    std::map<std::uint64_t, std::vector<std::size_t>> row_class;
    for (std::size_t e = 0; e < rows; ++e)
      if (!row_vars_[e].empty()) row_class[g.edge_colour[e]].push_back(e);
    for (auto& [c, members] : row_class) {
      if (members.size() < 2) continue;
      std::vector<std::uint32_t> all;
      for (auto e : members) all.insert(all.end(), row_vars_[e].begin(), row_vars_[e].end());
      std::sort(all.begin(), all.end());
      if (std::adjacent_find(all.begin(), all.end()) == all.end()) partitions_.push_back(members);
    }
    rows_of_.resize(n);
    for (std::size_t e = 0; e < rows; ++e)
      if (across(e))
        for (auto j : row_vars_[e]) rows_of_[j].push_back(e);
  }

  /// One candidate per partition whose blocks align, the most variables first.
  std::vector<Blocks> all() const {
    std::vector<Blocks> candidates;
    for (const auto& part : partitions_)
      if (auto blocks = aligned(members_of(part))) candidates.push_back(std::move(*blocks));
    std::stable_sort(candidates.begin(), candidates.end(), [](const Blocks& a, const Blocks& b) {
      return a.size() * a.front().size() > b.size() * b.front().size();
    });
    return candidates;
  }

 private:
  const std::vector<std::uint64_t>& colour_;
  std::vector<std::vector<std::uint32_t>> row_vars_;  // per row: its candidate variables, sorted
  std::vector<std::vector<std::size_t>> partitions_;  // classes whose rows are disjoint
  std::vector<std::vector<std::size_t>> rows_of_;     // per variable: the rows across blocks it is in

  /// A row whose candidates all have one colour runs across the blocks (the
  /// total of one kernel over the devices): it tells which variables of two
  /// blocks correspond when colours alone do not.
  bool across(std::size_t e) const {
    for (auto j : row_vars_[e])
      if (colour_[j] != colour_[row_vars_[e].front()]) return false;
    return row_vars_[e].size() >= 2;
  }

  /// The variables of each block of a partition, with those of other
  /// partitions' rows that meet only that block.
  std::vector<std::vector<std::uint32_t>> members_of(const std::vector<std::size_t>& part) const {
    const std::size_t B = part.size();
    std::vector<int> block_of(colour_.size(), -1);
    std::vector<std::vector<std::uint32_t>> members(B);
    for (std::size_t b = 0; b < B; ++b)
      for (auto j : row_vars_[part[b]]) block_of[j] = int(b), members[b].push_back(j);
    for (const auto& other : partitions_) {
      if (other.size() != B || &other == &part) continue;
      for (auto e : other) {
        int meets = -1;
        bool one = true;
        for (auto j : row_vars_[e])
          if (block_of[j] >= 0) {
            if (meets >= 0 && meets != block_of[j]) one = false;
            meets = block_of[j];
          }
        if (!one || meets < 0) continue;
        for (auto j : row_vars_[e])
          if (block_of[j] < 0) block_of[j] = meets, members[std::size_t(meets)].push_back(j);
      }
    }
    return members;
  }

  /// Positions: block 0 in the order the variables were made (the order a
  /// declaration would give, which the decomposition's search follows:
  /// measured, hash order made VGG on 8 FPGAs at 60 % unprovable in 60 s,
  /// declaration order proves it in 11 s); in block b, the variable of the
  /// same colour that shares a row across the blocks, else the first unused
  /// one. Nothing when the blocks do not align.
  std::optional<Blocks> aligned(std::vector<std::vector<std::uint32_t>> members) const {
    std::sort(members[0].begin(), members[0].end());
    Blocks blocks(members.size());
    blocks[0] = members[0];
    for (std::size_t b = 1; b < members.size(); ++b) {
      if (members[b].size() != members[0].size()) return std::nullopt;
      std::vector<char> used(members[b].size(), 0);
      for (auto x : members[0]) {
        const auto pick = partner(x, members[b], used);
        if (!pick) return std::nullopt;
        used[*pick] = 1;
        blocks[b].push_back(members[b][*pick]);
      }
    }
    return blocks;
  }

  std::optional<std::size_t> partner(std::uint32_t x, const std::vector<std::uint32_t>& block,
                                     const std::vector<char>& used) const {
    for (std::size_t q = 0; q < block.size(); ++q) {
      const auto y = block[q];
      if (used[q] || colour_[y] != colour_[x]) continue;
      for (auto e : rows_of_[x])
        if (std::binary_search(row_vars_[e].begin(), row_vars_[e].end(), y)) return q;
    }
    for (std::size_t q = 0; q < block.size(); ++q)
      if (!used[q] && colour_[block[q]] == colour_[x]) return q;
    return std::nullopt;
  }
};

}  // namespace detail

/// Groups of interchangeable blocks found in the model as written (colour
/// refinement, then an exact check of every swap), the most variables
/// first; empty if none. A model can have several (identical devices, and
/// identical kernels within each).
inline std::vector<Blocks> find_interchangeable_blocks(const Model& model) {
  std::size_t discrete = 0;
  for (const auto& v : model.registry().variables) discrete += v.kind == ychart::detail::VariableKind::discrete;
  if (discrete < 2) return {};
  detail::ColourGraph graph(model);
  graph.refine();
  auto candidates = detail::BlockCandidates(model, graph).all();
  if (candidates.empty()) return {};
  const SymmetryChecker checker(model);
  std::erase_if(candidates, [&](const Blocks& blocks) { return checker.check(blocks).has_value(); });
  return candidates;
}

/// Checks the groups declared with Model::interchangeable; throws a
/// model_error naming what breaks the first group that is not a symmetry.
inline void verify_declared_symmetries(const Model& model) {
  if (model.symmetries().empty()) return;
  const SymmetryChecker checker(model);
  for (const auto& blocks : model.symmetries())
    if (auto broken = checker.check(blocks))
      throw model_error("ychart: interchangeable(): the declared groups are not interchangeable: " + *broken +
                        ". Remove the declaration, or make the groups' rows, tables and objective terms alike.");
}

}  // namespace ychart::solve::symmetry
