// Partitioning a sequential graph between a CPU and an FPGA
// (ychart/partition/): the exact model against enumeration of every
// partition on random graphs (one and two FPGA ranges, sequential and
// pipelined), the cost of a fixed partition against a hand computation,
// FPGA resource units, and bad input: typed errors and `infeasible` naming
// the binding resource.
#include <ychart/partition/folding_model.hpp>
#include <ychart/partition/partition_model.hpp>
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include "support/folded_partition_oracle.hpp"

#include <functional>
#include <random>

namespace {

using namespace ychart;
using namespace ychart::partition;

SequentialGraph random_graph(std::mt19937& rng, int segments) {
  std::uniform_real_distribution<double> u(0, 1);
  SequentialGraph g;
  g.name = "random";
  g.input = (1e4 + 1e5 * u(rng)) * units::B;
  int node = 0;
  for (int i = 0; i < segments; ++i) {
    Segment s;
    s.name = "s" + std::to_string(i);
    s.first_node = node;
    node += 1 + int(u(rng) * 5);
    s.end_node = node;
    s.cpu_time = (1 + 20 * u(rng)) * units::ms;
    s.fpga_cycles = 1e5 + 3e6 * u(rng);
    s.fpga_max_node_cycles = s.fpga_cycles * (0.3 + 0.7 * u(rng));
    s.output = (1e4 + 4e5 * u(rng)) * units::B;
    s.fpga.bram = (20 * u(rng)) * units::BRAM_18K;
    s.fpga.lut = (5000 * u(rng)) * units::LUT;
    s.fpga.dsp = (u(rng) < 0.3 ? 4.0 : 0.0) * units::DSP;
    s.has_threshold = i > 0 || u(rng) < 0.5;
    g.segments.push_back(s);
  }
  return g;
}

Platform platform() {
  Platform p;
  p.fpga.name = "test FPGA";
  p.fpga.clock = 100 * units::MHz;
  p.fpga.budget.bram = 30 * units::BRAM_36K;  // 60 BRAM_18K
  p.fpga.budget.lut = 12000 * units::LUT;
  p.fpga.budget.dsp = 8 * units::DSP;
  p.to_fpga = {1.0976 * (units::ms / units::MB), 0.3052 * units::ms};
  p.from_fpga = {0.5606 * (units::ms / units::MB), 0.0954 * units::ms};
  return p;
}

TEST(Partition, ExactModelMatchesEnumeration) {
  std::mt19937 rng(2026);
  int checked = 0, used_fpga = 0, two_ranges = 0, tied = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const auto g = random_graph(rng, 3 + trial % 10);
    Platform p = platform();
    if (trial % 3 == 0) p.fpga.clock = 1 * units::GHz;  // a fast FPGA: ranges pay off
    for (int k : {1, 2})
      for (auto schedule : {Schedule::sequential, Schedule::pipelined}) {
        EnumerateOptions eo;
        eo.max_fpga_ranges = k;
        eo.schedule = schedule;
        const auto all = enumerate_partitions(g, p, eo);
        double best = std::numeric_limits<double>::infinity();
        for (const auto& c : all) best = std::min(best, c.interval.value());
        PartitionOptions po;
        po.max_fpga_ranges = k;
        po.schedule = schedule;
        const auto r = solve_partition(g, p, po);
        ASSERT_EQ(r.status, Status::optimal) << r.message;
        EXPECT_NEAR(r.cost.interval.value(), best, 1e-9 * best) << "trial " << trial << " k " << k;
        EXPECT_TRUE(r.cost.fits);
        EXPECT_LE(int(r.cost.fpga.size()), k);
        if (schedule == Schedule::sequential) {
          EXPECT_NEAR(r.objective, r.cost.latency.value(), 1e-9 * best);  // the model is the evaluation
        } else {
          // The secondary objective (issue 31): the least latency among the
          // partitions at the least interval, as a second stage.
          double least_latency = std::numeric_limits<double>::infinity();
          int at_best = 0;
          for (const auto& c : all)
            if (c.interval.value() <= best * (1 + 1e-9)) {
              least_latency = std::min(least_latency, c.latency.value());
              ++at_best;
            }
          EXPECT_NEAR(r.cost.latency.value(), least_latency, 1e-9 * least_latency) << "trial " << trial << " k " << k;
          EXPECT_NEAR(r.objective, r.cost.interval.value(), 1e-9 * best);  // objective: the interval
          tied += at_best > 1;
        }
        used_fpga += !r.cost.fpga.empty();
        two_ranges += r.cost.fpga.size() == 2;
        ++checked;
      }
  }
  EXPECT_EQ(checked, 480);
  EXPECT_GT(used_fpga, 50);  // the tests exercise the FPGA side, not only the all-CPU answer
  EXPECT_GT(two_ranges, 5);
  EXPECT_GT(tied, 20);  // many pipelined optima are ties, so the latency check bites
}

