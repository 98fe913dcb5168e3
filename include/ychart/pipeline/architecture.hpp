// ychart/pipeline/architecture.hpp
// The architecture side of the Y-chart: a Platform, that is a host and
// groups of identical devices, one group per device kind (FPGA, GPU, CPU),
// joined to the host by one link each way. Each kind has its resource
// record, its devices' local memory (DDR), its clock (nominal, levels,
// degradation with utilisation) and its power constants. Identical devices
// are a one-group Platform<R>; FPGAs beside GPUs are
// Platform<FpgaResources, GpuResources>. Devices are numbered group after
// group (a Mapping's columns). Every quantity is typed with its unit.
#pragma once

#include "resources.hpp"

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/unit.hpp"

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ychart::pipeline {

/// A link such as PCIe between host and devices.
struct Link {
  std::string name;
  Constant<dim::bandwidth> bandwidth{};
};

/// A device's local memory (DDR) and its ports, as the chapter-4 model of
/// study 001 sees them: CUs reading share min(port, DDR / readers).
struct LocalMemory {
  Constant<dim::bandwidth> read_bandwidth{};   // BDR
  Constant<dim::bandwidth> write_bandwidth{};  // BDW
  Constant<dim::data> port_bytes_per_cycle{};  // AXI port width: BX_f = width x clock
  // Power (study 001, chapter 5): static, and dynamic at full bandwidth.
  Constant<dim::power> static_power{};      // P_DDRs
  Constant<dim::power> full_read_power{};   // P_DDRdr(1)
  Constant<dim::power> full_write_power{};  // P_DDRdw(1)
};

/// How a device's clock behaves.
struct Clock {
  Constant<dim::frequency> nominal{};  // FCK: the fastest the device runs
  // Linear degradation with utilisation (chapter 4): F = F1 - psi * u,
  // u = the named resource's use on the device as a fraction of its capacity.
  Constant<dim::frequency> degradation_per_utilisation{};  // psi, e.g. GHz per unit of u
  std::string utilisation_resource;                        // e.g. "dsp"
  std::vector<double> levels_fraction;                     // allowed clocks as fractions of nominal; empty: continuous
};

/// One kind of device.
template <ResourceRecord R>
struct DeviceKind {
  std::string name;                  // "FPGA"
  R capacity = uniform_resources<R>(100.0);  // what one device offers, in the same units as Kernel::use
  Constant<dim::power> static_power{};       // per powered-on device (logic and I/O)
  LocalMemory memory{};
  Clock clock{};
};

/// `devices` identical devices of one kind.
template <ResourceRecord R>
struct DeviceGroup {
  DeviceKind<R> kind;
  int devices = 1;
};

/// An optional cap per device kind, in the platform's kind order.
template <ResourceRecord... Rs>
using KindCaps = std::tuple<std::optional<Rs>...>;

/// A host and one group of identical devices per kind, in the order of Rs.
/// Platform<R> is one kind of identical devices; group() and kind() reach it.
template <ResourceRecord... Rs>
struct Platform {
  static_assert(sizeof...(Rs) >= 1, "ychart: a platform needs at least one device kind");
  static constexpr std::size_t kinds = sizeof...(Rs);

  std::string name;
  std::tuple<DeviceGroup<Rs>...> groups;
  Link host_to_device{"host-to-device", {}};
  Link device_to_host{"device-to-host", {}};

  /// Calls f(std::integral_constant<std::size_t, g>, group) for every group.
  template <class F>
  void for_each_group(F&& f) const {
    for_each_group_(f, std::index_sequence_for<Rs...>{});
  }

  /// The one group of identical devices, on a one-kind platform.
  auto& group() requires(kinds == 1) { return std::get<0>(groups); }
  const auto& group() const requires(kinds == 1) { return std::get<0>(groups); }
  /// The one device kind, on a one-kind platform.
  auto& kind() requires(kinds == 1) { return group().kind; }
  const auto& kind() const requires(kinds == 1) { return group().kind; }

  /// Devices of group g.
  int devices_of(std::size_t g) const {
    int n = 0;
    for_each_group([&](auto i, const auto& group) {
      if (i() == g) n = group.devices;
    });
    return n;
  }
  int devices() const {
    int n = 0;
    for_each_group([&](auto, const auto& group) { n += group.devices; });
    return n;
  }
  /// Index of group g's first device.
  std::size_t first_device(std::size_t g) const {
    std::size_t first = 0;
    for (std::size_t i = 0; i < g; ++i) first += static_cast<std::size_t>(devices_of(i));
    return first;
  }
  /// The group device d belongs to.
  std::size_t group_of(std::size_t d) const {
    for (std::size_t g = 0; g < kinds; ++g)
      if (d < first_device(g) + static_cast<std::size_t>(devices_of(g))) return g;
    throw model_error("ychart: platform '" + name + "' has no device " + std::to_string(d + 1), name);
  }
  std::string kind_name(std::size_t g) const {
    std::string out;
    for_each_group([&](auto i, const auto& group) {
      if (i() == g) out = group.kind.name;
    });
    return out;
  }

  void validate() const {
    for_each_group([&](auto, const auto& group) {
      if (group.devices < 0)
        throw model_error("ychart: platform '" + name + "': group '" + group.kind.name + "' has a negative device count", name);
      for_each_resource(group.kind.capacity, [&](std::string_view r, double v) {
        if (!(v > 0.0) || !std::isfinite(v))
          throw model_error("ychart: platform '" + name + "': capacity of " + std::string(r) + " of " +
                            group.kind.name + " must be positive and finite", name);
      });
      if (!(group.kind.static_power.value() >= 0.0) || !(group.kind.memory.static_power.value() >= 0.0))
        throw model_error("ychart: platform '" + name + "': static power of " + group.kind.name + " is negative", name);
      using R = std::remove_cvref_t<decltype(group.kind.capacity)>;
      if (!group.kind.clock.utilisation_resource.empty() && !has_resource<R>(group.kind.clock.utilisation_resource))
        throw model_error("ychart: platform '" + name + "': clock degradation names resource '" +
                          group.kind.clock.utilisation_resource + "', which " + group.kind.name + " does not have", name);
    });
    if (devices() < 1) throw model_error("ychart: platform '" + name + "' needs at least one device", name);
  }

 private:
  template <class F, std::size_t... G>
  void for_each_group_(F& f, std::index_sequence<G...>) const {
    (f(std::integral_constant<std::size_t, G>{}, std::get<G>(groups)), ...);
  }
};

}  // namespace ychart::pipeline
