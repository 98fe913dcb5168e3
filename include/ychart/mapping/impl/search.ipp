// ychart/mapping/impl/search.ipp
// The implementation of ychart/mapping/search.hpp.
#pragma once

#include "../../config.hpp"
#include "../../baselines/mappers.hpp"
#include "../detail/factors.hpp"
#include "../detail/orders.hpp"
#include "../detail/placements.hpp"
#include "../detail/traffic.hpp"
#include "../search.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>


namespace ychart::mapping {

namespace detail {

/// What a level does with its temporal loops, which fixes how far each
/// tensor's tile stays in every child (detail/traffic.hpp): nothing runs
/// there; or a group runs innermost, with loops of another group running
/// too (`pure` false: the reuse of that group's tensor stops here) or not
/// (the reuse passes on up). Every mapping has exactly one such shape per
/// level, so the search splits the mappings by shape and searches each.
struct LevelShape {
  bool empty = true;
  Tensor innermost = Tensor::weights;
  bool pure = false;
};

/// One loop's placement with what it adds to every child's traffic of the
/// tensor the loop ignores, under one choice of shapes: its factors above
/// the child less those on the levels the tile stays through (`into`), and
/// that over its multicast factor between child and parent (`up`).
/// Flat, so that the search's inner loops read one block of memory: at
/// most `max_levels` levels (search_mapping refuses deeper hierarchies).
inline constexpr std::size_t max_levels = 8;
inline constexpr unsigned max_threads = 64;  // SearchOptions::threads
struct ScoredPlacement {
  const Placement* placement;
  std::array<std::int64_t, max_levels + 1> tile{};           // placement->tile
  std::array<std::int64_t, max_levels> temporal{}, spatial_x{}, spatial_y{};
  std::array<double, max_levels + 1> into{}, up{};          // [child + 1]
  // For a loop of the input windows (P, Q, R, S), the fewest input rows on its
  // axis into each child with the loop's partner not placed yet (MappingSearch::rows).
  std::array<double, max_levels + 1> rows_alone{};
  // The objective's bound with this loop placed alone (MappingSearch::order_placements):
  // a bound on every mapping of the shapes that places the loop so.
  double alone = 0;
};

/// The branch and bound of search_mapping: for each choice of level shapes
/// (most promising first), loop by loop, a placement of each loop's extent
/// over the levels. A tensor's traffic into a child is its size times, for
/// each loop that ignores it, that loop's `into` factor (the input windows
/// aside), so the bound takes the placed loops' factors and, for the loops
/// not placed yet, the least factor any of their fitting placements has.
class MappingSearch {
 public:
  MappingSearch(const Workload& w, const Architecture& a, const SearchOptions& o);
  void seed(const Mapping& m, const Evaluation& e) { consider(m, e.energy.value(), e.latency.value()); }
  YCHART_DECL void run();
  YCHART_DECL MappingResult result() const;

 private:
  using Ranked = std::vector<std::pair<double, std::vector<LevelShape>>>;  // shapes by their bounds
  /// What the threads of one search share: the incumbent (each thread
  /// prunes with its own copy, refreshed every few nodes: a stale copy only
  /// prunes less), the next shape to take in the first pass, the shapes
  /// left for the second, and whether time ran out.
  struct Deferred {
    std::size_t shape;  // into the ranking
    std::vector<std::size_t> resume;
  };
  struct Shared {
    std::mutex mutex;
    bool have = false;
    double objective = 0, secondary = 0;
    Mapping best;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stopped{false};
    std::atomic<bool> failed{false};  // a thread threw: the others leave
    std::vector<Deferred> deferred;  // under mutex
    std::size_t first_pass_left = 0;    // under mutex
  };
  Shared* shared_ = nullptr;
  /// The shapes are searched in two passes. The root bounds of many shapes
  /// tie (VGG-16 conv1_2, Simba-like: the first 57 of them), so their order
  /// says little, and a shape searched in full with a poor incumbent costs
  /// many nodes (there, 50 000 for one that holds nothing better). So the
  /// first pass gives every shape, in order, at most SearchOptions::first_pass_nodes
  /// (256) nodes: most shapes finish within them, and the others leave good
  /// incumbents (the optimum's shape finds it in its first few hundred
  /// nodes). The second pass takes up the unfinished ones where they
  /// stopped (`resume`: the placement taken at each depth of the path to
  /// the node not searched; those before it on the path were searched in full).
  static constexpr std::size_t shape_kinds = 1 + 2 * tensor_count;  // empty, or a group innermost, pure or not
  YCHART_DECL std::vector<LevelShape> shapes_of(std::size_t code) const;
  YCHART_DECL std::vector<std::pair<double, std::size_t>> rank(std::size_t first, std::size_t step);
  YCHART_DECL void search_shapes(const Ranked& ranked);
  /// False when the search of the shape stopped at `nodes` nodes (and not
  /// the time limit); resume_ then says where.
  YCHART_DECL bool search_shape(const Ranked::value_type& entry, std::uint64_t nodes, std::vector<std::size_t> resume);
  YCHART_DECL std::optional<Deferred> next_deferred(std::vector<Deferred>& mine);
  YCHART_DECL void refresh();

  struct Term {  // the traffic of one tensor into one child
    Tensor tensor;
    int child, parent;
    double child_energy, parent_energy;  // J per word
    unsigned spread = 0;  // the levels in (child, parent] whose multicast divides this traffic, as bits
  };
  /// The weights and the inputs into one child, multicast on the same
  /// levels: one array's fan-out serves the multicast of both (bound()).
  struct SharedFanout {
    std::size_t weights, inputs;  // into terms_
  };
  std::vector<SharedFanout> shared_fanouts_;
  struct Bound {
    double energy, latency;
  };

