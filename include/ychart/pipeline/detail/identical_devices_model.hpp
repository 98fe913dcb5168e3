// ychart/pipeline/detail/identical_devices_model.hpp
// build_mapping_model() on identical devices (a one-kind platform): the
// rows of mapping_model.hpp's first list, built in that order. Included by
// mapping_model.hpp after the options and model types it fills.
#pragma once

#include "../../model/tolerances.hpp"
#include "../application.hpp"
#include "../architecture.hpp"
#include "../resources.hpp"
#include "device_table.hpp"
#include "execution_time.hpp"
#include "resource_rows.hpp"
#include "transfer_rows.hpp"

#include "../../error.hpp"
#include "../../expr/functions.hpp"
#include "../../expr/operators.hpp"
#include "../../model/model.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace ychart::pipeline {

namespace detail {

/// The model on identical devices (a one-kind platform), in the order of
/// mapping_model.hpp's list:
/// per kernel its CU counts and execution rows, the resource rows, then
/// (with transfers) placement, DDR sharing, transfer times and the II rows,
/// then spreading and the objective.
template <ResourceRecord R>
class IdenticalDevicesModel {
 public:
  IdenticalDevicesModel(const Application<R>& app, const Platform<R>& arch, const MappingModelOptions<R>& options)
      : app_(app), arch_(arch), o_(options), kind_(arch.kind()), K_(app.size()),
        F_(static_cast<std::size_t>(arch.devices())), table_(device_table(app, arch, options.caps)),
        names_(table_.kinds[0].resource_names), cap_(table_.kinds[0].cap), capacity_(table_.kinds[0].capacity),
        uses_(table_.uses_on_kind(0)), transfers_(options.schedule != Schedule::compute_only),
        bound_rows_(options.memory_time || options.clock_degradation), nominal_(kind_.clock.nominal.value()) {}

  MappingModel build() {
    check();
    mm_.schedule = o_.schedule;
    if (!bound_rows_) mm_.execution = model().positive(transfers_ ? "T_exe" : "II", units::ms);
    mm_.cus.resize(K_);
    for (std::size_t k = 0; k < K_; ++k) add_kernel(k);
    add_resource_rows<R>(model(), uses_, mm_.cus, cap_, F_);
    std::vector<std::vector<Discrete<>>> devices(F_);
    for (std::size_t f = 0; f < F_; ++f)
      for (std::size_t k = 0; k < K_; ++k) devices[f].push_back(mm_.cus[k][f]);
    if (transfers_) {
      add_transfers(devices);
    } else if (bound_rows_) {
      mm_.ii = model().real("II", units::ms, 0.0);
      for (const auto& t : mm_.execution_bounds) model().subject_to(t <= mm_.ii);
    }
    // Only the compute-only model has the decomposition's structure; with
    // transfers, the locality binaries and the ordering rows above would make
    // the groups (n and placement per device) an incomplete declaration, which
    // Model::solve rejects. Detection still looks at those models.
    if (!transfers_) model().interchangeable(devices);
    add_spreading();
    set_objective();
    return std::move(mm_);
  }

 private:
  const Application<R>& app_;
  const Platform<R>& arch_;
  const MappingModelOptions<R>& o_;
  const DeviceKind<R>& kind_;
  const std::size_t K_, F_;
  const DeviceTable table_;  // the one kind's names, capacity, cap and uses, read below
  const std::vector<std::string> names_;
  const std::vector<double> cap_, capacity_;
  const std::vector<std::vector<double>> uses_;  // per kernel, its resource use as numbers (the device table's)
  const bool transfers_, bound_rows_;
  const double nominal_;
  MappingModel mm_;
  std::vector<int> most_cus_, device_cus_;         // CU bounds: on all devices, on one; the big-Ms below
  std::vector<Affine<dim::time>> compute_tables_;  // compute time alone, for the memory-sharing rows

  Model& model() { return mm_.model; }

  void check() const {
    arch_.validate();
    if (K_ == 0) throw model_error("ychart: application '" + app_.name() + "' has no kernel", app_.name());
    if (transfers_ && !(arch_.host_to_device.bandwidth.value() > 0.0 && arch_.device_to_host.bandwidth.value() > 0.0))
      throw model_error("ychart: the " + to_string(o_.schedule) +
                        " schedule needs the host-to-device and device-to-host bandwidths");
    if (o_.memory_time && !(kind_.memory.port_bytes_per_cycle.value() > 0))
      throw model_error("ychart: memory_time needs the device memory's port width (LocalMemory::port_bytes_per_cycle)");
    if (o_.clock_degradation && !has_resource<R>(kind_.clock.utilisation_resource))
      throw model_error("ychart: clock_degradation needs Platform::kind().clock.utilisation_resource");
  }

  /// Kernel k's busiest device's clock bound with N CUs in all: its own
  /// clock, less the degradation of ceil(N / F) CUs on one device.
  double clock_at(std::size_t k, int N) const {
    const double own = positive_or(app_.kernel(k).implementation().clock.value(), nominal_);
    if (!o_.clock_degradation) return own;
    const std::size_t u = *resource_index<R>(kind_.clock.utilisation_resource);
    const double busiest = std::ceil(double(N) / double(F_));
    return own - kind_.clock.degradation_per_utilisation.value() * busiest * uses_[k][u] / capacity_[u];
  }

