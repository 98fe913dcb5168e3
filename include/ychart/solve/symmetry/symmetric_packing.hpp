// ychart/solve/symmetry/symmetric_packing.hpp
// The subproblem of a symmetric allocation: given how many units of each
// item type (CUs of each kernel) there are, place them on identical devices
// so that every device's resource rows hold, and, when spreading rows are
// present, so that the spreading they need is smallest. In turn:
//   * three greedy packings, which settle most packable totals at once;
//   * the configuration LP (GLPK), which refutes most unpackable ones;
//   * without spreading rows, bin completion: devices filled one at a time
//     with maximal contents, fullest first, unpackable remainders remembered;
//   * with spreading rows, a depth-first search over item types, each split
//     over the devices up to permutation of devices identical so far,
//     pruned by the spreading already committed.
// The searches are also pruned by the largest fill a device can reach per
// resource (a knapsack on a grid that rounds sizes down: never too low).
#pragma once

#include "../../model/tolerances.hpp"
#include "../milp/glpk_milp.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_set>
#include <vector>

namespace ychart::solve::symmetry {

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
  /// When the configuration LP refuted the totals: the types its dual
  /// prices, which cannot be packed even alone.
  std::vector<int> refuting_types;
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

  PackingSearch(const PackingProblem& p, double y_limit, clock::time_point deadline, bool greedy_first)
      : p_(p), y_limit_(y_limit), deadline_(deadline), greedy_first_(greedy_first) {
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
    // The most one device can hold of each resource, from all the units.
    most_fill_ = p.capacity;
    for (std::size_t r = 0; r < p.capacity.size(); ++r) most_fill_[r] = std::min(p.capacity[r], fill(0, r).back());
  }

  PackingResult run() {
    result_.feasible = false;
    result_.y_needed = std::numeric_limits<double>::infinity();
    if (y_lower_bound() >= y_limit_ || !capacity_allows(0)) return finish();
    // Greedy packings first: most packable totals are packed by one of them
    // at once, and with spreading rows the best of them bounds the search.
    if (greedy_first_)
      for (auto rule : {Greedy::concentrate, Greedy::balance_max, Greedy::balance_squares}) {
        greedy(rule);
        if (done_) return finish();
      }
    // Totals that fill the devices to the last percent are rarely packable and
    // hard to refute by search; the configuration LP refutes most of them.
    if (configuration_lp_refutes()) return finish();
    if (p_.spread.empty()) {
      // Feasibility only: bin completion, which settled in milliseconds the
      // packings the split search below left open for minutes (AlexNet-16 at
      // beta 0 on 5-12 FPGAs, resources filled to 99 %).
      std::vector<int> left = p_.count;
      if (lp_rounding_packs() || complete_devices(p_.devices, left)) {
        result_.feasible = true;
        result_.y_needed = y_of(n_);
        result_.n = n_;
      }
      return finish();
    }
    place(0);
    return finish();
  }

 private:
  // How a greedy packing picks the device for the next unit: the first that
  // holds it (few devices per type: least spreading), or the one whose
  // load after it is lowest, by its fullest resource or by the sum of
  // squared loads (the vector bin-packing rules that keep room for the
  // types still to come).
  enum class Greedy { concentrate, balance_max, balance_squares };

  void greedy(Greedy rule) {
    const int K = int(p_.count.size()), F = p_.devices, R = int(p_.capacity.size());
    std::vector<std::vector<int>> n(K, std::vector<int>(F, 0));
    std::vector<std::vector<double>> left(F, p_.capacity);
    auto holds = [&](int f, int k) {
      if (n[k][f] >= p_.per_device_max[k]) return false;
      for (int r = 0; r < R; ++r)
        if (p_.use[r][k] > left[f][r] + tolerances::roundoff) return false;
      return true;
    };
    auto load_after = [&](int f, int k) {
      double worst = 0.0, squares = 0.0;
      for (int r = 0; r < R; ++r) {
        const double load = 1.0 - (left[f][r] - p_.use[r][k]) / p_.capacity[r];
        worst = std::max(worst, load);
        squares += load * load;
      }
      return rule == Greedy::balance_max ? worst : squares;
    };
    for (int k : order_) {
      for (int unit = 0; unit < p_.count[k]; ++unit) {
        int chosen = -1;
        double lowest = std::numeric_limits<double>::infinity();
        for (int f = 0; f < F; ++f) {
          if (!holds(f, k)) continue;
          if (rule == Greedy::concentrate) {
            chosen = f;
            break;
          }
          const double l = load_after(f, k);
          if (l < lowest - tolerances::ulps) lowest = l, chosen = f;
        }
        if (chosen < 0) {  // this rule fails; the search decides
          std::fill(placed_.begin(), placed_.end(), 0);
          return;
        }
        ++n[k][chosen];
        for (int r = 0; r < R; ++r) left[chosen][r] -= p_.use[r][k];
      }
      double s = 0.0;
      if (!p_.table.empty() && !p_.table[k].empty())
        for (int f = 0; f < F; ++f) s += p_.table[k][n[k][f]];
      spread_value_[k] = s;
      placed_[k] = 1;
    }
    const double y = y_lower_bound();  // every type placed: exact
    std::fill(placed_.begin(), placed_.end(), 0);
    if (y >= std::min(y_limit_, result_.y_needed)) return;
    result_.feasible = true;
    result_.y_needed = y;
    result_.n = std::move(n);
    if (p_.spread.empty()) done_ = true;
  }

