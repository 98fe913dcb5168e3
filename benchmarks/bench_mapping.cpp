// The mapper that proves against the baselines in the same run: the
// search on VGG-16 and ResNet-50 layers of the Eyeriss-like hierarchy
// (proven optimal each time; the benchmark fails otherwise), with the
// machine's threads and with one, the random mapper with 10^5 samples on
// the same layers, and evaluate() alone; and the slowest layer to prove,
// VGG-16 conv1_2 on the Simba-like hierarchy, with one pass over the level
// shapes and with two (SearchOptions::first_pass_nodes).
#include <ychart/baselines/mappers.hpp>
#include <ychart/mapping/load.hpp>
#include <ychart/mapping/search.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

using namespace ychart;
using namespace ychart::mapping;

namespace {

const std::string data = std::string(YCHART_EXAMPLES_DATA_DIR) + "/mapping/";

const Architecture& eyeriss() {
  static const auto a = load_architecture(data + "eyeriss_like.yaml");
  return a;
}

const Architecture& simba() {
  static const auto a = load_architecture(data + "simba_like.yaml");
  return a;
}

Workload layer(const std::string& network, const std::string& name) {
  for (const auto& w : load_network(data + network + ".yaml").layers)
    if (w.name == name) return w;
  throw error("no layer " + name);
}

void search(benchmark::State& state, const std::string& network, const std::string& name, unsigned threads,
            const Architecture& a = eyeriss(), std::uint64_t first_pass_nodes = SearchOptions{}.first_pass_nodes) {
  const auto w = layer(network, name);
  SearchOptions options;
  options.threads = threads, options.first_pass_nodes = first_pass_nodes;
  for (auto _ : state) {
    const auto r = search_mapping(w, a, options);
    if (r.status != Status::optimal) state.SkipWithError("not proven");
    benchmark::DoNotOptimize(r.objective);
  }
}

void Search(benchmark::State& state, const std::string& network, const std::string& name) { search(state, network, name, 0); }
void SearchOneThread(benchmark::State& state, const std::string& network, const std::string& name) {
  search(state, network, name, 1);
}

void SearchSimba(benchmark::State& state, const std::string& network, const std::string& name) {
  search(state, network, name, 0, simba());
}
void SearchSimbaOnePass(benchmark::State& state, const std::string& network, const std::string& name) {
  search(state, network, name, 0, simba(), 0);
}

void Random100k(benchmark::State& state, const std::string& network, const std::string& name) {
  const auto w = layer(network, name);
  for (auto _ : state) benchmark::DoNotOptimize(baselines::random_mapper(w, eyeriss(), Objective::energy, 100000).objective);
}

void Evaluate(benchmark::State& state) {
  const auto w = layer("vgg16", "conv5_1");
  std::mt19937_64 rng(1);
  const auto m = baselines::random_mapping(w, eyeriss(), rng);
  for (auto _ : state) benchmark::DoNotOptimize(evaluate(w, eyeriss(), m).energy);
}

}  // namespace

BENCHMARK_CAPTURE(Search, vgg16_conv5_1, "vgg16", "conv5_1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(SearchOneThread, vgg16_conv5_1, "vgg16", "conv5_1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Random100k, vgg16_conv5_1, "vgg16", "conv5_1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Search, resnet50_res4_b, "resnet50", "res4_b")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(SearchOneThread, resnet50_res4_b, "resnet50", "res4_b")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Search, vgg16_conv2_1, "vgg16", "conv2_1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(SearchOneThread, vgg16_conv2_1, "vgg16", "conv2_1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(SearchSimba, vgg16_conv1_2, "vgg16", "conv1_2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(SearchSimbaOnePass, vgg16_conv1_2, "vgg16", "conv1_2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Random100k, resnet50_res4_b, "resnet50", "res4_b")->Unit(benchmark::kMillisecond);
BENCHMARK(Evaluate)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
