// Signomial programs: study 000's Setup 1 (the channel split of one layer,
// FPGA + GPU, and CPU + GPU + FPGA) by sequential GP, next to the thesis's
// alpha sweep (to its first accepted iterate) and the exact integer split,
// timed in the same run; and Setup 2 (every layer of AlexNet, VGG16 and
// ResNet18 split under one FPGA budget): sequential GP with the Ipopt polish,
// the alpha sweep with one alpha per layer, and the exact integer split.
// Counters: GP solves per method.
#include "study000/setup1.hpp"
#include "study000/setup2.hpp"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <ychart/baselines/alpha_penalty.hpp>

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
    ychart::baselines::AlphaSweepOptions o;
    o.alpha_start = o.alpha_step = 10e-6;
    const auto r = ychart::baselines::alpha_penalty_sweep(m.model, o);
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

const Setup2& setup2() {
  static const Setup2 s = load_setup2(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "carballo2022" / "setup2.json");
  return s;
}

void Setup2SequentialGp(benchmark::State& state, std::string network) {
  const auto& net = setup2().networks.at(network);
  SpOptions o;
  o.polish = true;
  int solves = 0;
  for (auto _ : state) {
    auto m = continuous_model(setup2(), net);
    const auto s = m.model.solve({}, o);
    if (s.status() != Status::local_optimum) state.SkipWithError(s.message().c_str());
    solves = s.iterations();
  }
  state.counters["gp_solves"] = solves;
}
BENCHMARK_CAPTURE(Setup2SequentialGp, AlexNet, std::string("alexnet"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Setup2SequentialGp, VGG16, std::string("vgg16"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Setup2SequentialGp, ResNet18, std::string("resnet18"))->Unit(benchmark::kMillisecond);

void Setup2AlphaSweep(benchmark::State& state, std::string network) {
  const auto& s = setup2();
  const auto& net = s.networks.at(network);
  int iterations = 0;
  for (auto _ : state) {
    auto m = continuous_model(s, net);
    ychart::baselines::AlphaSweepOptions ao;
    std::vector<LayerSplit> hat;
    for (std::size_t i = 0; i < net.size(); ++i) {
      for (std::size_t d = 0; d < 3; ++d) m.model.start(m.channels[i][d], net[i].c / 3.0);
      hat.push_back({net[i].c / 3.0, net[i].c / 3.0, net[i].c / 3.0});
    }
    for (double ms : evaluate(s, net, hat, false, false).layer_ms) ao.scale.push_back(ms * 1e-3);
    ao.alpha_start = ao.alpha_step = 0.05;
    ao.freeze_satisfied = true;
    ao.max_iterations = 400;
    const auto r = ychart::baselines::alpha_penalty_sweep(m.model, ao);
    if (r.accepted < 0) state.SkipWithError("no accepted iterate");
    iterations = r.accepted + 1;
  }
  state.counters["gp_solves"] = iterations;
}
BENCHMARK_CAPTURE(Setup2AlphaSweep, VGG16, std::string("vgg16"))->Unit(benchmark::kMillisecond);

void Setup2ExactSplit(benchmark::State& state, std::string network, bool fused) {
  const auto& net = setup2().networks.at(network);
  for (auto _ : state) {
    const auto e = exact_network(setup2(), net, fused);
    if (e.status != Status::optimal) state.SkipWithError(e.message.c_str());
  }
}
BENCHMARK_CAPTURE(Setup2ExactSplit, AlexNet, std::string("alexnet"), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Setup2ExactSplit, VGG16, std::string("vgg16"), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Setup2ExactSplit, ResNet18, std::string("resnet18"), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Setup2ExactSplit, VGG16_Fused, std::string("vgg16"), true)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