  const Placement& chosen(Dim d) const {
    const auto di = static_cast<std::size_t>(d);
    return decided_[di] ? *chosen_[di]->placement : ones_;
  }
  /// The same, flat: what the inner loops read.
  const ScoredPlacement& flat(Dim d) const {
    const auto di = static_cast<std::size_t>(d);
    return decided_[di] ? *chosen_[di] : flat_ones_;
  }
  bool decided(Dim d) const { return decided_[static_cast<std::size_t>(d)]; }
  /// The tile factors (per level and loop) and the spatial products (per
  /// level and axis) of the placed loops: what a placement of one more loop
  /// is checked against.
  struct Placed {
    std::array<DimVector, max_levels> tile;
    std::array<std::int64_t, max_levels> x, y;
  };
  YCHART_DECL Placed placed() const;
  YCHART_DECL bool fits(const Placed& base, Dim d, const Placement& p) const;
  /// Per level, the largest tile factor of loop `d` and the largest spatial
  /// factors that fit beside `base`: tiles grow with every factor, so a
  /// placement fits exactly when it stays within these on every level.
  /// Limits only fall as loops are placed (tiles and spatial products only
  /// grow), so the placements under a node's limits are those of its parent
  /// that stay within them.
  struct Limits {
    std::size_t levels = 0;
    std::array<std::int64_t, 3 * max_levels> values{};  // tile, then x, then y, per level
    std::int64_t& tile(std::size_t l) { return values[l]; }
    std::int64_t& x(std::size_t l) { return values[max_levels + l]; }
    std::int64_t& y(std::size_t l) { return values[2 * max_levels + l]; }
    bool admits(const ScoredPlacement& p) const {
      for (std::size_t l = 0; l < levels; ++l)
        if (p.tile[l + 1] > values[l] || p.spatial_x[l] > values[max_levels + l] || p.spatial_y[l] > values[2 * max_levels + l])
          return false;
      return true;
    }
    bool operator==(const Limits&) const = default;
  };
  struct LimitsHash {
    std::size_t operator()(const Limits& lim) const {
      std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the values
      for (auto v : lim.values) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
      return static_cast<std::size_t>(h);
    }
  };
  YCHART_DECL Limits limits(const Placed& base, Dim d) const;
  YCHART_DECL bool shape_possible() const;
  // running_[l][0], running_[l][1]: how many loops of level l's innermost group, and
  // of the others, may still run there (not placed, or placed with a factor
  // there): shape_possible() kept as counts, updated placement by placement.
  std::array<std::array<int, 2>, max_levels> running_{};
  YCHART_DECL void count_running();
  YCHART_DECL bool keeps_running(Dim d, const ScoredPlacement& p) const;
  YCHART_DECL void place_running(Dim d, const ScoredPlacement& p, int sign);
  /// `keep` false: only the least factors (ranking the shapes needs no more).
  YCHART_DECL bool prepare(const std::vector<LevelShape>& shapes, bool keep = true);
  /// One term's traffic: into the child, up from the parent (the least
  /// over the unplaced loops' placements), and the same without the
  /// unplaced loops' multicast (what their spatial factors divide).
  struct Traffic {
    double into = 0, up = 0, unicast = 0;
  };
  using Traffics = std::array<Traffic, tensor_count * (max_levels + 1)>;  // per term
  YCHART_DECL Traffic traffic(std::size_t term) const;
  YCHART_DECL Bound bound(const Traffics& traffics) const;
  Bound bound() const {
    Traffics t;
    for (std::size_t k = 0; k < terms_.size(); ++k) t[k] = traffic(k);
    return bound(t);
  }
  YCHART_DECL void order_placements();
  YCHART_DECL bool mirror_first(std::size_t i, const ScoredPlacement& p) const;
  YCHART_DECL bool rows_before_columns(Dim d, const ScoredPlacement& p) const;
  /// `on_path`: the nodes before this one at its depth and the loops placed were searched in full (resume_).
  YCHART_DECL void branch(std::size_t i, bool on_path);
  YCHART_DECL void leaf();

  double objective(double energy, double latency) const { return objective_value(o_.objective, energy, latency); }
  double secondary(double energy, double latency) const { return o_.objective == Objective::energy ? latency : energy; }

  /// Whether nothing whose energy and latency are at least these can do better.
  bool dominated(double energy, double latency) const {
    if (o_.max_latency && latency > o_.max_latency->value() * (1 + 1e-12)) return true;
    if (o_.max_energy && energy > o_.max_energy->value() * (1 + 1e-12)) return true;
    const double v = objective(energy, latency);
    if (o_.cutoff && v >= *o_.cutoff) return true;
    if (!have_) return false;
    if (v < best_objective_ * (1 - 1e-12)) return false;
    if (!o_.break_ties || v > best_objective_ * (1 + 1e-12)) return true;
    return secondary(energy, latency) >= best_secondary_ * (1 - 1e-12);
  }

  /// Whether a bound on the objective alone already loses (to the
  /// incumbent, strictly, so that ties still go to the secondary; or to the cut-off).
  bool loses(double least) const {
    if (o_.cutoff && least >= *o_.cutoff) return true;
    return have_ && least > best_objective_ * (1 + 1e-12);
  }

  void consider(const Mapping& m, double energy, double latency) {
    std::unique_lock<std::mutex> lock;
    if (shared_) lock = std::unique_lock(shared_->mutex), take_shared();
    if (dominated(energy, latency)) return;
    best_ = m, have_ = true;
    best_objective_ = objective(energy, latency), best_secondary_ = secondary(energy, latency);
    if (shared_) shared_->have = true, shared_->objective = best_objective_, shared_->secondary = best_secondary_, shared_->best = m;
  }
  /// With shared_->mutex held: the shared incumbent's values, where better than ours.
  void take_shared() {
    if (shared_->have && (!have_ || shared_->objective < best_objective_ ||
                          (shared_->objective == best_objective_ && shared_->secondary < best_secondary_)))
      have_ = true, best_objective_ = shared_->objective, best_secondary_ = shared_->secondary;
  }

  /// Whether to stop: at the time limit (for good), or at the shape's node limit (`aborted_`).
  bool out_of_time() {
    if (stopped_ || aborted_) return true;
    if ((++nodes_ & 15) == 0) {
      if (std::chrono::steady_clock::now() > deadline_) stopped_ = true;
      if (shared_) {
        if (stopped_) shared_->stopped = true;
        refresh();
      }
    }
    if (!stopped_ && nodes_ > node_limit_) aborted_ = true;
    return stopped_ || aborted_;
  }

