// ychart/pipeline/detail/device_table.hpp
// A platform and an application flattened per device: each device's kind,
// resource names, capacity and cap, clock, memory and static power, and for
// each task its implementation's numbers on each device (0 wcet where it
// cannot run). The evaluator, the mapping and power models and the local
// search read it, so that one loop over devices serves every kind.
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

struct DeviceTable {
  std::vector<std::vector<double>> wcet;                   // [k][d], s; 0: cannot run there
  std::vector<std::vector<double>> power;                  // [k][d], W of one busy CU at the nominal clock
  std::vector<std::vector<std::vector<double>>> use;       // [k][d][t], in the kind's units
  std::vector<std::vector<double>> capacity, cap;          // [d][t]
  std::vector<std::vector<std::string>> resource_names;    // [d]
  std::vector<std::string> kind;                           // [d]
  std::vector<std::size_t> group;                          // [d]
  std::vector<double> nominal_clock;                       // [d], Hz
  std::vector<double> static_power, memory_static_power;   // [d], W while powered
  std::vector<Clock> clock;                                // [d], its kind's
  std::vector<LocalMemory> memory;                         // [d], its kind's
  std::vector<std::optional<std::size_t>> clock_resource;  // [d]: the resource its clock degrades with
  std::vector<std::vector<double>> own_clock;              // [k][d], Hz: the clock wcet was measured at; 0: nominal
  std::vector<std::vector<int>> reading_ports, writing_ports;  // [k][d]
};

template <ResourceRecord... Rs>
DeviceTable device_table(const Application<Rs...>& app, const Platform<Rs...>& platform,
                         const std::tuple<std::optional<Rs>...>& caps) {
  platform.validate();
  DeviceTable t;
  const std::size_t K = app.size(), D = static_cast<std::size_t>(platform.devices());
  t.wcet.assign(K, std::vector<double>(D, 0.0));
  t.power.assign(K, std::vector<double>(D, 0.0));
  t.use.assign(K, std::vector<std::vector<double>>(D));
  t.own_clock.assign(K, std::vector<double>(D, 0.0));
  t.reading_ports.assign(K, std::vector<int>(D, 0));
  t.writing_ports.assign(K, std::vector<int>(D, 0));
  platform.for_each_group([&](auto g, const auto& group) {
    using R = std::remove_cvref_t<decltype(group.kind.capacity)>;
    const auto capacity = resource_values(group.kind.capacity);
    const auto& cap_g = std::get<decltype(g)::value>(caps);
    const auto cap = cap_g ? resource_values(*cap_g) : capacity;
    for (int i = 0; i < group.devices; ++i) {
      t.capacity.push_back(capacity);
      t.cap.push_back(cap);
      t.resource_names.push_back(resource_names<R>());
      t.kind.push_back(group.kind.name);
      t.group.push_back(decltype(g)::value);
      t.nominal_clock.push_back(group.kind.clock.nominal.value());
      t.static_power.push_back(group.kind.static_power.value());
      t.memory_static_power.push_back(group.kind.memory.static_power.value());
      t.clock.push_back(group.kind.clock);
      t.memory.push_back(group.kind.memory);
      t.clock_resource.push_back(resource_index<R>(group.kind.clock.utilisation_resource));
      const std::size_t d = t.kind.size() - 1;
      for (std::size_t k = 0; k < K; ++k) {
        const auto& impl = std::get<decltype(g)::value>(app.kernel(k).on);
        t.use[k][d] = impl ? resource_values(impl->use) : std::vector<double>(capacity.size(), 0.0);
        if (!impl) continue;
        t.wcet[k][d] = impl->wcet.value();
        t.power[k][d] = impl->power.value();
        t.own_clock[k][d] = impl->clock.value();
        t.reading_ports[k][d] = impl->reading_ports();
        t.writing_ports[k][d] = impl->writing_ports();
      }
    }
  });
  return t;
}

}  // namespace ychart::pipeline::detail
