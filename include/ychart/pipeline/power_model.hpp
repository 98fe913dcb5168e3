// ychart/pipeline/power_model.hpp
// The power-optimal mapping under a throughput constraint (study 001
// chapters 5-6): minimise total power subject to II <= II_max, exactly, as a
// mixed-integer linear model of the same power evaluate() computes at
// EvaluationOptions::operating_ii under the options' PerformanceModel.
// Two prices, two formulations:
//
// 1. Clocks scaled to II_max (scale_clocks, the default; eqs. 5.13-5.22),
// on identical devices. build_power_model() returns the model for a fixed
// number of devices in use (or any number up to the architecture's);
// solve_power_optimal() goes over the number of devices from F_min
// upward, searching each count by device levels (the default,
// detail/device_level_search.hpp: exact CU rounding) or with this model,
// prunes counts whose static power plus the dynamic floor cannot
// beat the incumbent, prices the result with evaluate() and returns the
// mapping, its power, a proven lower bound, the gap and the status. Study 001's heuristic H1 is the same model restricted
// (baselines/shan2021_h1.hpp).
//
// The power of a mapping n_kf at II = II_max (all times in ms, powers in W):
//   static   N_F (P_static + P_DDR,static), N_F = devices holding a CU;
//   compute  sum_f Q_f M_f / II, Q_f = sum_k n_kf P_k, M_f = max_{k on f} T_k,
//            T_k = Twc_k / N_k: the evaluator clocks each device just fast
//            enough to finish with the critical one, so device f spends Q_f M_f;
//   DDR      sum_k alpha_k P_w Bw_k tw_k + P_r Br_k tr_k (host transfers,
//            alpha_k = devices holding k) and sum_k N_k (P_r br_k + P_w bw_k) T_exe,
//            T_exe = max_k T_k (execution), both over II.
// Exact linearisation (every row exact at integer points, the objective
// minimised so the lower McCormick rows are the only ones needed):
//   n_kf = sum_b 2^b beta_kfb;  n_kf M_f = sum_b 2^b g_kfb, g >= M_f - II (1 - beta), g >= 0;
//   n_kf T_exe likewise with e_kfb (no new binaries: N_k T_exe = sum_f n_kf T_exe);
//   M_f >= T_k(N_k) - T_k(N_k,min) (1 - delta_kf) with T_k(N_k) = tabulate(N_k, Twc_k / N);
//   n_kf <= U_kf delta_kf, delta_kf <= n_kf (delta: kernel k on device f).
// Valid cuts from study 001 sec. 4.3: sum_f n_kf M_f >= Twc_k and
// N_k T_exe >= Twc_k. The devices are identical: ordering rows M_f >= M_f+1
// remove the permutations (the model is not declared interchangeable,
// since its energy rows are outside the allocation structure the symmetric
// decomposition needs; the generic MILP ignores the declaration anyway).
// Expanding n_kf in bits keeps the model linear with few binaries; one
// model per device count keeps each MILP small and lets the static power,
// the largest term, prune whole counts.
//
// Supported: the double-buffered, sequential and compute-only schedules
// without locality, contention, degradation or shared clocks, continuous
// clocks. Anything else throws model_error: the exact model would not be
// the evaluator's.
//
// 2. Busy time (scale_clocks off, clock_gating on), on any platform: static
// power of every device in use, each CU's dynamic power while it is busy.
// A task's time and energy depend on its CUs only through how many it has
// on each device KIND (implementations are per kind): with c_g CUs on kind
// g, T = 1 / sum_g c_g / WCET_g and the energy per run is E = T sum_g c_g P_g.
// Both are tabulated over the task's feasible per-kind totals c; one binary
// z_kc per entry picks the task's totals, and
//   sum_c z_kc = 1,   sum_{d of kind g} n_kd = sum_c c_g z_kc,
//   energy = sum_kc E_kc z_kc,   T_exe >= sum_c T_kc z_kc  (sequential phases).
// Entries slower than II_max are left out; for the schedules whose II does
// not add execution to the transfers, so is an entry that one CU fewer of
// some kind would match in time (<= II_max) and energy (<=): fewer CUs never
// use more resources, devices or transfers. Devices in use are binaries
// u_d >= placement (their static power in the objective), devices of one
// group are ordered by load against symmetry, and the host-transfer rows
// (duplication, locality) are the II model's (detail/transfer_rows.hpp).
// The DDR's dynamic energy is not in this formulation: evaluate() prices
// the mapping at the model's objective when the implementations move no
// DDR traffic.
#pragma once

