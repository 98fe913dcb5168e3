// ychart/pipeline/evaluate.hpp
// Exact evaluation of a fixed mapping on any platform -- identical devices
// or groups of several kinds -- including everything a relaxation drops:
// host transfers with input duplication and locality, memory contention,
// clock degradation, per-device clocks, clock scaling at an operating II.
// Returns every KPI -- initiation interval with its host-to-device /
// execution / device-to-host breakdown, throughput, latency, utilisation
// per resource and device, spreading, devices used, power (static,
// compute, memory) and energy per run -- and prints the breakdown.
// Heuristics and solvers use it as the one definition of what a mapping
// costs.
#pragma once

#include "../config.hpp"
#include "../model/tolerances.hpp"
#include "application.hpp"
#include "detail/execution_time.hpp"
#include "detail/host_transfers.hpp"
#include "detail/memory_energy.hpp"
#include "architecture.hpp"
#include "detail/device_table.hpp"
#include "mapping.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/unit.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iomanip>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace ychart::pipeline {

/// The power of a mapping run at one initiation interval, by source (W) and
/// its energy per run (J). Study 001 eqs. 5.13-5.22.
struct PowerBreakdown {
  Constant<dim::power> device_static{};  // powered-on devices' logic and I/O
  Constant<dim::power> memory_static{};  // their DDR
  Constant<dim::power> compute{};        // CUs' dynamic power (E_c / II)
  Constant<dim::power> memory_transfer{};  // DDR written and read by host transfers ((E_h2f + E_f2h) / II)
  Constant<dim::power> memory_execution{};  // DDR read and written by CUs ((E_rw) / II)
  Constant<dim::power> total{};
  Constant<dim::energy> energy_per_run{};   // total x II
};

/// Every KPI of one mapping. Times in seconds inside Constant<dim::time>;
/// print() shows ms.
struct Evaluation {
  bool feasible = true;
  std::vector<std::string> violations;  // what breaks a cap, a clock or a bound

  std::vector<int> total_cus;     // N_k
  std::vector<int> devices_of;    // alpha_k: devices holding CUs of kernel k
  std::vector<double> kernel_time;  // slowest CU of kernel k, seconds
  std::vector<double> device_clock;  // Hz, per device (0 when unused or when no clock is given)
  std::vector<bool> in_use;          // devices holding at least one CU
  std::vector<std::vector<double>> utilisation;  // [device][resource], fraction of capacity
  std::vector<std::string> resource_names;       // of the one device kind
  // Heterogeneous platforms: each device's kind and that kind's resources
  // (utilisation[f] follows device_resource_names[f]); empty for one kind.
  std::vector<std::string> device_kind;
  std::vector<std::vector<std::string>> device_resource_names;

  Constant<dim::time> host_to_device{};
  Constant<dim::time> execution{};
  Constant<dim::time> device_to_host{};
  Constant<dim::time> ii{};
  Constant<dim::frequency> throughput{};
  Constant<dim::time> latency{};  // pipeline depth x II: each stage holds a run for one period
  double spreading = 0.0;         // max_k sum_f n/(1+n) (study 001 eq. 3.4)
  int devices_used = 0;
  std::optional<PowerBreakdown> power;  // when evaluated at an operating II

  /// The resources device f's utilisation row refers to.
  const std::vector<std::string>& resources_of(std::size_t device) const {
    return device_resource_names.empty() ? resource_names : device_resource_names.at(device);
  }
  bool has_resource(std::size_t device, std::string_view resource) const {
    const auto& names = resources_of(device);
    return std::find(names.begin(), names.end(), resource) != names.end();
  }
  double utilisation_of(std::size_t device, std::string_view resource) const {
    const auto& names = resources_of(device);
    for (std::size_t t = 0; t < names.size(); ++t)
      if (names[t] == resource) return utilisation.at(device).at(t);
    throw model_error("ychart: device " + std::to_string(device + 1) + " has no resource named '" +
                      std::string(resource) + "'", std::string(resource));
  }
  /// Mean over the devices in use that have the resource.
  double average_utilisation(std::string_view resource) const {
    double sum = 0.0;
    int used = 0;
    for (std::size_t f = 0; f < utilisation.size(); ++f)
      if (device_in_use(f) && has_resource(f, resource)) sum += utilisation_of(f, resource), ++used;
    return used ? sum / used : 0.0;
  }
  double max_utilisation(std::string_view resource) const {
    double m = 0.0;
    for (std::size_t f = 0; f < utilisation.size(); ++f)
      if (has_resource(f, resource)) m = std::max(m, utilisation_of(f, resource));
    return m;
  }
  bool device_in_use(std::size_t f) const { return f < in_use.size() && in_use[f]; }

