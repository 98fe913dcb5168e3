// The partition class's loader (partition/load.hpp): study 004's MobileNet
// graph and KV260 written and read back equal, the committed file equal to
// the graph built from the thesis's data (so it cannot go stale), the same
// optimum from the loaded problem, and file:line:field errors.
#include <ychart/partition/load.hpp>
#include <ychart/partition/partition_model.hpp>

#include "study004/mobilenet.hpp"
#include "support/parse_error_of.hpp"
#include "support/partition_spec_difference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using namespace ychart;
using namespace ychart::partition;

const std::filesystem::path data_dir = std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "geel2023";

Specification mobilenet_on_kv260() {
  static const auto m = study004::load_mobilenet(data_dir / "mobilenet_v1.json");
  return {study004::mobilenet_graph(m), study004::kv260(m, false)};
}

Specification parsed(const std::string& text) { return parse_specification(io::JsonValue::parse(text, "problem.json")); }

std::string written(const Specification& s) {
  std::ostringstream out;
  write_specification(out, s);
  return out.str();
}

void expect_same(const Specification& a, const Specification& b) {
  EXPECT_EQ(test_support::first_difference(a, b), "");
}

TEST(PartitionLoad, MobileNetOnTheKv260ReadsBackAsWritten) {
  const auto original = mobilenet_on_kv260();
  ASSERT_EQ(original.graph.segments.size(), 28u);  // 27 conv layers and the FC layer
  expect_same(parsed(written(original)), original);
}

TEST(PartitionLoad, CommittedFileIsTheGraphBuiltFromTheThesisData) {
  // examples/data/geel2023/mobilenet_v1_graph.json is what
  // write_specification() makes of mobilenet_on_kv260(); if FINN's
  // estimates or the thesis data change, this test says it is stale.
  const auto built = mobilenet_on_kv260();
  try {
    expect_same(load_specification(data_dir / "mobilenet_v1_graph.json"), built);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  if (::testing::Test::HasFailure()) {
    const auto fresh = std::filesystem::current_path() / "mobilenet_v1_graph.json";
    std::ofstream out(fresh);
    write_specification(out, built,
                        "Study 004 (Geel 2023): MobileNetV1-w4a4 on the Kria KV260 (its device budget, 288 BRAM_18K), "
                        "at PE = SIMD = 1. Written by ychart::partition::write_specification from the graph that "
                        "examples/study004 builds out of mobilenet_v1.json (the thesis's CPU measurements, its "
                        "transfer fits eqs. 4.1-4.2, and FINN's estimates of every node); "
                        "tests/test_partition_load.cpp checks that it still is that graph.");
    ADD_FAILURE() << "the committed file is stale: copy " << fresh << " over it";
  }
}

TEST(PartitionLoad, LoadedProblemHasTheSameOptimumAsTheBuiltOne) {
  const auto built = mobilenet_on_kv260();
  const auto loaded = parsed(written(built));
  for (const auto& options : {PartitionOptions{}, study004::pipelined_options()}) {
    const auto a = solve_partition(built.graph, built.platform, options);
    const auto b = solve_partition(loaded.graph, loaded.platform, options);
    ASSERT_EQ(a.status, Status::optimal);
    ASSERT_EQ(b.status, Status::optimal);
    EXPECT_NEAR(a.objective, b.objective, 1e-12 * a.objective);
    EXPECT_EQ(a.cost.fpga, b.cost.fpga);
  }
}

const char* small = R"({
  "_source": "a made-up two-segment graph for the loader's tests",
  "graph": { "name": "toy", "input_bytes": 1000,
             "segments": [ { "name": "a", "nodes": [0, 2], "cpu_ms": 1, "fpga_cycles": 100,
                             "fpga_max_node_cycles": 60, "output_bytes": 500, "lut": 10 },
                           { "name": "b", "nodes": [2, 5], "cpu_ms": 2, "fpga_cycles": 300,
                             "fpga_max_node_cycles": 100, "output_bytes": 10, "has_threshold": false } ] },
  "platform": { "name": "board", "clock_mhz": 100,
                "budget": { "bram_18k": 10, "lut": 1000, "uram": 0, "dsp": 5 },
                "to_fpga": { "ms_per_mb": 2, "ms": 0.1 }, "from_fpga": { "ms_per_mb": 1, "ms": 0.05 } }
})";

TEST(PartitionLoad, OptionalFieldsTakeTheirDefaults) {
  const auto s = parsed(small);
  ASSERT_EQ(s.graph.segments.size(), 2u);
  EXPECT_DOUBLE_EQ(s.graph.segments[0].fpga.lut.value(), 10.0);
  EXPECT_DOUBLE_EQ(s.graph.segments[0].fpga.bram.value(), 0.0);
  EXPECT_TRUE(s.graph.segments[0].has_threshold);
  EXPECT_FALSE(s.graph.segments[1].has_threshold);
  EXPECT_DOUBLE_EQ(s.graph.segments[1].cpu_time.value(), 2e-3);
  EXPECT_DOUBLE_EQ(s.platform.fpga.clock.value(), 100e6);
  EXPECT_DOUBLE_EQ(s.platform.to_fpga.slope.value(), 2e-3 / 1e6);  // s per byte
  EXPECT_DOUBLE_EQ(s.platform.cpu_speedup, 1.0);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(PartitionLoad, ErrorsNameTheFileLineAndField) {
  struct Case {
    std::string from, to, field, says;
    int line;
  };
  const Case cases[] = {
      {R"("lut": 10 })", R"("lut": 10, "luts": 3 })", "graph.segments[0].luts", "unknown key", 5},
      {R"("nodes": [2, 5])", R"("nodes": [3, 5])", "graph.segments[1].nodes", "not at node 2", 6},
      {R"("nodes": [0, 2])", R"("nodes": [0, 0])", "graph.segments[0].nodes", "empty", 4},
      {R"("nodes": [0, 2])", R"("nodes": [0, 1.5])", "graph.segments[0].nodes[1]", "whole number", 4},
      {R"("cpu_ms": 2,)", R"("cpu_ms": 0,)", "graph.segments[1].cpu_ms", "positive", 6},
      {R"("fpga_max_node_cycles": 60)", R"("fpga_max_node_cycles": 160)", "graph.segments[0].fpga_max_node_cycles",
       "slowest node", 5},
      {R"("lut": 10 })", R"("lut": -1 })", "graph.segments[0].lut", "negative", 5},
      {R"("clock_mhz": 100)", R"("clock_mhz": -100)", "platform.clock_mhz", "positive", 8},
      {R"("dsp": 5 })", R"("dsp": 5, "ff": 1 })", "platform.budget.ff", "unknown key", 9},
      {R"("ms_per_mb": 1,)", R"("ms_per_mb": -1,)", "platform.from_fpga.ms_per_mb", "negative", 10},
  };
  for (const auto& c : cases) {
    const auto text = replaced(small, c.from, c.to);
    const auto e = parse_error_of([&] { parsed(text); });
    EXPECT_EQ(e.file, "problem.json") << c.to;
    EXPECT_EQ(e.field, c.field) << c.to;
    EXPECT_EQ(e.line, c.line) << c.to;
    EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
  }
  const auto empty = parse_error_of([] { parsed(R"({ "graph": { "name": "g", "input_bytes": 1, "segments": [] } })"); });
  EXPECT_EQ(empty.field, "graph.segments");
  const auto missing = parse_error_of([&] { parsed(replaced(small, R"("platform")", R"("_platform")")); });
  EXPECT_NE(std::string(missing.what()).find("missing field \"platform\""), std::string::npos) << missing.what();
}

}  // namespace