  const Workload& w_;
  const Architecture& a_;
  const SearchOptions& o_;
  const int top_;
  const double macs_;
  std::array<double, tensor_count> sizes_;
  const std::chrono::steady_clock::time_point deadline_;
  std::vector<Dim> dims_;  // the loops of more than one iteration, in the order they are decided
  std::array<std::vector<Dim>, tensor_count> group_;  // those of dims_ that ignore each tensor
  std::array<std::vector<std::int64_t>, dim_count> divisors_;  // of each extent
  std::array<std::vector<Placement>, dim_count> placements_;  // each fits on its own
  // largest_tile_[d][c + 1]: the largest factor of loop d a fitting placement leaves in child c's tile
  std::array<std::vector<std::int64_t>, dim_count> largest_tile_;
  std::vector<Term> terms_;
  Placement ones_;
  ScoredPlacement flat_ones_;
  // The fewest input rows along one axis (0: P with R, 1: Q with S) that all of a child's
  // tiles can move, [axis][child + 1]: with both loops unplaced, and keyed by the
  // placed loop's tile factor with the other unplaced.
  struct LeastRows {
    double both = 0;
    std::vector<std::pair<std::int64_t, double>> by_output, by_filter;
  };
  std::array<std::vector<LeastRows>, 2> least_rows_;
  YCHART_DECL void tabulate_rows();
  YCHART_DECL double rows(int axis, int child) const;
  // For the shapes being searched:
  std::vector<LevelShape> shapes_;
  std::array<std::vector<ScoredPlacement>, dim_count> scored_;
  /// One loop's placements that fit under some limits (`live`), and their
  /// least factors into[c + 1] and up[c + 1] per child.
  struct Narrowed {
    std::vector<const ScoredPlacement*> live;
    std::array<double, max_levels + 1> into, up;
  };
  // narrowed_[i][d]: loop d's placements that still fit once the first i loops are placed
  std::vector<std::array<const Narrowed*, dim_count>> narrowed_;
  std::array<Narrowed, dim_count> all_;  // depth 0: every placement that keeps the shapes
  // The search meets the same limits of one loop many times (30 times per
  // distinct limits on VGG-16 conv2_2, Simba-like), so each loop's narrowed
  // placements are kept by limits for the shapes being searched, up to a
  // budget of stored placements; past it, a per-depth scratch record serves.
  std::array<std::unordered_map<Limits, Narrowed, LimitsHash>, dim_count> memo_;
  std::size_t memo_placements_ = 0;
  static constexpr std::size_t memo_budget = std::size_t{1} << 23;  // pointers: 64 MiB
  std::vector<std::array<Narrowed, dim_count>> scratch_;
  std::size_t depth_ = 0;  // the depth whose least factors bound() reads
  YCHART_DECL bool narrow(std::size_t i);
  std::array<const ScoredPlacement*, dim_count> chosen_{};
  std::array<bool, dim_count> decided_{};
  Mapping best_;
  bool have_ = false, stopped_ = false, aborted_ = false;
  std::uint64_t node_limit_ = std::numeric_limits<std::uint64_t>::max();
  std::array<std::size_t, dim_count> path_{};  // path_[i]: the position of the placement taken at depth i
  std::vector<std::size_t> resume_;
  double best_objective_ = 0, best_secondary_ = 0, open_bound_ = std::numeric_limits<double>::infinity();
  std::uint64_t nodes_ = 0, leaves_ = 0;
};

inline MappingSearch::MappingSearch(const Workload& w, const Architecture& a, const SearchOptions& o)
    : w_(w), a_(a), o_(o), top_(static_cast<int>(a.levels.size()) - 1), macs_(w.macs()),
      deadline_(std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(o.time_limit))) {
  const std::size_t levels = a.levels.size();
  for (Tensor t : all_tensors) sizes_[static_cast<std::size_t>(t)] = w.size(t);
  ones_ = {std::vector<std::int64_t>(levels, 1), std::vector<std::int64_t>(levels, 1),
           std::vector<std::int64_t>(levels, 1), std::vector<std::int64_t>(levels + 1, 1),
           std::vector<std::int64_t>(levels + 1, 1)};
  flat_ones_.placement = &ones_;
  flat_ones_.tile.fill(1), flat_ones_.temporal.fill(1), flat_ones_.spatial_x.fill(1), flat_ones_.spatial_y.fill(1);
  flat_ones_.into.fill(1.0), flat_ones_.up.fill(1.0);
  // The loops of the input windows first (S, R, Q, P: they set the
  // inputs' tiles, which the smallest buffers limit most), then C, K, N.
  // Measured on VGG-16 layers on the Eyeriss-like hierarchy, this proves in
  // a tenth of the nodes of group order (docs/performance.md).
  for (Dim d : {Dim::S, Dim::R, Dim::Q, Dim::P, Dim::C, Dim::K, Dim::N})
    if (w[d] > 1) dims_.push_back(d), group_[static_cast<std::size_t>(ignored_by(d))].push_back(d);
  for (Dim d : all_dims) divisors_[static_cast<std::size_t>(d)] = divisors(w[d]);
  for (Tensor t : all_tensors)
    for (int c = mac_child; c < top_; ++c) {
      if (c != mac_child && !a.levels[static_cast<std::size_t>(c)].keeps_tensor(t)) continue;
      const int p = parent_of(a, t, c);
      const bool out = t == Tensor::outputs;
      const auto& parent = a.levels[static_cast<std::size_t>(p)];
      double child_energy = 0;
      if (c != mac_child)
        child_energy = (out ? a.levels[static_cast<std::size_t>(c)].read_energy : a.levels[static_cast<std::size_t>(c)].write_energy).value();
      unsigned spread = 0;
      for (int l = c + 1; l <= p; ++l) {
        const auto& level = a.levels[static_cast<std::size_t>(l)];
        if (level.multicast && level.fanout_x * level.fanout_y > 1) spread |= 1u << l;
      }
      terms_.push_back({t, c, p, child_energy, (out ? parent.write_energy : parent.read_energy).value(), spread});
    }
  for (std::size_t i = 0; i < terms_.size(); ++i)
    for (std::size_t j = 0; j < terms_.size(); ++j)
      if (terms_[i].tensor == Tensor::weights && terms_[j].tensor == Tensor::inputs && terms_[i].child == terms_[j].child &&
          terms_[i].spread != 0 && terms_[i].spread == terms_[j].spread)
        shared_fanouts_.push_back({i, j});
  // Placements that overflow a capacity or a fan-out on their own never fit.
  for (Dim d : dims_) {
    const auto di = static_cast<std::size_t>(d);
    largest_tile_[di].assign(levels + 1, 1);
    const auto nothing = placed();
    for (const auto& p : placements(w[d], a)) {
      if (!fits(nothing, d, p)) continue;
      placements_[di].push_back(p);
      for (std::size_t c = 0; c <= levels; ++c) largest_tile_[di][c] = std::max(largest_tile_[di][c], w[d] / p.above[c]);
    }
  }
  tabulate_rows();
}

/// Fills least_rows_: each tile's window times the number of tiles, least
/// over the tile factors a fitting placement can leave (detail/traffic.hpp).
YCHART_DECL void MappingSearch::tabulate_rows() {
  const std::size_t children = a_.levels.size() + 1;
  for (int axis = 0; axis < 2; ++axis) {
    const Dim p = axis == 0 ? Dim::P : Dim::Q, r = axis == 0 ? Dim::R : Dim::S;
    const auto stride = axis == 0 ? w_.stride_h : w_.stride_w;
    auto& table = least_rows_[static_cast<std::size_t>(axis)];
    table.assign(children, {});
    for (std::size_t ci = 0; ci < children; ++ci) {
      const auto tiles = [&](Dim d) {
        std::vector<std::int64_t> f;
        for (auto x : divisors(w_[d]))
          if (w_[d] == 1 || x <= largest_tile_[static_cast<std::size_t>(d)][ci]) f.push_back(x);
        return f;
      };
      const auto moved = [&](std::int64_t fp, std::int64_t fr) {
        return static_cast<double>(window(fp, fr, stride) * (w_[p] / fp) * (w_[r] / fr));
      };
      auto& t = table[ci];
      t.both = std::numeric_limits<double>::infinity();
      for (auto fp : divisors(w_[p])) {
        double least = std::numeric_limits<double>::infinity();
        for (auto fr : tiles(r)) least = std::min(least, moved(fp, fr));
        t.by_output.push_back({fp, least});
      }
      for (auto fr : divisors(w_[r])) {
        double least = std::numeric_limits<double>::infinity();
        for (auto fp : tiles(p)) least = std::min(least, moved(fp, fr));
        t.by_filter.push_back({fr, least});
      }
      for (auto fp : tiles(p))
        for (auto fr : tiles(r)) t.both = std::min(t.both, moved(fp, fr));
    }
  }
}

/// A row count of least_rows_ by the tile factor it is keyed by.
inline double rows_by_factor(const std::vector<std::pair<std::int64_t, double>>& v, std::int64_t key) {
  for (const auto& [k, value] : v)
    if (k == key) return value;
  return 0.0;
}

/// Input rows moved into all of a child's tiles along one axis, least over
/// the tile factors the loops not placed yet can take.
YCHART_DECL double MappingSearch::rows(int axis, int child) const {
  const Dim p = axis == 0 ? Dim::P : Dim::Q, r = axis == 0 ? Dim::R : Dim::S;
  const auto ci = static_cast<std::size_t>(child + 1);
  const bool placed_p = decided(p) || w_[p] == 1, placed_r = decided(r) || w_[r] == 1;
  const auto& t = least_rows_[static_cast<std::size_t>(axis)][ci];
  if (placed_p && placed_r) {
    const auto fp = flat(p).tile[ci], fr = flat(r).tile[ci];
    return static_cast<double>(window(fp, fr, axis == 0 ? w_.stride_h : w_.stride_w) * (w_[p] / fp) * (w_[r] / fr));
  }
  if (placed_p) return decided(p) ? flat(p).rows_alone[ci] : rows_by_factor(t.by_output, 1);
  if (placed_r) return decided(r) ? flat(r).rows_alone[ci] : rows_by_factor(t.by_filter, 1);
  return t.both;
}

YCHART_DECL MappingSearch::Placed MappingSearch::placed() const {
  Placed b;
  b.x.fill(1), b.y.fill(1);
  for (std::size_t l = 0; l < a_.levels.size(); ++l)
    for (Dim d : all_dims) {
      const auto& p = flat(d);
      b.x[l] *= p.spatial_x[l], b.y[l] *= p.spatial_y[l];
      at(b.tile[l], d) = decided(d) || static_cast<int>(l) < top_ ? p.tile[l + 1] : w_[d];
    }
  return b;
}

/// Whether placing loop `d` (not placed in `base`) at `p` leaves every tile
/// within its capacities and every array dimension within its fan-out (the
/// loops not placed yet at one iteration below the top: the smallest tiles).
YCHART_DECL bool MappingSearch::fits(const Placed& base, Dim d, const Placement& p) const {
  for (std::size_t l = 0; l < a_.levels.size(); ++l) {
    const auto& level = a_.levels[l];
    if (base.x[l] * p.spatial_x[l] > level.fanout_x || base.y[l] * p.spatial_y[l] > level.fanout_y) return false;
    DimVector shape = base.tile[l];
    at(shape, d) = p.tile[l + 1];
    double shared = 0;
    for (Tensor t : all_tensors) {
      if (!level.keeps_tensor(t)) continue;
      const double tile = w_.tile_size(t, shape);
      if (auto c = level.capacity_of(t); c && tile > static_cast<double>(*c)) return false;
      shared += tile;
    }
    if (level.shared_capacity && shared > static_cast<double>(*level.shared_capacity)) return false;
  }
  return true;
}

YCHART_DECL MappingSearch::Limits MappingSearch::limits(const Placed& base, Dim d) const {
  const std::size_t levels = a_.levels.size();
  Limits lim;
  lim.levels = levels;
  const auto& divs = divisors_[static_cast<std::size_t>(d)];
  for (std::size_t l = 0; l < levels; ++l) {
    const auto& level = a_.levels[l];
    lim.x(l) = level.fanout_x / base.x[l], lim.y(l) = level.fanout_y / base.y[l];
    DimVector shape = base.tile[l];
    const auto fits_at = [&](std::int64_t f) {
      at(shape, d) = f;
      double shared = 0;
      for (Tensor t : all_tensors) {
        if (!level.keeps_tensor(t)) continue;
        const double tile = w_.tile_size(t, shape);
        if (auto c = level.capacity_of(t); c && tile > static_cast<double>(*c)) return false;
        shared += tile;
      }
      return !(level.shared_capacity && shared > static_cast<double>(*level.shared_capacity));
    };
    // Tiles grow with the factor, so the factors that fit are a prefix of the divisors.
    const auto end = std::partition_point(divs.begin(), divs.end(), fits_at);
    lim.tile(l) = end == divs.begin() ? 0 : *(end - 1);
  }
  return lim;
}

/// Whether the placed loops can still give every level its shape: a loop
/// of the innermost group running there, and of another group where the
/// shape is not pure (placements already keep empty and pure levels so).
YCHART_DECL bool MappingSearch::shape_possible() const {
  for (std::size_t l = 0; l < shapes_.size(); ++l) {
    if (shapes_[l].empty) continue;
    bool own = false, other = shapes_[l].pure;
    for (Dim d : dims_) {
      const bool may_run = !decided(d) || flat(d).temporal[l] > 1;
      if (ignored_by(d) == shapes_[l].innermost) own = own || may_run;
      else other = other || may_run;
    }
    if (!own || !other) return false;
  }
  return true;
}

YCHART_DECL void MappingSearch::count_running() {
  for (std::size_t l = 0; l < shapes_.size(); ++l) {
    running_[l] = {0, 0};
    for (Dim d : dims_)
      if (!decided(d) || flat(d).temporal[l] > 1) ++running_[l][ignored_by(d) == shapes_[l].innermost ? 0 : 1];
  }
}

/// shape_possible() once loop `d` (not placed) is placed at `p`.
YCHART_DECL bool MappingSearch::keeps_running(Dim d, const ScoredPlacement& p) const {
  const Tensor group = ignored_by(d);
  for (std::size_t l = 0; l < shapes_.size(); ++l) {
    if (shapes_[l].empty || p.temporal[l] > 1) continue;
    const int kind = group == shapes_[l].innermost ? 0 : 1;
    if (running_[l][kind] == 1 && (kind == 0 || !shapes_[l].pure)) return false;
  }
  return true;
}

YCHART_DECL void MappingSearch::place_running(Dim d, const ScoredPlacement& p, int sign) {
  const Tensor group = ignored_by(d);
  for (std::size_t l = 0; l < shapes_.size(); ++l)
    if (p.temporal[l] == 1) running_[l][group == shapes_[l].innermost ? 0 : 1] += sign;
}

/// Scores every placement for the shapes: false when some loop has none
/// that keeps them (or the shapes ask for a group with no loop).
YCHART_DECL bool MappingSearch::prepare(const std::vector<LevelShape>& shapes, bool keep) {
  shapes_ = shapes;
  const std::size_t levels = a_.levels.size();
  // stays[t][c + 1][l]: whether tensor t's tile in child c stays through level l's loops
  std::array<std::vector<std::vector<bool>>, tensor_count> stays;
  for (Tensor t : all_tensors) {
    auto& s = stays[static_cast<std::size_t>(t)];
    s.assign(levels + 1, std::vector<bool>(levels, false));
    for (int c = mac_child; c < top_; ++c)
      for (int l = c + 1; l <= top_; ++l) {
        const auto& shape = shapes[static_cast<std::size_t>(l)];
        if (shape.empty) continue;
        if (shape.innermost != t) break;
        s[static_cast<std::size_t>(c + 1)][static_cast<std::size_t>(l)] = true;
        if (!shape.pure) break;
      }
  }
  depth_ = 0;
  narrowed_.assign(dims_.size() + 1, {});
  for (Dim e : dims_) {
    auto& all = all_[static_cast<std::size_t>(e)];
    all.live.clear();
    all.into.fill(std::numeric_limits<double>::infinity()), all.up.fill(std::numeric_limits<double>::infinity());
    narrowed_[0][static_cast<std::size_t>(e)] = &all;
  }
  for (Dim d : dims_) {
    const auto di = static_cast<std::size_t>(d);
    const Tensor t = ignored_by(d);
    const auto& s = stays[static_cast<std::size_t>(t)];
    scored_[di].clear();
    bool any = false;
    for (const auto& p : placements_[di]) {
      bool keeps_shape = true;
      for (std::size_t l = 0; l < levels; ++l)
        if (p.temporal[l] > 1 && (shapes[l].empty || (shapes[l].pure && shapes[l].innermost != t))) keeps_shape = false;
      if (!keeps_shape) continue;
      ScoredPlacement sp{&p, {}, {}, {}, {}, {}, {}, {}, 0.0};
      for (std::size_t l = 0; l < levels; ++l)
        sp.tile[l + 1] = p.tile[l + 1], sp.temporal[l] = p.temporal[l], sp.spatial_x[l] = p.spatial_x[l],
        sp.spatial_y[l] = p.spatial_y[l];
      sp.tile[0] = p.tile[0];
      sp.into.fill(1.0), sp.up.fill(1.0);
      for (int c = mac_child; c < top_; ++c) {
        const auto ci = static_cast<std::size_t>(c + 1);
        double into = static_cast<double>(p.above[ci]), multicast = 1;
        for (std::size_t l = ci; l < levels; ++l)
          if (s[ci][l]) into /= static_cast<double>(p.temporal[l]);
        for (int l = c + 1; l <= parent_of(a_, t, c); ++l)
          if (a_.levels[static_cast<std::size_t>(l)].multicast)
            multicast *= static_cast<double>(p.spatial_x[static_cast<std::size_t>(l)] * p.spatial_y[static_cast<std::size_t>(l)]);
        sp.into[ci] = into, sp.up[ci] = into / multicast;
        if (d == Dim::P || d == Dim::Q) sp.rows_alone[ci] = rows_by_factor(least_rows_[d == Dim::P ? 0 : 1][ci].by_output, p.tile[ci]);
        if (d == Dim::R || d == Dim::S) sp.rows_alone[ci] = rows_by_factor(least_rows_[d == Dim::R ? 0 : 1][ci].by_filter, p.tile[ci]);
        all_[di].into[ci] = std::min(all_[di].into[ci], into);
        all_[di].up[ci] = std::min(all_[di].up[ci], into / multicast);
      }
      any = true;
      if (keep) scored_[di].push_back(std::move(sp));
    }
    if (!any) return false;
  }
  return shape_possible();
}

YCHART_DECL MappingSearch::Traffic MappingSearch::traffic(std::size_t k) const {
  const Term& term = terms_[k];
  const auto ci = static_cast<std::size_t>(term.child + 1);
  const double base = term.tensor == Tensor::inputs
                          ? static_cast<double>(w_[Dim::N] * w_[Dim::C]) * rows(0, term.child) * rows(1, term.child)
                          : sizes_[static_cast<std::size_t>(term.tensor)];
  Traffic t{base, base, base};
  for (Dim d : group_[static_cast<std::size_t>(term.tensor)]) {
    const auto di = static_cast<std::size_t>(d);
    const auto& from = decided_[di] ? *chosen_[di] : flat_ones_;
    t.into *= decided_[di] ? from.into[ci] : narrowed_[depth_][di]->into[ci];
    t.up *= decided_[di] ? from.up[ci] : narrowed_[depth_][di]->up[ci];
    t.unicast *= decided_[di] ? from.up[ci] : narrowed_[depth_][di]->into[ci];
  }
  if (term.tensor == Tensor::outputs) t.up = t.into;
  return t;
}

YCHART_DECL MappingSearch::Bound MappingSearch::bound(const Traffics& traffics) const {
  std::array<double, max_levels> words{};  // per level
  double energy = macs_ * a_.mac_energy.value();
  for (std::size_t k = 0; k < terms_.size(); ++k) {
    const Term& term = terms_[k];
    const Traffic& t = traffics[k];
    energy += t.into * term.child_energy + t.up * term.parent_energy;
    if (term.child != mac_child) words[static_cast<std::size_t>(term.child)] += t.into;
    words[static_cast<std::size_t>(term.parent)] += t.up;
  }
  // The weights' multicast comes from the spatial factors of N, P and Q,
  // the inputs' from those of K, and on the levels both use the unplaced
  // loops' factors multiply to at most the fan-outs' room F. With m the
  // weights' share, the two cost at least a * max(Uw, Xw / m) + b * max(Ui,
  // Xi m / F) (U the least traffic taken alone, X the traffic before the
  // unplaced loops' multicast): convex in m, least at a breakpoint or the
  // stationary point, clamped to [1, F].
  for (const auto& pair : shared_fanouts_) {
    const double a = terms_[pair.weights].parent_energy, b = terms_[pair.inputs].parent_energy;
    const double uw = traffics[pair.weights].up, ui = traffics[pair.inputs].up;
    const double xw = traffics[pair.weights].unicast, xi = traffics[pair.inputs].unicast;
    double room = 1;
    for (int l = 0; l <= top_; ++l) {
      if (!(terms_[pair.weights].spread & (1u << l))) continue;
      const auto li = static_cast<std::size_t>(l);
      std::int64_t x = 1, y = 1;
      for (Dim d : dims_) x *= flat(d).spatial_x[li], y *= flat(d).spatial_y[li];
      room *= static_cast<double>((a_.levels[li].fanout_x / x) * (a_.levels[li].fanout_y / y));
    }
    if (!(a > 0 && b > 0 && xw > 0 && xi > 0)) continue;
    const auto cost = [&](double m) { return a * std::max(uw, xw / m) + b * std::max(ui, xi * m / room); };
    double least = std::numeric_limits<double>::infinity();
    for (double m : {std::sqrt(a * xw * room / (b * xi)), xw / uw, ui * room / xi, 1.0, room})
      if (std::isfinite(m)) least = std::min(least, cost(std::clamp(m, 1.0, std::max(1.0, room))));
    energy += std::max(0.0, least - (a * uw + b * ui));
  }
  // Energy alone needs no latency bound (0 is one: ties compare latencies
  // only between priced mappings).
  if (o_.objective == Objective::energy && !o_.max_latency) return {energy, 0.0};
  // At most as many instances as the fan-outs have room for and the unplaced loops can fill.
  const auto most_instances = [&](int child) {
    double placed = 1, room = 1, unplaced = 1;
    for (int l = child + 1; l <= top_; ++l) {
      const auto li = static_cast<std::size_t>(l);
      std::int64_t x = 1, y = 1;
      for (Dim d : dims_) x *= flat(d).spatial_x[li], y *= flat(d).spatial_y[li];
      placed *= static_cast<double>(x * y);
      room *= static_cast<double>((a_.levels[li].fanout_x / x) * (a_.levels[li].fanout_y / y));
    }
    for (Dim d : dims_)
      if (!decided(d)) unplaced *= static_cast<double>(w_[d]);
    return placed * std::min(room, unplaced);
  };
  double cycles = macs_ / most_instances(mac_child);
  for (int l = 0; l <= top_; ++l)
    if (const auto& bw = a_.levels[static_cast<std::size_t>(l)].bandwidth)
      cycles = std::max(cycles, words[static_cast<std::size_t>(l)] / (most_instances(l) * *bw));
  return {energy, cycles / a_.clock.value()};
}

/// Each loop's placements, most promising first: by the bound with that loop placed alone.
YCHART_DECL void MappingSearch::order_placements() {
  for (Dim d : dims_) {
    const auto di = static_cast<std::size_t>(d);
    std::vector<std::pair<double, std::size_t>> keyed;
    decided_[di] = true;
    for (std::size_t i = 0; i < scored_[di].size(); ++i) {
      chosen_[di] = &scored_[di][i];
      const auto b = bound();
      keyed.push_back({objective(b.energy, b.latency), i});
    }
    decided_[di] = false, chosen_[di] = nullptr;
    std::stable_sort(keyed.begin(), keyed.end());
    std::vector<ScoredPlacement> sorted;
    for (const auto& [key, i] : keyed) sorted.push_back(std::move(scored_[di][i])), sorted.back().alone = key;
    scored_[di] = std::move(sorted);
  }
}

/// After the first i + 1 loops are placed: the later loops' placements
/// that still fit (narrowed_[i + 1], kept by their limits), and their least factors from those alone.
/// False when some loop has none left.
YCHART_DECL bool MappingSearch::narrow(std::size_t i) {
  const auto base = placed();
  for (std::size_t j = i + 1; j < dims_.size(); ++j) {
    const auto dj = static_cast<std::size_t>(dims_[j]);
    const auto lim = limits(base, dims_[j]);
    auto& memo = memo_[dj];
    if (auto found = memo.find(lim); found != memo.end()) {
      narrowed_[i + 1][dj] = &found->second;
    } else {
      const auto& parent = narrowed_[i][dj]->live;
      Narrowed* n = &scratch_[i + 1][dj];
      if (memo_placements_ + parent.size() <= memo_budget) n = &memo.emplace(lim, Narrowed{}).first->second;
      n->live.clear();
      n->into.fill(std::numeric_limits<double>::infinity()), n->up.fill(std::numeric_limits<double>::infinity());
      for (const auto* sp : parent) {
        if (!lim.admits(*sp)) continue;
        n->live.push_back(sp);
        for (std::size_t c = 0; c <= a_.levels.size(); ++c)
          n->into[c] = std::min(n->into[c], sp->into[c]), n->up[c] = std::min(n->up[c], sp->up[c]);
      }
      if (n != &scratch_[i + 1][dj]) memo_placements_ += n->live.size();
      narrowed_[i + 1][dj] = n;
    }
    if (narrowed_[i + 1][dj]->live.empty()) return false;
  }
  return true;
}

/// A square fan-out (X = Y) costs the same with its axes swapped: of each
/// mapping and its mirror the search keeps the one whose first loop (in the
/// order placed) with different X and Y factors there has the larger X.
YCHART_DECL bool MappingSearch::mirror_first(std::size_t i, const ScoredPlacement& p) const {
  for (std::size_t l = 0; l < a_.levels.size(); ++l) {
    if (a_.levels[l].fanout_x != a_.levels[l].fanout_y) continue;
    bool tied = true;  // every loop placed before has X = Y here
    for (std::size_t j = 0; j < i && tied; ++j) {
      const auto& q = *chosen_[static_cast<std::size_t>(dims_[j])];
      tied = q.spatial_x[l] == q.spatial_y[l];
    }
    if (tied && p.spatial_x[l] < p.spatial_y[l]) return false;
  }
  return true;
}

/// A square layer (P = Q, R = S, one stride) costs the same with rows and
/// columns swapped: of each mapping and its mirror the search keeps the one
/// whose (S, Q) placements come before its (R, P) placements, compared as
/// factor lists.
YCHART_DECL bool MappingSearch::rows_before_columns(Dim d, const ScoredPlacement& p) const {
  if (w_[Dim::P] != w_[Dim::Q] || w_[Dim::R] != w_[Dim::S] || w_.stride_h != w_.stride_w) return true;
  const auto key = [](const Placement& x) { return std::tie(x.temporal, x.spatial_x, x.spatial_y); };
  if (d == Dim::R) return !(key(*p.placement) < key(chosen(Dim::S)));
  if (d == Dim::P && key(chosen(Dim::R)) == key(chosen(Dim::S))) return !(key(*p.placement) < key(chosen(Dim::Q)));
  return true;
}

YCHART_DECL void MappingSearch::branch(std::size_t i, bool on_path) {
  if (out_of_time()) {
    if (aborted_ && !stopped_) resume_.assign(path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(i));
    return;
  }
  if (i == dims_.size()) return leaf();
  const Dim d = dims_[i];
  const auto di = static_cast<std::size_t>(d);
  depth_ = i;
  const auto here = bound();
  // A placement of d changes only the traffic of the tensor d ignores, and
  // for a loop of the input windows the inputs' rows: the other terms, and
  // those with d's factors left out (d placed at ones), are taken once.
  decided_[di] = true, chosen_[di] = &flat_ones_;
  Traffics rest;
  for (std::size_t k = 0; k < terms_.size(); ++k) rest[k] = traffic(k);
  const bool window = d == Dim::P || d == Dim::Q || d == Dim::R || d == Dim::S;
  // narrowed_[i] holds exactly the placements that fit beside the loops placed.
  const auto& live = narrowed_[i][di]->live;
  const bool resuming = on_path && i < resume_.size();
  for (std::size_t n = resuming ? resume_[i] : 0; n < live.size(); ++n) {
    const auto* sp = live[n];
    path_[i] = n;
    // The live placements keep the order of their bounds alone: once one
    // loses on its own, so do the rest.
    if (loses(sp->alone)) break;
    if (!mirror_first(i, *sp) || !rows_before_columns(dims_[i], *sp)) continue;
    if (!keeps_running(dims_[i], *sp)) continue;
    chosen_[di] = sp;
    depth_ = i;
    Traffics with = rest;
    for (std::size_t k = 0; k < terms_.size(); ++k) {
      const Term& term = terms_[k];
      if (window && term.tensor == Tensor::inputs) {
        with[k] = traffic(k);
      } else if (term.tensor == ignored_by(d)) {
        const auto ci = static_cast<std::size_t>(term.child + 1);
        with[k].into *= sp->into[ci], with[k].unicast *= sp->up[ci];
        with[k].up = term.tensor == Tensor::outputs ? with[k].into : with[k].up * sp->up[ci];
      }
    }
    auto b = bound(with);
    if (dominated(b.energy, b.latency)) continue;
    const bool some = narrow(i);
    depth_ = i + 1;
    if (some) b = bound();
    if (some && !dominated(b.energy, b.latency)) {
      place_running(dims_[i], *sp, -1);
      branch(i + 1, resuming && n == resume_[i]);
      place_running(dims_[i], *sp, +1);
    }
    if (stopped_ || aborted_) break;
  }
  decided_[di] = false, chosen_[di] = nullptr;
  if (stopped_) open_bound_ = std::min(open_bound_, objective(here.energy, here.latency));
}

YCHART_DECL void MappingSearch::leaf() {
  ++leaves_;
  Mapping m;
  m.levels.resize(a_.levels.size());
  for (std::size_t l = 0; l < m.levels.size(); ++l) {
    auto& lm = m.levels[l];
    for (Dim d : all_dims)
      at(lm.temporal, d) = chosen(d).temporal[l], at(lm.spatial_x, d) = chosen(d).spatial_x[l],
      at(lm.spatial_y, d) = chosen(d).spatial_y[l];
    lm.order = order_with_innermost(shapes_[l].innermost);
  }
  const auto p = price(w_, a_, m);
  consider(m, p.energy, p.cycles / a_.clock.value());
}

/// The level shapes numbered `code`: per level, in base 7, empty or a group innermost, pure or not.
YCHART_DECL std::vector<LevelShape> MappingSearch::shapes_of(std::size_t code) const {
  std::vector<LevelShape> shapes(a_.levels.size());
  for (std::size_t l = 0; l < shapes.size(); ++l, code /= shape_kinds) {
    const auto kind = static_cast<int>(code % shape_kinds);
    shapes[l] = kind == 0 ? LevelShape{} : LevelShape{false, all_tensors[static_cast<std::size_t>((kind - 1) / 2)], (kind - 1) % 2 == 1};
  }
  return shapes;
}

/// The bounds of the shapes numbered first, first + step, ... that some
/// mappings have, with their numbers.
YCHART_DECL std::vector<std::pair<double, std::size_t>> MappingSearch::rank(std::size_t first, std::size_t step) {
  std::size_t choices = 1;
  for (std::size_t l = 0; l < a_.levels.size(); ++l) choices *= shape_kinds;
  std::vector<std::pair<double, std::size_t>> ranked;
  for (std::size_t code = first; code < choices; code += step) {
    if (!prepare(shapes_of(code), false)) continue;
    const auto b = bound();
    ranked.push_back({objective(b.energy, b.latency), code});
  }
  return ranked;
}

/// Runs `work`, keeping what it throws in `failure` (then `failed()`).
template <class Work, class Failed = void (*)()>
void run_caught(std::exception_ptr& failure, Work&& work, Failed&& failed = [] {}) {
  try {
    work();
  } catch (...) {
    failure = std::current_exception();
    failed();
  }
}

inline void rethrow_first(const std::vector<std::exception_ptr>& failures) {
  for (const auto& f : failures)
    if (f) std::rethrow_exception(f);
}

/// Every choice of level shapes, the most promising first (ties in the
/// order of their numbers), each searched in full unless its bound already
/// loses. With threads, they rank the shapes too (a tenth of the time on
/// VGG-16 conv1_2, Simba-like, ranked alone).
YCHART_DECL void MappingSearch::run() {
  unsigned threads = o_.threads ? o_.threads : std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<MappingSearch> workers(threads > 1 ? threads : 0, *this);
  std::vector<std::pair<double, std::size_t>> codes;
  // A thread's exception (std::bad_alloc, say) reaches the caller, not std::terminate.
  std::vector<std::exception_ptr> failures(workers.size());
  if (workers.empty()) {
    codes = rank(0, 1);
  } else {
    std::vector<std::vector<std::pair<double, std::size_t>>> parts(workers.size());
    std::vector<std::thread> ranking;
    for (std::size_t k = 0; k < workers.size(); ++k)
      ranking.emplace_back([&, k] { run_caught(failures[k], [&] { parts[k] = workers[k].rank(k, workers.size()); }); });
    for (auto& t : ranking) t.join();
    rethrow_first(failures);
    for (const auto& part : parts) codes.insert(codes.end(), part.begin(), part.end());
  }
  std::sort(codes.begin(), codes.end());
  Ranked ranked;
  for (const auto& [least, code] : codes) ranked.push_back({least, shapes_of(code)});
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, ranked.size()));
  if (threads <= 1) return search_shapes(ranked);
  while (workers.size() > threads) workers.pop_back();
  Shared shared;
  shared.first_pass_left = ranked.size();
  shared.have = have_, shared.objective = best_objective_, shared.secondary = best_secondary_, shared.best = best_;
  std::vector<std::thread> running;
  for (std::size_t k = 0; k < workers.size(); ++k) {
    workers[k].shared_ = &shared;
    running.emplace_back([&, k] {
      run_caught(failures[k], [&] { workers[k].search_shapes(ranked); }, [&] { shared.failed = true, shared.stopped = true; });
    });
  }
  for (auto& t : running) t.join();
  rethrow_first(failures);
  have_ = shared.have, best_objective_ = shared.objective, best_secondary_ = shared.secondary, best_ = shared.best;
  for (const auto& worker : workers) {
    nodes_ += worker.nodes_, leaves_ += worker.leaves_;
    stopped_ = stopped_ || worker.stopped_;
    open_bound_ = std::min(open_bound_, worker.open_bound_);
  }
}