  void print(std::ostream& os) const {
    auto ms = [](Constant<dim::time> t) { return t.in(units::ms); };
    os << std::setprecision(5);
    os << "II " << ms(ii) << " ms  (host-to-device " << ms(host_to_device) << ", execution " << ms(execution)
       << ", device-to-host " << ms(device_to_host) << ")\n";
    os << "throughput " << throughput.value() << " runs/s, latency " << ms(latency) << " ms, spreading " << spreading
       << ", devices used " << devices_used << "\n";
    if (power)
      os << "power " << power->total.value() << " W  (device static " << power->device_static.value()
         << ", memory static " << power->memory_static.value() << ", compute " << power->compute.value()
         << ", memory transfers " << power->memory_transfer.value() << ", memory execution "
         << power->memory_execution.value() << "), energy " << power->energy_per_run.in(units::mJ) << " mJ/run\n";
    for (std::size_t f = 0; f < utilisation.size(); ++f) {
      os << "device " << f + 1;
      if (f < device_kind.size() && !device_kind[f].empty()) os << " (" << device_kind[f] << ")";
      os << ":";
      const auto& names = resources_of(f);
      for (std::size_t t = 0; t < names.size(); ++t)
        os << " " << names[t] << " " << std::setprecision(4) << 100.0 * utilisation[f][t] << "%";
      if (device_clock[f] > 0) os << ", clock " << device_clock[f] / 1e6 << " MHz";
      os << "\n";
    }
    for (const auto& v : violations) os << "violation: " << v << "\n";
  }
};

namespace detail {

// The formulas every evaluator of a mapping shares, one device kind or
// several: device use and caps, counts and spreading, phases and the II.

/// Device d's utilisation, sum_k n_kd use_k,t / capacity_t, and whether it is
/// in use; the caps it breaks are violations. use(k) is one CU of kernel k
/// in the device's resources (names), `kind` the device's kind or empty.
template <class UseOf>
void set_device_use(Evaluation& e, const Mapping& m, std::size_t d, UseOf&& use, const std::vector<double>& capacity,
                    const std::vector<double>& cap, const std::vector<std::string>& names, const std::string& kind) {
  const std::size_t T = capacity.size();
  e.utilisation[d].assign(T, 0.0);
  e.in_use[d] = false;
  for (std::size_t k = 0; k < m.cus.size(); ++k) {
    if (m.cus[k][d] > 0) e.in_use[d] = true;
    const std::vector<double>& u = use(k);
    for (std::size_t t = 0; t < T; ++t) e.utilisation[d][t] += m.cus[k][d] * u[t] / capacity[t];
  }
  for (std::size_t t = 0; t < T; ++t)
    if (const double used = e.utilisation[d][t] * capacity[t]; used > cap[t] * (1 + tolerances::roundoff) + tolerances::ulps) {
      std::ostringstream s;
      s << "device " << d + 1 << (kind.empty() ? "" : " (" + kind + ")") << " uses " << used << " of " << names[t]
        << ", cap " << cap[t];
      e.violations.push_back(s.str());
    }
}

/// N_k, the devices holding each kernel (alpha_k), and the spreading
/// max_k sum_d n/(1+n) (eq. 3.4).
inline void set_counts(Evaluation& e, const Mapping& m) {
  const std::size_t K = m.cus.size();
  e.total_cus.assign(K, 0);
  e.devices_of.assign(K, 0);
  for (std::size_t k = 0; k < K; ++k) {
    e.total_cus[k] = m.total(k);
    double phi = 0.0;
    for (const int n : m.cus[k])
      if (n > 0) {
        ++e.devices_of[k];
        phi += n / (1.0 + n);
      }
    e.spreading = std::max(e.spreading, phi);
  }
}

/// Fills e's phases, II, throughput and latency from the execution time and
/// the host traffic (bytes; bandwidths in bytes/s); an operating II the
/// run exceeds is a violation, one it beats makes it wait. Returns the II.
inline double set_phases(Evaluation& e, Schedule schedule, const HostTraffic& traffic, double to_device_bandwidth,
                         double to_host_bandwidth, double exe, const std::optional<Constant<dim::time>>& operating_ii,
                         std::size_t kernels) {
  const double h2f = traffic.to_device > 0 ? traffic.to_device / to_device_bandwidth : 0.0;
  const double f2h = traffic.to_host > 0 ? traffic.to_host / to_host_bandwidth : 0.0;
  double ii = initiation_interval(schedule, h2f, exe, f2h);
  if (operating_ii) {
    const double target = operating_ii->value();
    if (ii > target * (1 + tolerances::roundoff)) {
      std::ostringstream s;
      s << "II " << ii * 1e3 << " ms exceeds the operating II " << target * 1e3 << " ms";
      e.violations.push_back(s.str());
    }
    ii = std::max(ii, target);
  }
  e.host_to_device = Constant<dim::time>(h2f);
  e.execution = Constant<dim::time>(exe);
  e.device_to_host = Constant<dim::time>(f2h);
  e.ii = Constant<dim::time>(ii);
  e.throughput = Constant<dim::frequency>(ii > 0 ? 1.0 / ii : std::numeric_limits<double>::infinity());
  e.latency = Constant<dim::time>(double(kernels) * ii);  // pipeline depth x II
  return ii;
}

}  // namespace detail

