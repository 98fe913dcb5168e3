// ychart/pipeline/detail/identical_devices_power_model.hpp
// build_power_model() on identical devices with clocks scaled to II_max:
// the rows of power_model.hpp's first list. Included by power_model.hpp
// after the options and model types it fills.
#pragma once

#include "../application.hpp"
#include "../architecture.hpp"
#include "../evaluate.hpp"
#include "../minimum_counts.hpp"
#include "../resources.hpp"
#include "device_table.hpp"
#include "memory_energy.hpp"
#include "resource_rows.hpp"
#include "transfer_rows.hpp"

#include "../../error.hpp"
#include "../../expr/functions.hpp"
#include "../../expr/operators.hpp"
#include "../../model/model.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ychart::pipeline::detail {

/// Refuses what the exact power model does not reproduce of evaluate().
template <ResourceRecord R>
void check_power_model_scope(const Application<R>& app, const Platform<R>& arch, double ii_ms,
                             const PerformanceModel& pm) {
  arch.validate();
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no kernel", app.name());
  if (!(ii_ms > 0.0) || !std::isfinite(ii_ms))
    throw model_error("ychart: the power model needs a positive, finite II_max");
  if (!pm.scale_clocks)
    throw model_error("ychart: this power model prices clocks scaled to II_max (PerformanceModel::scale_clocks); "
                      "build_power_model() prices busy time with scale_clocks = false and clock_gating = true");
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

/// Refuses options that do not describe identical devices' models.
template <ResourceRecord R>
void check_identical_devices_options(const Application<R>& app, const Platform<R>& arch,
                                     const PowerModelOptions<R>& options) {
  const std::size_t K = app.size();
  if (options.devices_used && (*options.devices_used < 1 || *options.devices_used > arch.devices()))
    throw model_error("ychart: devices_used must lie in [1, " + std::to_string(arch.devices()) + "]");
  if ((!options.min_cus.empty() && options.min_cus.size() != K) ||
      (!options.max_cus.empty() && options.max_cus.size() != K))
    throw model_error("ychart: min_cus and max_cus need one entry per kernel (" + std::to_string(K) + ")");
  if (options.max_cus_default < 1) throw model_error("ychart: max_cus_default must be at least 1");
}

/// The power model on identical devices, with clocks scaled to II_max
/// (power_model.hpp's first list).
template <ResourceRecord R>
PowerModel build_identical_devices_power_model(const Application<R>& app, const Platform<R>& arch,
                                               Constant<dim::time> ii_max, const PowerModelOptions<R>& options) {
  const double ii = ii_max.in(units::ms);
  check_power_model_scope(app, arch, ii, options.model);
  const std::size_t K = app.size();
  check_identical_devices_options(app, arch, options);
  const int F = options.devices_used.value_or(arch.devices());
  const bool fixed = options.devices_used.has_value();
  const DeviceTable table = device_table(app, arch, options.caps);
  const std::vector<double>& cap = table.kinds[0].cap;
  const auto& pm = options.model;
  const bool transfers = pm.schedule != Schedule::compute_only;
  const double hp = arch.host_to_device.bandwidth.value(), dh = arch.device_to_host.bandwidth.value();

  PowerModel p;
  p.devices = F;
  p.schedule = pm.schedule;
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
    const CuRange range = cu_range(kn, k, ii_max, cap, F, options);
    int lo = range.fewest, hi = range.most;
    if (lo > hi) {
      // No N_k fits: a model that says so (GLPK proves it at once).
      lo = hi = std::max(hi, 1);
      m.subject_to(p.execution >= 2 * ii + 1, "no_CU_count_of_" + id + "_meets_II_max_within_the_caps");
    }
    p.total.push_back(m.integer("N_" + id, lo, hi));
    const int U = std::min(range.per_device, hi);
    const int B = bits_for(U);
    const double tmax = twc / lo;  // T_k at its fewest CUs
    const auto time = tabulate(p.total[k], [twc](double n) { return twc / n; }, "T_" + id);
    m.subject_to(time <= p.execution);
    const double cu_ddr = options.memory_energy ? cu_memory_power(kn, arch.kind().memory) : 0.0;
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
      const double per_copy = transfer_energy_mj(kn, arch, 1.0) - transfer_energy_mj(kn, arch, 0.0);
      energy += per_copy * alpha[k] + transfer_energy_mj(kn, arch, 0.0);
    }
  }
  // Resources per device (eq. 5.2).
  add_resource_rows<R>(m, table.uses_on_kind(0), p.cus, cap, static_cast<std::size_t>(F));
  // Transfers (eqs. 5.5, 5.9-5.12; 4.5 for sequential phases): every device
  // holding k receives its whole input, outputs are split.
  if (transfers) {
    Affine<> moved;  // ms
    double back = 0.0;
    for (std::size_t k = 0; k < K; ++k) {
      const auto seconds = task_transfer_seconds(app.kernel(k), hp, dh);
      moved += (seconds.to_device * 1e3) * alpha[k];
      back += seconds.to_host * 1e3;
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

}  // namespace ychart::pipeline::detail
