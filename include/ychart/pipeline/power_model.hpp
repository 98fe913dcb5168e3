// ychart/pipeline/power_model.hpp
// The power-optimal mapping under a throughput constraint (study 001
// chapters 5-6): minimise total power subject to II <= II_max, exactly, as a
// mixed-integer linear model of the same power evaluate() computes at
// EvaluationOptions::operating_ii (eqs. 5.13-5.22). build_power_model()
// returns the model for a fixed number of devices in use (or any number up
// to the architecture's); solve_power_optimal() runs it over the number of
// devices from F_min upward, prunes counts whose static power plus the
// dynamic floor cannot beat the incumbent, prices the result with
// evaluate() and returns the mapping, its power, a proven lower bound, the
// gap and the status. Study 001's heuristic H1 is the same model restricted
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
#pragma once

#include "../config.hpp"
#include "../result/solve_report.hpp"
#include "application.hpp"
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
template <ResourceRecord R>
struct PowerModelOptions {
  /// Per-device cap on each resource; empty: the device's capacity.
  std::optional<R> cap;
  /// Chapter 5's timing: transfers overlap execution, no locality.
  PerformanceModel model{Schedule::double_buffered, false};
  /// Exactly this many devices, every one holding a CU; empty: any number
  /// up to the architecture's (a binary per device).
  std::optional<int> devices_used;
  /// Per-kernel bounds on N_k (empty: CU_min_k = ceil(Twc_k / II_max) and
  /// what the caps allow on the devices, at most max_cus).
  std::vector<int> min_cus, max_cus;
  int max_cus_default = 1000;  // for a kernel that uses no capped resource
  /// Price the DDR's dynamic energy (transfers and execution); false is the
  /// thesis's H1 objective (the transfer-time constraint stays).
  bool memory_energy = true;
  /// Adds objective <= cutoff (W): only mappings better than a known one.
  std::optional<double> objective_cutoff;
};

template <ResourceRecord R>
struct PowerModel {
  Model model;
  std::vector<std::vector<Discrete<>>> cus;  // n_kf
  std::vector<Discrete<>> total;             // N_k
  std::vector<std::vector<Discrete<>>> placed;  // delta_kf
  std::vector<Real<>> busy;                  // M_f (ms)
  Real<> execution;                          // T_exe (ms)
  Affine<> objective;                        // total power (W)
  int devices = 0;                           // devices in the model
  int architecture_devices = 0;              // the mapping's columns: the rest stay empty

  /// The compute units of a solution on the architecture's devices (the
  /// model's first); clocks are left to evaluate().
  Mapping mapping(const Solution& s) const {
    Mapping m = detail::solution_mapping(cus, s);
    for (auto& row : m.cus) row.resize(std::max<std::size_t>(row.size(), architecture_devices), 0);
    return m;
  }
};

namespace detail {

/// Refuses what the exact power model does not reproduce of evaluate().
template <ResourceRecord R>
void check_power_model_scope(const Application<R>& app, const Platform<R>& arch, double ii_ms,
                             const PerformanceModel& pm) {
  arch.validate();
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no kernel", app.name());
  if (!(ii_ms > 0.0) || !std::isfinite(ii_ms))
    throw model_error("ychart: the power model needs a positive, finite II_max");
  if (pm.memory_contention || pm.clock_degradation || pm.shared_device_clock)
    throw model_error("ychart: the exact power model supports neither memory contention, clock degradation nor "
                      "shared device clocks");
  if (pm.locality && pm.schedule != Schedule::compute_only && !app.edges().empty())
    throw model_error("ychart: the exact power model does not model locality (set PerformanceModel::locality = "
                      "false, as chapter 5 does)");
  if (!arch.kind().clock.levels_fraction.empty())
    throw model_error("ychart: discrete clock levels (Clock::levels_fraction) are not supported by the exact power "
                      "model; it assumes continuous clocks");
  if (!(arch.kind().clock.nominal.value() > 0.0))
    throw model_error("ychart: the power model needs the device's nominal clock (Platform::kind().clock.nominal)");
  if (pm.schedule != Schedule::compute_only &&
      !(arch.host_to_device.bandwidth.value() > 0.0 && arch.device_to_host.bandwidth.value() > 0.0))
    throw model_error("ychart: the " + to_string(pm.schedule) +
                      " schedule needs the host-to-device and device-to-host bandwidths");
}

inline int bits_for(int upper) {
  int b = 0;
  while ((1LL << b) <= upper) ++b;
  return b;
}

/// Kernel k's host-transfer energy per run with its input in `copies` DDRs (mJ).
template <ResourceRecord R>
double transfer_energy_mj(const Implementation<R>& k, const Platform<R>& arch, double copies) {
  return 1e3 * host_transfer_energy(k, arch.kind().memory, copies);
}

}  // namespace detail

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