  // The configuration LP (Gilmore and Gomory's for cutting stock): one
  // column per content of a device, covering every type's count, least
  // devices. An LP optimum above the devices there are refutes the totals
  // (a packing is an integer point of this LP). Its bound is very tight on
  // bin packing: AlexNet-16 at beta 0 on 10 FPGAs at 50 % needs 10.019
  // devices, which bin completion took 3.6 million nodes to show.
  // Solved by column generation: the contents are too many to list (tens
  // of thousands at 90 % on 12 FPGAs, where listing them and the LP over
  // them took a second), so columns enter as the pricing knapsack finds
  // them. The restricted LP stops early either way: at or below the devices
  // it cannot refute (and its point seeds the rounding below); Farley's
  // bound, value / best price, refutes before convergence.
  static constexpr int kMostColumns = 5000;
  static constexpr long kMostPricingNodes = 2000000;

  bool configuration_lp_refutes() {
    const int K = int(p_.count.size()), R = int(p_.capacity.size());
    if (K == 0) return false;
    std::vector<int> most(std::size_t(K), 0);
    for (int k = 0; k < K; ++k) most[k] = std::min(p_.count[k], p_.per_device_max[k]);
    // How many units of type k fit in `room` alone.
    auto fits = [&](int k, const std::vector<double>& room) {
      int v = most[k];
      for (int r = 0; r < R; ++r)
        if (p_.use[r][k] > 0) v = std::min(v, int(std::floor((room[r] + tolerances::roundoff) / p_.use[r][k])));
      return std::max(v, 0);
    };
    std::vector<int> columns;  // K entries per column
    for (int k = 0; k < K; ++k) {
      if (p_.count[k] == 0) continue;
      std::vector<int> content(std::size_t(K), 0);
      content[k] = fits(k, p_.capacity);
      if (content[k] == 0) {  // a type that fits no device
        result_.refuting_types.assign(1, k);
        return true;
      }
      columns.insert(columns.end(), content.begin(), content.end());
    }
    milp::detail::GlpkProblem lp;
    glp_set_obj_dir(lp.p, GLP_MIN);
    glp_add_rows(lp.p, K);
    for (int k = 0; k < K; ++k) glp_set_row_bnds(lp.p, k + 1, GLP_LO, p_.count[k], 0.0);
    auto add_column = [&](const int* content) {
      const int c = glp_add_cols(lp.p, 1);
      glp_set_col_bnds(lp.p, c, GLP_LO, 0.0, 0.0);
      glp_set_obj_coef(lp.p, c, 1.0);
      std::vector<int> ind{0};
      std::vector<double> val{0.0};
      for (int k = 0; k < K; ++k)
        if (content[k] > 0) ind.push_back(k + 1), val.push_back(content[k]);
      glp_set_mat_col(lp.p, c, int(ind.size()) - 1, ind.data(), val.data());
    };
    for (std::size_t c = 0; c < columns.size() / std::size_t(K); ++c) add_column(&columns[c * std::size_t(K)]);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    // The device count widened by a part in 10^7, so that a packing using
    // exactly all devices is not lost to the LP's roundoff.
    constexpr double count_margin = 1e-7;
    const double devices = p_.devices + count_margin * std::max(1, p_.devices);
    std::vector<double> price(std::size_t(K), 0.0);
    std::vector<int> best_content;
    for (int round = 0; round < kMostColumns && !out_of_time(); ++round) {
      // An internal GLPK error, or no optimum: no verdict, the search decides.
      if (milp::detail::call_guarded(lp, [&] { return glp_simplex(lp.p, &parm); }) != 0 || glp_get_status(lp.p) != GLP_OPT)
        return false;
      const double value = glp_get_obj_val(lp.p);
      const int n = glp_get_num_cols(lp.p);
      if (value <= devices) {  // no refutation possible; the point seeds the rounding
        lp_columns_ = columns;
        lp_x_.resize(std::size_t(n));
        for (int c = 0; c < n; ++c) lp_x_[std::size_t(c)] = glp_get_col_prim(lp.p, c + 1);
        return false;
      }
      for (int k = 0; k < K; ++k) price[k] = std::max(0.0, glp_get_row_dual(lp.p, k + 1));
      const double best = price_content(price, most, best_content);
      if (best < 0) return false;  // the pricing search gave up: no verdict
      // Farley's bound: the duals scaled by 1 / best are feasible for the
      // whole LP, so its optimum is at least value / best.
      if (best <= 1.0 + tolerances::roundoff || value / best > devices) {
        result_.refuting_types.clear();
        for (int k = 0; k < K; ++k)
          if (p_.count[k] > 0 && price[k] > tolerances::inactive) result_.refuting_types.push_back(k);
        return true;
      }
      columns.insert(columns.end(), best_content.begin(), best_content.end());
      add_column(best_content.data());
    }
    return false;
  }

