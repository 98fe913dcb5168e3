// ychart/synthesis/detail/routability.hpp
// What the synthesis model needs to know about routes before it is built:
// which resources each task can take so that every communication stays
// within the hop bound (arc consistency), whether the links form a forest
// (one path between two resources: the tree formulation), each link's two
// sides, and whether the hop bound can cut any simple path at all.
#pragma once

#include "../specification.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace ychart::synthesis::detail {

/// Each process task's resources that can still meet every communication
/// within the hop bound (arc consistency over the communications). On a
/// wipe-out, the task and the communication that emptied it.
struct Reachability {
  std::vector<std::vector<bool>> allowed;  // process x option position
  std::optional<std::pair<std::size_t, std::size_t>> conflict;  // (process, communication)
};

inline Reachability propagate_reachability(const Specification& spec, const IndexedSpecification& ix,
                                           const std::vector<std::vector<bool>>& start) {
  Reachability out{start, std::nullopt};
  auto& allowed = out.allowed;
  auto near = [&](std::size_t a, std::size_t b) {  // option indices, sender's then receiver's
    return ix.within_hops(spec.mappings[a].resource, spec.mappings[b].resource, spec.max_hops);
  };
  // Prune x's options that no allowed option of y supports, in either direction.
  auto revise = [&](std::size_t x, std::size_t y, bool x_sends) {
    bool changed = false;
    for (std::size_t i = 0; i < ix.options[x].size(); ++i) {
      if (!allowed[x][i]) continue;
      bool supported = false;
      for (std::size_t j = 0; j < ix.options[y].size() && !supported; ++j)
        supported = allowed[y][j] && (x_sends ? near(ix.options[x][i], ix.options[y][j])
                                              : near(ix.options[y][j], ix.options[x][i]));
      if (!supported) allowed[x][i] = false, changed = true;
    }
    return changed;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t c = 0; c < ix.communications.size(); ++c) {
      const auto& com = ix.communications[c];
      const auto s = ix.process_of_task[com.sender];
      for (auto q : com.receivers) {
        const auto r = ix.process_of_task[q];
        changed = revise(s, r, true) || changed;
        changed = revise(r, s, false) || changed;
        for (auto p : {s, r})
          if (std::find(allowed[p].begin(), allowed[p].end(), true) == allowed[p].end()) {
            out.conflict = std::make_pair(p, c);
            return out;
          }
      }
    }
  }
  return out;
}

/// Whether the links are undirected and form no cycle (a tree or a
/// forest, as the thesis's chain): then each pair of resources has at most
/// one path, and routing needs no flows.
inline bool links_form_forest(const Specification& spec) {
  std::vector<std::size_t> root(spec.architecture.resources.size());
  for (std::size_t r = 0; r < root.size(); ++r) root[r] = r;
  auto find = [&](std::size_t r) {
    while (root[r] != r) r = root[r] = root[root[r]];
    return r;
  };
  for (const auto& l : spec.architecture.links) {
    if (l.directed) return false;
    const auto a = find(l.from), b = find(l.to);
    if (a == b) return false;
    root[a] = b;
  }
  return true;
}

/// For each link of a forest: which resources lie on its `from` side.
inline std::vector<std::vector<bool>> link_sides(const Specification& spec) {
  const auto& arch = spec.architecture;
  std::vector<std::vector<bool>> side(arch.links.size(), std::vector<bool>(arch.resources.size(), false));
  for (std::size_t l = 0; l < arch.links.size(); ++l) {
    std::vector<std::size_t> queue{arch.links[l].from};
    side[l][arch.links[l].from] = true;
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (std::size_t k = 0; k < arch.links.size(); ++k) {
        if (k == l) continue;
        const auto a = arch.links[k].from, b = arch.links[k].to;
        for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}})
          if (x == queue[head] && !side[l][y]) side[l][y] = true, queue.push_back(y);
      }
  }
  return side;
}

/// Whether some simple path is longer than max_hops: only then can the
/// hop bound cut a route, and only then are flows indexed by hop. A depth-
/// first search over simple paths, which gives up (and says yes) after a
/// million steps.
inline bool hop_bound_binds(const Specification& spec, const IndexedSpecification& ix) {
  const auto n = spec.architecture.resources.size();
  if (spec.max_hops >= static_cast<int>(n) - 1) return false;
  std::vector<std::vector<std::size_t>> next(n);
  for (const auto& a : ix.arcs) next[a.from].push_back(a.to);
  std::vector<bool> on_path(n, false);
  long steps = 0;
  bool longer = false;
  auto dfs = [&](auto&& self, std::size_t r, int depth) -> void {
    if (longer || ++steps > 1000000) return void(longer = true);
    if (depth > spec.max_hops) return void(longer = true);
    on_path[r] = true;
    for (auto t : next[r])
      if (!on_path[t]) self(self, t, depth + 1);
    on_path[r] = false;
  };
  for (std::size_t r = 0; r < n && !longer; ++r) dfs(dfs, r, 0);
  return longer;
}

}  // namespace ychart::synthesis::detail
