// benchmarks/bench_study001.cpp
// Whole sweeps of the study-001 examples, as a user runs them:
//   Ch3Sweep/<case>  examples/study001/ch3: 9 resource caps (30-92 %), at each
//                    the GP relaxation, the exact optimum with beta = 0, the
//                    exact optimum with Table 3.4's beta, and GP+A
//                    (Algorithm 1); alex16 (2 FPGAs), alex32 (4), vgg16 (8).
//   Ch4Sweep/<case>  examples/study001/ch4: 7 resource caps (45-92 %), at each
//                    the GP relaxation, the bound model (1 s limit), GP+A
//                    (Algorithms 2-3), the simplified model's optimum and the
//                    local search, every mapping priced by the enhanced model;
//                    the six cases of Tables 4.3-4.8.
//   Ch5Sweep/<case>  examples/study001/ch5: the II_max grid of each network,
//                    at each H2 (Algorithm 4) priced by the exact evaluator,
//                    the power bound and F_min.
//   Ch5Exact/<search>/<network>@<II_max>  one exact power optimum
//                    (pipeline::solve_power_optimal) by device levels and by
//                    the per-count MILP, the baseline, in the same run, 30 s
//                    limit; counters: proven (1/0), gap, power (W).
// One sweep per run (Iterations(1)), over the machine's cores like the
// examples (sweep() with default options). Target: each sweep < 10 s.
#include "study001/ch3/ch3.hpp"
#include "study001/ch4/ch4.hpp"
#include "study001/ch5/ch5.hpp"

#include <ychart/explore.hpp>

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

void Ch3Sweep(benchmark::State& state, std::size_t index) {
  using namespace study001::ch3;
  const auto& c = cases.at(index);
  ychart::pipeline::KernelColumns columns;
  columns.wcet = "wcet_ms";
  const auto app = ychart::pipeline::load_pipeline<study001::FpgaResources>(study001::data_dir() / c.file, c.title, columns);
  const auto arch = study001::aws_f1(c.fpgas);
  const std::vector<double> caps = {30, 40, 50, 55, 61, 70, 76, 82, 92};
  ychart::explore::SweepOptions so;
  so.progress = ychart::explore::SweepOptions::Progress::never;
  for (auto _ : state) {
    auto points = ychart::explore::sweep(caps, [&](double cap) { return solve_point(app, arch, c, cap); }, so);
    benchmark::DoNotOptimize(points);
  }
}

void Ch4Sweep(benchmark::State& state, std::size_t index) {
  using namespace study001::ch4;
  const auto& c = cases.at(index);
  auto arch = ychart::pipeline::load_architecture<study001::FpgaResources>(study001::data_dir() / "aws_f1.json");
  arch.group().devices = c.fpgas;
  const auto app = ychart::pipeline::load_pipeline<study001::FpgaResources>(study001::data_dir() / c.file, c.title,
                                                                       kernel_columns());
  const std::vector<double> caps = {45, 55, 61, 68, 76, 82, 92};
  ychart::explore::SweepOptions so;
  so.progress = ychart::explore::SweepOptions::Progress::never;
  for (auto _ : state) {
    auto points = ychart::explore::sweep(caps, [&](double cap) { return solve_point(app, arch, cap, Parameters{}); }, so);
    benchmark::DoNotOptimize(points);
  }
}

void Ch5Sweep(benchmark::State& state, std::size_t index) {
  using namespace study001::ch5;
  const auto& c = cases.at(index);
  const auto arch = ychart::pipeline::load_architecture<study001::FpgaResources>(study001::data_dir() / "aws_f1.json");
  ychart::pipeline::KernelColumns columns;
  columns.wcet = "twc_ms";
  const auto app = ychart::pipeline::load_pipeline<study001::FpgaResources>(study001::data_dir() / c.file, c.title, columns);
  ychart::explore::SweepOptions so;
  so.progress = ychart::explore::SweepOptions::Progress::never;
  for (auto _ : state) {
    auto points = ychart::explore::sweep(c.ii_ms, [&](double ii) { return solve_point(app, arch, ii); }, so);
    benchmark::DoNotOptimize(points);
  }
}

struct Ch5Point {
  std::size_t network;  // index into study001::ch5::cases
  double ii_ms;
};

void Ch5Exact(benchmark::State& state, Ch5Point point, ychart::pipeline::PowerSearch search) {
  using namespace study001::ch5;
  const auto& c = cases.at(point.network);
  const auto arch = ychart::pipeline::load_architecture<study001::FpgaResources>(study001::data_dir() / "aws_f1.json");
  ychart::pipeline::KernelColumns columns;
  columns.wcet = "twc_ms";
  const auto app = ychart::pipeline::load_pipeline<study001::FpgaResources>(study001::data_dir() / c.file, c.title, columns);
  ychart::pipeline::PowerSolveOptions so;
  so.search = search;
  so.solve.time_limit = 30;
  ychart::pipeline::PowerOptimum r;
  for (auto _ : state) {
    r = ychart::pipeline::solve_power_optimal(app, arch, point.ii_ms * ychart::units::ms, exact_options(), so);
    benchmark::DoNotOptimize(r);
  }
  state.counters["proven"] = r.status == ychart::Status::optimal ? 1 : 0;
  state.counters["gap"] = r.mapping ? r.gap : 1.0;
  state.counters["power_W"] = r.power.value();
}

// Registered from main, not from a namespace-scope initializer: the cases
// are defined in the ychart_studies library, whose globals may not be
// initialised yet when this file's are (the sweeps then registered none).
void register_sweeps() {
  for (std::size_t i = 0; i < study001::ch3::cases.size(); ++i)
    benchmark::RegisterBenchmark(("Ch3Sweep/" + study001::ch3::cases[i].id).c_str(), Ch3Sweep, i)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  for (std::size_t i = 0; i < study001::ch4::cases.size(); ++i)
    benchmark::RegisterBenchmark(("Ch4Sweep/" + study001::ch4::cases[i].id).c_str(), Ch4Sweep, i)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  for (std::size_t i = 0; i < study001::ch5::cases.size(); ++i)
    benchmark::RegisterBenchmark(("Ch5Sweep/" + study001::ch5::cases[i].id).c_str(), Ch5Sweep, i)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  // Points on two or more FPGAs; the networks by their case ids.
  const std::vector<std::pair<std::string, double>> points = {
      {"alex16", 1.0}, {"alex16", 1.4}, {"alex16", 0.8}, {"alex32", 10}, {"alex32", 6}, {"transformer16", 6}};
  for (const auto& [id, ii] : points)
    for (std::size_t i = 0; i < study001::ch5::cases.size(); ++i) {
      if (study001::ch5::cases[i].id != id) continue;
      for (auto search : {ychart::pipeline::PowerSearch::device_levels, ychart::pipeline::PowerSearch::milp}) {
        std::ostringstream name;
        name << "Ch5Exact/" << (search == ychart::pipeline::PowerSearch::milp ? "milp/" : "levels/") << id << "@" << ii
             << "ms";
        benchmark::RegisterBenchmark(name.str().c_str(), Ch5Exact, Ch5Point{i, ii}, search)
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
}

}  // namespace

int main(int argc, char** argv) {
  register_sweeps();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
