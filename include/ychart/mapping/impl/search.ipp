// ychart/mapping/impl/search.ipp
// The implementation of ychart/mapping/search.hpp.
#pragma once

#include "../../config.hpp"
#include "../../baselines/mappers.hpp"
#include "../detail/factors.hpp"
#include "../detail/orders.hpp"
#include "../detail/traffic.hpp"
#include "../search.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <map>

namespace ychart::mapping {

namespace detail {

/// The branch and bound of search_mapping. Levels are placed from the
/// outermost down; `enter(l, left)` is called with the levels above `l`
/// placed and `left` the part of every loop still to place, which is
/// level `l`'s tile shape.
class MappingSearch {
 public:
  MappingSearch(const Workload& w, const Architecture& a, const SearchOptions& o)
      : w_(w), a_(a), o_(o), top_(static_cast<int>(a.levels.size()) - 1),
        deadline_(std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                          std::chrono::duration<double>(o.time_limit))) {
    m_.levels.resize(a.levels.size());
    traffic_.assign(a.levels.size(), 0.0);
    fixed_energy_ = w.macs() * a.mac_energy.value();
    least_rest_.assign(a.levels.size() + 1, 0.0);
    // least_rest_[l]: what the traffic into every child below level l costs at least: each
    // element reaches its children at least once and leaves its parent at least once.
    for (int l = 0; l <= top_; ++l) {
      least_rest_[static_cast<std::size_t>(l + 1)] = least_rest_[static_cast<std::size_t>(l)];
      for (Tensor t : all_tensors)
        if (l < top_ && a.levels[static_cast<std::size_t>(l)].keeps_tensor(t)) least_rest_[static_cast<std::size_t>(l + 1)] += least_child_energy(t, l);
    }
    for (Tensor t : all_tensors) least_mac_ += least_child_energy(t, mac_child);
  }

  void seed(const Mapping& m, const Evaluation& e) { consider(m, e.energy.value(), e.latency.value()); }

  void run() { enter(top_, w_.extent); }

  MappingResult result() const {
    MappingResult r;
    r.nodes = nodes_, r.leaves = leaves_;
    if (have_) {
      r.mapping = best_;
      r.evaluation = evaluate(w_, a_, best_);
      r.objective = best_objective_;
    }
    const double bound = std::min(open_bound_, have_ ? best_objective_ : std::numeric_limits<double>::infinity());
    if (!stopped_) {
      r.status = have_ ? Status::optimal : Status::infeasible;
      if (have_) r.bound = r.objective, r.gap = 0;
    } else {
      r.status = Status::time_limit;
      r.bound = bound;
      if (have_) r.gap = (r.objective - bound) / r.objective;
      r.message = "stopped at the time limit of " + std::to_string(o_.time_limit) + " s";
    }
    return r;
  }

 private:
  double least_child_energy(Tensor t, int child) const {
    const double words = w_.size(t);
    const auto& parent = a_.levels[static_cast<std::size_t>(parent_of(a_, t, child))];
    if (child == mac_child) return words * (t == Tensor::outputs ? parent.write_energy : parent.read_energy).value();
    const auto& c = a_.levels[static_cast<std::size_t>(child)];
    return t == Tensor::outputs ? words * (c.read_energy.value() + parent.write_energy.value())
                                : words * (c.write_energy.value() + parent.read_energy.value());
  }

  bool fits(int l, const DimVector& shape) const {
    const auto& level = a_.levels[static_cast<std::size_t>(l)];
    double shared = 0;
    for (Tensor t : all_tensors) {
      if (!level.keeps_tensor(t)) continue;
      const double tile = w_.tile_size(t, shape);
      if (auto c = level.capacity_of(t); c && tile > static_cast<double>(*c)) return false;
      shared += tile;
    }
    return !level.shared_capacity || shared <= static_cast<double>(*level.shared_capacity);
  }

