// ychart/pipeline/detail/placement_tree.hpp
// The branch and bound behind least_ii_by_placement (placement_search.hpp):
// tasks are placed one by one, in a TaskOrder, on sets of identical
// devices; a partial placement is pruned when its certain host traffic and
// the relaxed execution of its placed tasks cannot beat the incumbent, or
// when the tasks still to place cannot fit; a full placement gets its least
// compute-unit counts. A hand-written search, not the MINLP engine's,
// because it uses what the engine cannot see: the execution time's
// monotonicity in every count (docs/pipeline.md).
#pragma once

#include "../application.hpp"
#include "../architecture.hpp"
#include "../evaluate.hpp"
#include "../mapping.hpp"
#include "host_transfers.hpp"

#include "../../error.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ychart::pipeline::detail {

/// The execution phase's budget for a placement whose host transfers take
/// `transfers` seconds (both directions), if the II is to beat `best`;
/// not positive: no counts can.
inline double execution_budget(Schedule s, double transfers, double best) {
  constexpr double strictly = 1.0 - 1e-10;  // the answer's relative precision
  switch (s) {
    case Schedule::compute_only: return best * strictly;
    case Schedule::sequential_phases: return (best - transfers) * strictly;
    case Schedule::double_buffered: return transfers < best ? best * strictly : -1.0;
  }
  return -1.0;
}

/// The order tasks are placed in. Each gives a complete search; which is
/// fastest depends on the instance (docs/pipeline.md).
enum class TaskOrder {
  heaviest_first,     // fail first: placements that cannot hold the heavy tasks are cut before the light ones multiply them
  grown_along_edges,  // the heaviest next to a placed task: neighbours meet early, so host traffic bounds cut early
  index,              // the application's order: a pipeline's stages in turn, whose first leaves are good mappings
};

template <ResourceRecord R>
class PlacementTree {
 public:
  static constexpr int max_devices = 16;  // placements are bit masks; 2^16 per task is already far beyond use

  PlacementTree(const Application<R>& app, const Platform<R>& platform, const EvaluationOptions<R>& options,
                double time_limit, TaskOrder order)
      : platform_(platform), options_(options), execution_only_(options), tasks_(app.size()),
        devices_(static_cast<std::size_t>(platform.devices())), time_limit_(time_limit),
        started_(std::chrono::steady_clock::now()) {
    if (tasks_ == 0) throw model_error("ychart: least_ii_by_placement needs at least one task", app.name());
    execution_only_.model.schedule = Schedule::compute_only;
    measure_alone(app);
    order_tasks(app, order);
    for (std::size_t j = 1; j <= tasks_; ++j) {
      prefixes_.push_back(prefix(j));
      prefix_evaluators_.emplace_back(prefixes_.back(), platform_, execution_only_);
    }
    full_ = std::make_unique<MappingEvaluator<R>>(app_, platform_, options_);
    const auto& kind = full_->table().kinds.front();
    for (std::size_t t = 0; t < kind.capacity.size(); ++t)
      cap_fraction_.push_back(kind.capacity[t] > 0 ? kind.cap[t] / kind.capacity[t] : 0.0);
    mask_.assign(tasks_, 0);
  }

  /// Takes `m` as the incumbent if it is feasible and beats the present one.
  void offer(const Mapping& m) {
    if (m.cus.size() != tasks_)
      throw model_error("ychart: the incumbent mapping has " + std::to_string(m.cus.size()) +
                            " tasks, application '" + app_.name() + "' has " + std::to_string(tasks_),
                        app_.name());
    Mapping ordered = m;
    to_search_order(ordered.cus);
    ++evaluations_;
    const auto e = full_->run(ordered);
    if (e.feasible && e.ii.value() < best_ii_) {
      best_ii_ = e.ii.value();
      best_ = std::move(ordered);
    }
  }

  /// Runs the search; true when it finished (the incumbent is then optimal,
  /// or there is none and no mapping is feasible), false on the time limit.
  bool search() {
    descend(0, 0);
    return !timed_out_;
  }