#include "../config.hpp"
#include "../result/solve_report.hpp"
#include "application.hpp"
#include "detail/device_level_search.hpp"
#include "detail/memory_energy.hpp"
#include "detail/resource_rows.hpp"
#include "detail/solution_mapping.hpp"
#include "architecture.hpp"
#include "evaluate.hpp"
#include "mapping.hpp"
#include "minimum_counts.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/functions.hpp"
#include "../expr/operators.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"
#include "../solve/solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::pipeline {

/// What the power model covers.
template <ResourceRecord... Rs>
struct PowerModelOptions {
  /// Per-device cap on each resource of each kind, in the platform's kind
  /// order; empty: the capacity.
  KindCaps<Rs...> caps{};
  /// The price evaluate() gives under this performance model at
  /// operating_ii = II_max, which the model reproduces exactly. Chapter 5's
  /// by default: transfers overlap execution, no locality, clocks scaled to
  /// II_max (identical devices only). With scale_clocks off and
  /// clock_gating on, each CU is priced while it is busy (any platform).
  PerformanceModel model{Schedule::double_buffered, false};
  /// Identical devices: exactly this many devices, every one holding a CU;
  /// empty: any number up to the architecture's (a binary per device).
  std::optional<int> devices_used;
  /// Identical devices: per-kernel bounds on N_k (empty: CU_min_k =
  /// ceil(Twc_k / II_max) and what the caps allow on the devices, at most
  /// max_cus_default).
  std::vector<int> min_cus, max_cus;
  /// Declared upper bound of a CU count that no capped resource bounds.
  int max_cus_default = 1000;
  /// Identical devices: price the DDR's dynamic energy (transfers and
  /// execution); false is the thesis's H1 objective (the transfer-time
  /// constraint stays).
  bool memory_energy = true;
  /// Identical devices: adds objective <= cutoff (W), only mappings better
  /// than a known one.
  std::optional<double> objective_cutoff;
  /// Device groups: most per-kind CU totals a task's table may have
  /// (before pruning); a larger table is refused rather than built slowly.
  long max_table = 200000;

  /// The cap of a one-kind platform's devices.
  auto& cap() requires(sizeof...(Rs) == 1) { return std::get<0>(caps); }
  const auto& cap() const requires(sizeof...(Rs) == 1) { return std::get<0>(caps); }
};

struct PowerModel {
  Model model;
  std::vector<std::vector<Discrete<>>> cus;     // n_kd
  std::vector<Discrete<>> total;                // N_k
  std::vector<std::vector<Discrete<>>> placed;  // delta_kd: task k on device d (busy time: transfer models only)
  std::vector<Discrete<>> used;                 // u_d: device d is powered (busy time)
  std::vector<Real<>> busy;                     // M_f (ms; scaled clocks)
  Real<> execution;                             // T_exe (ms; scaled clocks)
  std::vector<std::vector<Discrete<>>> choice;  // z_kc (busy time)
  std::vector<std::vector<std::vector<int>>> totals;  // [k][c][g]: the per-kind CU totals of entry c (busy time)
  Affine<> objective;                           // total power (W)
  int devices = 0;                              // devices in the model
  int architecture_devices = 0;                 // the mapping's columns: the rest stay empty
  Schedule schedule = Schedule::double_buffered;

  /// The compute units of a solution on the platform's devices (the
  /// model's first); clocks are left to evaluate().
  Mapping mapping(const Solution& s) const {
    Mapping m = detail::solution_mapping(cus, s);
    for (auto& row : m.cus) row.resize(std::max<std::size_t>(row.size(), architecture_devices), 0);
    return m;
  }
};

}  // namespace ychart::pipeline