  /// Adds the traffic into `child` of every tensor it takes from above.
  void price_child(int child) {
    for (Tensor t : all_tensors) {
      if (child != mac_child && !a_.levels[static_cast<std::size_t>(child)].keeps_tensor(t)) continue;
      const auto tr = child_traffic(w_, a_, m_, t, child);
      const auto p = static_cast<std::size_t>(parent_of(a_, t, child));
      const bool out = t == Tensor::outputs;
      const double up = out ? tr.words : tr.parent_reads;
      energy_ += up * (out ? a_.levels[p].write_energy : a_.levels[p].read_energy).value();
      traffic_[p] += up;
      if (child == mac_child) continue;
      const auto c = static_cast<std::size_t>(child);
      energy_ += tr.words * (out ? a_.levels[c].read_energy : a_.levels[c].write_energy).value();
      traffic_[c] += tr.words;
    }
  }

  /// Cycles so far: compute at its fastest with the spatial factors still
  /// open (`spatial_room`), and each level's bandwidth on the traffic priced.
  double cycles(int from_level, double spatial_room) const {
    double c = w_.macs() / (used_instances(m_, mac_child) * spatial_room);
    for (int l = std::max(from_level, 0); l <= top_; ++l) {
      const auto& level = a_.levels[static_cast<std::size_t>(l)];
      if (level.bandwidth) c = std::max(c, traffic_[static_cast<std::size_t>(l)] / (used_instances(m_, l) * *level.bandwidth));
    }
    return c;
  }

  double objective(double energy, double latency) const {
    switch (o_.objective) {
      case Objective::energy: return energy;
      case Objective::latency: return latency;
      case Objective::energy_delay: return energy * latency;
    }
    return energy;
  }
  double secondary(double energy, double latency) const { return o_.objective == Objective::energy ? latency : energy; }

  /// Whether nothing below a node whose energy and latency are at least these can do better.
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

  void consider(const Mapping& m, double energy, double latency) {
    if (dominated(energy, latency)) return;
    best_ = m, have_ = true;
    best_objective_ = objective(energy, latency), best_secondary_ = secondary(energy, latency);
  }

  bool out_of_time() {
    if (stopped_) return true;
    if ((++nodes_ & 255) == 0 && std::chrono::steady_clock::now() > deadline_) stopped_ = true;
    return stopped_;
  }

  YCHART_DECL void enter(int l, const DimVector& left);
  YCHART_DECL void leaf();
  template <class F> void spatial_vectors(const DimVector& left, std::int64_t room, std::size_t d, DimVector& v, F&& f);
  template <class F> void temporal_vectors(int l, const DimVector& left, std::size_t d, DimVector& v, F&& f);

