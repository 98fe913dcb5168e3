// Study 004 on the reconstructed MobileNetV1 (examples/data/geel2023/):
// FINN's estimates per layer against the digest's table, the graph against
// the thesis's published numbers, the thesis's argmin reproduced under its
// own arithmetic and overturned in consistent units (exact model against
// enumeration in both), the 288 BRAM_18K budget, and loader errors.
#include "study004/mobilenet.hpp"
#include "support/load_error_after_edit.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#ifndef YCHART_EXAMPLES_DATA_DIR
#error "YCHART_EXAMPLES_DATA_DIR must name examples/data (tests/CMakeLists.txt defines it)"
#endif

namespace {

using namespace study004;
using namespace ychart::partition;

const MobileNet& net() {
  static const MobileNet m = load_mobilenet(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "geel2023" / "mobilenet_v1.json");
  return m;
}

// The thesis's arithmetic: cycles * 1e-8 labelled ms, i.e. a 100 GHz clock.
Platform as_labelled() {
  Platform p = kv260(net(), true);
  p.fpga.clock = 100 * units::GHz;
  return p;
}

TEST(Study004, FinnEstimatesMatchTheDigestTable) {
  const auto& m = net();
  const std::vector<Folding> one(m.layers.size() + 1);
  for (std::size_t k = 0; k < m.layers.size(); ++k) {
    const auto d = segment_detail(m, k, one);
    EXPECT_DOUBLE_EQ(d.bram, m.layers[k].bram18k_digest) << m.layers[k].name;
    // At PE = SIMD = 1 a (V)MVAU takes one cycle per MAC.
    EXPECT_DOUBLE_EQ(d.node_cycles.back().second, m.layers[k].macs) << m.layers[k].name;
  }
  // The digest's delta between range(0, 76) and range(0, 81): MT_14 + padding + SWG + VVAU = 2,062,336 cycles.
  EXPECT_DOUBLE_EQ(segment_detail(m, 15, one).cycles, 2062336.0);
  EXPECT_DOUBLE_EQ(segment_detail(m, 14, one).cycles, 51480576.0);  // MT_13 + L14
}

TEST(Study004, MvauAndVvauShareFinnRsDotProductLutModel) {
  // PE 2, SIMD 4, 4-bit weights and unsigned inputs, 9-term dot products:
  // multipliers 4 (2 ceil(8 / 6) - 1) 8 = 96, adder tree 8 (2 * 4 - 1) = 56,
  // accumulator ceil(a + log2(1 + 2^-a) + 1) = 12 with a = log2 9 + 7, so
  // floor(300 + 1.1 * 2 * (96 + 56 + 12)) = 660.
  const finn::Bits bits{4, 4, 4, false};
  EXPECT_DOUBLE_EQ(finn::accumulator_bits(9, bits), 12.0);
  EXPECT_DOUBLE_EQ(finn::dot_product_luts(2, 4, 9, bits), 660.0);
  EXPECT_DOUBLE_EQ((finn::Mvau{8, 9, 1, bits}.luts(2, 4)), 660.0);   // a 3x3 convolution of one input channel
  EXPECT_DOUBLE_EQ((finn::Vvau{8, 3, 1, bits}.luts(2, 4)), 660.0);   // k^2 = 9 taps
}

TEST(Study004, GraphReproducesThePublishedNumbers) {
  const auto& m = net();
  const auto g = mobilenet_graph(m);
  ASSERT_EQ(g.segments.size(), 28u);
  EXPECT_EQ(g.node_count(), 146);
  EXPECT_EQ(g.segments.size() * (g.segments.size() + 1) / 2, std::size_t(m.ranges));  // 406 = C(29, 2)
  const Platform thesis = kv260(m, true);
  EXPECT_NEAR(evaluate(g, thesis, {}).latency.in(units::ms), m.cpu_only_ms, 1e-9);
  const auto r81 = evaluate(g, thesis, {NodeRange{0, 81}}, Schedule::pipelined);
  EXPECT_DOUBLE_EQ(r81.used.bram.value(), m.thesis_bram_0_81);                         // 138
  EXPECT_NEAR(r81.used.lut.value(), m.thesis_lut_0_81, 0.01 * m.thesis_lut_0_81);      // 25,662 within 1 %
  EXPECT_NEAR(1e8 / r81.fpga_max_node_cycles, m.thesis_fps_0_81, 1e-5);               // 1.94627
  // Table 5.2 under the thesis's arithmetic, to its four decimals. Ranges from node 0: the FPGA column
  // and the total (their CPU part is one measured range). Ranges from node 6 start at MultiThreshold 0, which the
  // thesis's FINN estimate leaves out and we count (394,272 cycles): 0.1 % above its column.
  for (const auto& row : m.algorithm2) {
    const auto c = evaluate(g, as_labelled(), {row.fpga});
    const double fpga = (c.fpga_compute + c.to_fpga + c.from_fpga).in(units::ms);
    if (row.fpga.begin == 0) {
      EXPECT_NEAR(fpga, row.fpga_ms, 1e-4) << row.fpga.end;
      EXPECT_NEAR(c.latency.in(units::ms), row.total_ms, 1e-4) << row.fpga.end;
    } else {
      EXPECT_NEAR(fpga - 394272 * 1e-8, row.fpga_ms, 1e-4) << row.fpga.end;
    }
  }
  const auto whole = evaluate(g, as_labelled(), {NodeRange{0, 146}});
  EXPECT_NEAR(whole.latency.in(units::ms), m.algorithm1.front().total_ms, 1e-4 * m.algorithm1.front().total_ms);
  EXPECT_FALSE(whole.fits);  // BRAM about 7x over
  EXPECT_EQ(whole.over_budget, "BRAM_18K");
  EXPECT_GT(whole.used.bram.value(), 7 * 144);
}

TEST(Study004, AsReportedTheArgminIsRange0To81) {
  const auto g = mobilenet_graph(net());
  const auto r = solve_partition(g, as_labelled());
  ASSERT_EQ(r.status, Status::optimal) << r.message;
  ASSERT_EQ(r.cost.fpga.size(), 1u);
  EXPECT_EQ(r.cost.fpga[0], (NodeRange{0, 81}));
  // The oracle: the thesis's own method, every range costed.
  double best = std::numeric_limits<double>::infinity();
  for (const auto& c : enumerate_partitions(g, as_labelled())) best = std::min(best, c.latency.value());
  EXPECT_NEAR(r.cost.latency.value(), best, 1e-12);
  EXPECT_NEAR(net().cpu_only_ms / r.cost.latency.in(units::ms), 2.8154, 1e-3);
  // Table 5.4 (Eq. 5.2, a CPU n times faster): its best column, to its two decimals.
  for (const auto& row : net().table_5_4) {
    Platform faster = as_labelled();
    faster.cpu_speedup = row.n;
    const auto best_n = solve_partition(g, faster);
    ASSERT_EQ(best_n.cost.fpga.size(), 1u);
    EXPECT_EQ(best_n.cost.fpga[0], (NodeRange{0, 81})) << row.n;
    EXPECT_NEAR(best_n.cost.latency.in(units::ms), row.min_ms, 0.006) << row.n;
  }
  // Algorithm 1 (no resource check): the whole network.
  PartitionOptions free;
  free.check_resources = false;
  const auto all = solve_partition(g, as_labelled(), free);
  ASSERT_EQ(all.cost.fpga.size(), 1u);
  EXPECT_EQ(all.cost.fpga[0], (NodeRange{0, 146}));
  // With the device's real 288 BRAM_18K the same arithmetic reaches range(0, 101), 270 BRAM_18K (digest R6).
  Platform real = kv260(net(), false);
  real.fpga.clock = 100 * units::GHz;
  const auto wider = solve_partition(g, real);
  ASSERT_EQ(wider.cost.fpga.size(), 1u);
  EXPECT_EQ(wider.cost.fpga[0], (NodeRange{0, 101}));
  EXPECT_DOUBLE_EQ(wider.cost.used.bram.value(), 270.0);
}

TEST(Study004, InConsistentUnitsTheCpuAloneIsOptimal) {
  const auto g = mobilenet_graph(net());
  for (bool thesis_budget : {true, false}) {
    const Platform p = kv260(net(), thesis_budget);
    const auto r = solve_partition(g, p);
    ASSERT_EQ(r.status, Status::optimal);
    EXPECT_TRUE(r.cost.fpga.empty());
    double best = std::numeric_limits<double>::infinity();
    for (const auto& c : enumerate_partitions(g, p)) best = std::min(best, c.latency.value());
    EXPECT_NEAR(r.cost.latency.value(), best, 1e-12);
    EXPECT_NEAR(r.cost.latency.in(units::ms), 356.46, 1e-9);
  }
  // The thesis's choice in consistent units: about 3.15 s, 8.8x slower than the CPU alone (digest 6.2, reading B).
  const auto choice = evaluate(g, kv260(net(), true), {NodeRange{0, 81}});
  EXPECT_NEAR(choice.latency.value(), 3.147, 0.005);
  // Pipelined, the FPGA can still raise the frame rate: the exact model against enumeration.
  const Platform p = kv260(net(), false);
  const auto piped = solve_partition(g, p, pipelined_options());
  EnumerateOptions eo;
  eo.schedule = Schedule::pipelined;
  double best = std::numeric_limits<double>::infinity();
  for (const auto& c : enumerate_partitions(g, p, eo)) best = std::min(best, c.interval.value());
  EXPECT_NEAR(piped.cost.interval.value(), best, 1e-12);
  EXPECT_GT(piped.cost.frames_per_second(), 1e3 / 356.46);
}

// (c): with every node at PE = SIMD = 1 in block RAM, the folded model is the
// plain partition model (a second formulation of the same problem); with
// all foldings it can only do better; and its answer is legal FINN and fits.
TEST(Study004, FoldedPartition) {
  const auto& m = net();
  const auto g = mobilenet_graph(m);
  const Platform p = kv260(m, false);
  const auto all = foldable_mobilenet(m);
  FoldableGraph unit = all;
  for (auto& seg : unit)
    for (auto& node : seg) {
      std::vector<NodeOption> keep;
      for (const auto& o : node.options)
        if (o.pe == 1 && o.simd == 1 && o.label.find("ultra") == std::string::npos) keep.push_back(o);
      ASSERT_EQ(keep.size(), 1u) << node.name;
      node.options = keep;
    }
  for (auto schedule : {Schedule::sequential, Schedule::pipelined}) {
    PartitionOptions o;
    o.schedule = schedule;
    const auto plain = solve_partition(g, p, o);
    const auto same = solve_folded_partition(g, unit, p, o);
    ASSERT_EQ(same.status, Status::optimal) << same.message;
    EXPECT_NEAR(same.cost.interval.value(), plain.cost.interval.value(), 1e-9 * plain.cost.interval.value());
    const auto best = solve_folded_partition(g, all, p, o);
    ASSERT_EQ(best.status, Status::optimal) << best.message;
    EXPECT_LE(best.cost.interval.value(), plain.cost.interval.value() * (1 + 1e-9));
    EXPECT_TRUE(best.cost.fits);
    ASSERT_FALSE(best.cost.fpga.empty());  // folded, the FPGA pays
    // Every chosen option is a legal FINN folding of its node.
    for (std::size_t s = 0; s < all.size(); ++s)
      for (std::size_t k = 0; k < all[s].size(); ++k) {
        const int c = best.choice[s][k];
        if (c < 0) continue;
        const auto& node = all[s][k];
        const auto& opt = node.options[std::size_t(c)];
        if (node.name.rfind("MVAU_L", 0) == 0) {
          const auto& l = m.layers[s];
          EXPECT_TRUE((finn::Mvau{double(l.out_ch), double(l.in_ch * l.k * l.k), 1, {}}.legal(opt.pe, opt.simd)))
              << node.name << " " << opt.label;
        }
        if (node.name.rfind("VVAU_", 0) == 0) {
          const auto& l = m.layers[s];
          EXPECT_TRUE((finn::Vvau{double(l.out_ch), double(l.k), 1, {}}.legal(opt.pe, opt.simd))) << opt.label;
        }
      }
    // Its FINN folding configuration reads back to the same folding.
    std::ostringstream config;
    write_finn_folding(config, all, best);
    const auto parsed = ychart::io::JsonValue::parse(config.str(), "folding.json");
    EXPECT_EQ(read_finn_folding(parsed, all), best.choice);
    for (const auto& [name, entry] : parsed.items()) {
      const bool mvau = name.rfind("MVAU_", 0) == 0, thresholds = name.rfind("Thresholding_", 0) == 0;
      if (mvau || thresholds) {
        EXPECT_EQ(entry.size(), mvau ? 3u : 1u) << name;  // PE, SIMD, ram_style; PE
      }
    }
    if (schedule == Schedule::pipelined) {
      EXPECT_GT(best.cost.frames_per_second(), 100.0);  // 249 on our data; the CPU alone: 2.8
    } else {
      EXPECT_LT(best.cost.latency.in(units::ms), m.cpu_only_ms);  // 77 ms on our data
    }
  }
}

TEST(Study004, LoaderNamesFileAndField) {
  const auto dir = std::filesystem::temp_directory_path() / "ychart_test_study004";
  std::filesystem::create_directories(dir);
  std::ifstream in(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "geel2023" / "mobilenet_v1.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto expect_error = [&](const std::string& from, const std::string& to, const std::string& words) {
    expect_load_error_after_edit(text, from, to, dir / "mobilenet_v1.json", [](const auto& file) { (void)load_mobilenet(file); }, words);
  };
  expect_error("\"in_dim\": 224", "\"in_dim\": 0", "in_dim = 0");
  expect_error("\"macs\": 10645344", "\"macs\": 10645345", "the shape gives");
  expect_error("\"kind\": \"dw\"", "\"kind\": \"fc\"", "kind `fc`");
  std::filesystem::remove_all(dir);
}

}  // namespace