// The two formulations, which fill the types above.
#include "detail/busy_time_power_model.hpp"
#include "detail/identical_devices_power_model.hpp"

namespace ychart::pipeline {

/// Devices study 001's eq. 6.8 proves necessary: every kernel's CU_min, as
/// a fractional packing of each capped resource.
template <ResourceRecord R>
int minimum_devices(const Application<R>& app, const Platform<R>& arch, Constant<dim::time> ii_max,
                    const std::optional<R>& cap = std::nullopt) {
  const auto limit = resource_values(cap ? *cap : arch.kind().capacity);
  std::vector<double> need(limit.size(), 0.0);
  for (const auto& task : app.kernels()) {
    const auto& k = task.implementation();
    const auto use = resource_values(k.use);
    const int n = minimum_cus(k.wcet, ii_max);
    for (std::size_t t = 0; t < use.size(); ++t) need[t] += n * use[t];
  }
  return devices_to_hold(need, limit);
}

/// Power no mapping on `devices` devices can go below at II_max: their
/// static power plus the energy every mapping spends (sum_k P_k Twc_k, each
/// input written once, each output read once, N_k T_exe >= Twc_k), over II.
template <ResourceRecord R>
double power_floor(const Application<R>& app, const Platform<R>& arch, Constant<dim::time> ii_max, int devices,
                   bool memory_energy = true) {
  const double ii = ii_max.in(units::ms);
  double energy = 0;  // mJ
  for (const auto& task : app.kernels()) {
    const auto& k = task.implementation();
    energy += k.power.value() * k.wcet.in(units::ms);
    if (memory_energy)
      energy += detail::transfer_energy_mj(k, arch, 1.0) + detail::cu_memory_power(k, arch.kind().memory) * k.wcet.in(units::ms);
  }
  return devices * (arch.kind().static_power.value() + arch.kind().memory.static_power.value()) + energy / ii;
}

/// Builds the exact power model of mapping `app` onto `platform` at II_max,
/// for the price options.model names: scaled clocks on identical devices,
/// or busy time on any platform. Throws model_error for a price it has no
/// exact model of, and for what the formulation refuses (see its list).
template <ResourceRecord... Rs>
PowerModel build_power_model(const Application<Rs...>& app, const Platform<Rs...>& platform, Constant<dim::time> ii_max,
                             const PowerModelOptions<Rs...>& options = {}) {
  if (options.model.scale_clocks) {
    if constexpr (sizeof...(Rs) == 1) return detail::build_identical_devices_power_model(app, platform, ii_max, options);
    throw model_error("ychart: the power model with clocks scaled to II_max (PerformanceModel::scale_clocks) is built "
                      "for identical devices (a one-kind platform) only; over device groups set scale_clocks = false "
                      "and clock_gating = true (busy-time power)");
  }
  if (!options.model.clock_gating)
    throw model_error("ychart: the power model prices scaled clocks (PerformanceModel::scale_clocks) or busy time "
                      "(scale_clocks = false, clock_gating = true); it has no exact model of fixed clocks without "
                      "clock gating");
  return detail::build_busy_time_power_model(app, platform, ii_max, options);
}

/// How solve_power_optimal() searches one device count.
enum class PowerSearch {
  /// Device levels (detail/device_level_search.hpp): a relaxation over the
  /// devices' critical times in which CU rounding is exact, and one small
  /// MILP per set of levels it proposes. Identical devices with the
  /// double-buffered or compute-only schedule; otherwise the MILP.
  device_levels,
  /// The one MILP of build_power_model() per count.
  milp,
};

/// How solve_power_optimal() runs.
struct PowerSolveOptions {
  SolveOptions solve{};  // time_limit: for the whole search (seconds)
  /// The range of devices in use to search; empty: F_min .. the architecture's.
  std::optional<int> min_devices, max_devices;
  /// A known mapping (a heuristic's): the first incumbent, and its power a
  /// cutoff for every model.
  std::optional<Mapping> incumbent;
  PowerSearch search = PowerSearch::device_levels;
};

/// What one device count gave.
struct PowerDeviceCount {
  int devices = 0;
  Status status = Status::infeasible;  // optimal, infeasible, time_limit, ...; "pruned" is reported by `pruned`
  bool pruned = false;                 // its floor already reaches the incumbent
  double objective = std::numeric_limits<double>::quiet_NaN();
  double bound = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0.0;
  int level_sets = 0;  // PowerSearch::device_levels: sets of levels solved as leaves
};

/// status: optimal (proven within the gap tolerances), infeasible (no
/// mapping meets II_max within the caps), time_limit / node_limit /
/// numerical_error (the best mapping found, if any, with bound and gap).
/// objective: W, the model's objective at the mapping (NaN when the given
/// incumbent won): the power, less the DDR's dynamic power without
/// memory_energy. bound: W, proven lower bound on the objective of every
/// mapping in the searched range; gap: the mapping's objective to it.
struct PowerOptimum : SolveReport {
  std::optional<Mapping> mapping;
  std::optional<Evaluation> evaluation;   // evaluate() of mapping at II_max
  Constant<dim::power> power{std::numeric_limits<double>::quiet_NaN()};  // evaluate()'s total; NaN without a mapping
  int devices_used = 0;
  std::vector<PowerDeviceCount> counts;
};

/// The power-optimal mapping at II_max: one model per number of devices in
/// use, ascending, each searched only for mappings better than the
/// incumbent, stopped once a count's static power plus the dynamic floor
/// reaches it (then no larger count can do better).
template <ResourceRecord R>
PowerOptimum solve_power_optimal(const Application<R>& app, const Platform<R>& arch, Constant<dim::time> ii_max,
                                 const PowerModelOptions<R>& options = {}, const PowerSolveOptions& solve = {}) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  detail::check_power_model_scope(app, arch, ii_max.in(units::ms), options.model);
  detail::check_identical_devices_options(app, arch, options);
  EvaluationOptions<R> eo;
  eo.model = options.model;
  eo.cap() = options.cap();
  eo.operating_ii = ii_max;