/// Builds the exact power model of mapping `app` onto `arch` at II_max.
template <ResourceRecord R>
PowerModel<R> build_power_model(const Application<R>& app, const Platform<R>& arch, Constant<dim::time> ii_max,
                                const PowerModelOptions<R>& options = {}) {
  const double ii = ii_max.in(units::ms);
  detail::check_power_model_scope(app, arch, ii, options.model);
  const std::size_t K = app.size();
  if (options.devices_used && (*options.devices_used < 1 || *options.devices_used > arch.devices()))
    throw model_error("ychart: devices_used must lie in [1, " + std::to_string(arch.devices()) + "]");
  if ((!options.min_cus.empty() && options.min_cus.size() != K) ||
      (!options.max_cus.empty() && options.max_cus.size() != K))
    throw model_error("ychart: min_cus and max_cus need one entry per kernel (" + std::to_string(K) + ")");
  if (options.max_cus_default < 1) throw model_error("ychart: max_cus_default must be at least 1");
  const int F = options.devices_used.value_or(arch.devices());
  const bool fixed = options.devices_used.has_value();
  const auto cap = resource_values(options.cap ? *options.cap : arch.kind().capacity);
  const auto& pm = options.model;
  const bool transfers = pm.schedule != Schedule::compute_only;
  const double hp = arch.host_to_device.bandwidth.value(), dh = arch.device_to_host.bandwidth.value();

  PowerModel<R> p;
  p.devices = F;
  p.architecture_devices = arch.devices();
  auto& m = p.model;
  p.execution = m.real("T_exe_ms", 0.0, ii);
  for (int f = 0; f < F; ++f) p.busy.push_back(m.real("M_" + std::to_string(f + 1) + "_ms", 0.0, ii));

  Affine<> energy;  // mJ per run
  p.cus.resize(K);
  p.placed.resize(K);
  std::vector<Affine<>> on_devices(F);  // sum_k delta_kf
  std::vector<Affine<>> alpha(K);
  for (std::size_t k = 0; k < K; ++k) {
    const auto& kn = app.kernel(k).implementation();
    const std::string id = app.kernel(k).name + "#" + std::to_string(k);
    const double twc = kn.wcet.in(units::ms);
    const int per_device = detail::cus_per_device(kn, cap, options.max_cus_default);
    int lo = minimum_cus(kn.wcet, ii_max), hi = std::min(per_device * F, options.max_cus_default);
    if (!options.min_cus.empty()) lo = std::max(lo, options.min_cus[k]);
    if (!options.max_cus.empty()) hi = std::min(hi, options.max_cus[k]);
    if (lo > hi) {
      // No N_k fits: a model that says so (GLPK proves it at once).
      lo = hi = std::max(hi, 1);
      m.subject_to(p.execution >= 2 * ii + 1, "no_CU_count_of_" + id + "_meets_II_max_within_the_caps");
    }
    p.total.push_back(m.integer("N_" + id, lo, hi));
    const int U = std::min(per_device, hi);
    const int B = detail::bits_for(U);
    const double tmax = twc / lo;  // T_k at its fewest CUs
    const auto time = tabulate(p.total[k], [twc](double n) { return twc / n; }, "T_" + id);
    m.subject_to(time <= p.execution);
    const double cu_ddr = options.memory_energy ? detail::cu_memory_power(kn, arch.kind().memory) : 0.0;
    Affine<> sum, work, exe_work;  // N_k, sum_f n_kf M_f, N_k T_exe
    for (int f = 0; f < F; ++f) {
      const std::string at = id + "_" + std::to_string(f + 1);
      auto n = m.integer("n_" + at, 0, U);
      auto d = m.binary("delta_" + at);
      p.cus[k].push_back(n);
      p.placed[k].push_back(d);
      sum += n;
      alpha[k] += d;
      on_devices[f] += d;
      m.subject_to(n <= double(U) * d);
      m.subject_to(d <= n);
      m.subject_to(p.busy[f] >= time - tmax * (1.0 - d));
      Affine<> bits;
      for (int b = 0; b < B; ++b) {
        const double w = double(1LL << b);
        auto beta = m.binary("beta_" + at + "_" + std::to_string(b));
        bits += w * beta;
        auto g = m.real("g_" + at + "_" + std::to_string(b), 0.0, ii);  // beta M_f
        m.subject_to(g >= p.busy[f] - ii * (1.0 - beta));
        work += w * g;
        if (cu_ddr > 0) {
          auto e = m.real("e_" + at + "_" + std::to_string(b), 0.0, ii);  // beta T_exe
          m.subject_to(e >= p.execution - ii * (1.0 - beta));
          exe_work += w * e;
        }
      }
      m.subject_to(n == bits);
    }
    m.subject_to(p.total[k] == sum);
    m.subject_to(work >= twc, "compute_floor_" + id);
    energy += kn.power.value() * work;
    if (cu_ddr > 0) {
      m.subject_to(exe_work >= twc, "execution_floor_" + id);
      energy += cu_ddr * exe_work;
    }
    if (options.memory_energy) {
      const double per_copy = detail::transfer_energy_mj(kn, arch, 1.0) - detail::transfer_energy_mj(kn, arch, 0.0);
      energy += per_copy * alpha[k] + detail::transfer_energy_mj(kn, arch, 0.0);
    }
  }
  // Resources per device (eq. 5.2).
  detail::add_resource_rows<R>(m, detail::kernel_uses(app), p.cus, cap, static_cast<std::size_t>(F));
  // Transfers (eqs. 5.5, 5.9-5.12; 4.5 for sequential phases): every device
  // holding k receives its whole input, outputs are split.
  if (transfers) {
    Affine<> moved;  // ms
    double back = 0.0;
    for (std::size_t k = 0; k < K; ++k) {
      moved += (app.kernel(k).data_in.value() / hp * 1e3) * alpha[k];
      back += app.kernel(k).data_out.value() / dh * 1e3;
    }
    if (pm.schedule == Schedule::sequential_phases) m.subject_to(p.execution + moved + back <= ii, "II");
    else m.subject_to(moved + back <= ii, "II_transfers");
  }
  // Devices in use and their static power (eqs. 5.13, 5.15).
  const double per_device_static = arch.kind().static_power.value() + arch.kind().memory.static_power.value();
  Affine<> static_power;
  if (fixed) {
    for (int f = 0; f < F; ++f) m.subject_to(on_devices[f] >= 1.0, "device_" + std::to_string(f + 1) + "_used");
    static_power = Affine<>() + per_device_static * F;
  } else {
    std::vector<Discrete<>> used;
    for (int f = 0; f < F; ++f) {
      used.push_back(m.binary("used_" + std::to_string(f + 1)));
      for (std::size_t k = 0; k < K; ++k) m.subject_to(p.placed[k][f] <= used[f]);
      m.subject_to(on_devices[f] >= used[f]);
      static_power += per_device_static * used[f];
      if (f > 0) m.subject_to(used[f] <= used[f - 1]);
    }
  }
  for (int f = 1; f < F; ++f) m.subject_to(p.busy[f] <= p.busy[f - 1]);  // identical devices, sorted
  p.objective = static_power + energy / ii;
  if (options.objective_cutoff) m.subject_to(p.objective <= *options.objective_cutoff, "cutoff");
  m.minimize(p.objective);
  return p;
}