// The public model with a row of one's own: segment s forbidden on the FPGA,
// or required there, against enumeration filtered to the partitions that
// keep the same rule.
TEST(Partition, PublicModelTakesRowsOfOnesOwn) {
  std::mt19937 rng(31);
  int checked = 0, moved = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const auto g = random_graph(rng, 3 + trial % 6);
    Platform p = platform();
    p.fpga.clock = 1 * units::GHz;
    const auto schedule = trial % 2 ? Schedule::pipelined : Schedule::sequential;
    EnumerateOptions eo;
    eo.max_fpga_ranges = 2;
    eo.schedule = schedule;
    const auto all = enumerate_partitions(g, p, eo);
    PartitionOptions po;
    po.max_fpga_ranges = 2;
    po.schedule = schedule;
    const double free_optimum = solve_partition(g, p, po).cost.interval.value();
    const std::size_t s = std::size_t(trial) % g.segments.size();
    const auto& seg = g.segments[s];
    for (bool required : {false, true}) {
      double best = std::numeric_limits<double>::infinity();
      for (const auto& c : all) {
        bool covered = false;
        for (const auto& r : c.fpga) covered = covered || (r.begin <= seg.first_node && seg.end_node <= r.end);
        if (covered == required) best = std::min(best, c.interval.value());
      }
      auto pm = build_partition_model(g, p, po);
      pm.model().subject_to(pm.on_fpga(s) == (required ? 1.0 : 0.0), "rule of my own");
      const auto r = pm.solve();
      if (!std::isfinite(best)) {
        EXPECT_EQ(r.status, Status::infeasible) << "trial " << trial;
        EXPECT_TRUE(r.binding.empty());  // the user's row, not a resource, is why
        continue;
      }
      ASSERT_EQ(r.status, Status::optimal) << r.message;
      EXPECT_NEAR(r.cost.interval.value(), best, 1e-9 * best) << "trial " << trial << " required " << required;
      moved += std::abs(best - free_optimum) > 1e-9 * best;
      ++checked;
    }
  }
  EXPECT_GT(checked, 60);
  EXPECT_GT(moved, 10);  // the rows change the answer, so the test can fail
  const auto g = random_graph(rng, 4);
  const auto pm = build_partition_model(g, platform());
  EXPECT_THROW((void)pm.on_fpga(4), model_error);
}

