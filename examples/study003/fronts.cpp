// examples/study003/fronts.cpp
// Study 003, section 2: the exact fronts of the 13-node example -- cost
// against SHAVEs (beside Table 7.1's EA points), against the power of the
// allocated resources and against allocated processors -- every point
// proven by the epsilon-constraint method, as tables and SVG figures.
#include "study003/sections.hpp"

#include <ychart/io/svg.hpp>
#include <ychart/synthesis/pareto.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace study003 {

/// One chart per front; `extra` adds the thesis's points.
inline void draw_front(examples::Outputs& outputs, const std::string& file, const std::string& what,
                       const std::string& x_label, const ys::Front& f, std::vector<io::Series> extra) {
  io::LineChart chart;
  chart.title = "13-node example: cost vs " + what + ", every point proven (study 003)";
  chart.x_label = x_label;
  chart.y_label = "cost of mapping (us)";
  io::Series front{"exact front (epsilon constraint)", {}, {}};
  for (const auto& p : f.points) front.x.push_back(p.second), front.y.push_back(us(p.cost));
  chart.series = {front};
  for (auto& e : extra) chart.series.push_back(std::move(e));
  outputs.figure(file, chart);
}

void exact_fronts(const ys::Specification& spec, const ys::IndexedSpecification& ix, Example13& out,
                  examples::Outputs& outputs) {
  const auto shave_front = ys::pareto_front(spec, ix, ys::SecondObjective::parameter, 0);
  const auto power_front = ys::pareto_front(spec, ix, ys::SecondObjective::power);
  const auto processor_front = ys::pareto_front(spec, ix, ys::SecondObjective::processors);
  std::printf("\nExact (cost, SHAVEs) front: %zu points, %zu solves, %.1f ms, every point %s\n",
              shave_front.points.size(), shave_front.solves, shave_front.seconds * 1e3,
              shave_front.proven ? "proven optimal" : "NOT all proven");
  io::Table shaves({{"SHAVEs", "", 2}, {"cost", "us", 4}, {"NCS tasks", "", 2}, {"Coral tasks", "", 2}});
  for (const auto& p : shave_front.points) {
    long on_ncs = 0, on_coral = 0;
    for (auto o : p.result.implementation->binding)
      on_ncs += resource_of(spec, o) == "NCS", on_coral += resource_of(spec, o) == "coral_edgetpu";
    shaves.add_row({p.second, us(p.cost), on_ncs, on_coral});
    out.pareto.push_back({us(p.cost), p.second});
  }
  shaves.print(std::cout);
  std::printf("Thesis (Table 7.1, from EA runs, not a front): (582.2, 12), (634.1, 6), (643.0, 9); the last is "
              "dominated by the second\n");
  io::Table power({{"power", "W", 4}, {"cost", "us", 4}});
  for (const auto& p : power_front.points) {
    power.add_row({p.second, us(p.cost)});
    out.power_pareto.push_back({us(p.cost), p.second});
  }
  std::printf("\nExact (cost, power) front, %.1f ms:\n", power_front.seconds * 1e3);
  power.print(std::cout);
  io::Table processors({{"processors", "", 2}, {"cost", "us", 4}});
  for (const auto& p : processor_front.points) processors.add_row({p.second, us(p.cost)});
  std::printf("\nExact (cost, allocated processors) front, %.1f ms:\n", processor_front.seconds * 1e3);
  processors.print(std::cout);
  out.pareto_proven = shave_front.proven;
  out.pareto_seconds = shave_front.seconds;

  io::Series thesis{"thesis, Table 7.1 (EA)", {12, 6, 9}, {582.2, 634.1, 643.0}};
  thesis.line = false;
  draw_front(outputs, "cost_vs_shaves.svg", "SHAVEs", "SHAVEs (0: no NCS)", shave_front, {thesis});
  draw_front(outputs, "cost_vs_power.svg", "power", "power of the allocated resources (W)", power_front, {});
  draw_front(outputs, "cost_vs_processors.svg", "allocated processors", "allocated processors", processor_front, {});
  outputs.add_table("shave_front", shaves);
  outputs.add_table("power_front", power);
  outputs.add_table("processor_front", processors);
}

}  // namespace study003
