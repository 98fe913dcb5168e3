// ychart/synthesis/impl/load.ipp
// The implementation of ychart/synthesis/load.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../load.hpp"

namespace ychart::synthesis {


YCHART_DECL Specification parse_specification(const io::JsonValue& root) {
  using io::fail_at;
  io::check_keys(root, {"max_hops", "resources", "links", "tasks", "mappings"});
  Specification spec;
  if (const auto* h = root.find("max_hops")) {
    const double x = h->number();
    if (!(x >= 1) || x != std::floor(x) || x > 1000) fail_at(*h, "must be a whole number from 1 to 1000");
    spec.max_hops = static_cast<int>(x);
  }
  auto& arch = spec.architecture;
  for (const auto& r : root.at("resources").elements()) {
    io::check_keys(r, {"id", "kind", "allocation_cost_us", "power_w", "parameters"});
    Resource res;
    res.id = r.at("id").string();
    const auto kind = r.at("kind").string();
    if (kind == "processor") res.kind = ResourceKind::processor;
    else if (kind == "bus") res.kind = ResourceKind::bus;
    else if (kind == "memory") res.kind = ResourceKind::memory;
    else fail_at(r.at("kind"), "unknown kind `" + kind + "` (processor, bus or memory)");
    if (const auto* c = r.find("allocation_cost_us")) res.allocation_cost = io::non_negative(*c) * units::us;
    if (const auto* w = r.find("power_w")) res.power = io::non_negative(*w) * units::W;
    io::placed_at(r.at("id"), [&] { return arch.add_resource(res); });
  }
  for (const auto& r : root.at("resources").elements()) {
    const auto* params = r.find("parameters");
    if (!params) continue;
    for (const auto& p : params->elements()) {
      io::check_keys(p, {"name", "values", "power_w"});
      std::vector<double> values;
      for (const auto& v : p.at("values").elements()) values.push_back(v.number());
      std::vector<Constant<dim::power>> power;
      if (const auto* w = p.find("power_w"))
        for (const auto& v : w->elements()) power.push_back(io::non_negative(v) * units::W);
      io::placed_at(p, [&] { return arch.add_parameter(r.at("id").string(), p.at("name").string(), values, power); });
    }
  }
  for (const auto& l : root.at("links").elements()) {
    io::check_keys(l, {"id", "from", "to", "cost_us", "bandwidth_mb_per_s", "directed"});
    const auto id = l.at("id").string();
    Link link;
    link.id = id;
    for (const auto* end : {&l.at("from"), &l.at("to")}) {
      const auto r = arch.find_resource(end->string());
      if (!r) fail_at(*end, "link `" + id + "` names unknown resource `" + end->string() + "`");
      (end == &l.at("from") ? link.from : link.to) = *r;
    }
    if (const auto* c = l.find("cost_us")) link.cost = io::non_negative(*c) * units::us;
    if (l.find("bandwidth_mb_per_s")) link.bandwidth = io::positive(l, "bandwidth_mb_per_s") * units::MB_per_s;
    if (const auto* d = l.find("directed")) link.directed = d->boolean();
    io::placed_at(l, [&] { return arch.add_link(link); });
  }
  auto& app = spec.application;
  for (const auto& t : root.at("tasks").elements()) {
    io::check_keys(t, {"id", "operation", "communication", "bytes", "from", "to"});
    const auto* comm = t.find("communication");
    if (comm && comm->boolean()) {
      const double bytes = t.find("bytes") ? io::non_negative(t.at("bytes")) : 0.0;
      io::placed_at(t.at("id"), [&] { return app.add_communication(t.at("id").string(), bytes * units::B); });
    } else {
      for (const char* k : {"bytes", "from", "to"})
        if (t.find(k)) fail_at(t.at(k), std::string("`") + k + "` belongs to a communication (\"communication\": true)");
      io::placed_at(t.at("id"), [&] {
        return app.add_process(t.at("id").string(), t.find("operation") ? t.at("operation").string() : std::string());
      });
    }
  }
  for (const auto& t : root.at("tasks").elements()) {
    if (!t.find("communication") || !t.at("communication").boolean()) continue;
    const auto id = t.at("id").string();
    io::placed_at(t.at("from"), [&] { app.add_dependency(t.at("from").string(), id); });
    for (const auto& q : t.at("to").elements()) io::placed_at(q, [&] { app.add_dependency(id, q.string()); });
  }
  for (const auto& m : root.at("mappings").elements()) {
    io::check_keys(m, {"task", "resource", "cost_us", "parameter"});
    const auto task = m.at("task").string(), resource = m.at("resource").string();
    if (const auto* p = m.find("parameter")) {
      std::vector<Constant<dim::time>> costs;
      for (const auto& c : m.at("cost_us").elements()) costs.push_back(io::non_negative(c) * units::us);
      io::placed_at(m, [&] { return spec.add_mapping(task, resource, p->string(), costs); });
    } else {
      io::placed_at(m, [&] { return spec.add_mapping(task, resource, io::non_negative(m.at("cost_us")) * units::us); });
    }
  }
  return spec;
}

YCHART_DECL Specification load_specification(const std::filesystem::path& file) {
  return parse_specification(io::JsonValue::read(file));
}

}  // namespace ychart::synthesis
