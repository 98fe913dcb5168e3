// ychart/solve/symmetric_packing.hpp
// The subproblem of a symmetric allocation: given how many units of each
// item type (CUs of each kernel) there are, place them on identical devices
// so that every device's resource rows hold, and, when spreading rows are
// present, so that the spreading they need is smallest. A depth-first search
// over item types, each split over the devices; devices whose allocation so
// far is identical are interchangeable, so a split is enumerated only up to
// their permutation (non-increasing counts across them). Pruned by the
// largest fill each device can still reach per resource (a knapsack over
// the units left, on a grid that rounds sizes down, so it never
// underestimates) and by the spreading already committed.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace ychart::solve {

struct PackingProblem {
  int devices = 0;
  std::vector<int> count;                  // units of each item type to place
  std::vector<int> per_device_max;         // at most this many of a type on one device
  std::vector<std::vector<double>> use;    // [row][type] >= 0: one unit's use of the row's resource
  std::vector<double> capacity;            // [row]: per device
  /// Spreading: row r needs sum_k coef * sum_f table_k(n_kf) <= gamma_r * y + b_r.
  std::vector<std::vector<double>> table;  // [type]: value at 0..per_device_max (empty: type not spread)
  struct SpreadRow {
    std::vector<std::pair<int, double>> terms;  // (type, coefficient >= 0)
    double gamma = 0.0, b = 0.0;
  };
  std::vector<SpreadRow> spread;
};

struct PackingResult {
  bool feasible = false;
  bool complete = true;  // false: stopped by the deadline, nothing proven
  double y_needed = -std::numeric_limits<double>::infinity();  // smallest y the packing needs
  std::vector<std::vector<int>> n;  // [type][device]
  long nodes = 0;
};

/// fill[c]: the most of a resource that whole units can fill within c grid
/// cells of capacity / grid each; units are (size, count). Sizes are rounded
/// down to the grid, so every real packing is counted and the value never
/// falls below the true one: an upper bound. Units smaller than a cell weigh
/// nothing on the grid and are added whole. Bounded knapsack, counts split
/// in powers of two.
inline std::vector<double> fill_bound(const std::vector<std::pair<double, int>>& units, double capacity, int grid) {
  const double cell = capacity / grid;
  std::vector<double> best(grid + 1, 0.0);
  double free_fill = 0.0;
  for (auto [u, left] : units) {
    if (u <= 0 || left <= 0) continue;
    const int w = int(std::floor(u / cell));
    if (w == 0) {
      free_fill += u * left;
      continue;
    }
    for (int chunk = 1; left > 0; chunk *= 2) {
      const int take = std::min(chunk, left);
      left -= take;
      for (int c = grid; c >= take * w; --c) best[c] = std::max(best[c], best[c - take * w] + take * u);
    }
  }
  for (auto& v : best) v += free_fill;
  return best;
}

namespace detail {

class PackingSearch {
 public:
  using clock = std::chrono::steady_clock;

