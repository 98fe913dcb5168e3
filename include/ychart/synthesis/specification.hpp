// ychart/synthesis/specification.hpp
// A system-synthesis specification (study 003, OpenDSE's Specification):
// the application graph, the architecture graph, and mapping options --
// which process task may run on which resource and at what cost, either
// one cost or one per value of a parameter of that resource (the NCS's
// cost per SHAVE count) -- plus the hop bound on routes (OpenDSE's T_max,
// 10 by default). validate() checks the whole specification and indexes
// it for the model, the evaluator and the evolutionary search.
#pragma once

#include "../config.hpp"
#include "application.hpp"
#include "architecture.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ychart::synthesis {

struct MappingOption {
  std::size_t task = 0, resource = 0;
  Constant<dim::time> cost{0.0};
  /// When set, the cost depends on this parameter of `resource`:
  /// costs[v] for its v-th value, and `cost` is unused.
  std::optional<std::size_t> parameter;
  std::vector<Constant<dim::time>> costs;

  /// The cost with the parameter at its v-th value.
  double seconds(std::size_t v) const { return parameter ? costs[v].value() : cost.value(); }
  /// The cost with every parameter at the given value indices (one per
  /// parameter of the architecture).
  double seconds(const std::vector<std::size_t>& parameter_values) const {
    return seconds(parameter ? parameter_values[*parameter] : 0);
  }
};

/// The specification, indexed: each process task's options, each
/// communication's ends, the hop distances and the cost of each
/// communication on each link.
struct IndexedSpecification {
  std::vector<std::size_t> processes;                // task indices
  std::vector<std::size_t> process_of_task;          // task -> position in processes (or npos)
  std::vector<std::vector<std::size_t>> options;     // per process: mapping option indices
  std::vector<Communication> communications;
  std::vector<std::size_t> communication_of_task;    // task -> position in communications (or npos)
  std::vector<std::vector<int>> hops;                // resource x resource, -1 when unconnected
  std::vector<Arc> arcs;
  std::vector<std::vector<double>> link_seconds;     // communication x link
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// Whether a route of at most max_hops links joins the two resources.
  bool within_hops(std::size_t from, std::size_t to, int max_hops) const {
    return hops[from][to] >= 0 && hops[from][to] <= max_hops;
  }
};

class Specification {
 public:
  Application application;
  Architecture architecture;
  std::vector<MappingOption> mappings;
  int max_hops = 10;

  std::size_t add_mapping(const std::string& task, const std::string& resource, Constant<dim::time> cost) {
    MappingOption m;
    m.task = task_index(task, resource);
    m.resource = resource_index(task, resource);
    m.cost = cost;
    return add_mapping(std::move(m));
  }
  /// A cost in another dimension (watts, bytes, a bare number) is a
  /// modelling mistake the compiler reports.
  template <class D>
    requires(!std::is_same_v<D, dim::time>)
  std::size_t add_mapping(const std::string&, const std::string&, Constant<D>) {
    static_assert(!std::is_same_v<D, D>,
                  "ychart: a mapping's cost is a time: write add_mapping(task, resource, 12.5 * units::us); "
                  "power belongs to Resource::power or Parameter::power");
    return 0;
  }
  /// A mapping whose cost depends on a parameter of the resource.
  std::size_t add_mapping(const std::string& task, const std::string& resource, const std::string& parameter,
                          std::vector<Constant<dim::time>> costs) {
    MappingOption m;
    m.task = task_index(task, resource);
    m.resource = resource_index(task, resource);
    const auto p = architecture.find_parameter(resource, parameter);
    if (!p)
      throw specification_error("ychart: mapping of `" + task + "` on `" + resource + "` names unknown parameter `" +
                                    parameter + "` of that resource",
                                task);
    m.parameter = *p;
    m.costs = std::move(costs);
    return add_mapping(std::move(m));
  }
  std::size_t add_mapping(MappingOption m) {
    mappings.push_back(std::move(m));
    return mappings.size() - 1;
  }

  /// Checks the specification and indexes it. Errors name the element:
  /// a task with no mapping option, a mapping onto a communication, a
  /// negative or non-finite cost, a cost table of the wrong length, a
  /// communication that no route of at most max_hops links can carry from
  /// any resource of its sender to any resource of one of its receivers.
  IndexedSpecification validate() const;

 private:
  std::string resource_list(const std::vector<std::size_t>& options) const {
    std::string out;
    for (auto o : options) out += (out.empty() ? "" : ", ") + architecture.resources[mappings[o].resource].id;
    return out;
  }
  std::size_t task_index(const std::string& task, const std::string& resource) const {
    if (auto t = application.find(task)) return *t;
    throw specification_error("ychart: mapping on `" + resource + "` names unknown task `" + task + "`", task);
  }
  std::size_t resource_index(const std::string& task, const std::string& resource) const {
    if (auto r = architecture.find_resource(resource)) return *r;
    throw specification_error("ychart: mapping of `" + task + "` names unknown resource `" + resource + "`", resource);
  }
};

}  // namespace ychart::synthesis

#if YCHART_HEADER_ONLY
#include "impl/specification.ipp"
#endif