  PowerOptimum r;
  // The search ranks mappings by the model's objective (evaluate()'s power,
  // less the DDR's dynamic power when memory_energy is off).
  auto objective_of = [&](const Evaluation& e) {
    const auto& p = *e.power;
    return options.memory_energy ? p.total.value()
                                 : p.total.value() - p.memory_transfer.value() - p.memory_execution.value();
  };
  double best = std::numeric_limits<double>::infinity();
  // model_objective: the model's objective at mp; empty: the exact one, evaluate()'s.
  auto take = [&](const Mapping& mp, std::optional<double> model_objective) {
    auto e = evaluate(app, arch, mp, eo);
    if (!e.feasible || !e.power || objective_of(e) >= best) return false;
    best = objective_of(e);
    r.mapping = mp;
    r.power = e.power->total;
    r.objective = model_objective.value_or(best);
    r.devices_used = e.devices_used;
    r.evaluation = std::move(e);
    return true;
  };
  if (solve.incumbent) {
    Mapping given = *solve.incumbent;
    given.clock_fraction.clear();  // priced at the clocks evaluate() picks, as the model does
    take(given, std::numeric_limits<double>::quiet_NaN());  // evaluate() throws on a mapping that does not fit
  }
  const int f_min = minimum_devices(app, arch, ii_max, options.cap());
  int lo = std::max(solve.min_devices.value_or(1), std::min(f_min, arch.devices() + 1));
  int hi = std::min(solve.max_devices.value_or(arch.devices()), arch.devices());
  if (options.devices_used) lo = std::max(lo, *options.devices_used), hi = std::min(hi, *options.devices_used);
  auto floor_of = [&](int F) { return power_floor(app, arch, ii_max, F, options.memory_energy); };

