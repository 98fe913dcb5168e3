// ychart/pipeline/platform.hpp
// A heterogeneous architecture: a host and groups of identical devices, one
// group per device kind -- FPGAs, GPUs, CPUs -- each kind with its own
// resource record, static power and device count, all joined to the host by
// one link each way. Platform<FpgaResources, GpuResources> holds a
// DeviceGroup<FpgaResources> and a DeviceGroup<GpuResources>; devices are
// numbered group after group (a Mapping's columns).
#pragma once

#include "architecture.hpp"
#include "resources.hpp"

#include "../error.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <tuple>
#include <utility>
#include <optional>
#include <vector>

namespace ychart::pipeline {

/// `devices` identical devices of one kind.
template <ResourceRecord R>
struct DeviceGroup {
  DeviceKind<R> kind;
  int devices = 1;
};

/// An optional cap per device kind, in the platform's kind order.
template <ResourceRecord... Rs>
using KindCaps = std::tuple<std::optional<Rs>...>;

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