/// The incumbent and the stop as the other threads left them.
YCHART_DECL void MappingSearch::refresh() {
  if (shared_->stopped) stopped_ = true;
  std::lock_guard lock(shared_->mutex);
  take_shared();
}

/// Searches the ranked shapes in two passes (SearchOptions::first_pass_nodes), each in
/// order (with threads: each takes the next one no thread has taken).
YCHART_DECL void MappingSearch::search_shapes(const Ranked& ranked) {
  std::vector<Deferred> deferred;  // without threads
  for (std::size_t k = 0;; ++k) {
    const std::size_t index = shared_ ? shared_->next.fetch_add(1) : k;
    if (index >= ranked.size()) break;
    const bool finished =
        search_shape(ranked[index], o_.first_pass_nodes ? o_.first_pass_nodes : std::numeric_limits<std::uint64_t>::max(), {});
    if (!shared_) {
      if (!finished) deferred.push_back({index, resume_});
      continue;
    }
    std::lock_guard lock(shared_->mutex);
    if (!finished) shared_->deferred.push_back({index, resume_});
    --shared_->first_pass_left;
  }
  while (auto next = next_deferred(deferred))
    search_shape(ranked[next->shape], std::numeric_limits<std::uint64_t>::max(), std::move(next->resume));
}

/// The best-ranked shape left for the second pass; with threads, once no
/// shape of the first pass is still being searched (it may yet be left).
YCHART_DECL std::optional<MappingSearch::Deferred> MappingSearch::next_deferred(std::vector<Deferred>& mine) {
  const auto take = [](std::vector<Deferred>& v) -> std::optional<Deferred> {
    if (v.empty()) return std::nullopt;
    const auto first = std::min_element(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.shape < y.shape; });
    Deferred d = std::move(*first);
    v.erase(first);
    return d;
  };
  if (!shared_) return take(mine);
  for (;;) {
    {
      std::lock_guard lock(shared_->mutex);
      if (!shared_->deferred.empty()) return take(shared_->deferred);
      if (shared_->first_pass_left == 0 || shared_->failed) return std::nullopt;
    }
    std::this_thread::yield();
  }
}