/// What evaluate() checks the mapping against and where it runs it.
template <ResourceRecord... Rs>
struct EvaluationOptions {
  PerformanceModel model{};
  /// Per-device cap on each resource of each kind (the swept "resource
  /// constraint"), in the platform's kind order; empty: the capacity.
  KindCaps<Rs...> caps{};
  /// Run at this initiation interval and price its power (ch. 5): with
  /// PerformanceModel::scale_clocks, clocks are lowered as far as the
  /// interval allows. Empty: as fast as possible, no power.
  std::optional<Constant<dim::time>> operating_ii;

  /// The cap of a one-kind platform's devices.
  auto& cap() requires(sizeof...(Rs) == 1) { return std::get<0>(caps); }
  const auto& cap() const requires(sizeof...(Rs) == 1) { return std::get<0>(caps); }
};

namespace detail {

/// The steps of evaluate(), in order: checks, utilisation and caps,
/// counts, clocks, execution times, clock fractions, host phases, power.
/// Each step fills its part of the Evaluation and what later steps need.
///
/// A task whose CUs all sit on devices of one kind splits its run equally
/// between them (study 001's model: one CU takes the chapter-4 time of
/// 1/N_k of the run on its device). A task split across kinds splits it in
/// proportion to the CUs' speeds: their rates add up, R_k = sum_d n_kd /
/// t_kd, with t_kd one CU's time for the whole run on device d, and every
/// CU of the task finishes at 1 / R_k.
/// A kernels x devices matrix in one allocation (the evaluator runs in
/// heuristics' inner loops, where a vector per row shows in profiles).
class KernelDeviceGrid {
 public:
  void assign(std::size_t kernels, std::size_t devices) { devices_ = devices, values_.assign(kernels * devices, 0.0); }
  double& operator()(std::size_t k, std::size_t d) { return values_[k * devices_ + d]; }
  double operator()(std::size_t k, std::size_t d) const { return values_[k * devices_ + d]; }

 private:
  std::size_t devices_ = 0;
  std::vector<double> values_;
};

template <ResourceRecord... Rs>
class MappingEvaluator {
 public:
  MappingEvaluator(const Application<Rs...>& app, const Platform<Rs...>& platform, const EvaluationOptions<Rs...>& options)
      : app_(app), platform_(platform), options_(options), model_(options.model),
        table_(device_table(app, platform, options.caps)), K_(app.size()), F_(table_.devices()) {}

  /// The devices' kinds and the tasks' implementations on them.
  const DeviceTable& table() const { return table_; }

