// Study 004's CPU/FPGA partition of MobileNetV1 (28 segments, 406 ranges):
// the exact model (GLPK through the MIGP engine) next to the thesis's
// method, enumerating and costing every range, timed in the same run; with
// the thesis's arithmetic (the argmin is range(0, 81)) and in consistent
// units (the CPU alone), sequential and pipelined, and with two FPGA ranges;
// and the partition and folding (PE, SIMD, BRAM or URAM per layer) together.
#include "study004/mobilenet.hpp"

#include <benchmark/benchmark.h>

#include <filesystem>

namespace {

using namespace study004;
using namespace ychart::partition;

const MobileNet& net() {
  static const MobileNet m = load_mobilenet(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "geel2023" / "mobilenet_v1.json");
  return m;
}

Platform platform(bool as_reported) {
  Platform p = kv260(net(), true);
  if (as_reported) p.fpga.clock = 100 * ychart::units::GHz;  // cycles x 1e-8 read as ms
  return p;
}

void ExactPartition(benchmark::State& state, bool as_reported, Schedule schedule, int ranges) {
  const auto g = mobilenet_graph(net());
  const auto p = platform(as_reported);
  PartitionOptions o;
  o.schedule = schedule;
  o.max_fpga_ranges = ranges;
  for (auto _ : state) {
    const auto r = solve_partition(g, p, o);
    if (r.status != ychart::Status::optimal) state.SkipWithError(r.message.c_str());
    benchmark::DoNotOptimize(r.cost.latency);
  }
}
BENCHMARK_CAPTURE(ExactPartition, AsReported, true, Schedule::sequential, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ExactPartition, Consistent, false, Schedule::sequential, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ExactPartition, ConsistentPipelined, false, Schedule::pipelined, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ExactPartition, AsReportedTwoRanges, true, Schedule::sequential, 2)->Unit(benchmark::kMillisecond);

void Enumeration(benchmark::State& state, bool as_reported, int ranges, bool check_resources) {
  const auto g = mobilenet_graph(net());
  const auto p = platform(as_reported);
  EnumerateOptions o;
  o.max_fpga_ranges = ranges;
  o.check_resources = check_resources;  // false: the thesis's Algorithm 1, true: its Algorithm 2
  std::size_t count = 0;
  for (auto _ : state) {
    const auto all = enumerate_partitions(g, p, o);
    count = all.size();
    benchmark::DoNotOptimize(all.data());
  }
  state.counters["partitions"] = double(count);
}
BENCHMARK_CAPTURE(Enumeration, Algorithm1, true, 1, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Enumeration, Algorithm2, true, 1, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Enumeration, Algorithm2TwoRanges, true, 2, true)->Unit(benchmark::kMillisecond);

void FoldedPartition(benchmark::State& state, Schedule schedule, bool fix_0_81, bool device_bram) {
  const auto g = mobilenet_graph(net());
  const auto nodes = foldable_mobilenet(net());
  const auto p = kv260(net(), !device_bram);  // the and the thesis's 144 BRAM_18K, or the device's 288
  PartitionOptions o;
  o.schedule = schedule;
  if (fix_0_81) o.fixed_fpga = {NodeRange{0, 81}};
  std::size_t kept = 0;
  for (auto _ : state) {
    const auto r = solve_folded_partition(g, nodes, p, o);
    if (r.status != ychart::Status::optimal) state.SkipWithError(r.message.c_str());
    kept = r.kept;
  }
  state.counters["options"] = double(kept);
}
BENCHMARK_CAPTURE(FoldedPartition, MostFramesPerSecond, Schedule::pipelined, false, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FoldedPartition, LeastLatency, Schedule::sequential, false, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FoldedPartition, Range0To81Folded, Schedule::pipelined, true, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FoldedPartition, MostFramesPerSecond288, Schedule::pipelined, false, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FoldedPartition, LeastLatency288, Schedule::sequential, false, true)->Unit(benchmark::kMillisecond);

void BuildGraph(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mobilenet_graph(net()));
}
BENCHMARK(BuildGraph)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
