// The FINN folding configuration of a folded partition (finn_folding.hpp):
// on random graphs whose nodes have FINN's attribute sets (MVAU: PE, SIMD,
// ram_style; Thresholding: PE; FMPadding: SIMD; fixed nodes: none), the
// solved folding, checked against brute force, is written, parsed as JSON,
// checked entry by entry against the chosen options, and read back to the
// same choice and the same cost; and every malformed folding or file is an
// error that names the node or the place in the file.
#include <ychart/io/json.hpp>
#include <ychart/partition/evaluate.hpp>
#include <ychart/partition/finn_folding.hpp>
#include <ychart/partition/folding_model.hpp>

#include <gtest/gtest.h>

#include "support/folded_partition_oracle.hpp"

#include <random>
#include <set>
#include <sstream>
#include <string>

namespace {

using namespace ychart;
using namespace ychart::partition;

Platform platform(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  Platform p;
  p.fpga.name = "test FPGA";
  p.fpga.clock = 100 * units::MHz;
  p.fpga.budget.bram = (20 + 40 * u(rng)) * units::BRAM_18K;
  p.fpga.budget.lut = (3000 + 8000 * u(rng)) * units::LUT;
  p.fpga.budget.uram = (2 + 6 * u(rng)) * units::URAM;
  p.to_fpga = {1.0976 * (units::ms / units::MB), 0.3052 * units::ms};
  p.from_fpga = {0.5606 * (units::ms / units::MB), 0.0954 * units::ms};
  return p;
}

/// A node of kind 0 (MVAU), 1 (Thresholding), 2 (FMPadding) or 3 (fixed),
/// its options distinct in the attributes its kind has.
FoldableNode random_node(std::mt19937& rng, int kind, const std::string& name) {
  std::uniform_real_distribution<double> u(0, 1);
  FoldableNode f{name, {}, {kind == 0 || kind == 1, kind == 0 || kind == 2, kind == 0}};
  const double base = 1e5 + 2e6 * u(rng);
  if (kind == 3) {
    f.options.push_back(NodeOption{"fixed", 1, 1, base / 10, {}, ""});
    return f;
  }
  for (int o = 0; o < 3; ++o)
    for (const char* style : {"block", "ultra"}) {
      if (kind != 0 && std::string(style) == "ultra") continue;
      const double pe = kind == 2 ? 1 : double(1 << o), simd = kind == 2 ? double(1 << o) : double(1 + (kind == 0) * o);
      NodeOption opt{"o" + std::to_string(o) + style, pe, simd, base / (pe * simd) * (0.8 + 0.4 * u(rng)), {},
                     kind == 0 ? style : ""};
      const double memory = std::floor(3 + 8 * u(rng) * (o + 1));
      if (std::string(style) == "block") opt.fpga.bram = memory * units::BRAM_18K;
      else opt.fpga.uram = std::ceil(memory / 8) * units::URAM;
      opt.fpga.lut = (300 + 1500 * (o + 1) * u(rng)) * units::LUT;
      f.options.push_back(opt);
    }
  return f;
}

struct Instance {
  SequentialGraph g;
  FoldableGraph nodes;
};

Instance random_instance(std::mt19937& rng, int segments) {
  std::uniform_real_distribution<double> u(0, 1);
  Instance in;
  in.g.name = "random";
  in.g.input = 1e5 * units::B;
  in.nodes.resize(std::size_t(segments));
  int named = 0;
  for (int i = 0; i < segments; ++i) {
    Segment s;
    s.name = "s" + std::to_string(i);
    s.first_node = 2 * i, s.end_node = 2 * i + 2;
    s.cpu_time = (1 + 20 * u(rng)) * units::ms;
    s.output = (1e4 + 4e5 * u(rng)) * units::B;
    s.has_threshold = i > 0;
    s.fpga_cycles = s.fpga_max_node_cycles = 1;  // the options decide
    in.g.segments.push_back(s);
    const int count = 1 + int(u(rng) * 2);
    for (int k = 0; k < count; ++k) {
      // Every segment has an MVAU, so that a file can place it.
      const int kind = k == 0 ? 0 : int(u(rng) * 4);
      in.nodes[std::size_t(i)].push_back(random_node(rng, kind, "Node_" + std::to_string(named++)));
    }
  }
  return in;
}

std::string folding_text(const FoldableGraph& nodes, const std::vector<std::vector<int>>& choice) {
  std::ostringstream out;
  write_finn_folding(out, nodes, choice);
  return out.str();
}

/// The file holds exactly the FPGA nodes with attributes, each with exactly
/// its attributes at the chosen option's values.
void expect_entries(const io::JsonValue& config, const FoldableGraph& nodes, const std::vector<std::vector<int>>& choice) {
  std::set<std::string> expected{"Defaults"};
  EXPECT_EQ(config.at("Defaults").size(), 0u);
  for (std::size_t s = 0; s < nodes.size(); ++s)
    for (std::size_t k = 0; k < nodes[s].size(); ++k) {
      const auto& node = nodes[s][k];
      if (choice[s][k] < 0 || !node.finn.any()) {
        EXPECT_EQ(config.find(node.name), nullptr) << node.name;
        continue;
      }
      expected.insert(node.name);
      const auto& entry = config.at(node.name);
      const auto& o = node.options[std::size_t(choice[s][k])];
      EXPECT_EQ(entry.size(), std::size_t(node.finn.pe + node.finn.simd + node.finn.ram_style)) << node.name;
      if (node.finn.pe) {
        EXPECT_EQ(double(entry.at("PE").integer()), o.pe);
      }
      if (node.finn.simd) {
        EXPECT_EQ(double(entry.at("SIMD").integer()), o.simd);
      }
      if (node.finn.ram_style) {
        EXPECT_EQ(entry.at("ram_style").string(), o.ram_style);
      }
    }
  std::set<std::string> keys;
  for (const auto& [key, value] : config.items()) keys.insert(key);
  EXPECT_EQ(keys, expected);
}

TEST(FinnFolding, ProvenFoldingsRoundTrip) {
  std::mt19937 rng(2026);
  int checked = 0, on_fpga = 0, on_cpu = 0, ultra = 0;
  for (int trial = 0; trial < 36; ++trial) {
    const auto in = random_instance(rng, 2 + trial % 3);
    const Platform p = platform(rng);
    for (auto schedule : {Schedule::sequential, Schedule::pipelined}) {
      PartitionOptions po;
      po.schedule = schedule;
      po.max_fpga_ranges = 2;
      const auto r = solve_folded_partition(in.g, in.nodes, p, po);
      ASSERT_EQ(r.status, Status::optimal) << r.message;
      const double best = brute_force_folded_interval(in.g, in.nodes, p, 0, 2, schedule);
      EXPECT_NEAR(r.cost.interval.value(), best, 1e-9 * best) << "trial " << trial;

      std::ostringstream out;
      write_finn_folding(out, in.nodes, r);
      const auto config = io::JsonValue::parse(out.str(), "folding.json");
      expect_entries(config, in.nodes, r.choice);
      const auto back = read_finn_folding(config, in.nodes);
      ASSERT_EQ(back.size(), r.choice.size());
      for (std::size_t s = 0; s < back.size(); ++s) {
        const bool fpga = !r.choice[s].empty() && r.choice[s][0] >= 0;
        const auto expected = fpga ? r.choice[s] : std::vector<int>(in.nodes[s].size(), -1);
        EXPECT_EQ(back[s], expected) << "trial " << trial << " segment " << s;
        on_fpga += fpga, on_cpu += !fpga;
        for (std::size_t k = 0; fpga && k < back[s].size(); ++k)
          ultra += in.nodes[s][k].options[std::size_t(back[s][k])].ram_style == "ultra";
      }
      // The folding read back costs what the solve reported.
      const auto again = evaluate(with_folding(in.g, in.nodes, back), p, r.cost.fpga, schedule);
      EXPECT_NEAR(again.interval.value(), r.cost.interval.value(), 1e-12 * r.cost.interval.value());
      EXPECT_NEAR(again.latency.value(), r.cost.latency.value(), 1e-12 * r.cost.latency.value());
      ++checked;
    }
  }
  EXPECT_EQ(checked, 72);
  EXPECT_GT(on_fpga, 20);  // the round trip is exercised on both sides
  EXPECT_GT(on_cpu, 20);
  EXPECT_GT(ultra, 0);     // and with both memory styles
}

FoldableGraph two_segments() {
  std::mt19937 rng(5);
  FoldableGraph nodes(2);
  nodes[0].push_back(random_node(rng, 0, "MVAU_0"));
  nodes[0].push_back(random_node(rng, 1, "Thresholding_0"));
  nodes[0].push_back(random_node(rng, 3, "LabelSelect_0"));
  nodes[1].push_back(random_node(rng, 2, "FMPadding_0"));
  return nodes;
}

TEST(FinnFolding, WritesFinnsFormat) {
  const auto nodes = two_segments();
  // Options: MVAU o0 block (PE 1, SIMD 1) ... o2 ultra (PE 4, SIMD 3); Thresholding PE 1, 2, 4.
  const auto text = folding_text(nodes, {{5, 2, 0}, {-1}});
  const auto config = io::JsonValue::parse(text, "folding.json");
  EXPECT_EQ(config.items()[0].first, "Defaults");
  EXPECT_EQ(config.at("MVAU_0").at("PE").integer(), 4);
  EXPECT_EQ(config.at("MVAU_0").at("SIMD").integer(), 3);
  EXPECT_EQ(config.at("MVAU_0").at("ram_style").string(), "ultra");
  EXPECT_EQ(config.at("Thresholding_0").at("PE").integer(), 4);
  EXPECT_EQ(config.at("Thresholding_0").size(), 1u);
  EXPECT_EQ(config.find("LabelSelect_0"), nullptr);  // no attributes
  EXPECT_EQ(config.find("FMPadding_0"), nullptr);    // on the CPU
  EXPECT_EQ(config.size(), 3u);
  EXPECT_NE(text.find("\"PE\": 4"), std::string::npos) << text;  // integers, as FINN's attributes are
  EXPECT_EQ(read_finn_folding(config, nodes), (std::vector<std::vector<int>>{{5, 2, 0}, {-1}}));
}

TEST(FinnFolding, MalformedFoldingsAreNamedErrors) {
  const auto nodes = two_segments();
  auto expect_error = [](const FoldableGraph& n, const std::vector<std::vector<int>>& choice, const std::string& words) {
    try {
      (void)folding_text(n, choice);
      ADD_FAILURE() << "no error for " << words;
    } catch (const graph_error& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  expect_error(nodes, {{0, 0, 0}}, "a choice for 1 segments, 2 segments");
  expect_error(nodes, {{0, 0}, {-1}}, "segment 0 has 3 nodes");
  expect_error(nodes, {{6, 0, 0}, {-1}}, "node MVAU_0 has no option 6");
  auto renamed = nodes;
  renamed[1][0].name = "MVAU_0";
  expect_error(renamed, {{0, 0, 0}, {0}}, "two nodes are called MVAU_0");
  renamed[1][0].name = "defaults";
  expect_error(renamed, {{-1, -1, -1}, {0}}, "FINN reserves \"Defaults\"");
  auto bad = nodes;
  bad[0][0].options[0].pe = 1.5;
  expect_error(bad, {{0, 0, 0}, {-1}}, "PE = 1.5");
  bad = nodes;
  bad[0][0].options[0].ram_style = "";
  expect_error(bad, {{0, 0, 0}, {-1}}, "ram_style \"\" is not one of FINN's");
  FoldedPartition none;
  none.status = Status::infeasible;
  std::ostringstream out;
  EXPECT_THROW(write_finn_folding(out, nodes, none), model_error);
}

TEST(FinnFolding, MalformedFilesAreErrorsAtTheEntry) {
  const auto nodes = two_segments();
  auto expect_error = [&](const std::string& text, const std::string& words) {
    try {
      (void)read_finn_folding(io::JsonValue::parse(text, "folding.json"), nodes);
      ADD_FAILURE() << "no error for " << text;
    } catch (const io::parse_error& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("folding.json"), std::string::npos) << e.what();
    }
  };
  const std::string mvau = R"("MVAU_0": {"PE": 2, "SIMD": 2, "ram_style": "block"})";
  const std::string thresholds = R"("Thresholding_0": {"PE": 2})";
  expect_error("{" + mvau + ", " + thresholds + R"(, "MVAU_9": {"PE": 1}})", "names no node");
  expect_error(R"({"MVAU_0": {"PE": 3, "SIMD": 2, "ram_style": "block"}, )" + thresholds + "}",
               "PE=3 SIMD=2 ram_style=block is none of node MVAU_0's options");
  expect_error("{" + mvau + "}", "no entry for Thresholding_0");
  expect_error(R"({"MVAU_0": {"PE": 2, "ram_style": "block"}, )" + thresholds + "}", "missing field \"SIMD\"");
  expect_error(R"({"MVAU_0": 4, )" + thresholds + "}", "expected an object");
  expect_error(R"({"Thresholding_0": {"PE": 2.5}, )" + mvau + "}", "expected an integer");
  // FINN's other attributes and its defaults are not ours to read.
  const auto choice = read_finn_folding(
      io::JsonValue::parse(R"({"Defaults": {"ram_style": ["block", ["MVAU_hls"]]}, "MVAU_0": {"PE": 2, "SIMD": 2, )"
                           R"("ram_style": "block", "mem_mode": "internal_decoupled"}, )" + thresholds + "}",
                           "folding.json"),
      nodes);
  EXPECT_EQ(choice, (std::vector<std::vector<int>>{{2, 1, 0}, {-1}}));
}

}  // namespace
