// Study 003 (Ben Hmida, TUM master's thesis, ~2020): TensorFlow operations
// mapped onto a host CPU+GPU, an Intel NCS (1-12 SHAVEs) and a Coral Edge
// TPU joined by two USB buses -- allocation, binding and routing, which the
// thesis explores with OpenDSE's SAT-decoding evolutionary search and which
// ychart solves exactly.
//   1. the 13-node example (Sec. 6.2.1): design-space sizes, the proven
//      optimum with its routes, and Table 7.1's implementations evaluated;
//   2. the exact (cost, SHAVEs) front, and cost against power and against
//      allocated processors (SVG);
//   3. the thesis's evolutionary baseline (population 50, 25 parents, 25
//      offspring, crossover 0.95) over many seeds: hit rates at 100 and 400
//      generations beside Table 7.1's 67.5 % and 97 %;
//   4. larger instances: MobileNet v1 as 87 operations (and the EA on it,
//      beside the thesis's 29 of 69 runs), and random layered graphs of
//      200-1000 tasks on 4-8 processors, with exact solve times.
// Data: examples/data/benhmida2020/example13.json; the larger instances are
// built in instances.hpp. All costs are MADE UP (the thesis publishes none)
// and say so. --json prints {"example13": {...}, "mobilenet": {...}, "random": [...]}.
#include "common/cli.hpp"
#include "study003/instances.hpp"

#include <ychart/io/json.hpp>
#include <ychart/io/svg.hpp>
#include <ychart/baselines/evolutionary.hpp>
#include <ychart/synthesis/load.hpp>
#include <ychart/synthesis/pareto.hpp>
#include <ychart/synthesis/synthesis_model.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace ychart;
using namespace ychart::synthesis;

const std::string& resource_of(const Specification& spec, std::size_t option) {
  return spec.architecture.resources[spec.mappings[option].resource].id;
}

std::string route_text(const Specification& spec, const std::vector<Arc>& route) {
  std::string s;
  for (const auto& a : route)
    s += (s.empty() ? "" : ", ") + spec.architecture.links[a.link].id + " " + spec.architecture.resources[a.from].id +
         ">" + spec.architecture.resources[a.to].id;
  return s.empty() ? "(local)" : s;
}

double us(double seconds) { return seconds * 1e6; }

}  // namespace