  /// Evaluates one mapping; the table is built once for every mapping
  /// priced with this evaluator (local search prices thousands).
  Evaluation run(const Mapping& m) {
    m_ = &m;
    check();
    Evaluation e;
    set_utilisation(e);
    set_counts(e, *m_);
    set_device_clocks(e);
    set_busy_times(e);
    set_clock_fractions(e);
    const double exe = set_kernel_times(e);
    // Host transfers (eqs. 4.6-4.15 with locality, 5.9-5.12 without).
    const auto traffic =
        model_.schedule == Schedule::compute_only ? HostTraffic{} : host_traffic(app_, *m_, model_.locality);
    const double ii = set_phases(e, model_.schedule, traffic, platform_.host_to_device.bandwidth.value(),
                                 platform_.device_to_host.bandwidth.value(), exe, options_.operating_ii, K_);
    if (options_.operating_ii) e.power = power(e, exe, ii);
    e.feasible = e.violations.empty();
    return e;
  }

 private:
  const Application<Rs...>& app_;
  const Platform<Rs...>& platform_;
  const Mapping* m_ = nullptr;  // the mapping run() prices
  const EvaluationOptions<Rs...>& options_;
  const PerformanceModel& model_;
  const DeviceTable table_;
  const std::size_t K_, F_;
  std::vector<double> device_clock_;         // per device, Hz at full speed
  KernelDeviceGrid busy_;                    // at full clock
  std::vector<bool> spans_kinds_;            // per kernel: CUs on devices of several kinds
  std::vector<double> fraction_;             // per device, of its clock
  KernelDeviceGrid time_;                    // at the device's clock fraction

  bool clock_scaled() const { return options_.operating_ii && model_.scale_clocks; }

  /// The mapping fits the application and platform, and the model has the
  /// constants it needs.
  void check() const {
    if (m_->cus.size() != K_)
      throw model_error("ychart: mapping has " + std::to_string(m_->cus.size()) + " tasks, application '" +
                        app_.name() + "' has " + std::to_string(K_), app_.name());
    for (std::size_t k = 0; k < K_; ++k) {
      const auto& name = app_.kernel(k).name;
      if (m_->cus[k].size() != F_)
        throw model_error("ychart: mapping row of task '" + name + "' has " + std::to_string(m_->cus[k].size()) +
                          " devices, platform '" + platform_.name + "' has " + std::to_string(F_), name);
      for (std::size_t d = 0; d < F_; ++d) {
        if (m_->cus[k][d] < 0) throw model_error("ychart: negative CU count for task '" + name + "'", name);
        if (m_->cus[k][d] > 0 && table_.wcet(k, d) == 0.0)
          throw model_error("ychart: task '" + name + "' has no implementation on " + table_.of(d).kind +
                            " but the mapping gives it CUs on device " + std::to_string(d + 1), name);
      }
      if (m_->total(k) < 1) throw model_error("ychart: task '" + name + "' has no compute unit", name);
    }
    if (!m_->clock_fraction.empty() && m_->clock_fraction.size() != F_)
      throw model_error("ychart: mapping gives " + std::to_string(m_->clock_fraction.size()) + " clocks for " +
                        std::to_string(F_) + " devices");
    const bool needs_clock = model_.clock_degradation || model_.shared_device_clock || clock_scaled() ||
                             !m_->clock_fraction.empty();
    for (std::size_t d = 0; d < F_; ++d)
      if (needs_clock && (d == 0 || table_.group[d] != table_.group[d - 1]) && !(table_.of(d).nominal_clock > 0.0))
        throw model_error("ychart: this evaluation needs the nominal clock of device kind '" + table_.of(d).kind +
                          "' (DeviceKind::clock.nominal)" +
                          (clock_scaled() ? "; to price power without clock scaling, set PerformanceModel::scale_clocks = false" : ""),
                          table_.of(d).kind);
    if (model_.schedule != Schedule::compute_only &&
        !(platform_.host_to_device.bandwidth.value() > 0.0 && platform_.device_to_host.bandwidth.value() > 0.0))
      throw model_error("ychart: the " + to_string(model_.schedule) +
                        " schedule needs the host-to-device and device-to-host bandwidths");
  }

  /// Utilisation per device and resource, and the caps it breaks. One kind:
  /// Evaluation::resource_names; several: each device's kind and names.
  void set_utilisation(Evaluation& e) {
    constexpr bool one_kind = sizeof...(Rs) == 1;
    if (one_kind) e.resource_names = table_.kinds[0].resource_names;
    else
      for (std::size_t d = 0; d < F_; ++d) {
        e.device_kind.push_back(table_.of(d).kind);
        e.device_resource_names.push_back(table_.of(d).resource_names);
      }
    e.utilisation.resize(F_);
    e.in_use.assign(F_, false);
    for (std::size_t d = 0; d < F_; ++d)
      set_device_use(e, *m_, d, [&](std::size_t k) -> const std::vector<double>& { return table_.use(k, d); },
                     table_.of(d).capacity, table_.of(d).cap, table_.of(d).resource_names, one_kind ? std::string() : table_.of(d).kind);
    e.devices_used = static_cast<int>(std::count(e.in_use.begin(), e.in_use.end(), true));
  }

