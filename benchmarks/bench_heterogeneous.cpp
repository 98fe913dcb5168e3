// benchmarks/bench_heterogeneous.cpp
// The heterogeneous-platform model on examples/heterogeneous's Alex-16
// (study 001 Table 3.2 on FPGAs, a derived GPU implementation):
//   HeterogeneousSweep/<platform>  the 7 FPGA caps of the example (30-92 %),
//                                  compute only, each point solved to proven
//                                  optimality; 2 FPGAs, 1 GPU, 2 FPGAs + 1 GPU.
//   HeterogeneousTransfers         one point on 2 FPGAs + 1 GPU with
//                                  host transfers (sequential phases,
//                                  locality) at a 92 % cap, to optimality.
//   HeterogeneousTransfersTabulated  the same point with the tabulated
//                                  (linear) model, bounded as the example
//                                  does (compute-only optimum below, a local
//                                  search's II above), to optimality.
//   HeterogeneousPower             the least power at the example's 9
//                                  II_max (0.4-5 ms, double buffered) on
//                                  2 FPGAs + 1 GPU, each proven optimal.
#include "heterogeneous/alexnet16.hpp"

#include <ychart/explore.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <stdexcept>

namespace {

using namespace ychart::explore;
using namespace heterogeneous;

double solve(const Tasks& app, const Plat& p, double cap, Schedule schedule) {
  MappingModelOptions<FpgaResources, GpuResources> o;
  std::get<0>(o.caps) = uniform_resources<FpgaResources>(cap);
  o.schedule = schedule;
  auto pm = build_mapping_model(app, p, o);
  const auto s = pm.model.solve();
  if (s.status() != Status::optimal) throw std::runtime_error("not proven optimal: " + s.message());
  return pm.initiation_interval(s).in(units::ms);
}

void HeterogeneousSweep(benchmark::State& state, int fpgas, int gpus) {
  const auto app = alexnet16(YCHART_EXAMPLES_DATA_DIR, {});
  const auto p = platform(fpgas, gpus, 9.4);
  SweepOptions so;
  so.progress = SweepOptions::Progress::never;
  const std::vector<double> caps = {30, 40, 50, 61, 70, 82, 92};
  for (auto _ : state) {
    auto points = sweep(caps, [&](double cap) { return solve(app, p, cap, Schedule::compute_only); }, so);
    benchmark::DoNotOptimize(points);
  }
}

void HeterogeneousTransfers(benchmark::State& state) {
  const auto app = alexnet16(YCHART_EXAMPLES_DATA_DIR, {});
  const auto p = platform(2, 1, 9.4);
  for (auto _ : state) state.counters["II_ms"] = solve(app, p, 92, Schedule::sequential_phases);
}

void HeterogeneousTransfersTabulated(benchmark::State& state) {
  const auto app = alexnet16(YCHART_EXAMPLES_DATA_DIR, {});
  const auto p = platform(2, 1, 9.4);
  for (auto _ : state) {
    // The bounds are part of the method, so they are timed too.
    MappingModelOptions<FpgaResources, GpuResources> o;
    std::get<0>(o.caps) = uniform_resources<FpgaResources>(92);
    auto compute = build_mapping_model(app, p, o);
    const auto c = compute.model.solve();
    if (c.status() != Status::optimal) throw std::runtime_error("compute-only not proven: " + c.message());
    EvaluationOptions<FpgaResources, GpuResources> eo;
    eo.model.schedule = Schedule::sequential_phases;
    eo.caps = o.caps;
    const auto incumbent = local_search(app, p, compute.mapping(c), eo);
    o.schedule = eo.model.schedule;
    o.tabulate = true;
    o.execution_lower_bound_ms = compute.initiation_interval(c).in(units::ms);
    o.ii_upper_bound_ms = incumbent.evaluation.ii.in(units::ms);
    auto pm = build_mapping_model(app, p, o);
    const auto s = pm.model.solve();
    if (s.status() != Status::optimal) throw std::runtime_error("not proven optimal: " + s.message());
    benchmark::DoNotOptimize(pm.initiation_interval(s).in(units::ms));
    state.counters["II_ms"] = pm.initiation_interval(s).in(units::ms);
  }
}

void HeterogeneousPower(benchmark::State& state) {
  GpuAssumptions gpu;
  const auto app = alexnet16(YCHART_EXAMPLES_DATA_DIR, gpu);
  const auto f1 = load_architecture<FpgaResources>(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "shan2021" / "aws_f1.json");
  const auto p = platform(2, 1, 9.4, f1.kind(), gpu);
  SweepOptions so;
  so.progress = SweepOptions::Progress::never;
  const std::vector<double> ii_max = {0.4, 0.5, 0.6, 0.8, 1.0, 1.4, 2.0, 3.0, 5.0};
  for (auto _ : state) {
    auto points = sweep(
        ii_max,
        [&](double ii) {
          PowerModelOptions<FpgaResources, GpuResources> o;  // double buffered, no locality
          o.model.scale_clocks = false;  // busy-time power
          o.model.clock_gating = true;
          auto pm = build_power_model(app, p, ii * units::ms, o);
          const auto s = pm.model.solve();
          if (s.status() != Status::optimal && s.status() != Status::infeasible)
            throw std::runtime_error("not proven: " + s.message());
          return s.status() == Status::optimal ? s.objective() : 0.0;
        },
        so);
    benchmark::DoNotOptimize(points);
  }
}

}  // namespace

BENCHMARK_CAPTURE(HeterogeneousSweep, fpga2, 2, 0)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(HeterogeneousSweep, gpu1, 0, 1)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(HeterogeneousSweep, fpga2_gpu1, 2, 1)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(HeterogeneousTransfers)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(HeterogeneousTransfersTabulated)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(HeterogeneousPower)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