  PackingSearch(const PackingProblem& p, double y_limit, clock::time_point deadline)
      : p_(p), y_limit_(y_limit), deadline_(deadline) {
    const int K = int(p.count.size()), F = p.devices;
    n_.assign(K, std::vector<int>(F, 0));
    remaining_.assign(F, p.capacity);
    // Big items first: by their largest share of any resource.
    order_.resize(K);
    std::iota(order_.begin(), order_.end(), 0);
    auto size = [&](int k) {
      double s = 0.0;
      for (std::size_t r = 0; r < p.capacity.size(); ++r) s = std::max(s, p.use[r][k] / p.capacity[r]);
      return s;
    };
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) { return size(a) > size(b); });
    spread_value_.assign(K, 0.0);
    lowest_spread_.assign(K, 0.0);
    for (int k = 0; k < K; ++k) lowest_spread_[k] = concentrated_spread(k);
    placed_.assign(K, 0);
    fill_.assign(K + 1, std::vector<std::vector<double>>(p.capacity.size()));
  }

  PackingResult run() {
    result_.feasible = false;
    result_.y_needed = std::numeric_limits<double>::infinity();
    if (y_lower_bound() >= y_limit_ || !capacity_allows(0)) return finish();
    place(0);
    return finish();
  }

 private:
  // Spreading of type k when its units fill as few devices as possible.
  double concentrated_spread(int k) const {
    if (p_.table.empty() || p_.table[k].empty()) return 0.0;
    int left = p_.count[k];
    const int most = std::max(1, p_.per_device_max[k]);
    double s = 0.0;
    while (left > 0) {
      const int take = std::min(left, most);
      s += p_.table[k][take];
      left -= take;
    }
    return s;
  }

  // The smallest y any completion can need: placed types at their value,
  // the rest at their concentrated value.
  double y_lower_bound() const {
    double y = -std::numeric_limits<double>::infinity();
    for (const auto& row : p_.spread) {
      double v = 0.0;
      for (auto [k, c] : row.terms) v += c * (placed_[k] ? spread_value_[k] : lowest_spread_[k]);
      if (row.gamma > 0) y = std::max(y, (v - row.b) / row.gamma);
      else if (v > row.b + 1e-9) return std::numeric_limits<double>::infinity();
    }
    return y;
  }

  bool out_of_time() {
    if ((++result_.nodes & 1023) == 0 && clock::now() > deadline_) stopped_ = true;
    return stopped_;
  }

  static constexpr int grid = 2048;  // cells per device capacity in the fill bound

  // The fill bound of row r for the units of types order_[depth..],
  // computed once per (depth, row).
  const std::vector<double>& fill(int depth, std::size_t r) {
    auto& slot = fill_[depth][r];
    if (!slot.empty()) return slot;
    std::vector<std::pair<double, int>> units;
    for (int i = depth; i < int(order_.size()); ++i) units.emplace_back(p_.use[r][order_[i]], p_.count[order_[i]]);
    slot = fill_bound(units, p_.capacity[r], grid);
    return slot;
  }

  // Whether the unplaced types can still fit: per row, the demand left
  // against the most every device can still be filled.
  bool capacity_allows(int depth) {
    const int F = p_.devices;
    for (std::size_t r = 0; r < p_.capacity.size(); ++r) {
      double demand = 0.0;
      for (int i = depth; i < int(order_.size()); ++i) demand += std::max(0.0, p_.use[r][order_[i]]) * p_.count[order_[i]];
      if (demand == 0.0) continue;
      const auto& best = fill(depth, r);
      const double cell = p_.capacity[r] / grid;
      double reachable = 0.0;
      for (int f = 0; f < F; ++f) {
        const int c = std::clamp(int(std::floor((remaining_[f][r] + 1e-9) / cell)), 0, grid);
        reachable += std::min(best[c], remaining_[f][r] + 1e-9);
      }
      if (demand > reachable + 1e-9) return false;
    }
    return true;
  }

  int fits(int f, int k) const {
    int most = p_.per_device_max[k];
    for (std::size_t r = 0; r < p_.capacity.size(); ++r) {
      const double u = p_.use[r][k];
      if (u > 0) most = std::min(most, int(std::floor((remaining_[f][r] + 1e-9) / u)));
    }
    return std::max(0, most);
  }

  void place(int depth) {
    if (stopped_) return;
    if (depth == int(order_.size())) {
      const double y = y_lower_bound();  // every type placed: exact
      if (y < result_.y_needed) {
        result_.feasible = true;
        result_.y_needed = y;
        result_.n = n_;
        if (p_.spread.empty()) done_ = true;  // feasibility is all that is asked
      }
      return;
    }
    const int k = order_[depth];
    // Devices identical so far (same counts of every placed type) form runs;
    // within a run counts of k must not increase, so each split is seen once.
    std::vector<int> same_as_previous(p_.devices, 0);
    for (int f = 1; f < p_.devices; ++f) {
      bool same = true;
      for (int i = 0; i < depth && same; ++i) same = n_[order_[i]][f] == n_[order_[i]][f - 1];
      same_as_previous[f] = same;
    }
    std::vector<int> cap(p_.devices);
    for (int f = 0; f < p_.devices; ++f) cap[f] = fits(f, k);
    std::vector<int> suffix(p_.devices + 1, 0);
    for (int f = p_.devices - 1; f >= 0; --f) suffix[f] = suffix[f + 1] + cap[f];
    if (suffix[0] < p_.count[k]) return;
    split(depth, k, 0, p_.count[k], cap, suffix, same_as_previous);
  }

  void split(int depth, int k, int f, int left, const std::vector<int>& cap, const std::vector<int>& suffix,
             const std::vector<int>& same_as_previous) {
    if (done_ || out_of_time()) return;
    if (f == p_.devices) {
      if (left != 0) return;
      double s = 0.0;
      if (!p_.table.empty() && !p_.table[k].empty())
        for (int d = 0; d < p_.devices; ++d) s += p_.table[k][n_[k][d]];
      spread_value_[k] = s;
      placed_[k] = 1;
      if (y_lower_bound() < std::min(y_limit_, result_.y_needed) - 1e-12 && capacity_allows(depth + 1))
        place(depth + 1);
      placed_[k] = 0;
      return;
    }
    int hi = std::min(cap[f], left);
    if (f > 0 && same_as_previous[f]) hi = std::min(hi, n_[k][f - 1]);
    const int lo = std::max(0, left - suffix[f + 1]);
    for (int v = hi; v >= lo; --v) {  // concentrated splits first
      n_[k][f] = v;
      for (std::size_t r = 0; r < p_.capacity.size(); ++r) remaining_[f][r] -= v * p_.use[r][k];
      split(depth, k, f + 1, left - v, cap, suffix, same_as_previous);
      for (std::size_t r = 0; r < p_.capacity.size(); ++r) remaining_[f][r] += v * p_.use[r][k];
      n_[k][f] = 0;
      if (done_ || stopped_) return;
    }
  }

  PackingResult finish() {
    result_.complete = !stopped_;
    if (!result_.feasible) result_.y_needed = std::numeric_limits<double>::infinity();
    return result_;
  }

  const PackingProblem& p_;
  double y_limit_;
  clock::time_point deadline_;
  std::vector<std::vector<int>> n_;
  std::vector<std::vector<double>> remaining_;
  std::vector<int> order_;
  std::vector<double> spread_value_, lowest_spread_;
  std::vector<char> placed_;
  std::vector<std::vector<std::vector<double>>> fill_;  // [depth][row] -> fill bound by grid cell
  PackingResult result_;
  bool stopped_ = false, done_ = false;
};

}  // namespace detail

/// Finds a packing (the one needing the least spreading, if there are
/// spreading rows) among those needing y < y_limit.
inline PackingResult pack(const PackingProblem& p, double y_limit, std::chrono::steady_clock::time_point deadline) {
  return detail::PackingSearch(p, y_limit, deadline).run();
}

}  // namespace ychart::solve