YCHART_DECL bool MappingSearch::search_shape(const Ranked::value_type& entry, std::uint64_t nodes, std::vector<std::size_t> resume) {
  if (shared_) refresh();
  const auto& [least, s] = entry;
  if (stopped_) {
    open_bound_ = std::min(open_bound_, least);
    return true;
  }
  if (have_ && dominated(least, 0) && (o_.objective == Objective::energy)) return true;
  prepare(s);
  const auto b = bound();
  if (dominated(b.energy, b.latency)) return true;
  order_placements();
  for (Dim d : dims_) {
    const auto di = static_cast<std::size_t>(d);
    for (const auto& sp : scored_[di]) all_[di].live.push_back(&sp);
    memo_[di].clear();
  }
  memo_placements_ = 0;
  scratch_.assign(dims_.size() + 1, {});
  count_running();
  aborted_ = false;
  node_limit_ = nodes > std::numeric_limits<std::uint64_t>::max() - nodes_ ? std::numeric_limits<std::uint64_t>::max() : nodes_ + nodes;
  resume_ = std::move(resume);
  branch(0, true);
  // Stopped by the time limit, the unwinding bounded what was left.
  return !aborted_ || stopped_;
}

YCHART_DECL MappingResult MappingSearch::result() const {
  MappingResult r;
  r.nodes = nodes_, r.leaves = leaves_;
  if (have_) {
    r.mapping = best_;
    r.evaluation = evaluate(w_, a_, best_);
    r.objective = best_objective_;
  }
  if (!stopped_) {
    r.status = have_ ? Status::optimal : Status::infeasible;
    if (have_) r.bound = r.objective, r.gap = 0;
    return r;
  }
  r.status = Status::time_limit;
  r.bound = std::min(open_bound_, have_ ? best_objective_ : std::numeric_limits<double>::infinity());
  if (have_) r.gap = (r.objective - r.bound) / r.objective;
  r.message = "stopped at the time limit of " + std::to_string(o_.time_limit) + " s";
  return r;
}