  /// The most CUs of kernel k that F devices' caps hold (a short domain for
  /// the tables), and with bound rows that keep a positive clock.
  int most_cus(std::size_t k) const {
    const auto& kn = app_.kernel(k);
    const auto& use = uses_[k];
    int most = o_.max_cus;
    for (std::size_t t = 0; t < names_.size(); ++t)
      if (use[t] > 0) most = std::min(most, static_cast<int>(std::floor(double(F_) * cap_[t] / use[t] + tolerances::roundoff)));
    if (bound_rows_) {
      if (!(positive_or(kn.implementation().clock.value(), nominal_) > 0))
        throw model_error("ychart: kernel '" + kn.name + "' needs a clock (Kernel::clock or the device's nominal)", kn.name);
      while (most >= 1 && !(clock_at(k, most) > 0)) --most;  // a clock degraded to zero is no mapping
    }
    if (most < 1)
      throw model_error("ychart: one CU of kernel '" + kn.name + "' does not fit " + std::to_string(F_) + " devices", kn.name);
    return most;
  }

  /// N_k and n_kf, and kernel k's execution row (or its bound tables).
  void add_kernel(std::size_t k) {
    const auto& kn = app_.kernel(k);
    const std::string id = kn.name + "#" + std::to_string(k);
    const int most = most_cus(k);
    most_cus_.push_back(most);
    device_cus_.push_back(std::min(most, cus_per_device(kn.implementation(), cap_, o_.max_cus)));
    mm_.total.push_back(model().integer("N_" + id, 1, most));
    Affine<> sum;
    for (std::size_t f = 0; f < F_; ++f) {
      mm_.cus[k].push_back(model().integer("n_" + id + "_" + std::to_string(f + 1), 0, std::max(1, device_cus_.back())));
      sum += mm_.cus[k].back();
    }
    model().subject_to(mm_.total[k] == sum);
    if (!bound_rows_) {
      model().subject_to(mm_.execution >= kn.implementation().wcet / mm_.total[k]);
      return;
    }
    // A table is affine, so the phase is bounded row by row below.
    mm_.execution_bounds.push_back(
        tabulate(mm_.total[k], [&](double N) { return bound_ms(k, N); }, "T_" + id) * units::ms);
    if (o_.memory_time && transfers_) {
      auto compute_ms = [&](double N) {
        CuConditions at;
        at.own_clock = positive_or(kn.implementation().clock.value(), nominal_);
        at.clock = clock_at(k, static_cast<int>(N));
        at.read_port_bandwidth = at.write_port_bandwidth = 0;
        return 1e3 * cu_execution_time(kn, kn.implementation(), N, at);
      };
      compute_tables_.push_back(tabulate(mm_.total[k], compute_ms, "TC_" + id) * units::ms);
    }
  }

  /// Kernel k's execution time bound (ms) with N CUs: at the busiest
  /// device's clock bound, each port at most width x clock and, with
  /// memory_time, its DDR share at most 1 / (ports x CUs on that device).
  double bound_ms(std::size_t k, double N) const {
    const auto& kn = app_.kernel(k);
    CuConditions at;
    at.own_clock = positive_or(kn.implementation().clock.value(), nominal_);
    at.clock = clock_at(k, static_cast<int>(N));
    const double port = o_.memory_time ? kind_.memory.port_bytes_per_cycle.value() * at.clock : 0.0;
    at.read_port_bandwidth = at.write_port_bandwidth = port;
    const double busiest = std::ceil(N / double(F_));
    const int x = kn.implementation().reading_ports(), y = kn.implementation().writing_ports();
    if (o_.memory_time && x > 0 && kind_.memory.read_bandwidth.value() > 0)
      at.read_port_bandwidth = std::min(port, kind_.memory.read_bandwidth.value() / (x * busiest));
    if (o_.memory_time && y > 0 && kind_.memory.write_bandwidth.value() > 0)
      at.write_port_bandwidth = std::min(port, kind_.memory.write_bandwidth.value() / (y * busiest));
    return 1e3 * cu_execution_time(kn, kn.implementation(), N, at);
  }

