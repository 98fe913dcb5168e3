// ychart/synthesis/architecture.hpp
// The architecture graph of system-level synthesis (study 003, OpenDSE's
// Architecture<Resource, Link>): resources (processors, buses, memories)
// with typed attributes -- an allocation cost in time, a static power --
// links between them with a cost in time per communication routed over
// them (plus bytes / bandwidth when a bandwidth is given), and parameters
// of a resource such as the NCS's SHAVE count: one value chosen from a
// list, with a power per value.
#pragma once

#include "../config.hpp"
#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../expr/operators.hpp"
#include "../units/unit.hpp"

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ychart::synthesis {

enum class ResourceKind { processor, bus, memory };

inline const char* to_string(ResourceKind k) {
  switch (k) {
    case ResourceKind::processor: return "processor";
    case ResourceKind::bus: return "bus";
    case ResourceKind::memory: return "memory";
  }
  return "?";
}

struct Resource {
  std::string id;
  ResourceKind kind = ResourceKind::processor;
  /// Added to the cost when the resource is allocated (e.g. a device's
  /// set-up time per inference); in the cost's unit, time.
  Constant<dim::time> allocation_cost{0.0};
  /// Static power while allocated, for the cost-power front.
  Constant<dim::power> power{0.0};
};

/// A link joins two resources; undirected links carry traffic either way
/// (one direction per communication, OpenDSE's EQ9).
struct Link {
  std::string id;
  std::size_t from = 0, to = 0;  // resource indices
  /// Cost of one communication routed over the link.
  Constant<dim::time> cost{0.0};
  /// When set, a communication of b bytes also costs b / bandwidth.
  std::optional<Constant<dim::bandwidth>> bandwidth;
  bool directed = false;
};

/// A parameter of a resource with one value chosen from `values` when the
/// resource is allocated (OpenDSE's Parameters.select), e.g. the number of
/// SHAVEs of an NCS. Mapping options on the resource may cost differently
/// for each value; `power`, when not empty, is the power added per value.
struct Parameter {
  std::string name;
  std::size_t resource = 0;
  std::vector<double> values;
  std::vector<Constant<dim::power>> power;  // empty, or one per value
};

/// A directed use of a link: from resource `from` to resource `to`.
struct Arc {
  std::size_t link = 0, from = 0, to = 0;
};

class Architecture {
 public:
  std::vector<Resource> resources;
  std::vector<Link> links;
  std::vector<Parameter> parameters;

  std::size_t add_resource(Resource r) {
    if (r.id.empty()) throw specification_error("ychart: a resource needs an id", "");
    if (find_resource(r.id)) throw specification_error("ychart: resource `" + r.id + "` is declared twice", r.id);
    resources.push_back(std::move(r));
    return resources.size() - 1;
  }
  std::size_t add_processor(std::string id, Constant<dim::time> allocation_cost = Constant<dim::time>{0.0},
                            Constant<dim::power> power = Constant<dim::power>{0.0}) {
    return add_resource({std::move(id), ResourceKind::processor, allocation_cost, power});
  }
  std::size_t add_bus(std::string id, Constant<dim::time> allocation_cost = Constant<dim::time>{0.0},
                      Constant<dim::power> power = Constant<dim::power>{0.0}) {
    return add_resource({std::move(id), ResourceKind::bus, allocation_cost, power});
  }

  /// A link between two declared resources, by id; an unknown id is a
  /// specification_error naming the link and the id.
  std::size_t add_link(std::string id, const std::string& from, const std::string& to,
                       Constant<dim::time> cost = Constant<dim::time>{0.0}, bool directed = false) {
    Link l;
    l.from = resource_for_link(id, from);
    l.to = resource_for_link(id, to);
    l.id = std::move(id);
    l.cost = cost;
    l.directed = directed;
    return add_link(std::move(l));
  }
  std::size_t add_link(Link l);

  std::size_t add_parameter(const std::string& resource, std::string name, std::vector<double> values,
                            std::vector<Constant<dim::power>> power = {}) {
    const auto r = find_resource(resource);
    if (!r)
      throw specification_error("ychart: parameter `" + name + "` is on unknown resource `" + resource + "`", resource);
    Parameter p{std::move(name), *r, std::move(values), std::move(power)};
    if (p.values.empty())
      throw specification_error("ychart: parameter `" + p.name + "` of `" + resource + "` has no values", p.name);
    if (!p.power.empty() && p.power.size() != p.values.size())
      throw specification_error("ychart: parameter `" + p.name + "` lists " + std::to_string(p.power.size()) +
                                    " powers for " + std::to_string(p.values.size()) + " values",
                                p.name);
    for (const auto& q : parameters)
      if (q.resource == p.resource && q.name == p.name)
        throw specification_error("ychart: parameter `" + p.name + "` of `" + resource + "` is declared twice", p.name);
    parameters.push_back(std::move(p));
    return parameters.size() - 1;
  }

  std::optional<std::size_t> find_resource(const std::string& id) const {
    for (std::size_t k = 0; k < resources.size(); ++k)
      if (resources[k].id == id) return k;
    return std::nullopt;
  }
  std::optional<std::size_t> find_parameter(const std::string& resource, const std::string& name) const {
    for (std::size_t k = 0; k < parameters.size(); ++k)
      if (parameters[k].name == name && resources[parameters[k].resource].id == resource) return k;
    return std::nullopt;
  }

  /// Both directions of every undirected link, one of a directed link.
  std::vector<Arc> arcs() const;

  /// Fewest hops from `from` to every resource over the links (-1: none).
  std::vector<int> hops_from(std::size_t from) const {
    std::vector<int> d(resources.size(), -1);
    std::vector<std::size_t> queue{from};
    d[from] = 0;
    const auto all = arcs();
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (const auto& a : all)
        if (a.from == queue[head] && d[a.to] < 0) d[a.to] = d[a.from] + 1, queue.push_back(a.to);
    return d;
  }

 private:
  std::size_t resource_for_link(const std::string& link, const std::string& id) const;
};

}  // namespace ychart::synthesis

#if YCHART_HEADER_ONLY
#include "impl/architecture.ipp"
#endif