  double kernel_clock(std::size_t k, std::size_t d) const {
    return positive_or(table_.on(k, d).own_clock, table_.of(d).nominal_clock);
  }

  /// Each device's clock: the slowest of its kernels' own, less degradation.
  void set_device_clocks(Evaluation& e) {
    device_clock_.assign(F_, 0.0);
    for (std::size_t d = 0; d < F_; ++d) {
      // A kind whose clock does not degrade (psi = 0) needs no utilisation resource.
      const double psi = table_.of(d).clock.degradation_per_utilisation.value();
      const bool degrades = model_.clock_degradation && psi > 0;
      if (degrades && !table_.of(d).clock_resource)
        throw model_error("ychart: clock degradation needs DeviceKind::clock.utilisation_resource of '" +
                          table_.of(d).kind + "'", table_.of(d).kind);
      double clock = std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < K_; ++k)
        if (m_->cus[k][d] > 0) {
          double c = kernel_clock(k, d);
          if (degrades) c -= psi * e.utilisation[d][*table_.of(d).clock_resource];
          clock = std::min(clock, c);
        }
      device_clock_[d] = e.in_use[d] ? clock : 0.0;
      const bool clock_matters = model_.clock_degradation || model_.shared_device_clock;
      if (e.in_use[d] && clock_matters && !(clock > 0.0))
        e.violations.push_back("device " + std::to_string(d + 1) + " clock degrades to zero");
    }
  }

  /// Execution time of kernel k's CUs on each device at full speed
  /// (fraction 1): for a task split across kinds, one CU doing the whole run.
  void set_busy_times(const Evaluation& e) {
    spans_kinds_.assign(K_, false);
    std::vector<double> readers(F_, 0.0), writers(F_, 0.0);
    for (std::size_t k = 0; k < K_; ++k) {
      const std::size_t first_kind = table_.group[first_device_of(k)];
      for (std::size_t d = 0; d < F_; ++d) {
        readers[d] += table_.on(k, d).reading_ports * double(m_->cus[k][d]);
        writers[d] += table_.on(k, d).writing_ports * double(m_->cus[k][d]);
        if (m_->cus[k][d] > 0 && table_.group[d] != first_kind) spans_kinds_[k] = true;
      }
    }
    busy_.assign(K_, F_);
    platform_.for_each_group([&](auto g, const auto& group) {
      const std::size_t first = platform_.first_device(g);
      for (std::size_t d = first; d < first + static_cast<std::size_t>(group.devices); ++d)
        for (std::size_t k = 0; k < K_; ++k)
          if (m_->cus[k][d] > 0)
            busy_(k, d) = execution_time(e, k, d, *std::get<decltype(g)::value>(app_.kernel(k).on), readers[d], writers[d]);
    });
  }

  std::size_t first_device_of(std::size_t k) const {
    std::size_t d = 0;
    while (d + 1 < F_ && m_->cus[k][d] == 0) ++d;
    return d;
  }

  template <class Impl>
  double execution_time(const Evaluation& e, std::size_t k, std::size_t d, const Impl& impl, double readers,
                        double writers) const {
    const auto& kn = app_.kernel(k);
    CuConditions at;
    at.own_clock = kernel_clock(k, d);
    at.clock = model_.shared_device_clock || model_.clock_degradation ? device_clock_[d] : at.own_clock;
    if (model_.memory_contention) {
      const auto& mem = table_.of(d).memory;
      if (!(mem.read_bandwidth.value() > 0 && mem.write_bandwidth.value() > 0 && mem.port_bytes_per_cycle.value() > 0))
        throw model_error("ychart: memory contention needs the local memory's read and write bandwidth and port width");
      if (!(at.clock > 0.0))
        throw model_error("ychart: memory contention needs a clock for kernel '" + kn.name +
                          "' (Implementation::clock or the device's nominal clock): AXI port bandwidth is width x clock", kn.name);
      // Every port of the device shares the DDR (eqs. 4.19-4.21, 4.24).
      const double port = mem.port_bytes_per_cycle.value() * at.clock;
      at.read_port_bandwidth = std::min(port, mem.read_bandwidth.value() / readers);
      at.write_port_bandwidth = std::min(port, mem.write_bandwidth.value() / writers);
    }
    return cu_execution_time(kn, impl, spans_kinds_[k] ? 1.0 : e.total_cus[k], at);
  }