// Partition and folding together against brute force: every valid set of
// ranges, and for each FPGA segment every combination of its nodes' options.
TEST(Partition, FoldedModelMatchesBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  int checked = 0, cpu_only = 0, folded_not_fastest = 0;
  for (int trial = 0; trial < 48; ++trial) {
    SequentialGraph g;
    g.name = "random";
    g.input = 1e5 * units::B;
    const int n = 2 + trial % 3;
    FoldableGraph nodes(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      Segment s;
      s.name = "s" + std::to_string(i);
      s.first_node = 2 * i, s.end_node = 2 * i + 2;
      s.cpu_time = (1 + (trial % 4 == 0 ? 2 : 20) * u(rng)) * units::ms;
      s.output = (1e4 + 4e5 * u(rng)) * units::B;
      s.has_threshold = i > 0 || u(rng) < 0.5;
      s.fpga_cycles = s.fpga_max_node_cycles = 1;  // the options decide
      for (int k = 0; k < 1 + int(u(rng) * 2); ++k) {
        FoldableNode f{"n" + std::to_string(k), {}, {}};
        const double base = 1e5 + 2e6 * u(rng);
        for (int o = 0; o < 3; ++o) {
          NodeOption opt{"o" + std::to_string(o), double(1 << o), 1, base / (1 << (2 * o)) * (0.8 + 0.4 * u(rng)), {}, ""};
          opt.fpga.bram = std::floor(3 + 10 * u(rng) * (o + 1)) * units::BRAM_18K;
          opt.fpga.lut = (300 + 2000 * (o + 1) * u(rng)) * units::LUT;
          f.options.push_back(opt);
        }
        nodes[std::size_t(i)].push_back(f);
      }
      g.segments.push_back(s);
    }
    Platform p = platform();
    p.fpga.clock = (trial % 2 ? 1000.0 : 100.0) * units::MHz;
    p.fpga.budget.bram = (20 + 40 * u(rng)) * units::BRAM_18K;
    p.fpga.budget.lut = (3000 + 8000 * u(rng)) * units::LUT;
    for (auto schedule : {Schedule::sequential, Schedule::pipelined})
      for (int k : {1, 2}) {
        const auto oracle = brute_force_folded(g, nodes, p, 0, k, schedule);
        const double best = oracle.interval;
        PartitionOptions po;
        po.schedule = schedule;
        po.max_fpga_ranges = k;
        const auto r = solve_folded_partition(g, nodes, p, po);
        ASSERT_EQ(r.status, Status::optimal) << r.message;
        EXPECT_NEAR(r.cost.interval.value(), best, 1e-9 * best) << "trial " << trial;
        // Pipelined, the second stage (issue 31): the least latency at that interval.
        EXPECT_NEAR(r.cost.latency.value(), oracle.latency, 1e-9 * oracle.latency) << "trial " << trial;
        EXPECT_NEAR(r.objective, schedule == Schedule::pipelined ? r.cost.interval.value() : r.cost.latency.value(),
                    1e-9 * best);
        EXPECT_TRUE(r.cost.fits);
        cpu_only += r.cost.fpga.empty();
        for (std::size_t s = 0; s < r.choice.size(); ++s)
          for (int c : r.choice[s]) folded_not_fastest += c >= 0 && c < 2;
        ++checked;
      }
  }
  EXPECT_EQ(checked, 192);
  EXPECT_GT(cpu_only, 0);            // some optima leave the FPGA out
  EXPECT_GT(folded_not_fastest, 0);  // and some pick a cheaper, slower folding
}

TEST(Partition, EvaluateByHand) {
  SequentialGraph g;
  g.name = "three";
  g.input = 1e6 * units::B;
  for (int i = 0; i < 3; ++i) {
    Segment s;
    s.name = "s" + std::to_string(i);
    s.first_node = 2 * i, s.end_node = 2 * i + 2;
    s.cpu_time = 10.0 * (i + 1) * units::ms;
    s.fpga_cycles = 2e6, s.fpga_max_node_cycles = 1e6;
    s.output = 5e5 * units::B;
    s.fpga.bram = 10 * units::BRAM_18K;
    g.segments.push_back(s);
  }
  const Platform p = platform();
  const auto c = evaluate(g, p, {NodeRange{2, 6}});
  EXPECT_NEAR(c.cpu.in(units::ms), 10.0, 1e-12);
  EXPECT_NEAR(c.fpga_compute.in(units::ms), 2 * 2e6 / 1e8 * 1e3, 1e-9);  // 4e6 cycles at 100 MHz = 40 ms
  EXPECT_NEAR(c.to_fpga.in(units::ms), 1.0976 * 0.5 + 0.3052, 1e-12);   // segment 0's 0.5 MB output
  EXPECT_NEAR(c.from_fpga.in(units::ms), 0.5606 * 0.5 + 0.0954, 1e-12);
  EXPECT_NEAR(c.latency.in(units::ms), 10 + 40 + 0.5488 + 0.3052 + 0.2803 + 0.0954, 1e-9);
  EXPECT_DOUBLE_EQ(c.used.bram.value(), 20.0);
  const auto piped = evaluate(g, p, {NodeRange{2, 6}}, Schedule::pipelined);
  EXPECT_NEAR(piped.interval.in(units::ms), 10.0, 1e-12);  // max(CPU 10, link 1.23, FPGA 1e6 / 100 MHz = 10)
  EXPECT_NEAR(piped.frames_per_second(), 100.0, 1e-9);
  // Two adjacent ranges are one run: one transfer in, one out.
  const auto joined = evaluate(g, p, {NodeRange{2, 4}, NodeRange{4, 6}});
  EXPECT_NEAR(joined.latency.value(), c.latency.value(), 1e-15);
  EXPECT_EQ(joined.fpga.size(), 1u);
}