  // The pricing problem: the content of one device with the largest total
  // price, by depth-first search over the priced types, best ratio first,
  // pruned by a bound per resource (all the room at the best price per
  // unit of it). Returns that price, or -1 past kMostPricingNodes.
  double price_content(const std::vector<double>& price, const std::vector<int>& most, std::vector<int>& out) {
    const int K = int(price.size()), R = int(p_.capacity.size());
    std::vector<int> types;
    for (int k = 0; k < K; ++k)
      if (price[k] > tolerances::ulps && most[k] > 0) types.push_back(k);
    auto density = [&](int k) {
      double share = 0.0;
      for (int r = 0; r < R; ++r) share = std::max(share, p_.use[r][k] / p_.capacity[r]);
      return share > 0 ? price[k] / share : std::numeric_limits<double>::infinity();
    };
    std::stable_sort(types.begin(), types.end(), [&](int a, int b) { return density(a) > density(b); });
    const int T = int(types.size());
    // ratio[i][r]: the best price per unit of resource r among types[i..];
    // free[i][r]: the price of types[i..] that do not use r at all.
    std::vector<std::vector<double>> ratio(std::size_t(T) + 1, std::vector<double>(std::size_t(R), 0.0));
    std::vector<std::vector<double>> free(std::size_t(T) + 1, std::vector<double>(std::size_t(R), 0.0));
    std::vector<double> all(std::size_t(T) + 1, 0.0);
    for (int i = T - 1; i >= 0; --i) {
      const int k = types[std::size_t(i)];
      all[std::size_t(i)] = all[std::size_t(i) + 1] + price[k] * most[k];
      for (int r = 0; r < R; ++r) {
        ratio[std::size_t(i)][std::size_t(r)] = ratio[std::size_t(i) + 1][std::size_t(r)];
        free[std::size_t(i)][std::size_t(r)] = free[std::size_t(i) + 1][std::size_t(r)];
        if (p_.use[r][k] > 0)
          ratio[std::size_t(i)][std::size_t(r)] = std::max(ratio[std::size_t(i)][std::size_t(r)], price[k] / p_.use[r][k]);
        else
          free[std::size_t(i)][std::size_t(r)] += price[k] * most[k];
      }
    }
    std::vector<double> room = p_.capacity;
    std::vector<int> content(std::size_t(K), 0);
    out.assign(std::size_t(K), 0);
    double best = 0.0;
    long nodes = 0;
    auto bound = [&](int i) {
      double b = all[std::size_t(i)];
      for (int r = 0; r < R; ++r)
        b = std::min(b, free[std::size_t(i)][std::size_t(r)] + std::max(0.0, room[r]) * ratio[std::size_t(i)][std::size_t(r)]);
      return b;
    };
    auto search = [&](auto&& self, int i, double value) -> void {
      if (++nodes > kMostPricingNodes) return;
      if (value > best) {
        best = value;
        out = content;
      }
      if (i == T || value + bound(i) <= best * (1.0 + tolerances::ulps)) return;
      const int k = types[std::size_t(i)];
      int v = most[k];
      for (int r = 0; r < R; ++r)
        if (p_.use[r][k] > 0) v = std::min(v, int(std::floor((room[r] + tolerances::roundoff) / p_.use[r][k])));
      for (; v >= 0 && nodes <= kMostPricingNodes; --v) {
        content[k] = v;
        for (int r = 0; r < R; ++r) room[r] -= v * p_.use[r][k];
        self(self, i + 1, value + v * price[k]);
        for (int r = 0; r < R; ++r) room[r] += v * p_.use[r][k];
      }
      content[k] = 0;
    };
    search(search, 0, 0.0);
    return nodes > kMostPricingNodes ? -1.0 : best;
  }