  const Workload& w_;
  const Architecture& a_;
  const SearchOptions& o_;
  const int top_;
  const std::chrono::steady_clock::time_point deadline_;
  Mapping m_, best_;
  std::vector<double> traffic_, least_rest_;
  double energy_ = 0, fixed_energy_ = 0, least_mac_ = 0;
  bool have_ = false, stopped_ = false;
  double best_objective_ = 0, best_secondary_ = 0, open_bound_ = std::numeric_limits<double>::infinity();
  std::uint64_t nodes_ = 0, leaves_ = 0;
};

/// Calls f for every vector of divisors of `left`, from loop `d` on, whose product is at most `room`.
template <class F>
void MappingSearch::spatial_vectors(const DimVector& left, std::int64_t room, std::size_t d, DimVector& v, F&& f) {
  if (d == dim_count) return f();
  const auto divs = divisors(left[d]);
  for (auto it = divs.rbegin(); it != divs.rend(); ++it) {
    if (*it > room) continue;
    v[d] = *it;
    spatial_vectors(left, room / *it, d + 1, v, f);
  }
  v[d] = 1;
}

/// Calls f for every vector of divisors of `left` from loop `d` on that
/// leaves the level below a tile it can hold (checked as the loops are
/// chosen: what is undecided counts as placed here, the smallest tile).
template <class F>
void MappingSearch::temporal_vectors(int l, const DimVector& left, std::size_t d, DimVector& v, F&& f) {
  if (d == dim_count) return f();
  for (auto t : divisors(left[d])) {
    v[d] = t;
    DimVector below{1, 1, 1, 1, 1, 1, 1};
    for (std::size_t k = 0; k <= d; ++k) below[k] = left[k] / v[k];
    if (!fits(l - 1, below)) continue;
    temporal_vectors(l, left, d + 1, v, f);
  }
  v[d] = left[d];
}

YCHART_DECL void MappingSearch::enter(int l, const DimVector& left) {
  if (out_of_time()) return;
  const auto li = static_cast<std::size_t>(l);
  const auto saved_traffic = traffic_;
  const double saved_energy = energy_;
  if (l < top_) price_child(l);
  double room = 1;  // spatial instances still open
  for (int j = 0; j <= l; ++j) room *= static_cast<double>(a_.levels[static_cast<std::size_t>(j)].fanout_x * a_.levels[static_cast<std::size_t>(j)].fanout_y);
  double left_product = 1;
  for (auto x : left) left_product *= static_cast<double>(x);
  const double least_energy = energy_ + fixed_energy_ + least_rest_[li] + least_mac_;
  const double least_latency = cycles(l, std::min(room, left_product)) / a_.clock.value();
  if (dominated(least_energy, least_latency)) {
    traffic_ = saved_traffic, energy_ = saved_energy;
    return;
  }
  auto& lm = m_.levels[li];
  DimVector sx{1, 1, 1, 1, 1, 1, 1}, sy = sx, t = sx;
  spatial_vectors(left, a_.levels[li].fanout_x, 0, sx, [&] {
    DimVector after_x = left;
    for (std::size_t d = 0; d < dim_count; ++d) after_x[d] /= sx[d];
    spatial_vectors(after_x, a_.levels[li].fanout_y, 0, sy, [&] {
      DimVector rest = after_x;
      for (std::size_t d = 0; d < dim_count; ++d) rest[d] /= sy[d];
      lm.spatial_x = sx, lm.spatial_y = sy;
      const auto place = [&](const DimVector& temporal) {
        lm.temporal = temporal;
        DimVector below = rest;
        for (std::size_t d = 0; d < dim_count; ++d) below[d] /= temporal[d];
        for (Tensor g : innermost_choices(temporal)) {
          if (stopped_) break;
          lm.order = order_with_innermost(g);
          if (l == 0) leaf();
          else enter(l - 1, below);
        }
      };
      if (l == 0) place(rest);
      else temporal_vectors(l, rest, 0, t, [&] { place(t); });
    });
  });
  lm = LevelMapping{};
  if (stopped_) open_bound_ = std::min(open_bound_, objective(least_energy, least_latency));
  traffic_ = saved_traffic, energy_ = saved_energy;
}

YCHART_DECL void MappingSearch::leaf() {
  ++leaves_;
  const auto saved_traffic = traffic_;
  const double saved_energy = energy_;
  price_child(mac_child);
  consider(m_, energy_ + fixed_energy_, cycles(0, 1) / a_.clock.value());
  traffic_ = saved_traffic, energy_ = saved_energy;
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
  MappingResult r;
  if (auto [level, tensor] = detail::unholdable(w, a); !level.empty()) {
    r.status = Status::infeasible;
    r.infeasible_level = level, r.infeasible_tensor = tensor;
    r.message = "level `" + level + "` cannot hold even the smallest tile of " +
                (tensor == "shared" ? std::string("its tensors together") : tensor);
  } else {
    detail::MappingSearch search(w, a, o);
    if (o.warm_start_samples > 0) {
      const auto warm = baselines::random_mapper(w, a, o.objective, o.warm_start_samples, 7);
      if (warm.best) search.seed(*warm.best, *warm.evaluation);
    }
    search.run();
    r = search.result();
    if (r.status == Status::infeasible) r.message = "no mapping meets the latency or energy limit";
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ychart::mapping
