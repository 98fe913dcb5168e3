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
//      200-1000 tasks on 4-8 processors, with exact solve times
//      (--milp-solver picks the MILP back end: GLPK, CBC, or automatic).
// Each section is a source file of its own (example13.cpp, fronts.cpp,
// evolutionary.cpp, larger.cpp; sections.hpp declares them) that prints its
// tables and fills its part of the results declared in results.hpp, which
// --json writes as they are.
// Data: examples/data/benhmida2020/example13.json; the larger instances are
// built in instances.hpp. All costs are MADE UP (the thesis publishes none)
// and say so. --json prints {"example13": {...}, "mobilenet": {...}, "random": [...]}.
#include "common/cli.hpp"
#include "study003/results.hpp"
#include "study003/sections.hpp"

#include <ychart/synthesis/load.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string data = YCHART_EXAMPLES_DATA_DIR;
  std::size_t ea_runs = 200, mobilenet_runs = 20;
  std::vector<std::size_t> sizes{200, 500, 1000}, processors{4, 8};
  double time_limit = 60;
  std::string milp_solver = "automatic";
  examples::Outputs outputs("study003", "study003_figures");
  examples::CommandLine cli("Study 003: system-level synthesis on an architecture graph, exact where the thesis used an EA");
  cli.option("--data", data, "Directory of the transcribed data (default: the source tree's examples/data)");
  cli.option("--ea-runs", ea_runs, "Evolutionary runs (seeds) on the 13-node example").show_default();
  cli.option("--mobilenet-runs", mobilenet_runs, "Evolutionary runs on MobileNet").show_default();
  cli.option("--random-sizes", sizes, "Task counts of the random layered graphs").show_default();
  cli.option("--random-processors", processors, "Processor counts of the random layered graphs").show_default();
  cli.option("--time-limit", time_limit, "Seconds per random instance").show_default();
  cli.option("--milp-solver", milp_solver, "MILP back end of the random instances: automatic, glpk or cbc")
      .one_of({"automatic", "glpk", "cbc"})
      .show_default();
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  if (int rc = outputs.begin()) return rc;
  try {
    using namespace study003;
    const auto spec = ychart::synthesis::load_specification(data + "/benhmida2020/example13.json");
    const auto ix = spec.validate();
    std::printf("Study 003: the 13-node example on NCS --l1-- bus12 --l2-- Desktop --l3-- bus23 --l4-- Coral\n"
                "(costs made up, see examples/data/benhmida2020/example13.json)\n\n");
    Example13 example13;
    design_space(spec, ix, example13, outputs);
    const auto optimum = exact_optimum(spec, ix, example13, outputs);
    table71(spec, ix, example13, outputs);
    without_the_ncs(spec, ix, optimum);
    exact_fronts(spec, ix, example13, outputs);
    evolutionary_baseline(spec, ix, optimum, ea_runs, example13, outputs);
    const auto mobilenet = mobilenet_study(mobilenet_runs);
    const auto solver = milp_solver == "glpk" ? ychart::MilpSolver::glpk
                        : milp_solver == "cbc"  ? ychart::MilpSolver::cbc
                                                : ychart::MilpSolver::automatic;
    const auto random_runs = random_graphs(sizes, processors, time_limit, solver, outputs);

    outputs.add_result("example13", example13);
    outputs.add_result("mobilenet", mobilenet);
    outputs.add_result("random", random_runs);
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study003: %s\n", e.what());
    return 1;
  }
}