  // The LP's solution rounded down, then bin completion for what is left
  // (the classic rounding for cutting stock): devices get floor(x_c) copies
  // of each content c, largest x first, and the remainder is small. Bin
  // completion alone took 2 s on packable VGG totals at 90 % on 11 FPGAs.
  bool lp_rounding_packs() {
    const std::size_t K = p_.count.size();
    if (lp_x_.empty() || K == 0) return false;
    std::vector<std::size_t> by_x(lp_x_.size());
    for (std::size_t c = 0; c < by_x.size(); ++c) by_x[c] = c;
    std::stable_sort(by_x.begin(), by_x.end(), [&](std::size_t a, std::size_t b) { return lp_x_[a] > lp_x_[b]; });
    std::vector<int> left = p_.count;
    int used = 0;
    for (std::size_t c : by_x) {
      for (int copy = int(std::floor(lp_x_[c] + tolerances::integrality)); copy > 0; --copy) {
        bool any = false;
        for (std::size_t k = 0; k < K; ++k) any = any || std::min(lp_columns_[c * K + k], left[k]) > 0;
        if (!any || used == p_.devices) break;
        for (std::size_t k = 0; k < K; ++k) {
          const int take = std::min(lp_columns_[c * K + k], left[k]);
          n_[k][std::size_t(used)] = take;
          left[k] -= take;
        }
        ++used;
      }
    }
    if (complete_devices(p_.devices - used, left)) return true;
    for (auto& row : n_) std::fill(row.begin(), row.end(), 0);
    return false;
  }

