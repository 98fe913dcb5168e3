// Signomial programs: study 000's Setup 1 (the channel split of one layer,
// FPGA + GPU, and CPU + GPU + FPGA) by sequential GP, next to the thesis's
// alpha sweep (to its first accepted iterate) and the exact integer split,
// timed in the same run. Counters: GP solves per method.
#include "study000/setup1.hpp"

#include <benchmark/benchmark.h>

#include <filesystem>

namespace {

using namespace study000;

const Setup1& setup() {
  static const Setup1 s = load_setup1(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "carballo2022" / "setup1.json");
  return s;
}

void SequentialGp(benchmark::State& state, std::vector<std::string> devices) {
  const auto& s = setup();
  int solves = 0;
  for (auto _ : state) {
    auto m = split_model(s, devices);  // building the model is part of the cost
    const auto sol = m.model.solve();
    if (sol.status() != ychart::Status::local_optimum) state.SkipWithError("not a local optimum");
    solves = sol.iterations();
    benchmark::DoNotOptimize(sol.objective());
  }
  state.counters["GP_solves"] = solves;
}
BENCHMARK_CAPTURE(SequentialGp, Setup1_FpgaGpu, std::vector<std::string>{"fpga", "gpu"})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(SequentialGp, Setup1_CpuFpgaGpu, std::vector<std::string>{"cpu", "fpga", "gpu"})
    ->Unit(benchmark::kMillisecond);

// The baseline: the thesis's method, alpha += 10 us from the 8/8 guess, to
// its first accepted iterate.
void AlphaSweep(benchmark::State& state) {
  const auto& s = setup();
  int solves = 0;
  for (auto _ : state) {
    auto m = split_model(s, {"fpga", "gpu"});
    m.model.start(m.c.at("fpga"), 8);
    m.model.start(m.c.at("gpu"), 8);
    ychart::AlphaSweepOptions o;
    o.alpha_start = o.alpha_step = 10e-6;
    const auto r = ychart::alpha_penalty_sweep(m.model, o);
    if (r.accepted < 0) state.SkipWithError("no accepted iterate");
    solves = static_cast<int>(r.iterations.size());
    benchmark::DoNotOptimize(r.iterations.back().objective);
  }
  state.counters["GP_solves"] = solves;
}
BENCHMARK(AlphaSweep)->Unit(benchmark::kMillisecond);

void ExactIntegerSplit(benchmark::State& state, std::vector<std::string> devices) {
  const auto& s = setup();
  for (auto _ : state) {
    const auto e = exact_split(s, devices);
    if (e.status != ychart::Status::optimal) state.SkipWithError("not optimal");
    benchmark::DoNotOptimize(e.latency_ms);
  }
}
BENCHMARK_CAPTURE(ExactIntegerSplit, Setup1_FpgaGpu, std::vector<std::string>{"fpga", "gpu"})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ExactIntegerSplit, Setup1_CpuFpgaGpu, std::vector<std::string>{"cpu", "fpga", "gpu"})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
