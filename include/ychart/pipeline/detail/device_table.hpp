// ychart/pipeline/detail/device_table.hpp
// A platform and an application flattened for loops over devices: each
// device kind's resource names, capacity and cap, clock, memory and static
// power, each task's implementation on each kind (wcet, power, clock,
// ports, use), and each device's kind. The evaluator, the platform models
// and the local search read it, so that one loop over devices serves every
// kind. Built once per evaluation: per kind and per task-and-kind, not per
// device, so that its cost does not grow with the device count.
#pragma once

#include "../application.hpp"
#include "../architecture.hpp"
#include "../resources.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace ychart::pipeline::detail {

/// One device kind (a platform group), as numbers.
struct KindEntry {
  std::string kind;
  std::vector<std::string> resource_names;
  std::vector<double> capacity, cap;           // per resource
  double nominal_clock = 0;                    // Hz
  double static_power = 0, memory_static_power = 0;  // W while powered
  Clock clock{};
  LocalMemory memory{};
  std::optional<std::size_t> clock_resource;  // the resource its clock degrades with
};

/// One task's implementation on one kind, as numbers; wcet 0: it cannot run there.
struct ImplementationEntry {
  double wcet = 0;       // s
  double power = 0;      // W of one busy CU at the nominal clock
  double own_clock = 0;  // Hz: the clock wcet was measured at; 0: nominal
  int reading_ports = 0, writing_ports = 0;
  std::vector<double> use;  // in the kind's units
};

struct DeviceTable {
  std::vector<KindEntry> kinds;                             // [g]
  std::vector<std::size_t> group;                           // [d]: the device's kind
  std::vector<std::vector<ImplementationEntry>> implementations;  // [k][g]

  std::size_t devices() const { return group.size(); }
  const KindEntry& of(std::size_t d) const { return kinds[group[d]]; }
  const ImplementationEntry& on(std::size_t k, std::size_t d) const { return implementations[k][group[d]]; }
  double wcet(std::size_t k, std::size_t d) const { return on(k, d).wcet; }
  double power(std::size_t k, std::size_t d) const { return on(k, d).power; }
  const std::vector<double>& use(std::size_t k, std::size_t d) const { return on(k, d).use; }
  /// Every task's use of one CU on kind g (zeros where it has no
  /// implementation), task by task: the resource rows' coefficients.
  std::vector<std::vector<double>> uses_on_kind(std::size_t g) const {
    std::vector<std::vector<double>> uses;
    for (const auto& task : implementations) uses.push_back(task[g].use);
    return uses;
  }
};

template <ResourceRecord... Rs>
DeviceTable device_table(const Application<Rs...>& app, const Platform<Rs...>& platform,
                         const std::tuple<std::optional<Rs>...>& caps) {
  platform.validate();
  DeviceTable t;
  const std::size_t K = app.size();
  t.kinds.reserve(sizeof...(Rs));
  t.group.reserve(static_cast<std::size_t>(platform.devices()));
  t.implementations.assign(K, std::vector<ImplementationEntry>(sizeof...(Rs)));
  platform.for_each_group([&](auto g, const auto& group) {
    using R = std::remove_cvref_t<decltype(group.kind.capacity)>;
    KindEntry kind;
    kind.kind = group.kind.name;
    kind.resource_names = resource_names<R>();
    kind.capacity = resource_values(group.kind.capacity);
    const auto& cap_g = std::get<decltype(g)::value>(caps);
    kind.cap = cap_g ? resource_values(*cap_g) : kind.capacity;
    kind.nominal_clock = group.kind.clock.nominal.value();
    kind.static_power = group.kind.static_power.value();
    kind.memory_static_power = group.kind.memory.static_power.value();
    kind.clock = group.kind.clock;
    kind.memory = group.kind.memory;
    kind.clock_resource = resource_index<R>(group.kind.clock.utilisation_resource);
    for (std::size_t k = 0; k < K; ++k) {
      auto& entry = t.implementations[k][decltype(g)::value];
      const auto& impl = std::get<decltype(g)::value>(app.kernel(k).on);
      if (!impl) {
        entry.use.assign(kind.capacity.size(), 0.0);
        continue;
      }
      entry.wcet = impl->wcet.value();
      entry.power = impl->power.value();
      entry.own_clock = impl->clock.value();
      entry.reading_ports = impl->reading_ports();
      entry.writing_ports = impl->writing_ports();
      entry.use = resource_values(impl->use);
    }
    t.kinds.push_back(std::move(kind));
    for (int i = 0; i < group.devices; ++i) t.group.push_back(decltype(g)::value);
  });
  return t;
}

}  // namespace ychart::pipeline::detail
