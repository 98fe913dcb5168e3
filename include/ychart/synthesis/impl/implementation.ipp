// ychart/synthesis/impl/implementation.ipp
// The implementation of ychart/synthesis/implementation.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../implementation.hpp"

namespace ychart::synthesis {


YCHART_DECL Breakdown evaluate(const Specification& spec, const IndexedSpecification& ix, const Implementation& impl) {
  const auto& tasks = spec.application.tasks;
  const auto& arch = spec.architecture;
  if (impl.binding.size() != ix.processes.size() || impl.parameter_values.size() != arch.parameters.size() ||
      impl.routes.size() != ix.communications.size())
    throw specification_error("ychart: the implementation's binding, parameters or routes do not match the specification", "");
  Breakdown b;
  b.allocated.assign(arch.resources.size(), false);
  b.task_seconds.assign(ix.processes.size(), 0.0);
  b.communication_seconds.assign(ix.communications.size(), 0.0);
  std::vector<std::size_t> where(ix.processes.size());
  for (std::size_t p = 0; p < ix.processes.size(); ++p) {
    const auto o = impl.binding[p];
    const auto& name = tasks[ix.processes[p]].id;
    if (std::find(ix.options[p].begin(), ix.options[p].end(), o) == ix.options[p].end())
      throw specification_error("ychart: task `" + name + "` is bound to an option it does not have", name);
    const auto& m = spec.mappings[o];
    if (m.parameter && impl.parameter_values[*m.parameter] >= arch.parameters[*m.parameter].values.size())
      throw specification_error("ychart: parameter `" + arch.parameters[*m.parameter].name + "` has no value " +
                                    std::to_string(impl.parameter_values[*m.parameter]),
                                arch.parameters[*m.parameter].name);
    b.task_seconds[p] = m.seconds(impl.parameter_values);
    b.execution += b.task_seconds[p];
    where[p] = m.resource;
    b.allocated[m.resource] = true;
  }
  for (std::size_t c = 0; c < ix.communications.size(); ++c) {
    const auto& com = ix.communications[c];
    const auto& id = tasks[com.task].id;
    const auto root = where[ix.process_of_task[com.sender]];
    // A tree rooted at `root`: every resource entered at most once, never the root.
    std::vector<int> depth(arch.resources.size(), -1);
    depth[root] = 0;
    std::vector<bool> placed(impl.routes[c].size(), false);
    for (std::size_t done = 0, pass = 0; done < impl.routes[c].size() && pass <= impl.routes[c].size(); ++pass)
      for (std::size_t k = 0; k < impl.routes[c].size(); ++k) {
        const auto& a = impl.routes[c][k];
        if (placed[k] || depth[a.from] < 0) continue;
        if (a.link >= arch.links.size() ||
            !((arch.links[a.link].from == a.from && arch.links[a.link].to == a.to) ||
              (!arch.links[a.link].directed && arch.links[a.link].from == a.to && arch.links[a.link].to == a.from)))
          throw specification_error("ychart: the route of `" + id + "` uses a link the architecture does not have", id);
        if (depth[a.to] >= 0)
          throw specification_error("ychart: the route of `" + id + "` is not a tree: it enters `" +
                                        arch.resources[a.to].id + "` twice",
                                    id);
        depth[a.to] = depth[a.from] + 1;
        if (depth[a.to] > spec.max_hops)
          throw specification_error("ychart: the route of `" + id + "` is longer than " + std::to_string(spec.max_hops) +
                                        " hops",
                                    id);
        placed[k] = true;
        ++done;
        b.communication_seconds[c] += ix.link_seconds[c][a.link];
        b.allocated[a.from] = b.allocated[a.to] = true;
      }
    if (std::find(placed.begin(), placed.end(), false) != placed.end())
      throw specification_error("ychart: the route of `" + id + "` has a link use not connected to the sender's resource `" +
                                    arch.resources[root].id + "`",
                                id);
    for (auto q : com.receivers)
      if (depth[where[ix.process_of_task[q]]] < 0)
        throw specification_error("ychart: the route of `" + id + "` does not reach `" + tasks[q].id + "` on `" +
                                      arch.resources[where[ix.process_of_task[q]]].id + "`",
                                  id);
    b.communication += b.communication_seconds[c];
  }
  b.parameter_value.assign(arch.parameters.size(), 0.0);
  for (std::size_t k = 0; k < arch.parameters.size(); ++k) {
    const auto& p = arch.parameters[k];
    if (impl.parameter_values[k] >= p.values.size())
      throw specification_error("ychart: parameter `" + p.name + "` has no value " + std::to_string(impl.parameter_values[k]),
                                p.name);
    if (!b.allocated[p.resource]) continue;
    b.parameter_value[k] = p.values[impl.parameter_values[k]];
    if (!p.power.empty()) b.power += p.power[impl.parameter_values[k]].value();
  }
  for (std::size_t r = 0; r < arch.resources.size(); ++r)
    if (b.allocated[r]) {
      b.allocation += arch.resources[r].allocation_cost.value();
      b.power += arch.resources[r].power.value();
      if (arch.resources[r].kind == ResourceKind::processor) ++b.allocated_processors;
    }
  b.cost = b.execution + b.communication + b.allocation;
  return b;
}

YCHART_DECL std::optional<Implementation> route(const Specification& spec, const IndexedSpecification& ix,
                                                std::vector<std::size_t> binding, std::vector<std::size_t> parameter_values) {
  const auto n = spec.architecture.resources.size();
  Implementation impl{std::move(binding), std::move(parameter_values), {}};
  impl.routes.resize(ix.communications.size());
  std::vector<double> dist(n);
  std::vector<int> hops(n);
  std::vector<std::ptrdiff_t> in(n);
  for (std::size_t c = 0; c < ix.communications.size(); ++c) {
    const auto& com = ix.communications[c];
    const auto root = spec.mappings[impl.binding[ix.process_of_task[com.sender]]].resource;
    for (int by_hops = 0; by_hops < 2; ++by_hops) {
      std::fill(dist.begin(), dist.end(), std::numeric_limits<double>::infinity());
      std::fill(hops.begin(), hops.end(), 0);
      std::fill(in.begin(), in.end(), -1);
      dist[root] = 0;
      // Dijkstra over (cost, hops); with by_hops, over hops alone (BFS order).
      using Entry = std::pair<std::pair<double, int>, std::size_t>;
      std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
      queue.push({{0.0, 0}, root});
      while (!queue.empty()) {
        const auto [key, r] = queue.top();
        queue.pop();
        if (key.first > dist[r] || (key.first == dist[r] && key.second > hops[r])) continue;
        for (std::size_t k = 0; k < ix.arcs.size(); ++k) {
          const auto& a = ix.arcs[k];
          if (a.from != r) continue;
          const double d = dist[r] + (by_hops ? 1.0 : ix.link_seconds[c][a.link]);
          const int h = hops[r] + 1;
          if (d < dist[a.to] || (d == dist[a.to] && h < hops[a.to])) {
            dist[a.to] = d, hops[a.to] = h, in[a.to] = static_cast<std::ptrdiff_t>(k);
            queue.push({{d, h}, a.to});
          }
        }
      }
      bool ok = true;
      for (auto q : com.receivers) {
        const auto t = spec.mappings[impl.binding[ix.process_of_task[q]]].resource;
        ok = ok && (t == root || (in[t] >= 0 && hops[t] <= spec.max_hops));
      }
      if (!ok) {
        if (by_hops) return std::nullopt;
        continue;
      }
      std::vector<bool> used(ix.arcs.size(), false);
      for (auto q : com.receivers)
        for (auto t = spec.mappings[impl.binding[ix.process_of_task[q]]].resource; t != root;
             t = ix.arcs[static_cast<std::size_t>(in[t])].from)
          used[static_cast<std::size_t>(in[t])] = true;
      for (std::size_t k = 0; k < ix.arcs.size(); ++k)
        if (used[k]) impl.routes[c].push_back(ix.arcs[k]);
      break;
    }
  }
  return impl;
}

}  // namespace ychart::synthesis