  // Bin completion (Korf 2003, extended to several resources): devices are
  // filled one at a time, each with a unit of the largest type left (some
  // device holds it, and devices are interchangeable), and only with
  // maximal contents, to which no unit left can be added: a packing that
  // leaves room on a device stays feasible when a later unit moves there.
  // Remainders (devices, units left) shown unpackable are remembered.
  bool complete_devices(int devices_left, std::vector<int>& left) {
    if (stopped_ || out_of_time()) return false;
    int first = -1;
    for (int k : order_)
      if (left[k] > 0) {
        first = k;
        break;
      }
    if (first < 0) return true;
    if (devices_left == 0) return false;
    const std::size_t R = p_.capacity.size(), K = left.size();
    std::vector<double> demand(R, 0.0), weight(R, 0.0);
    for (std::size_t r = 0; r < R; ++r) {
      for (std::size_t k = 0; k < K; ++k) demand[r] += p_.use[r][k] * left[k];
      if (demand[r] > devices_left * most_fill_[r] + tolerances::roundoff) return false;
      // The fuller a resource must be, the more its fill counts below.
      if (most_fill_[r] > 0) weight[r] = std::pow(demand[r] / (devices_left * most_fill_[r]), 8);
    }
    std::string key(1 + 2 * K, '\0');  // counts below 2^16: bounded by per_device_max * devices
    key[0] = char(devices_left);
    for (std::size_t k = 0; k < K; ++k) {
      key[1 + 2 * k] = char(left[k] & 0xff);
      key[2 + 2 * k] = char((left[k] >> 8) & 0xff);
    }
    if (unpackable_.count(key)) return false;
    // The maximal contents of this device that leave the other devices no
    // more than they can hold, fullest in the tightest resources first:
    // packable totals are then usually packed without backtracking.
    std::vector<int> content(K, 0), contents;
    std::vector<std::pair<double, std::size_t>> by_fill;
    std::vector<double> room = p_.capacity;
    auto maximal = [&] {
      for (std::size_t k = 0; k < K; ++k) {
        if (content[k] >= left[k] || content[k] >= p_.per_device_max[k]) continue;
        bool fits_one = true;
        for (std::size_t r = 0; r < R && fits_one; ++r) fits_one = p_.use[r][k] <= room[r] + tolerances::roundoff;
        if (fits_one) return false;
      }
      return true;
    };
    auto enumerate = [&](auto&& self, std::size_t i) -> void {
      if (out_of_time()) return;
      if (i == order_.size()) {
        if (!maximal()) return;
        double score = 0.0;
        for (std::size_t r = 0; r < R; ++r) {
          const double fill = p_.capacity[r] - room[r];
          if (demand[r] - fill > (devices_left - 1) * most_fill_[r] + tolerances::roundoff) return;
          score += weight[r] * fill / p_.capacity[r];
        }
        by_fill.emplace_back(-score, contents.size());
        contents.insert(contents.end(), content.begin(), content.end());
        return;
      }
      const int k = order_[i];
      int most = std::min(left[k], p_.per_device_max[k]);
      for (std::size_t r = 0; r < R; ++r)
        if (p_.use[r][k] > 0) most = std::min(most, int(std::floor((room[r] + tolerances::roundoff) / p_.use[r][k])));
      const int fewest = k == first ? 1 : 0;
      for (int v = most; v >= fewest && !stopped_; --v) {
        content[k] = v;
        for (std::size_t r = 0; r < R; ++r) room[r] -= v * p_.use[r][k];
        self(self, i + 1);
        for (std::size_t r = 0; r < R; ++r) room[r] += v * p_.use[r][k];
        content[k] = 0;
      }
    };
    enumerate(enumerate, 0);
    std::stable_sort(by_fill.begin(), by_fill.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const int f = p_.devices - devices_left;
    for (const auto& [score, at] : by_fill) {
      if (stopped_) return false;
      for (std::size_t k = 0; k < K; ++k) left[k] -= contents[at + k];
      const bool packed = complete_devices(devices_left - 1, left);
      for (std::size_t k = 0; k < K; ++k) left[k] += contents[at + k];
      if (packed) {
        for (std::size_t k = 0; k < K; ++k) n_[k][std::size_t(f)] = contents[at + k];
        return true;
      }
    }
    if (!stopped_ && unpackable_.size() < kMostRemembered) unpackable_.insert(std::move(key));
    return false;
  }

  static constexpr std::size_t kMostRemembered = std::size_t(1) << 21;

  double y_of(const std::vector<std::vector<int>>& n) {
    for (std::size_t k = 0; k < n.size(); ++k) {
      double s = 0.0;
      if (!p_.table.empty() && !p_.table[k].empty())
        for (int v : n[k]) s += p_.table[k][v];
      spread_value_[k] = s;
      placed_[k] = 1;
    }
    const double y = y_lower_bound();
    std::fill(placed_.begin(), placed_.end(), 0);
    return y;
  }

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
      else if (v > row.b + tolerances::roundoff) return std::numeric_limits<double>::infinity();
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
        const int c = std::clamp(int(std::floor((remaining_[f][r] + tolerances::roundoff) / cell)), 0, grid);
        reachable += std::min(best[c], remaining_[f][r] + tolerances::roundoff);
      }
      if (demand > reachable + tolerances::roundoff) return false;
    }
    return true;
  }

  int fits(int f, int k) const {
    int most = p_.per_device_max[k];
    for (std::size_t r = 0; r < p_.capacity.size(); ++r) {
      const double u = p_.use[r][k];
      if (u > 0) most = std::min(most, int(std::floor((remaining_[f][r] + tolerances::roundoff) / u)));
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
      if (y_lower_bound() < std::min(y_limit_, result_.y_needed) - tolerances::ulps && capacity_allows(depth + 1))
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
  std::vector<int> lp_columns_;  // the configuration LP's contents (K per column) and solution,
  std::vector<double> lp_x_;     // kept when it did not refute the totals
  std::vector<std::vector<double>> remaining_;
  std::vector<int> order_;
  std::vector<double> spread_value_, lowest_spread_;
  std::vector<char> placed_;
  std::vector<std::vector<std::vector<double>>> fill_;  // [depth][row] -> fill bound by grid cell
  std::vector<double> most_fill_;                       // [row]: fill bound of one whole device
  std::unordered_set<std::string> unpackable_;          // (devices, units left) shown unpackable
  PackingResult result_;
  bool greedy_first_ = true;
  bool stopped_ = false, done_ = false;
};

}  // namespace detail

/// Finds a packing (the one needing the least spreading, if there are
/// spreading rows) among those needing y < y_limit. `greedy_first` false
/// runs the exact search alone (the tests check it against brute force).
inline PackingResult pack(const PackingProblem& p, double y_limit, std::chrono::steady_clock::time_point deadline,
                          bool greedy_first = true) {
  return detail::PackingSearch(p, y_limit, deadline, greedy_first).run();
}

}  // namespace ychart::solve::symmetry
