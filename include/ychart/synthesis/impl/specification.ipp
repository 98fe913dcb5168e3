// ychart/synthesis/impl/specification.ipp
// The implementation of ychart/synthesis/specification.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../specification.hpp"

namespace ychart::synthesis {

YCHART_DECL IndexedSpecification Specification::validate() const {
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

}  // namespace ychart::synthesis