  const bool by_levels = solve.search == PowerSearch::device_levels &&
                         options.model.schedule != Schedule::sequential_phases;
  const double tol = solve.solve.relative_gap;
  const double infinity = std::numeric_limits<double>::infinity();
  double bound = infinity;  // min over the searched counts of their bounds
  bool unproven = false;
  Status limit_status = Status::time_limit;
  for (int F = lo; F <= hi; ++F) {
    PowerDeviceCount c;
    c.devices = F;
    const double floor = floor_of(F);
    if (floor >= best * (1 - tol)) {  // floors grow with F: every larger count is pruned too
      c.pruned = true;
      c.bound = floor;
      r.counts.push_back(c);
      bound = std::min(bound, floor);
      break;
    }
    const double left = solve.solve.time_limit - elapsed();
    if (left <= 0) {  // out of time: what is left is bounded by its floors
      unproven = true;
      c.status = Status::time_limit;
      c.bound = floor;
      r.counts.push_back(c);
      bound = std::min(bound, floor);
      break;
    }
    const auto t0 = elapsed();
    if (by_levels) {
      auto so = solve.solve;
      so.time_limit = left;
      const auto found = detail::search_device_levels(detail::level_problem(app, arch, ii_max, options, F), best, so,
                                                      [&](const Mapping& mp) {
                                                        if (take(mp, std::nullopt)) c.objective = best;
                                                        return best;
                                                      });
      c.status = found.status;
      c.bound = found.bound;
      c.level_sets = found.level_sets;
    } else {
      auto o = options;
      o.devices_used = F;
      if (std::isfinite(best)) o.objective_cutoff = best;
      auto pmodel = build_power_model(app, arch, ii_max, o);
      auto so = solve.solve;
      so.time_limit = left;
      so.method = Method::glpk;
      const Solution s = pmodel.model.solve(so);
      c.status = s.status();
      if (s.has_values()) {
        c.objective = s.objective();
        take(pmodel.mapping(s), s.objective());
      }
      if (s.status() == Status::optimal) c.bound = s.objective();
      else if (s.status() == Status::infeasible) c.bound = best;  // nothing below the cutoff (infinity: nothing at all)
      else c.bound = std::isfinite(s.bound()) ? std::max(s.bound(), floor) : floor;
    }
    c.seconds = elapsed() - t0;
    if (c.status != Status::optimal && c.status != Status::infeasible) {
      unproven = true;
      limit_status = c.status;
    }
    bound = std::min(bound, c.bound);
    r.counts.push_back(c);
  }
  // Counts below F_min hold no mapping; those outside the caller's range are not searched.
  r.seconds = elapsed();
  if (!std::isfinite(best)) {
    r.status = unproven ? limit_status : Status::infeasible;
    r.bound = bound;
    r.message = unproven ? "no mapping found within the limit" : "no mapping meets II_max within the caps";
    return r;
  }
  r.bound = std::min(bound, best);
  r.gap = (best - r.bound) / best;  // best: the objective evaluate() gives the mapping
  r.status = (!unproven || r.gap <= tol) ? Status::optimal : limit_status;
  return r;
}

// The instances for the records ychart ships, compiled once in ychart's
// compiled part (impl/src_pipeline.hpp); header-only, or for a record of the
// user's own, the templates above are instantiated where they are used.
#define YCHART_DSE_POWER_MODEL_INSTANCES(EXTERN, R) \
  EXTERN template int minimum_devices<R>(const Application<R>&, const Platform<R>&, Constant<dim::time>, const std::optional<R>&); \
  EXTERN template double power_floor<R>(const Application<R>&, const Platform<R>&, Constant<dim::time>, int, bool); \
  EXTERN template PowerModel build_power_model<R>(const Application<R>&, const Platform<R>&, Constant<dim::time>, const PowerModelOptions<R>&); \
  EXTERN template PowerOptimum solve_power_optimal<R>(const Application<R>&, const Platform<R>&, Constant<dim::time>, const PowerModelOptions<R>&, const PowerSolveOptions&);
#define YCHART_DSE_GROUPS_POWER_MODEL_INSTANCES(EXTERN, ...) \
  EXTERN template PowerModel build_power_model<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, Constant<dim::time>, const PowerModelOptions<__VA_ARGS__>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_POWER_MODEL_INSTANCES(extern, FpgaResources)
YCHART_DSE_GROUPS_POWER_MODEL_INSTANCES(extern, FpgaResources, GpuResources)
#endif

}  // namespace ychart::pipeline