/// The warm start's last step: from `m`, move one prime factor of one loop
/// to another place (a level's temporal loop or array dimension), or change
/// a level's innermost group, while that lowers the objective and fits.
inline void improve_locally(const Workload& w, const Architecture& a, Objective objective, Mapping& m, Evaluation& e) {
  double value = objective_value(e, objective);
  const auto places = [&](LevelMapping& lm, int kind) -> DimVector& {
    return kind == 0 ? lm.temporal : kind == 1 ? lm.spatial_x : lm.spatial_y;
  };
  for (bool improved = true; improved;) {
    improved = false;
    const auto try_it = [&](const Mapping& candidate) {
      const auto ce = evaluate(w, a, candidate);
      if (!ce.fits || objective_value(ce, objective) >= value * (1 - 1e-12)) return false;
      m = candidate, e = ce, value = objective_value(ce, objective), improved = true;
      return true;
    };
    for (Dim d : all_dims)
      for (std::size_t from = 0; from < m.levels.size() * 3; ++from) {
        const auto f = at(places(m.levels[from / 3], static_cast<int>(from % 3)), d);
        if (f == 1) continue;
        for (auto prime : prime_factors(f))
          for (std::size_t to = 0; to < m.levels.size() * 3; ++to) {
            if (to == from) continue;
            Mapping c = m;
            at(places(c.levels[from / 3], static_cast<int>(from % 3)), d) /= prime;
            at(places(c.levels[to / 3], static_cast<int>(to % 3)), d) *= prime;
            const auto& level = a.levels[to / 3];
            std::int64_t x = 1, y = 1;
            for (Dim k : all_dims) x *= at(c.levels[to / 3].spatial_x, k), y *= at(c.levels[to / 3].spatial_y, k);
            if (x > level.fanout_x || y > level.fanout_y) continue;
            if (try_it(c)) break;
          }
      }
    for (std::size_t l = 0; l < m.levels.size(); ++l)
      for (Tensor g : all_tensors) {
        Mapping c = m;
        c.levels[l].order = order_with_innermost(g);
        try_it(c);
      }
  }
}

