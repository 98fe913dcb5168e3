// The loop-nest mapping class's evaluate, checked three ways: against a
// loop-by-loop simulation that holds explicit element sets and counts every
// word it moves, against hand counts, and on bad input.
#include <ychart/baselines/mappers.hpp>
#include <ychart/mapping/detail/orders.hpp>
#include <ychart/mapping/evaluate.hpp>

#include "support/mapping_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace ychart;
using namespace ychart::mapping;

namespace {

/// One digit of a loop's index: the factor placed at (level, kind), kind 0
/// temporal, 1 spatial x, 2 spatial y; digits of lower levels are less
/// significant, so a level's tile is a block of every loop.
struct Digit {
  int level, kind;
  std::int64_t factor, weight;
};

struct Simulation {
  // [level][tensor] reads and writes
  std::vector<std::array<double, 3>> reads, writes;
};

/// Counts every word the nest moves, by running it: time step by time
/// step, each instance of each child (a keeping level, or the MACs) holds
/// the tile its loops above select; when the selecting indices change it
/// takes the new tile (read-only tensors: the parent reads it once per
/// multicast group; outputs: the old tile goes up first).
Simulation simulate(const Workload& w, const Architecture& a, const Mapping& m) {
  const int levels = static_cast<int>(a.levels.size());
  std::array<std::vector<Digit>, dim_count> digits;
  for (Dim d : all_dims) {
    std::int64_t weight = 1;
    for (int l = 0; l < levels; ++l) {
      const auto& lm = m.levels[static_cast<std::size_t>(l)];
      for (int kind : {1, 2, 0}) {
        const auto f = at(kind == 0 ? lm.temporal : kind == 1 ? lm.spatial_x : lm.spatial_y, d);
        digits[static_cast<std::size_t>(d)].push_back({l, kind, f, weight});
        weight *= f;
      }
    }
  }
  // Every combination of the digits accepted by `pick`, one value per digit (0 for the others).
  const auto combinations = [&](auto pick) {
    std::vector<std::vector<std::int64_t>> out{{}};
    for (Dim d : all_dims)
      for (const auto& g : digits[static_cast<std::size_t>(d)]) {
        std::vector<std::vector<std::int64_t>> next;
        for (const auto& prefix : out)
          for (std::int64_t v = 0; v < (pick(g) ? g.factor : 1); ++v) {
            next.push_back(prefix);
            next.back().push_back(v);
          }
        out = std::move(next);
      }
    return out;
  };
  const auto flat_digits = [&] {
    std::vector<std::pair<Dim, Digit>> f;
    for (Dim d : all_dims)
      for (const auto& g : digits[static_cast<std::size_t>(d)]) f.push_back({d, g});
    return f;
  }();
  const auto element = [&](Tensor t, const std::vector<std::int64_t>& values) {
    DimVector i{};
    for (std::size_t k = 0; k < flat_digits.size(); ++k) at(i, flat_digits[k].first) += values[k] * flat_digits[k].second.weight;
    const auto h = at(i, Dim::P) * w.stride_h + at(i, Dim::R), x = at(i, Dim::Q) * w.stride_w + at(i, Dim::S);
    switch (t) {
      case Tensor::weights: return std::vector<std::int64_t>{at(i, Dim::K), at(i, Dim::C), at(i, Dim::R), at(i, Dim::S)};
      case Tensor::inputs: return std::vector<std::int64_t>{at(i, Dim::N), at(i, Dim::C), h, x};
      default: return std::vector<std::int64_t>{at(i, Dim::N), at(i, Dim::K), at(i, Dim::P), at(i, Dim::Q)};
    }
  };
  // The time steps, outermost loop first: each a full assignment of the temporal digits.
  std::vector<std::pair<std::size_t, std::int64_t>> loops;  // (flat digit, factor), nest order
  for (int l = levels - 1; l >= 0; --l)
    for (Dim d : m.levels[static_cast<std::size_t>(l)].loop_order())
      for (std::size_t k = 0; k < flat_digits.size(); ++k)
        if (flat_digits[k].first == d && flat_digits[k].second.level == l && flat_digits[k].second.kind == 0)
          loops.push_back({k, flat_digits[k].second.factor});
  Simulation sim;
  sim.reads.assign(static_cast<std::size_t>(levels), {0, 0, 0});
  sim.writes = sim.reads;
  for (Tensor t : all_tensors) {
    const auto ti = static_cast<std::size_t>(t);
    for (int child = -1; child < levels - 1; ++child) {
      if (child >= 0 && !a.levels[static_cast<std::size_t>(child)].keeps_tensor(t)) continue;
      int parent = child + 1;
      while (!a.levels[static_cast<std::size_t>(parent)].keeps_tensor(t)) ++parent;
      const auto above = [&](const Digit& g) { return g.level > child; };
      const auto inside = [&](const Digit& g) { return g.level <= child; };
      const auto instances = combinations([&](const Digit& g) { return above(g) && g.kind != 0; });
      const auto inner = combinations(inside);
      std::map<std::size_t, std::vector<std::int64_t>> held;  // instance -> selecting indices
      std::map<std::vector<std::int64_t>, double> tile_words;  // selecting indices -> |tile|
      std::vector<std::int64_t> time(flat_digits.size(), 0);
      const auto tile_of = [&](const std::vector<std::int64_t>& upper) {
        std::set<std::vector<std::int64_t>> tile;
        for (const auto& low : inner) {
          auto v = upper;
          for (std::size_t k = 0; k < v.size(); ++k)
            if (inside(flat_digits[k].second)) v[k] = low[k];
          tile.insert(element(t, v));
        }
        return static_cast<double>(tile.size());
      };
      const auto step = [&] {
        std::set<std::vector<std::int64_t>> groups;
        for (std::size_t i = 0; i < instances.size(); ++i) {
          std::vector<std::int64_t> upper(flat_digits.size(), 0), key, group;
          for (std::size_t k = 0; k < flat_digits.size(); ++k) {
            const auto& g = flat_digits[k].second;
            if (!above(g)) continue;
            upper[k] = g.kind == 0 ? time[k] : instances[i][k];
            if (indexes(t, flat_digits[k].first)) key.push_back(upper[k]);
            const bool shares = g.level <= parent && a.levels[static_cast<std::size_t>(g.level)].multicast;
            if (g.kind != 0 && !(shares && !indexes(t, flat_digits[k].first))) group.push_back(upper[k]);
          }
          auto it = held.find(i);
          if (it != held.end() && it->second == key) continue;
          if (!tile_words.count(key)) tile_words[key] = tile_of(upper);
          const double words = tile_words[key];
          if (t == Tensor::outputs) {
            if (it != held.end()) {
              sim.writes[static_cast<std::size_t>(parent)][ti] += words;
              if (child >= 0) sim.reads[static_cast<std::size_t>(child)][ti] += words;
            }
          } else {
            if (child >= 0) sim.writes[static_cast<std::size_t>(child)][ti] += words;
            group.insert(group.end(), key.begin(), key.end());
            if (groups.insert(group).second) sim.reads[static_cast<std::size_t>(parent)][ti] += words;
          }
          held[i] = key;
        }
      };
      for (;;) {
        step();
        std::size_t k = loops.size();
        while (k > 0 && ++time[loops[k - 1].first] == loops[k - 1].second) time[loops[--k].first] = 0;
        if (k == 0) break;
      }
      if (t == Tensor::outputs)  // the last tiles go up
        for (const auto& [i, key] : held) {
          sim.writes[static_cast<std::size_t>(parent)][ti] += tile_words[key];
          if (child >= 0) sim.reads[static_cast<std::size_t>(child)][ti] += tile_words[key];
        }
    }
  }
  return sim;
}

}  // namespace

TEST(MappingEvaluate, AgreesWithALoopByLoopSimulationOnRandomMappings) {
  std::mt19937_64 rng(2026);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto w = test::random_workload(rng, 600);
    const auto a = test::random_architecture(rng);
    const auto m = baselines::random_mapping(w, a, rng);
    const auto e = evaluate(w, a, m);
    const auto sim = simulate(w, a, m);
    for (std::size_t l = 0; l < a.levels.size(); ++l)
      for (Tensor t : all_tensors) {
        const auto ti = static_cast<std::size_t>(t);
        ASSERT_DOUBLE_EQ(e.levels[l][t].reads, sim.reads[l][ti])
            << "trial " << trial << " level " << l << " " << name(t) << "\n" << m.nest(w, a);
        ASSERT_DOUBLE_EQ(e.levels[l][t].writes, sim.writes[l][ti])
            << "trial " << trial << " level " << l << " " << name(t) << "\n" << m.nest(w, a);
      }
    ++checked;
  }
  EXPECT_EQ(checked, 300);
}