  /// Placement, DDR sharing, transfer times, device ordering and the II rows.
  void add_transfers(std::vector<std::vector<Discrete<>>>& devices) {
    std::vector<std::vector<int>> placement_bound(K_);
    for (std::size_t k = 0; k < K_; ++k) placement_bound[k].assign(F_, device_cus_[k]);
    mm_.placed = add_placement(model(), app_, mm_.cus, placement_bound);
    for (std::size_t k = 0; k < K_; ++k)
      for (std::size_t f = 0; f < F_; ++f) devices[f].push_back(mm_.placed[k][f]);
    const auto& mem = kind_.memory;
    if (o_.memory_time && mem.read_bandwidth.value() > 0 && mem.write_bandwidth.value() > 0) add_ddr_sharing();
    const auto times = add_transfer_rows(model(), app_, mm_.cus, mm_.total, mm_.placed, most_cus_, o_.locality,
                                         arch_.host_to_device.bandwidth.value(), arch_.device_to_host.bandwidth.value());
    mm_.host_to_device = times.host_to_device;
    mm_.device_to_host = times.device_to_host;
    if (bound_rows_) add_device_order();
    mm_.ii = model().real("II", units::ms, 0.0);
    if (o_.schedule == Schedule::sequential_phases) {
      if (!bound_rows_) model().subject_to(mm_.execution <= mm_.ii - mm_.host_to_device - mm_.device_to_host, "II");
      for (const auto& t : mm_.execution_bounds)
        model().subject_to(t <= mm_.ii - mm_.host_to_device - mm_.device_to_host);
    } else {
      if (!bound_rows_) model().subject_to(mm_.execution <= mm_.ii, "II_execution");
      for (const auto& t : mm_.execution_bounds) model().subject_to(t <= mm_.ii);
      model().subject_to(mm_.host_to_device + mm_.device_to_host <= mm_.ii, "II_transfers");
    }
  }

  /// Worst-case DDR sharing (eqs. 4.19-4.25): a CU of k on f reads at most
  /// BDR / NR_f per port, NR_f = sum_j x_j n_jf, so T_exe >= its compute
  /// time + dr_k NR_f / (x_k BDR) + dw_k NW_f / (y_k BDW) when alpha_kf = 1,
  /// with dr_k, dw_k at their smallest (the most CUs).
  void add_ddr_sharing() {
    const auto& mem = kind_.memory;
    std::vector<Affine<>> readers(F_), writers(F_);
    double most_readers = 0, most_writers = 0;
    for (std::size_t k = 0; k < K_; ++k) {
      const auto& kn = app_.kernel(k);
      const int x = kn.implementation().reading_ports(), y = kn.implementation().writing_ports();
      for (std::size_t f = 0; f < F_; ++f) readers[f] += double(x) * mm_.cus[k][f], writers[f] += double(y) * mm_.cus[k][f];
      most_readers += double(x) * device_cus_[k];
      most_writers += double(y) * device_cus_[k];
    }
    for (std::size_t k = 0; k < K_; ++k) {
      const auto& kn = app_.kernel(k);
      const int x = kn.implementation().reading_ports(), y = kn.implementation().writing_ports();
      const double N = most_cus_[k], di = kn.data_in.value(), c = kn.constants.value();
      const double dr = (kn.input_scaling * di + kn.constant_scaling * c) / N + (1 - kn.input_scaling) * di +
                        (1 - kn.constant_scaling) * c;
      const double dw = kn.data_out.value() / N;
      const double r = x > 0 ? dr / (x * mem.read_bandwidth.value()) : 0.0;
      const double w = y > 0 ? dw / (y * mem.write_bandwidth.value()) : 0.0;
      // Sharing that cannot move the bound by a part in 10^6 is left out:
      // coefficients that small upset the LP solver's tolerances.
      constexpr double negligible_share = 1e-6;  // of the kernel's compute time
      if (r * most_readers + w * most_writers <= negligible_share * kn.implementation().wcet.value() / N) continue;
      for (std::size_t f = 0; f < F_; ++f)
        mm_.execution_bounds.push_back(
            compute_tables_[k] + (readers[f] - most_readers * (1.0 - mm_.placed[k][f])) * Constant<dim::time>(r) +
            (writers[f] - most_writers * (1.0 - mm_.placed[k][f])) * Constant<dim::time>(w));
    }
  }

  /// Placement binaries keep these models out of the symmetric
  /// decomposition (solvers.md), so the general search would revisit every
  /// permutation of the devices: order them by the CUs they hold, weighted
  /// by use (in the linear models with bound rows, where GLPK searches alone).
  void add_device_order() {
    std::vector<double> weight;
    for (const auto& use : uses_) weight.push_back(load_weight(use));
    for (std::size_t f = 0; f + 1 < F_; ++f) add_load_order_row(model(), weight, mm_.cus, f);
  }

  void add_spreading() {
    if (!(o_.beta > 0)) return;
    mm_.has_spreading = true;
    mm_.spreading = model().real("phi", 0, double(F_));
    for (std::size_t k = 0; k < K_; ++k) {
      Affine<> phi_k;
      for (std::size_t f = 0; f < F_; ++f) phi_k += tabulate(mm_.cus[k][f], [](double n) { return n / (1.0 + n); });
      model().subject_to(phi_k <= mm_.spreading);
    }
  }

  void set_objective() {
    if (!transfers_ && !bound_rows_) {
      if (mm_.has_spreading) model().minimize(o_.alpha * (mm_.execution / units::ms) + o_.beta * mm_.spreading);
      else model().minimize(mm_.execution);
    } else {
      if (mm_.has_spreading) model().minimize(o_.alpha * (mm_.ii / units::ms) + o_.beta * mm_.spreading);
      else model().minimize(mm_.ii);
    }
  }
};

}  // namespace detail

}  // namespace ychart::pipeline