  /// The incumbent, in the application's task order.
  std::optional<Mapping> best() const {
    if (!best_) return std::nullopt;
    Mapping m = *best_;
    for (std::size_t i = 0; i < tasks_; ++i) m.cus[order_[i]] = best_->cus[i];
    return m;
  }
  long nodes() const { return nodes_; }
  long evaluations() const { return evaluations_; }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(); }

 private:
  Application<R> app_;              // the tasks in search order (order_tasks)
  std::vector<std::size_t> order_;  // [i]: the application's index of search task i
  std::vector<std::vector<std::size_t>> earlier_neighbours_;  // [i]: search tasks before i joined to it by an edge
  const Platform<R>& platform_;
  const EvaluationOptions<R>& options_;
  EvaluationOptions<R> execution_only_;  // the execution phase alone: the tasks' times
  std::size_t tasks_, devices_;
  double time_limit_;
  std::chrono::steady_clock::time_point started_;
  std::deque<Application<R>> prefixes_;                 // stable addresses: the evaluators refer to them
  std::deque<MappingEvaluator<R>> prefix_evaluators_;  // [j - 1]: the first j tasks
  std::unique_ptr<MappingEvaluator<R>> full_;
  std::vector<double> cap_fraction_;                      // per resource, of one device's capacity
  std::vector<double> alone_time_;                        // [k]: one CU alone on a device
  std::vector<std::vector<double>> alone_use_;            // [k][resource]: its utilisation
  std::vector<int> mask_;                                 // [k]: the devices holding task k's CUs
  std::set<std::vector<std::vector<int>>> visited_;       // counts tried for a split task, per placement
  std::optional<Mapping> best_;
  double best_ii_ = std::numeric_limits<double>::infinity();
  long nodes_ = 0, evaluations_ = 0;
  bool timed_out_ = false;

  Application<R> prefix(std::size_t j) const {
    Application<R> a(app_.name());
    for (std::size_t k = 0; k < j; ++k) a.add(app_.kernel(k));
    for (const auto& e : app_.edges())
      if (e.from < j && e.to < j) a.connect(e.from, e.to, e.volume);
    return a;
  }

  // Each task with one CU alone on a device: its least time and its use.
  void measure_alone(const Application<R>& app) {
    Mapping one;
    one.cus.assign(1, std::vector<int>(devices_, 0));
    one.cus[0][0] = 1;
    for (std::size_t k = 0; k < tasks_; ++k) {
      Application<R> a(app.name());
      a.add(app.kernel(k));
      MappingEvaluator<R> ev(a, platform_, execution_only_);
      const auto e = ev.run(one);
      alone_time_.push_back(e.kernel_time.front());
      std::vector<double> use = e.utilisation.front();
      alone_use_.push_back(std::move(use));
    }
  }

  // The search order (TaskOrder). A task's weight is its time alone times
  // the largest share of a device one CU takes: how much of a device it
  // holds for how long.
  void order_tasks(const Application<R>& app, TaskOrder order) {
    std::vector<double> weight(tasks_, 0.0);
    for (std::size_t k = 0; k < tasks_; ++k)
      for (double u : alone_use_[k]) weight[k] = std::max(weight[k], alone_time_[k] * u);
    order_.clear();
    std::vector<bool> taken(tasks_, false), near(tasks_, false);
    for (std::size_t i = 0; i < tasks_; ++i) {
      std::size_t pick = tasks_;  // the heaviest, first among those next to a placed task when growing
      const bool grow = order == TaskOrder::grown_along_edges;
      if (order == TaskOrder::index) pick = i;
      for (int pass = grow ? 0 : 1; pass < 2 && pick == tasks_; ++pass)
        for (std::size_t k = 0; k < tasks_; ++k)
          if (!taken[k] && (pass == 1 || near[k]) && (pick == tasks_ || weight[k] > weight[pick])) pick = k;
      order_.push_back(pick);
      taken[pick] = true;
      for (const auto& e : app.edges()) {
        if (e.from == pick) near[e.to] = true;
        if (e.to == pick) near[e.from] = true;
      }
    }
    std::vector<std::size_t> position(tasks_);
    app_ = Application<R>(app.name());
    for (std::size_t i = 0; i < tasks_; ++i) {
      position[order_[i]] = i;
      app_.add(app.kernel(order_[i]));
    }
    earlier_neighbours_.assign(tasks_, {});
    for (const auto& e : app.edges()) {
      const std::size_t from = position[e.from], to = position[e.to];
      app_.connect(from, to, e.volume);
      earlier_neighbours_[std::max(from, to)].push_back(std::min(from, to));
    }
    to_search_order(alone_time_);
    to_search_order(alone_use_);
  }

  /// Permutes per-task values from the application's order into order_.
  template <class T>
  void to_search_order(std::vector<T>& v) const {
    const auto copy = v;
    for (std::size_t i = 0; i < tasks_; ++i) v[i] = copy[order_[i]];
  }

  bool out_of_time() {
    if (!timed_out_) timed_out_ = seconds() > time_limit_;
    return timed_out_;
  }
  int copies(std::size_t k) const { return std::popcount(static_cast<unsigned>(mask_[k])); }

  /// One CU of each of the first j tasks on each of its devices.
  Mapping ones(std::size_t j) const {
    Mapping n;
    n.cus.assign(j, std::vector<int>(devices_, 0));
    for (std::size_t k = 0; k < j; ++k)
      for (std::size_t d = 0; d < devices_; ++d) n.cus[k][d] = mask_[k] >> d & 1;
    return n;
  }

  /// Raises `n` (counts of the first j tasks) to counts at which every
  /// task's time is at most tau, or returns false when none exist under the
  /// caps. A task on one device that is too slow must get a CU there at any
  /// such counts above n (the others only slow it down): forced. A split one
  /// must get one on some device of its own: a branch. With exact = false,
  /// split tasks keep their counts and need not meet tau (a relaxation).
  /// Returns the evaluation at the counts met.
  std::optional<Evaluation> meet(MappingEvaluator<R>& ev, std::size_t j, Mapping& n, double tau, bool exact) {
    for (;;) {
      if ((++evaluations_ & 1023) == 0 && out_of_time()) return std::nullopt;
      auto e = ev.run(n);
      if (!e.feasible) return std::nullopt;  // a cap broken here is broken at every count above
      bool forced = false;
      std::optional<std::size_t> slow_split;
      for (std::size_t k = 0; k < j; ++k) {
        if (!(e.kernel_time[k] > tau)) continue;
        if (copies(k) == 1) {
          ++n.cus[k][static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask_[k])))];
          forced = true;
        } else if (!slow_split) {
          slow_split = k;
        }
      }
      if (forced) continue;
      if (!slow_split || !exact) return e;
      if (!visited_.insert(n.cus).second) return std::nullopt;
      for (std::size_t d = 0; d < devices_; ++d) {
        if (!(mask_[*slow_split] >> d & 1)) continue;
        Mapping next = n;
        ++next.cus[*slow_split][d];
        if (auto met = meet(ev, j, next, tau, true)) {
          n = std::move(next);
          return met;
        }
        if (timed_out_) return std::nullopt;
      }
      return std::nullopt;
    }
  }

  /// Host-transfer time that every completion of the first j tasks'
  /// placement has (host_traffic of a partial placement).
  double certain_transfer_time(std::size_t j) const {
    if (options_.model.schedule == Schedule::compute_only) return 0.0;
    const auto t = host_traffic(app_, ones(j), options_.model.locality);
    return (t.to_device > 0 ? t.to_device / platform_.host_to_device.bandwidth.value() : 0.0) +
           (t.to_host > 0 ? t.to_host / platform_.device_to_host.bandwidth.value() : 0.0);
  }

  /// Whether the tasks not placed yet can fit beside the first j at their
  /// met counts (evaluated in `met`): each needs at least max(1, ceil(alone time / tau)) CUs (a
  /// task's time with N CUs is at least its time alone over N), a split one
  /// that many in all; summed over the devices, per resource.
  bool rest_fits(std::size_t j, double tau, const Evaluation& met) const {
    auto least_cus = [&](std::size_t k) { return std::max(1.0, std::ceil(alone_time_[k] / tau - 1e-9)); };
    for (std::size_t t = 0; t < cap_fraction_.size(); ++t) {
      double free = 0.0, need = 0.0;
      for (std::size_t d = 0; d < devices_; ++d) free += cap_fraction_[t] - met.utilisation[d][t];
      for (std::size_t k = j; k < tasks_; ++k) need += least_cus(k) * alone_use_[k][t];
      for (std::size_t k = 0; k < j; ++k)
        if (copies(k) > 1) need += std::max(0.0, least_cus(k) - copies(k)) * alone_use_[k][t];
      if (need > free * (1 + 1e-9) + 1e-12) return false;
    }
    return true;
  }

  /// The least II of the full placement in mask_: counts met for ever
  /// smaller budgets until none exist; every II found becomes the incumbent.
  void settle(Mapping n) {
    for (;;) {
      ++evaluations_;
      const auto e = full_->run(n);
      if (!e.feasible || !(e.ii.value() < best_ii_)) return;
      best_ii_ = e.ii.value();
      best_ = n;
      const double tau = execution_budget(options_.model.schedule,
                                          e.host_to_device.value() + e.device_to_host.value(), best_ii_);
      n = ones(tasks_);
      visited_.clear();
      if (!(tau > 0) || !meet(prefix_evaluators_.back(), tasks_, n, tau, true)) return;
    }
  }

  /// Devices a mask opens beyond the first `used`, in order; -1: the mask
  /// skips one (identical devices: every placement has a relabelling whose
  /// devices are first used in order, task by task).
  int opened(int mask, int used) const {
    int next = used;
    for (int d = 0; d < static_cast<int>(devices_); ++d) {
      if (!(mask >> d & 1)) continue;
      if (d > next) return -1;
      if (d == next) ++next;
    }
    return next;
  }

  void descend(std::size_t j, int used) {
    if (out_of_time()) return;
    ++nodes_;
    if (j > 0) {
      const double tau = execution_budget(options_.model.schedule, certain_transfer_time(j), best_ii_);
      if (!(tau > 0)) return;
      Mapping n = ones(j);
      visited_.clear();
      const auto met = meet(prefix_evaluators_[j - 1], j, n, tau, j == tasks_);
      if (!met) return;
      if (j == tasks_) return settle(std::move(n));
      if (!rest_fits(j, tau, *met)) return;
    }
    // The devices of its placed neighbours first: locality finds good incumbents early.
    std::vector<int> masks;
    for (std::size_t k : earlier_neighbours_[j])
      if (copies(k) == 1 && std::find(masks.begin(), masks.end(), mask_[k]) == masks.end()) masks.push_back(mask_[k]);
    for (int s = 1; s < (1 << devices_); ++s)
      if (std::find(masks.begin(), masks.end(), s) == masks.end()) masks.push_back(s);
    for (int s : masks) {
      const int next = opened(s, used);
      if (next < 0) continue;
      mask_[j] = s;
      descend(j + 1, next);
      if (timed_out_) break;
    }
    mask_[j] = 0;
  }
};

}  // namespace ychart::pipeline::detail
