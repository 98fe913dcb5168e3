// examples/study003/example13.cpp
// Study 003, section 1: the 13-node example (Sec. 6.2.1) -- the design
// space's size against footnote 4, the proven optimum with its binding and
// routes beside Fig. 7.2, and Table 7.1's implementations priced by
// evaluate(). Each step prints its table, hands it to Outputs and fills its
// part of the Example13 result.
#include "study003/sections.hpp"

#include <ychart/io/reflect.hpp>
#include <ychart/synthesis/synthesis_model.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace study003 {

/// Footnote 4's card(R)^card(P) and the bindings the mapping options allow.
void design_space(const ys::Specification& spec, const ys::IndexedSpecification& ix, Example13& out,
                  examples::Outputs& outputs) {
  const auto& arch = spec.architecture;
  double bindings = 1;
  for (const auto& o : ix.options) bindings *= double(o.size());
  std::size_t processor_count = 0;
  for (const auto& r : arch.resources) processor_count += r.kind == ys::ResourceKind::processor;
  const double bound = std::pow(double(processor_count), double(ix.processes.size()));
  const double shave_values = double(arch.parameters[0].values.size());
  io::Table t({{"design space", "", 1}, {"thesis", "", 9}, {"ychart", "", 9}});
  t.add_row({std::string("process tasks"), 13.0, double(ix.processes.size())});
  t.add_row({std::string("communications"), std::nan(""), double(ix.communications.size())});
  t.add_row({std::string("card(R)^card(P) (footnote 4)"), 1594323.0, bound});
  t.add_row({std::string("  x 12 SHAVE values"), 19131876.0, bound * shave_values});
  t.add_row({std::string("bindings the mapping options allow"), std::nan(""), bindings});
  t.add_row({std::string("  x 12 SHAVE values"), std::nan(""), bindings * shave_values});
  t.print(std::cout);
  outputs.add_table("design_space", t);
  out.process_tasks = ix.processes.size();
  out.communications = ix.communications.size();
  out.design_space = bound;
  out.design_space_with_shaves = bound * shave_values;
  out.bindings = bindings;
}

/// Fig. 7.2's binding, task by task.
inline const std::map<std::string, std::string>& fig72() {
  static const std::map<std::string, std::string> binding{
      {"input", "Desktop(CPU+GPU)"},       {"model/add_1", "NCS"},           {"model/add_2", "NCS"},
      {"model/conv2d_1", "NCS"},           {"model/maximum_1", "NCS"},       {"model/mul_1", "Desktop(CPU+GPU)"},
      {"model/mul_2", "Desktop(CPU+GPU)"}, {"model/relu", "NCS"},            {"model/relu6", "NCS"},
      {"model/sub_1", "Desktop(CPU+GPU)"}, {"output_1", "Desktop(CPU+GPU)"}, {"w/read", "Desktop(CPU+GPU)"},
      {"w", "Desktop(CPU+GPU)"}};
  return binding;
}

inline std::string route_text(const ys::Specification& spec, const std::vector<ys::Arc>& route) {
  std::string s;
  for (const auto& a : route)
    s += (s.empty() ? "" : ", ") + spec.architecture.links[a.link].id + " " + spec.architecture.resources[a.from].id +
         ">" + spec.architecture.resources[a.to].id;
  return s.empty() ? "(local)" : s;
}

/// Whether every host-to-NCS communication crosses bus12 (l2 then l1).
inline bool host_to_ncs_via_bus12(const ys::Specification& spec, const ys::IndexedSpecification& ix,
                                  const ys::Implementation& best) {
  const auto& arch = spec.architecture;
  const auto desktop = *arch.find_resource("Desktop(CPU+GPU)"), ncs = *arch.find_resource("NCS"),
             bus12 = *arch.find_resource("bus12");
  bool via_bus12 = true;
  for (std::size_t c = 0; c < ix.communications.size(); ++c) {
    const auto from = spec.mappings[best.binding[ix.process_of_task[ix.communications[c].sender]]].resource;
    bool reaches_ncs = false, l2 = false, l1 = false;
    for (const auto& a : best.routes[c]) {
      reaches_ncs = reaches_ncs || a.to == ncs;
      l2 = l2 || (a.from == desktop && a.to == bus12);
      l1 = l1 || (a.from == bus12 && a.to == ncs);
    }
    if (from == desktop && reaches_ncs) via_bus12 = via_bus12 && l1 && l2;
  }
  return via_bus12;
}