/// How solve_power_optimal() runs.
struct PowerSolveOptions {
  SolveOptions solve{};  // time_limit: for the whole search (seconds)
  /// The range of devices in use to search; empty: F_min .. the architecture's.
  std::optional<int> min_devices, max_devices;
  /// A known mapping (a heuristic's): the first incumbent, and its power a
  /// cutoff for every model.
  std::optional<Mapping> incumbent;
};

/// What one device count gave.
struct PowerDeviceCount {
  int devices = 0;
  Status status = Status::infeasible;  // optimal, infeasible, time_limit, ...; "pruned" is reported by `pruned`
  bool pruned = false;                 // its floor already reaches the incumbent
  double objective = std::numeric_limits<double>::quiet_NaN();
  double bound = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0.0;
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
  EvaluationOptions<R> eo;
  eo.model = options.model;
  eo.cap() = options.cap;
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
  auto take = [&](const Mapping& mp, double model_objective) {
    auto e = evaluate(app, arch, mp, eo);
    if (!e.feasible || !e.power || objective_of(e) >= best) return;
    best = objective_of(e);
    r.mapping = mp;
    r.power = e.power->total;
    r.objective = model_objective;
    r.devices_used = e.devices_used;
    r.evaluation = std::move(e);
  };
  if (solve.incumbent) {
    Mapping given = *solve.incumbent;
    given.clock_fraction.clear();  // priced at the clocks evaluate() picks, as the model does
    take(given, std::numeric_limits<double>::quiet_NaN());  // evaluate() throws on a mapping that does not fit
  }
  const int f_min = minimum_devices(app, arch, ii_max, options.cap);
  int lo = std::max(solve.min_devices.value_or(1), std::min(f_min, arch.devices() + 1));
  int hi = std::min(solve.max_devices.value_or(arch.devices()), arch.devices());
  if (options.devices_used) lo = std::max(lo, *options.devices_used), hi = std::min(hi, *options.devices_used);
  auto floor_of = [&](int F) { return power_floor(app, arch, ii_max, F, options.memory_energy); };

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
    auto o = options;
    o.devices_used = F;
    if (std::isfinite(best)) o.objective_cutoff = best;
    auto pmodel = build_power_model(app, arch, ii_max, o);
    auto so = solve.solve;
    so.time_limit = left;
    so.method = Method::glpk;
    const auto t0 = elapsed();
    const Solution s = pmodel.model.solve(so);
    c.seconds = elapsed() - t0;
    c.status = s.status();
    if (s.has_values()) {
      c.objective = s.objective();
      take(pmodel.mapping(s), s.objective());
    }
    if (s.status() == Status::optimal) c.bound = s.objective();
    else if (s.status() == Status::infeasible) c.bound = best;  // nothing below the cutoff (infinity: nothing at all)
    else {
      unproven = true;
      limit_status = s.status();
      c.bound = std::isfinite(s.bound()) ? std::max(s.bound(), floor) : floor;
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
  EXTERN template PowerModel<R> build_power_model<R>(const Application<R>&, const Platform<R>&, Constant<dim::time>, const PowerModelOptions<R>&); \
  EXTERN template PowerOptimum solve_power_optimal<R>(const Application<R>&, const Platform<R>&, Constant<dim::time>, const PowerModelOptions<R>&, const PowerSolveOptions&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_POWER_MODEL_INSTANCES(extern, FpgaResources)
#endif

}  // namespace ychart::pipeline