int main(int argc, char** argv) {
  std::string data = YCHART_EXAMPLES_DATA_DIR;
  std::size_t ea_runs = 200, mobilenet_runs = 20;
  std::vector<std::size_t> sizes{200, 500, 1000}, processors{4, 8};
  double time_limit = 20;
  examples::Outputs outputs("study003", "study003_figures");
  examples::CommandLine cli("Study 003: system-level synthesis on an architecture graph, exact where the thesis used an EA");
  cli.option("--data", data, "Directory of the transcribed data (default: the source tree's examples/data)");
  cli.option("--ea-runs", ea_runs, "Evolutionary runs (seeds) on the 13-node example").show_default();
  cli.option("--mobilenet-runs", mobilenet_runs, "Evolutionary runs on MobileNet").show_default();
  cli.option("--random-sizes", sizes, "Task counts of the random layered graphs").show_default();
  cli.option("--random-processors", processors, "Processor counts of the random layered graphs").show_default();
  cli.option("--time-limit", time_limit, "Seconds per random instance").show_default();
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  if (int rc = outputs.begin()) return rc;
  try {
    // ---- 1. the 13-node example ----
    const auto spec = load_specification(data + "/benhmida2020/example13.json");
    const auto ix = spec.validate();
    const auto& arch = spec.architecture;
    double bindings = 1;
    for (const auto& o : ix.options) bindings *= double(o.size());
    std::size_t processor_count = 0;
    for (const auto& r : arch.resources) processor_count += r.kind == ResourceKind::processor;
    const double bound = std::pow(double(processor_count), double(ix.processes.size()));
    const double shave_values = double(arch.parameters[0].values.size());
    std::printf("Study 003: the 13-node example on NCS --l1-- bus12 --l2-- Desktop --l3-- bus23 --l4-- Coral\n"
                "(costs made up, see examples/data/benhmida2020/example13.json)\n\n");
    io::Table t0({{"design space", "", 1}, {"thesis", "", 9}, {"ychart", "", 9}});
    t0.add_row({std::string("process tasks"), 13.0, double(ix.processes.size())});
    t0.add_row({std::string("communications"), std::nan(""), double(ix.communications.size())});
    t0.add_row({std::string("card(R)^card(P) (footnote 4)"), 1594323.0, bound});
    t0.add_row({std::string("  x 12 SHAVE values"), 19131876.0, bound * shave_values});
    t0.add_row({std::string("bindings the mapping options allow"), std::nan(""), bindings});
    t0.add_row({std::string("  x 12 SHAVE values"), std::nan(""), bindings * shave_values});
    t0.print(std::cout);

    const auto optimum = solve_synthesis(spec, ix);
    if (!optimum.implementation) throw std::runtime_error("the 13-node example: " + optimum.message);
    const auto& best = *optimum.implementation;
    std::printf("\nExact optimum: %s, cost %.1f us (execution %.1f + communication %.1f + allocation %.1f), "
                "%g SHAVEs, %.2f ms, %zu variables\n",
                std::string(to_string(optimum.status)).c_str(), us(optimum.objective), us(optimum.breakdown.execution),
                us(optimum.breakdown.communication), us(optimum.breakdown.allocation),
                optimum.breakdown.parameter_value[0], optimum.seconds * 1e3, optimum.variables);
    const std::map<std::string, std::string> fig72{
        {"input", "Desktop(CPU+GPU)"},        {"model/add_1", "NCS"},          {"model/add_2", "NCS"},
        {"model/conv2d_1", "NCS"},            {"model/maximum_1", "NCS"},      {"model/mul_1", "Desktop(CPU+GPU)"},
        {"model/mul_2", "Desktop(CPU+GPU)"},  {"model/relu", "NCS"},           {"model/relu6", "NCS"},
        {"model/sub_1", "Desktop(CPU+GPU)"},  {"output_1", "Desktop(CPU+GPU)"}, {"w/read", "Desktop(CPU+GPU)"},
        {"w", "Desktop(CPU+GPU)"}};
    io::Table t1({{"task", "", 1}, {"thesis (Fig. 7.2)", "", 1}, {"ychart", "", 1}, {"cost", "us", 4}});
    bool same_as_fig72 = true;
    for (std::size_t p = 0; p < ix.processes.size(); ++p) {
      const auto& id = spec.application.tasks[ix.processes[p]].id;
      same_as_fig72 = same_as_fig72 && fig72.at(id) == resource_of(spec, best.binding[p]);
      t1.add_row({id, fig72.at(id), resource_of(spec, best.binding[p]), us(optimum.breakdown.task_seconds[p])});
    }
    t1.print(std::cout);
    io::Table t1r({{"communication", "", 1}, {"route", "", 1}, {"cost", "us", 4}});
    for (std::size_t c = 0; c < ix.communications.size(); ++c)
      t1r.add_row({spec.application.tasks[ix.communications[c].task].id, route_text(spec, best.routes[c]),
                   us(optimum.breakdown.communication_seconds[c])});
    t1r.print(std::cout);
    // Routability: host-to-NCS traffic crosses bus12 (l2 then l1); unused Coral and bus23 stay unallocated.
    bool host_to_ncs_via_bus12 = true;
    const auto desktop = *arch.find_resource("Desktop(CPU+GPU)"), ncs = *arch.find_resource("NCS"),
               bus12 = *arch.find_resource("bus12");
    for (std::size_t c = 0; c < ix.communications.size(); ++c) {
      const auto from = spec.mappings[best.binding[ix.process_of_task[ix.communications[c].sender]]].resource;
      bool reaches_ncs = false;
      for (const auto& a : best.routes[c]) reaches_ncs = reaches_ncs || a.to == ncs;
      if (from != desktop || !reaches_ncs) continue;
      bool l2 = false, l1 = false;
      for (const auto& a : best.routes[c]) {
        l2 = l2 || (a.from == desktop && a.to == bus12);
        l1 = l1 || (a.from == bus12 && a.to == ncs);
      }
      host_to_ncs_via_bus12 = host_to_ncs_via_bus12 && l1 && l2;
    }
    const bool coral_idle = !optimum.breakdown.allocated[*arch.find_resource("coral_edgetpu")];
    const bool bus23_idle = !optimum.breakdown.allocated[*arch.find_resource("bus23")];
    std::printf("Routable: host-to-NCS over bus12 %s; Coral %s; bus23 %s; binding %s Fig. 7.2's\n\n",
                host_to_ncs_via_bus12 ? "yes" : "NO", coral_idle ? "unallocated" : "ALLOCATED",
                bus23_idle ? "unallocated" : "ALLOCATED", same_as_fig72 ? "equals" : "differs from");

    // Table 7.1's implementations, evaluated (the data is calibrated to them).
    io::Table t71({{"Table 7.1 implementation", "", 1}, {"thesis", "us", 4}, {"ychart evaluate()", "us", 4}});
    auto fig_binding = [&](bool sub_on_ncs) {
      std::vector<std::size_t> b;
      for (std::size_t p = 0; p < ix.processes.size(); ++p) {
        const auto& id = spec.application.tasks[ix.processes[p]].id;
        const auto want = sub_on_ncs && id == "model/sub_1" ? std::string("NCS") : fig72.at(id);
        for (auto o : ix.options[p])
          if (resource_of(spec, o) == want) b.push_back(o);
      }
      return b;
    };
    const std::vector<std::tuple<const char*, bool, std::size_t, double>> table71{
        {"Fig. 7.2, 12 SHAVEs", false, 11, 582.2},
        {"Fig. 7.2, 6 SHAVEs", false, 5, 634.1},
        {"Fig. 7.2, 9 SHAVEs", false, 8, 643.0},
        {"Fig. 7.3 (sub_1 on NCS), 12 SHAVEs", true, 11, 676.7}};
    for (const auto& [name, sub, v, paper] : table71)
      t71.add_row({std::string(name), paper, us(evaluate(spec, ix, *route(spec, ix, fig_binding(sub), {v})).cost)});
    t71.print(std::cout);
    {
      // The same binding with routes and allocation chosen exactly (not by route()'s decoder).
      SynthesisOptions fixed;
      fixed.fixed_binding = fig_binding(true);
      const auto r = solve_synthesis(spec, ix, fixed);
      std::printf("Fig. 7.3's binding, SHAVEs and routes chosen exactly: %s, %.1f us at %g SHAVEs\n",
                  std::string(to_string(r.status)).c_str(), us(r.objective),
                  r.implementation ? r.breakdown.parameter_value[0] : std::nan(""));
    }

    // ---- 2. exact fronts ----
    const auto shave_front = pareto_front(spec, ix, SecondObjective::parameter, 0);
    const auto power_front = pareto_front(spec, ix, SecondObjective::power);
    const auto processor_front = pareto_front(spec, ix, SecondObjective::processors);
    std::printf("\nExact (cost, SHAVEs) front: %zu points, %zu solves, %.1f ms, every point %s\n",
                shave_front.points.size(), shave_front.solves, shave_front.seconds * 1e3,
                shave_front.proven ? "proven optimal" : "NOT all proven");
    io::Table t2({{"SHAVEs", "", 2}, {"cost", "us", 4}, {"NCS tasks", "", 2}, {"Coral tasks", "", 2}});
    for (const auto& p : shave_front.points) {
      long on_ncs = 0, on_coral = 0;
      for (auto o : p.result.implementation->binding)
        on_ncs += resource_of(spec, o) == "NCS", on_coral += resource_of(spec, o) == "coral_edgetpu";
      t2.add_row({p.second, us(p.cost), on_ncs, on_coral});
    }
    t2.print(std::cout);
    std::printf("Thesis (Table 7.1, from EA runs, not a front): (582.2, 12), (634.1, 6), (643.0, 9); the last is "
                "dominated by the second\n");
    io::Table t2p({{"power", "W", 4}, {"cost", "us", 4}});
    for (const auto& p : power_front.points) t2p.add_row({p.second, us(p.cost)});
    std::printf("\nExact (cost, power) front, %.1f ms:\n", power_front.seconds * 1e3);
    t2p.print(std::cout);
    io::Table t2a({{"processors", "", 2}, {"cost", "us", 4}});
    for (const auto& p : processor_front.points) t2a.add_row({p.second, us(p.cost)});
    std::printf("\nExact (cost, allocated processors) front, %.1f ms:\n", processor_front.seconds * 1e3);
    t2a.print(std::cout);
    // One chart per front; the SHAVE front also shows Table 7.1's points.
    auto draw = [&](const std::string& file, const std::string& what, const std::string& x_label, const Front& f,
                    std::vector<io::Series> extra) {
      io::LineChart chart;
      chart.title = "13-node example: cost vs " + what + ", every point proven (study 003)";
      chart.x_label = x_label;
      chart.y_label = "cost of mapping (us)";
      io::Series front{"exact front (epsilon constraint)", {}, {}};
      for (const auto& p : f.points) front.x.push_back(p.second), front.y.push_back(us(p.cost));
      chart.series = {front};
      for (auto& e : extra) chart.series.push_back(std::move(e));
      outputs.figure(file, chart);
    };
    io::Series thesis{"thesis, Table 7.1 (EA)", {12, 6, 9}, {582.2, 634.1, 643.0}};
    thesis.line = false;
    draw("cost_vs_shaves.svg", "SHAVEs", "SHAVEs (0: no NCS)", shave_front, {thesis});
    draw("cost_vs_power.svg", "power", "power of the allocated resources (W)", power_front, {});
    draw("cost_vs_processors.svg", "allocated processors", "allocated processors", processor_front, {});

    // ---- 3. the evolutionary baseline ----
    baselines::EvolutionaryOptions eo;  // the thesis's: 50 / 25 / 25, crossover 0.95, checkpoints 100 and 400
    baselines::HitRates ea;
    std::map<double, std::size_t> at100;
    {
      ea.runs = ea_runs;
      ea.hit_rate.assign(2, 0.0);
      for (std::size_t k = 0; k < ea_runs; ++k) {
        eo.seed = k + 1;
        const auto r = baselines::evolve(spec, ix, eo);
        ea.best_cost = std::min(ea.best_cost, r.best_cost);
        ea.mean_seconds += r.seconds / double(ea_runs);
        for (std::size_t c = 0; c < 2; ++c) ea.hit_rate[c] += r.best_at[c] <= optimum.objective * (1 + 1e-9);
        ++at100[std::round(us(r.best_at[0]) * 10) / 10];
      }
      for (auto& h : ea.hit_rate) h /= double(std::max<std::size_t>(1, ea_runs));  // counts to rates
    }
    std::printf("\nEvolutionary baseline, %zu runs (population 50, 25 parents, 25 offspring, crossover 0.95):\n",
                ea_runs);
    io::Table t3({{"measure", "", 1}, {"thesis (10,000 runs)", "", 4}, {"ychart EA", "", 4}});
    t3.add_row({std::string("hit rate, 100 generations"), 0.675, ea.hit_rate[0]});
    t3.add_row({std::string("hit rate, 400 generations"), 0.97, ea.hit_rate[1]});
    t3.add_row({std::string("best cost (us)"), 582.2, us(ea.best_cost)});
    t3.add_row({std::string("time per 400-generation run (ms)"), std::nan(""), ea.mean_seconds * 1e3});
    t3.add_row({std::string("exact solve (ms)"), std::nan(""), optimum.seconds * 1e3});
    t3.print(std::cout);
    io::Table t3d({{"cost after 100 generations", "us", 4}, {"frequency", "", 3}});
    for (const auto& [cost, n] : at100) t3d.add_row({cost, double(n) / double(ea_runs)});
    t3d.print(std::cout);

    // ---- 4. larger instances ----
    const auto mobile = study003::mobilenet();
    const auto mix = mobile.validate();
    const auto mopt = solve_synthesis(mobile, mix);
    if (!mopt.implementation) throw std::runtime_error("MobileNet: " + mopt.message);
    std::map<std::string, long> mobile_use;
    for (auto o : mopt.implementation->binding) ++mobile_use[resource_of(mobile, o)];
    std::size_t mobile_hits = 0;
    double mobile_ea_best = std::numeric_limits<double>::infinity(), mobile_ea_seconds = 0;
    baselines::EvolutionaryOptions mo;
    mo.generations = 100;
    mo.checkpoints = {100};
    for (std::size_t k = 0; k < mobilenet_runs; ++k) {
      mo.seed = k + 1;
      const auto r = baselines::evolve(mobile, mix, mo);
      mobile_hits += r.best_cost <= mopt.objective * (1 + 1e-9);
      mobile_ea_best = std::min(mobile_ea_best, r.best_cost);
      mobile_ea_seconds += r.seconds / double(std::max<std::size_t>(1, mobilenet_runs));
    }
    std::printf("\nMobileNet v1, %zu operations, %zu communications: %s, cost %.1f us, %g SHAVEs, %.1f ms exact "
                "(%zu variables)\n  binding: %ld on the host, %ld on the NCS, %ld on the Coral\n"
                "  EA, 100 generations: optimum in %zu of %zu runs (thesis: its best in 29 of 69), best %.1f us, "
                "%.1f ms per run\n",
                mix.processes.size(), mix.communications.size(), std::string(to_string(mopt.status)).c_str(),
                us(mopt.objective), mopt.breakdown.parameter_value[0], mopt.seconds * 1e3, mopt.variables,
                mobile_use["Desktop(CPU+GPU)"], mobile_use["NCS"], mobile_use["coral_edgetpu"], mobile_hits,
                mobilenet_runs, us(mobile_ea_best), mobile_ea_seconds * 1e3);

    struct RandomRun {
      std::size_t tasks, processors, variables;
      std::string status;
      double cost, gap, seconds;
    };
    std::vector<RandomRun> random_runs;
    io::Table t4({{"tasks", "", 4}, {"processors", "", 2}, {"variables", "", 6}, {"status", "", 1},
                  {"cost", "us", 7}, {"gap", "", 2}, {"seconds", "s", 3}});
    SolveOptions limited;
    limited.time_limit = time_limit;
    for (auto n : sizes)
      for (auto p : processors) {
        const auto rs = study003::random_layered(n, p, 7, false);
        const auto r = solve_synthesis(rs, rs.validate(), {}, limited);
        random_runs.push_back({n, p, r.variables, std::string(to_string(r.status)), r.objective, r.gap, r.seconds});
        t4.add_row({double(n), double(p), double(r.variables), random_runs.back().status, us(r.objective), r.gap, r.seconds});
      }
    std::printf("\nRandom layered graphs (host + accelerators behind their own buses; tree routing), time limit %g s:\n",
                time_limit);
    t4.print(std::cout);

    outputs.add_table("design_space", t0);
    outputs.add_table("binding", t1);
    outputs.add_table("routes", t1r);
    outputs.add_table("table71", t71);
    outputs.add_table("shave_front", t2);
    outputs.add_table("power_front", t2p);
    outputs.add_table("processor_front", t2a);
    outputs.add_table("evolutionary", t3);
    outputs.add_table("random", t4);
    outputs.add_json("example13", [&](io::JsonWriter& json) {
      json.begin_object();
      json.key("process_tasks").value(ix.processes.size());
      json.key("communications").value(ix.communications.size());
      json.key("design_space").value(bound).key("design_space_with_shaves").value(bound * shave_values);
      json.key("bindings").value(bindings);
      json.key("optimum").begin_object();
      json.key("status").value(std::string(to_string(optimum.status)));
      json.key("cost").value(us(optimum.objective)).key("cost_unit").value("us");
      json.key("shaves").value(optimum.breakdown.parameter_value[0]);
      json.key("binding").begin_object();
      for (std::size_t p = 0; p < ix.processes.size(); ++p)
        json.key(spec.application.tasks[ix.processes[p]].id).value(resource_of(spec, best.binding[p]));
      json.end_object();
      json.key("routes").begin_object();
      for (std::size_t c = 0; c < ix.communications.size(); ++c) {
        json.key(spec.application.tasks[ix.communications[c].task].id).begin_array();
        for (const auto& a : best.routes[c])
          json.begin_object()
              .key("link").value(arch.links[a.link].id)
              .key("from").value(arch.resources[a.from].id)
              .key("to").value(arch.resources[a.to].id)
              .end_object();
        json.end_array();
      }
      json.end_object();
      json.key("allocated").begin_array();
      for (std::size_t r = 0; r < arch.resources.size(); ++r)
        if (optimum.breakdown.allocated[r]) json.value(arch.resources[r].id);
      json.end_array();
      json.key("host_to_ncs_via_bus12").value(host_to_ncs_via_bus12);
      json.end_object();
      json.key("table71").begin_array();
      for (const auto& [name, sub, v, paper] : table71)
        json.begin_object()
            .key("implementation").value(std::string(name))
            .key("thesis").value(paper)
            .key("ychart").value(us(evaluate(spec, ix, *route(spec, ix, fig_binding(sub), {v})).cost))
            .end_object();
      json.end_array();
      json.key("pareto").begin_array();
      for (const auto& p : shave_front.points)
        json.begin_object().key("cost").value(us(p.cost)).key("shaves").value(p.second).end_object();
      json.end_array();
      json.key("pareto_proven").value(shave_front.proven);
      json.key("pareto_seconds").value(shave_front.seconds);
      json.key("power_pareto").begin_array();
      for (const auto& p : power_front.points)
        json.begin_object().key("cost").value(us(p.cost)).key("power_w").value(p.second).end_object();
      json.end_array();
      json.key("ea").begin_object();
      json.key("runs").value(ea.runs);
      json.key("hit_rate_100").value(ea.hit_rate[0]).key("hit_rate_400").value(ea.hit_rate[1]);
      json.key("best_cost").value(us(ea.best_cost));
      json.key("seconds_per_run").value(ea.mean_seconds);
      json.end_object();
      json.key("exact_seconds").value(optimum.seconds);
      json.end_object();
    });
    outputs.add_json("mobilenet", [&](io::JsonWriter& json) {
      json.begin_object();
      json.key("process_tasks").value(mix.processes.size());
      json.key("status").value(std::string(to_string(mopt.status)));
      json.key("cost").value(us(mopt.objective)).key("shaves").value(mopt.breakdown.parameter_value[0]);
      json.key("exact_seconds").value(mopt.seconds);
      json.key("ea_runs").value(mobilenet_runs).key("ea_hits").value(mobile_hits).key("ea_best_cost").value(us(mobile_ea_best));
      json.end_object();
    });
    outputs.add_json("random", [&](io::JsonWriter& json) {
      json.begin_array();
      for (const auto& r : random_runs)
        json.begin_object()
            .key("tasks").value(r.tasks)
            .key("processors").value(r.processors)
            .key("variables").value(r.variables)
            .key("status").value(r.status)
            .key("cost").value(us(r.cost))
            .key("gap").value(r.gap)
            .key("seconds").value(r.seconds)
            .end_object();
      json.end_array();
    });
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study003: %s\n", e.what());
    return 1;
  }
}