  /// The clock fraction each device runs at: the mapping's, or at an
  /// operating II the critical device at full clock and the others as slow
  /// as keeps them within its execution time (this minimises the memory
  /// energy, which grows with the execution phase, and leaves the compute
  /// energy at its floor; study 001 sec. 4.3). Discrete levels round up.
  void set_clock_fractions(Evaluation& e) {
    fraction_.assign(F_, 1.0);
    if (!m_->clock_fraction.empty()) {
      fraction_ = m_->clock_fraction;
      for (std::size_t d = 0; d < F_; ++d)
        if (e.in_use[d] && !(fraction_[d] > 0.0 && fraction_[d] <= 1.0 + tolerances::ulps))
          e.violations.push_back("device " + std::to_string(d + 1) + " clock fraction outside (0, 1]");
      return;
    }
    if (!clock_scaled()) return;
    set_times(std::vector<double>(F_, 1.0));
    std::vector<double> device_busy(F_, 0.0);
    for (std::size_t d = 0; d < F_; ++d)
      for (std::size_t k = 0; k < K_; ++k) device_busy[d] = std::max(device_busy[d], time_(k, d));
    const double fastest_exe = *std::max_element(device_busy.begin(), device_busy.end());
    for (std::size_t d = 0; d < F_; ++d) {
      if (!e.in_use[d] || fastest_exe <= 0) continue;
      double want = device_busy[d] / fastest_exe;
      if (const auto& levels = table_.of(d).clock.levels_fraction; !levels.empty()) {
        double level = std::numeric_limits<double>::infinity();
        for (double l : levels)
          if (l >= want - tolerances::ulps) level = std::min(level, l);
        want = std::isfinite(level) ? level : 1.0;
      }
      fraction_[d] = want;
    }
  }

  /// Each CU's time at the devices' clock fractions: its share of the run
  /// (equal within a kind, by rate across kinds).
  void set_times(const std::vector<double>& fraction) {
    time_.assign(K_, F_);
    for (std::size_t k = 0; k < K_; ++k) {
      if (!spans_kinds_[k]) {
        for (std::size_t d = 0; d < F_; ++d)
          if (m_->cus[k][d] > 0) time_(k, d) = busy_(k, d) / fraction[d];
        continue;
      }
      double rate = 0.0;  // runs per second
      for (std::size_t d = 0; d < F_; ++d)
        if (const int n = m_->cus[k][d]; n > 0) rate += n / (busy_(k, d) / fraction[d]);
      for (std::size_t d = 0; d < F_; ++d)
        if (m_->cus[k][d] > 0) time_(k, d) = 1.0 / rate;
    }
  }

  /// Each kernel's time at the devices' clocks and the devices' clocks;
  /// returns the execution phase (the slowest kernel).
  double set_kernel_times(Evaluation& e) {
    std::vector<double> fraction(F_);
    for (std::size_t d = 0; d < F_; ++d) fraction[d] = e.in_use[d] ? fraction_[d] : 1.0;
    set_times(fraction);
    double exe = 0.0;
    e.kernel_time.assign(K_, 0.0);
    for (std::size_t k = 0; k < K_; ++k)
      for (std::size_t d = 0; d < F_; ++d)
        if (m_->cus[k][d] > 0) {
          e.kernel_time[k] = std::max(e.kernel_time[k], time_(k, d));
          exe = std::max(exe, time_(k, d));
        }
    e.device_clock.assign(F_, 0.0);
    for (std::size_t d = 0; d < F_; ++d)
      if (e.in_use[d]) e.device_clock[d] = device_clock_[d] * fraction_[d];
    return exe;
  }