/// The level and tensor that cannot hold even a one-element tile (the
/// outermost: the whole tensor), if any.
inline std::pair<std::string, std::string> unholdable(const Workload& w, const Architecture& a) {
  for (std::size_t l = 0; l < a.levels.size(); ++l) {
    const auto& level = a.levels[l];
    const DimVector shape = l + 1 == a.levels.size() ? w.extent : DimVector{1, 1, 1, 1, 1, 1, 1};
    double shared = 0;
    for (Tensor t : all_tensors) {
      if (!level.keeps_tensor(t)) continue;
      const double tile = w.tile_size(t, shape);
      if (auto c = level.capacity_of(t); c && tile > static_cast<double>(*c)) return {level.name, std::string(name(t))};
      shared += tile;
    }
    if (level.shared_capacity && shared > static_cast<double>(*level.shared_capacity)) return {level.name, "shared"};
  }
  return {};
}

}  // namespace detail

YCHART_DECL MappingResult search_mapping(const Workload& w, const Architecture& a, const SearchOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  w.validate();
  a.validate();
  if (!(o.time_limit > 0)) throw loopnest_error("ychart: search_mapping: the time limit must be positive");
  if (o.threads > detail::max_threads)
    throw loopnest_error("ychart: search_mapping: " + std::to_string(o.threads) + " threads; at most " +
                         std::to_string(detail::max_threads));
  if (a.levels.size() > detail::max_levels)
    throw loopnest_error("ychart: search_mapping: architecture `" + a.name + "` has " + std::to_string(a.levels.size()) +
                             " storage levels; the search takes at most " + std::to_string(detail::max_levels),
                         a.name);
  MappingResult r;
  if (auto [level, tensor] = detail::unholdable(w, a); !level.empty()) {
    r.status = Status::infeasible;
    r.infeasible_level = level, r.infeasible_tensor = tensor;
    r.message = "level `" + level + "` cannot hold even the smallest tile of " +
                (tensor == "shared" ? std::string("its tensors together") : tensor);
  } else {
    detail::MappingSearch search(w, a, o);
    if (o.warm_start_samples > 0) {
      auto warm = baselines::random_mapper(w, a, o.objective, o.warm_start_samples, 7);
      if (warm.best) {
        detail::improve_locally(w, a, o.objective, *warm.best, *warm.evaluation);
        search.seed(*warm.best, *warm.evaluation);
      }
    }
    search.run();
    r = search.result();
    if (r.status == Status::infeasible) r.message = "no mapping meets the latency or energy limit";
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ychart::mapping
