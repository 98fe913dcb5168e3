// Study 002: ALOHA's layer evaluation (refinement, traffic, roofline, energy)
// of one layer on one processor; a 50-layer CNN bound exactly to a
// 3-processor platform (sequential latency, pipelined throughput with
// contiguous stages by dynamic programming and by the MILP, energy under a
// latency limit) next to Algorithm 1 in the same run; and the accelerator
// design of study002's CNN: its GP relaxation, and proven optima.
#include <ychart/loopnest/binding_model.hpp>
#include <ychart/loopnest/design_model.hpp>
#include <ychart/loopnest/load.hpp>

#include <benchmark/benchmark.h>

#include <random>
#include <string>

namespace {

using namespace ychart;
using namespace ychart::loopnest;

const std::string dir = std::string(YCHART_EXAMPLES_DATA_DIR) + "/aloha2021/";

const Platform& neuraghe() {
  static const Platform p = load_platform(dir + "neuraghe.json");
  return p;
}

void LayerEvaluation(benchmark::State& state) {
  const auto l1 = Layer::convolution("l1", 128, 512, 28, 1);
  for (auto _ : state) benchmark::DoNotOptimize(evaluate_layer(l1, neuraghe(), 0).latency);
}
BENCHMARK(LayerEvaluation)->Unit(benchmark::kMicrosecond);

/// 50 layers on NEURAghe's accelerator and CPU and the Jetson GPU (input rows tiled).
const Platform& three() {
  static const Platform p = [] {
    auto jetson = load_platform(dir + "jetson_tx2.json");
    jetson.processors[0].model.transfer[0].limited_loop = Loop::FH;
    jetson.processors.resize(1);
    return combine("three", {neuraghe(), jetson});
  }();
  return p;
}

Cnn fifty() {
  std::mt19937 rng(5);
  const long long ch[] = {16, 32, 64, 128, 256, 512};
  const long long size[] = {7, 14, 28, 56};
  Cnn c{"fifty", {}};
  long long in = 3;
  for (int i = 0; i < 50; ++i) {
    const long long out = ch[rng() % 6];
    c.layers.push_back(Layer::convolution("l" + std::to_string(i), in, out, size[rng() % 4], i % 3 == 2 ? 1 : 3));
    in = out;
  }
  return c;
}

void Binding50(benchmark::State& state, BindingGoal goal, BindingOptions::Method method) {
  const auto t = cost_table(fifty(), three());
  const auto least = evaluate_schedule(t, three(), sequential_schedule(t), false).latency;
  BindingOptions o{goal, goal == BindingGoal::throughput, std::nullopt};
  o.method = method;
  if (goal == BindingGoal::energy) o.latency_limit = 1.2 * least;
  for (auto _ : state) {
    const auto r = solve_binding(t, three(), o);
    if (r.status != Status::optimal) state.SkipWithError(r.message.c_str());
    benchmark::DoNotOptimize(r.objective);
  }
}
using M = BindingOptions::Method;
BENCHMARK_CAPTURE(Binding50, latency, BindingGoal::latency, M::automatic)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Binding50, throughput_dp, BindingGoal::throughput, M::dynamic_programming)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Binding50, throughput_milp, BindingGoal::throughput, M::milp)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Binding50, energy, BindingGoal::energy, M::automatic)->Unit(benchmark::kMillisecond);

void Algorithm1_50(benchmark::State& state) {
  const auto t = cost_table(fifty(), three());
  for (auto _ : state) benchmark::DoNotOptimize(sequential_schedule(t));
}
BENCHMARK(Algorithm1_50)->Unit(benchmark::kMicrosecond);

void CostTable50(benchmark::State& state) {
  const auto c = fifty();
  for (auto _ : state) benchmark::DoNotOptimize(cost_table(c, three()).time_s);
}
BENCHMARK(CostTable50)->Unit(benchmark::kMicrosecond);

/// study002's design: Table 7's stages at full width on NEURAghe's template.
void Design(benchmark::State& state, DesignGoal goal, bool relax, double latency_limit_ms) {
  const Cnn cnn{"nas", {Layer::convolution("s0", 3, 64, 32, 3), Layer::convolution("s1", 64, 128, 16, 3),
                        Layer::convolution("s2", 128, 256, 8, 3), Layer::convolution("s3", 256, 512, 4, 3),
                        Layer::convolution("s4", 512, 512, 2, 3)}};
  AcceleratorTemplate t;
  t.parallelism = {{4, 8, 9, 12, 16}, {4, 8, 10, 12, 16}, {1, 2, 4}};
  t.memory_bytes = {{32768, 65536, 131072}, {65536, 131072, 262144}, {32768, 65536, 131072}, {}};
  t.max_tiles = 8;
  t.area_per_mac = 1, t.area_per_kib = 0.5;
  t.power_fixed = 1.0 * units::W, t.power_per_mac = 0.005 * units::W, t.power_per_kib = 0.002 * units::W;
  DesignOptions o;
  o.goal = goal;
  o.area_budget = 600;
  o.relax = relax;
  if (latency_limit_ms > 0) o.latency_limit = latency_limit_ms * units::ms;
  for (auto _ : state) {
    const auto r = design_accelerator(cnn, neuraghe(), t, o);
    if (r.status != Status::optimal) state.SkipWithError(r.message.c_str());
    benchmark::DoNotOptimize(r.objective);
  }
}
BENCHMARK_CAPTURE(Design, latency_relaxation, DesignGoal::latency, true, 0.0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Design, latency_proven, DesignGoal::latency, false, 0.0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Design, energy_proven, DesignGoal::energy, false, 0.0)->Unit(benchmark::kMillisecond);
// Points of the latency-energy front: the least energy under a latency limit.
BENCHMARK_CAPTURE(Design, energy_latency_4_20ms, DesignGoal::energy, false, 4.20)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(Design, energy_latency_4_66ms, DesignGoal::energy, false, 4.66)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
