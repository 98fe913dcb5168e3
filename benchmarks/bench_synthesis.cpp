// Study 003: system-level synthesis. The 13-node example solved exactly
// (tree routing, the default; flow routing; and with the MIGP engine's
// start heuristic, the general default, as the baseline), its whole
// (cost, SHAVEs) front, one run of the thesis's evolutionary search beside
// it, MobileNet v1 as 87 operations, and random layered graphs of 200-1000
// tasks on 4-8 processors: tree routing on star architectures, flow
// routing on the same and on architectures with a cycle, each with GLPK and
// with CBC as the MILP back end.
#include "study003/instances.hpp"

#include <ychart/baselines/evolutionary.hpp>
#include <ychart/synthesis/load.hpp>
#include <ychart/synthesis/pareto.hpp>
#include <ychart/synthesis/synthesis_model.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

using namespace ychart;
using namespace ychart::synthesis;

const Specification& example13() {
  static const Specification s = load_specification(std::string(YCHART_EXAMPLES_DATA_DIR) + "/benhmida2020/example13.json");
  return s;
}

void Example13Exact(benchmark::State& state, Routing routing, bool start_heuristic) {
  const auto& spec = example13();
  const auto ix = spec.validate();
  SynthesisOptions o;
  o.routing = routing;
  o.start_heuristic = start_heuristic;
  for (auto _ : state) {
    const auto r = solve_synthesis(spec, ix, o);
    if (r.status != Status::optimal) state.SkipWithError(r.message.c_str());
    benchmark::DoNotOptimize(r.objective);
  }
}
BENCHMARK_CAPTURE(Example13Exact, tree, Routing::tree, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Example13Exact, flow, Routing::flow, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Example13Exact, tree_with_start_heuristic, Routing::tree, true)->Unit(benchmark::kMillisecond);

void Example13ShaveFront(benchmark::State& state) {
  const auto& spec = example13();
  const auto ix = spec.validate();
  for (auto _ : state) {
    const auto f = pareto_front(spec, ix, SecondObjective::parameter, 0);
    if (!f.proven) state.SkipWithError("front not proven");
    benchmark::DoNotOptimize(f.points.size());
  }
}
BENCHMARK(Example13ShaveFront)->Unit(benchmark::kMillisecond);

void Example13Evolutionary(benchmark::State& state) {
  const auto& spec = example13();
  const auto ix = spec.validate();
  baselines::EvolutionaryOptions o;
  o.generations = static_cast<std::size_t>(state.range(0));
  o.checkpoints = {o.generations};
  for (auto _ : state) {
    ++o.seed;
    benchmark::DoNotOptimize(baselines::evolve(spec, ix, o).best_cost);
  }
}
BENCHMARK(Example13Evolutionary)->Arg(100)->Arg(400)->Unit(benchmark::kMillisecond);

void MobileNetExact(benchmark::State& state) {
  const auto spec = study003::mobilenet();
  const auto ix = spec.validate();
  for (auto _ : state) {
    const auto r = solve_synthesis(spec, ix);
    if (r.status != Status::optimal) state.SkipWithError(r.message.c_str());
    benchmark::DoNotOptimize(r.objective);
  }
}
BENCHMARK(MobileNetExact)->Unit(benchmark::kMillisecond);

/// Random layered graphs: tasks, processors, and 1 for a cross bus (a cycle,
/// so flow routing); the MILP back end as named, 60 s limit (the target of
/// issue 31). GLPK is the baseline CBC is compared with, in the same run.
void RandomLayered(benchmark::State& state, Routing routing, MilpSolver milp_solver) {
  const auto spec = study003::random_layered(static_cast<std::size_t>(state.range(0)),
                                             static_cast<std::size_t>(state.range(1)), 7, state.range(2) != 0);
  const auto ix = spec.validate();
  SynthesisOptions o;
  o.routing = routing;
  SolveOptions so;
  so.time_limit = 60;
  so.milp_solver = milp_solver;
  for (auto _ : state) {
    const auto r = solve_synthesis(spec, ix, o, so);
    state.counters["optimal"] = r.status == Status::optimal;
    state.counters["gap"] = r.gap;
    state.counters["variables"] = static_cast<double>(r.variables);
  }
}
void TreeSizes(benchmark::internal::Benchmark* b) {
  b->Args({200, 4, 0})->Args({200, 6, 0})->Args({200, 8, 0})->Args({500, 4, 0})->Args({500, 6, 0})
      ->Args({500, 8, 0})->Args({1000, 4, 0})->Args({1000, 8, 0})->Iterations(1)->Unit(benchmark::kSecond);
}
void FlowSizes(benchmark::internal::Benchmark* b) {
  b->Args({200, 4, 0})->Args({200, 8, 0})->Args({200, 4, 1})->Args({200, 6, 1})->Args({200, 8, 1})
      ->Iterations(1)->Unit(benchmark::kSecond);
}
BENCHMARK_CAPTURE(RandomLayered, tree_glpk, Routing::automatic, MilpSolver::glpk)->Apply(TreeSizes);
BENCHMARK_CAPTURE(RandomLayered, tree_cbc, Routing::automatic, MilpSolver::cbc)->Apply(TreeSizes);
BENCHMARK_CAPTURE(RandomLayered, flow_glpk, Routing::flow, MilpSolver::glpk)->Apply(FlowSizes);
BENCHMARK_CAPTURE(RandomLayered, flow_cbc, Routing::flow, MilpSolver::cbc)->Apply(FlowSizes);

}  // namespace

BENCHMARK_MAIN();
