// ychart/synthesis/specification.hpp
// A system-synthesis specification (study 003, OpenDSE's Specification):
// the application graph, the architecture graph, and mapping options --
// which process task may run on which resource and at what cost, either
// one cost or one per value of a parameter of that resource (the NCS's
// cost per SHAVE count) -- plus the hop bound on routes (OpenDSE's T_max,
// 10 by default). validate() checks the whole specification and indexes
// it for the model, the evaluator and the evolutionary search.
#pragma once

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
  IndexedSpecification validate() const {
    const auto& tasks = application.tasks;
    const auto& resources = architecture.resources;
    if (max_hops < 1) throw specification_error("ychart: max_hops must be at least 1", "");
    IndexedSpecification s;
    s.process_of_task.assign(tasks.size(), s.npos);
    s.communication_of_task.assign(tasks.size(), s.npos);
    for (std::size_t t = 0; t < tasks.size(); ++t)
      if (tasks[t].kind == TaskKind::process) s.process_of_task[t] = s.processes.size(), s.processes.push_back(t);
    if (s.processes.empty()) throw specification_error("ychart: the application has no process task", "");
    s.options.resize(s.processes.size());
    for (std::size_t k = 0; k < mappings.size(); ++k) {
      const auto& m = mappings[k];
      if (m.task >= tasks.size() || m.resource >= resources.size())
        throw specification_error("ychart: mapping option " + std::to_string(k) + " names a task or resource index that does not exist", "");
      const auto& name = tasks[m.task].id;
      const std::string where = "mapping of `" + name + "` on `" + resources[m.resource].id + "`";
      if (tasks[m.task].kind != TaskKind::process)
        throw specification_error("ychart: " + where + ": `" + name + "` is a communication; only process tasks are mapped (communications are routed)", name);
      for (auto o : s.options[s.process_of_task[m.task]])
        if (mappings[o].resource == m.resource)
          throw specification_error("ychart: " + where + " is declared twice", name);
      auto check_cost = [&](double c) {
        if (!(c >= 0) || !std::isfinite(c))
          throw specification_error("ychart: " + where + " has cost " + std::to_string(c) + " s; costs must be finite and not negative", name);
      };
      if (m.parameter) {
        if (*m.parameter >= architecture.parameters.size() || architecture.parameters[*m.parameter].resource != m.resource)
          throw specification_error("ychart: " + where + " depends on a parameter of another resource", name);
        const auto& p = architecture.parameters[*m.parameter];
        if (m.costs.size() != p.values.size())
          throw specification_error("ychart: " + where + " lists " + std::to_string(m.costs.size()) + " costs for the " +
                                        std::to_string(p.values.size()) + " values of `" + p.name + "`", name);
        for (const auto& c : m.costs) check_cost(c.value());
      } else {
        check_cost(m.cost.value());
      }
      s.options[s.process_of_task[m.task]].push_back(k);
    }
    for (std::size_t p = 0; p < s.processes.size(); ++p)
      if (s.options[p].empty()) {
        const auto& name = tasks[s.processes[p]].id;
        throw specification_error("ychart: process task `" + name + "` has no mapping option; add_mapping(\"" + name +
                                      "\", resource, cost) for each resource that can run it", name);
      }
    for (const auto& r : resources)
      if (!(r.allocation_cost.value() >= 0) || !std::isfinite(r.allocation_cost.value()) || !(r.power.value() >= 0) ||
          !std::isfinite(r.power.value()))
        throw specification_error("ychart: resource `" + r.id + "` has a negative or non-finite allocation cost or power", r.id);
    for (const auto& l : architecture.links)
      if (!(l.cost.value() >= 0) || !std::isfinite(l.cost.value()) || (l.bandwidth && !(l.bandwidth->value() > 0)))
        throw specification_error("ychart: link `" + l.id + "` has a negative cost or a bandwidth that is not positive", l.id);
    for (const auto& p : architecture.parameters)
      for (const auto& w : p.power)
        if (!(w.value() >= 0) || !std::isfinite(w.value()))
          throw specification_error("ychart: parameter `" + p.name + "` has a negative or non-finite power", p.name);

    s.communications = application.communications();
    for (std::size_t c = 0; c < s.communications.size(); ++c) s.communication_of_task[s.communications[c].task] = c;
    s.arcs = architecture.arcs();
    s.hops.resize(resources.size());
    for (std::size_t r = 0; r < resources.size(); ++r) s.hops[r] = architecture.hops_from(r);
    s.link_seconds.assign(s.communications.size(), std::vector<double>(architecture.links.size(), 0.0));
    for (std::size_t c = 0; c < s.communications.size(); ++c) {
      const auto& com = s.communications[c];
      for (std::size_t l = 0; l < architecture.links.size(); ++l) {
        const auto& link = architecture.links[l];
        s.link_seconds[c][l] =
            link.cost.value() + (link.bandwidth ? tasks[com.task].bytes.value() / link.bandwidth->value() : 0.0);
      }
      const auto& sender_options = s.options[s.process_of_task[com.sender]];
      for (auto q : com.receivers) {
        bool routable = false;
        for (auto a : sender_options)
          for (auto b : s.options[s.process_of_task[q]])
            routable = routable || s.within_hops(mappings[a].resource, mappings[b].resource, max_hops);
        if (!routable) {
          const auto& id = tasks[com.task].id;
          throw specification_error("ychart: communication `" + id + "` cannot be routed: no path of at most " +
                                        std::to_string(max_hops) + " links joins a resource of `" + tasks[com.sender].id +
                                        "` (" + resource_list(sender_options) + ") to a resource of `" + tasks[q].id +
                                        "` (" + resource_list(s.options[s.process_of_task[q]]) + ")",
                                    id);
        }
      }
    }
    return s;
  }

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