/// The proven optimum beside Fig. 7.2, with its routes and what it allocates.
ys::SynthesisResult exact_optimum(const ys::Specification& spec, const ys::IndexedSpecification& ix,
                                  Example13& out, examples::Outputs& outputs) {
  const auto& arch = spec.architecture;
  auto optimum = ys::solve_synthesis(spec, ix);
  if (!optimum.implementation) throw std::runtime_error("the 13-node example: " + optimum.message);
  const auto& best = *optimum.implementation;
  std::printf("\nExact optimum: %s, cost %.1f us (execution %.1f + communication %.1f + allocation %.1f), "
              "%g SHAVEs, %.2f ms, %zu variables\n",
              std::string(to_string(optimum.status)).c_str(), us(optimum.objective), us(optimum.breakdown.execution),
              us(optimum.breakdown.communication), us(optimum.breakdown.allocation),
              optimum.breakdown.parameter_value[0], optimum.seconds * 1e3, optimum.variables);
  auto& o = out.optimum;
  o = {std::string(to_string(optimum.status)), us(optimum.objective), "us", optimum.breakdown.parameter_value[0],
       {}, {}, {}, host_to_ncs_via_bus12(spec, ix, best)};
  io::Table t({{"task", "", 1}, {"thesis (Fig. 7.2)", "", 1}, {"ychart", "", 1}, {"cost", "us", 4}});
  bool same_as_fig72 = true;
  for (std::size_t p = 0; p < ix.processes.size(); ++p) {
    const auto& id = spec.application.tasks[ix.processes[p]].id;
    const auto& on = resource_of(spec, best.binding[p]);
    same_as_fig72 = same_as_fig72 && fig72().at(id) == on;
    t.add_row({id, fig72().at(id), on, us(optimum.breakdown.task_seconds[p])});
    o.binding.emplace_back(id, on);
  }
  t.print(std::cout);
  io::Table routes({{"communication", "", 1}, {"route", "", 1}, {"cost", "us", 4}});
  for (std::size_t c = 0; c < ix.communications.size(); ++c) {
    const auto& id = spec.application.tasks[ix.communications[c].task].id;
    routes.add_row({id, route_text(spec, best.routes[c]), us(optimum.breakdown.communication_seconds[c])});
    auto& hops = o.routes.emplace_back(id, std::vector<Hop>{}).second;
    for (const auto& a : best.routes[c])
      hops.push_back({arch.links[a.link].id, arch.resources[a.from].id, arch.resources[a.to].id});
  }
  routes.print(std::cout);
  for (std::size_t r = 0; r < arch.resources.size(); ++r)
    if (optimum.breakdown.allocated[r]) o.allocated.push_back(arch.resources[r].id);
  const bool coral_idle = !optimum.breakdown.allocated[*arch.find_resource("coral_edgetpu")];
  const bool bus23_idle = !optimum.breakdown.allocated[*arch.find_resource("bus23")];
  std::printf("Routable: host-to-NCS over bus12 %s; Coral %s; bus23 %s; binding %s Fig. 7.2's\n\n",
              o.host_to_ncs_via_bus12 ? "yes" : "NO", coral_idle ? "unallocated" : "ALLOCATED",
              bus23_idle ? "unallocated" : "ALLOCATED", same_as_fig72 ? "equals" : "differs from");
  outputs.add_table("binding", t);
  outputs.add_table("routes", routes);
  return optimum;
}

/// Fig. 7.2's binding (with sub_1 on the NCS: Fig. 7.3's) as mapping options.
inline std::vector<std::size_t> figure_binding(const ys::Specification& spec, const ys::IndexedSpecification& ix,
                                               bool sub_on_ncs) {
  std::vector<std::size_t> b;
  for (std::size_t p = 0; p < ix.processes.size(); ++p) {
    const auto& id = spec.application.tasks[ix.processes[p]].id;
    const auto want = sub_on_ncs && id == "model/sub_1" ? std::string("NCS") : fig72().at(id);
    for (auto o : ix.options[p])
      if (resource_of(spec, o) == want) b.push_back(o);
  }
  return b;
}

/// Table 7.1's implementations, evaluated (the data is calibrated to them),
/// and Fig. 7.3's binding with SHAVEs and routes chosen exactly.
void table71(const ys::Specification& spec, const ys::IndexedSpecification& ix, Example13& out,
             examples::Outputs& outputs) {
  const std::vector<std::tuple<const char*, bool, std::size_t, double>> rows{
      {"Fig. 7.2, 12 SHAVEs", false, 11, 582.2},
      {"Fig. 7.2, 6 SHAVEs", false, 5, 634.1},
      {"Fig. 7.2, 9 SHAVEs", false, 8, 643.0},
      {"Fig. 7.3 (sub_1 on NCS), 12 SHAVEs", true, 11, 676.7}};
  for (const auto& [name, sub, v, paper] : rows) {
    const auto implementation = ys::route(spec, ix, figure_binding(spec, ix, sub), {v});
    out.table71.push_back({name, paper, us(ys::evaluate(spec, ix, *implementation).cost)});
  }
  const auto t = io::table_of(out.table71, {{"Table 7.1 implementation", "", 1}, {"thesis", "us", 4},
                                            {"ychart evaluate()", "us", 4}});
  t.print(std::cout);
  outputs.add_table("table71", t);
  ys::SynthesisOptions fixed;
  fixed.fixed_binding = figure_binding(spec, ix, true);
  const auto r = ys::solve_synthesis(spec, ix, fixed);
  std::printf("Fig. 7.3's binding, SHAVEs and routes chosen exactly: %s, %.1f us at %g SHAVEs\n",
              std::string(to_string(r.status)).c_str(), us(r.objective),
              r.implementation ? r.breakdown.parameter_value[0] : std::nan(""));
}

/// A row of one's own on the public model: what the NCS is worth, as the
/// optimum of the same model with the NCS left unallocated.
void without_the_ncs(const ys::Specification& spec, const ys::IndexedSpecification& ix,
                     const ys::SynthesisResult& optimum) {
  auto m = ys::build_synthesis_model(spec, ix);
  m.model().subject_to(ychart::Affine<>(m.allocated(*spec.architecture.find_resource("NCS"))) == 0.0, "no NCS");
  const auto r = m.solve();
  std::printf("Without the NCS (a row added to build_synthesis_model()'s model): %s, %.1f us, %.1f us more than "
              "the optimum\n",
              std::string(to_string(r.status)).c_str(), us(r.objective), us(r.objective - optimum.objective));
}

}  // namespace study003