TEST(Partition, ResourceUnits) {
  // A 36 Kb block RAM is two 18 Kb halves: the KV260's 144 BRAM_36K are 288 BRAM_18K.
  const Constant<dim::bram> kv260 = 144 * units::BRAM_36K;
  EXPECT_DOUBLE_EQ(kv260.in(units::BRAM_18K), 288.0);
  // 10 ns per cycle at 100 MHz: 51,380,224 cycles take 0.514 s (1.94627 frames/s).
  const Constant<dim::time> t = 51380224.0 / (100 * units::MHz);
  EXPECT_NEAR(t.value(), 0.51380224, 1e-12);
  EXPECT_NEAR(1.0 / t.value(), 1.94627, 1e-5);
  EXPECT_EQ(units::symbol(units::BRAM_18K), "BRAM_18K");
}

TEST(Partition, BadInputIsATypedError) {
  std::mt19937 rng(1);
  const auto good = random_graph(rng, 4);
  const Platform p = platform();
  {
    auto g = good;
    g.segments[2].fpga_cycles = 0;  // a non-positive count
    EXPECT_THROW(evaluate(g, p, {}), graph_error);
    try {
      g.validate();
    } catch (const graph_error& e) {
      EXPECT_NE(std::string(e.what()).find("fpga_cycles"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("s2"), std::string::npos) << e.what();
    }
  }
  {
    auto g = good;
    g.segments[1].first_node += 1;  // a gap: not contiguous
    EXPECT_THROW(g.validate(), graph_error);
  }
  {
    auto g = good;
    g.segments[3].fpga.lut = -5 * units::LUT;
    EXPECT_THROW(g.validate(), graph_error);
  }
  const int mid = good.segments[1].first_node;
  EXPECT_THROW(evaluate(good, p, {NodeRange{mid + 1, good.node_count()}}), graph_error);  // not a cut point
  EXPECT_THROW(evaluate(good, p, {NodeRange{mid, mid}}), graph_error);                    // empty
  EXPECT_THROW(evaluate(good, p, {NodeRange{0, good.segments[2].first_node}, NodeRange{mid, good.node_count()}}),
               graph_error);  // overlapping
  PartitionOptions bad;
  bad.min_fpga_ranges = 2, bad.max_fpga_ranges = 1;
  EXPECT_THROW(solve_partition(good, p, bad), graph_error);
}

TEST(Partition, NothingFitsIsInfeasibleNamingTheResource) {
  std::mt19937 rng(7);
  auto g = random_graph(rng, 5);
  Platform p = platform();
  p.fpga.budget.bram = 0.5 * units::BRAM_18K;  // every segment needs more
  for (auto& s : g.segments) s.fpga.bram = std::max(1.0, s.fpga.bram.value()) * units::BRAM_18K;
  PartitionOptions must;
  must.min_fpga_ranges = 1;
  const auto r = solve_partition(g, p, must);
  EXPECT_EQ(r.status, Status::infeasible);
  EXPECT_NE(r.binding.find("BRAM_18K"), std::string::npos) << r.binding;
  EXPECT_EQ(r.binding.find("LUT"), std::string::npos) << r.binding;
  EXPECT_NE(r.message.find("BRAM_18K"), std::string::npos) << r.message;
  // Without the requirement the CPU alone is the answer.
  const auto free = solve_partition(g, p);
  EXPECT_EQ(free.status, Status::optimal);
  EXPECT_TRUE(free.cost.fpga.empty());
}

}  // namespace