  /// Power at the operating II (eqs. 5.13-5.22): static power of the
  /// devices in use, the CUs' dynamic power (over the execution phase, or
  /// while busy with clock gating), and the DDR energy of host transfers and
  /// of execution.
  PowerBreakdown power(const Evaluation& e, double exe, double ii) const {
    std::vector<int> used(sizeof...(Rs), 0);
    for (std::size_t d = 0; d < F_; ++d)
      if (e.in_use[d]) ++used[table_.group[d]];
    double device_static = 0.0, memory_static = 0.0;
    platform_.for_each_group([&](auto g, const auto& group) {
      device_static += used[g] * group.kind.static_power.value();
      memory_static += used[g] * group.kind.memory.static_power.value();
    });
    PowerBreakdown p;
    p.device_static = Constant<dim::power>(device_static);
    p.memory_static = Constant<dim::power>(memory_static);
    double compute_energy = 0.0, transfer_energy = 0.0, execution_energy = 0.0;
    for (std::size_t k = 0; k < K_; ++k) {
      for (std::size_t d = 0; d < F_; ++d)
        if (m_->cus[k][d] > 0)  // eqs. 5.14, 5.20
          compute_energy += m_->cus[k][d] * table_.power(k, d) * fraction_[d] * (model_.clock_gating ? time_(k, d) : exe);
      add_memory_energy(k, exe, transfer_energy, execution_energy);
    }
    p.compute = Constant<dim::power>(compute_energy / ii);
    p.memory_transfer = Constant<dim::power>(transfer_energy / ii);
    p.memory_execution = Constant<dim::power>(execution_energy / ii);
    p.total = Constant<dim::power>(p.device_static.value() + p.memory_static.value() + p.compute.value() +
                                   p.memory_transfer.value() + p.memory_execution.value());
    p.energy_per_run = Constant<dim::energy>(p.total.value() * ii);
    return p;
  }

  /// Task k's DDR energy per run, kind by kind: its input written into the
  /// DDR of every device holding its CUs and its output read once (eqs.
  /// 5.17-5.18), and its CUs' reads and writes while executing (eq. 5.19).
  void add_memory_energy(std::size_t k, double exe, double& transfer, double& execution) const {
    bool output_read = false;
    platform_.for_each_group([&](auto g, const auto& group) {
      const std::size_t first = platform_.first_device(g);
      int copies = 0, cus = 0;
      double busy = 0.0;
      for (std::size_t d = first; d < first + static_cast<std::size_t>(group.devices); ++d)
        if (m_->cus[k][d] > 0) ++copies, cus += m_->cus[k][d], busy = std::max(busy, time_(k, d));
      if (copies == 0) return;
      const auto& impl = *std::get<decltype(g)::value>(app_.kernel(k).on);
      const auto& mem = group.kind.memory;
      // The output is read back once, from the first kind that holds the task.
      transfer += output_read ? host_write_energy(impl, mem, copies) : host_transfer_energy(impl, mem, copies);
      output_read = true;
      execution += cus * cu_memory_power(impl, mem) * (model_.clock_gating ? busy : exe);
    });
  }
};

}  // namespace detail

/// Evaluates `m` (columns: the platform's devices, group after group).
/// Throws model_error when the mapping does not fit the application and
/// platform (sizes, a task without CUs, CUs where a task has no
/// implementation, negative counts) or when the model needs a constant the
/// platform lacks; cap and clock violations are reported in
/// Evaluation::violations and make `feasible` false.
template <ResourceRecord... Rs>
Evaluation evaluate(const Application<Rs...>& app, const Platform<Rs...>& platform, const Mapping& m,
                    const EvaluationOptions<Rs...>& options = {}) {
  return detail::MappingEvaluator<Rs...>(app, platform, options).run(m);
}

// The instances for the platforms ychart's examples and tests use (FPGAs
// alone; FPGAs and GPUs), compiled once in ychart's compiled part
// (impl/src_pipeline.hpp); header-only, or for other records, the templates
// above are instantiated where they are used.
#define YCHART_DSE_EVALUATE_INSTANCES(EXTERN, ...) \
  EXTERN template detail::DeviceTable detail::device_table<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, const KindCaps<__VA_ARGS__>&); \
  EXTERN template Evaluation evaluate<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, const Mapping&, const EvaluationOptions<__VA_ARGS__>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_EVALUATE_INSTANCES(extern, FpgaResources)
YCHART_DSE_EVALUATE_INSTANCES(extern, FpgaResources, GpuResources)
#endif

}  // namespace ychart::pipeline
