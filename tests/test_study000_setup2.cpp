// Study 000, Setup 2 on the transcribed (made-up) flydels: the exact integer
// split (with and without fused layers) against enumeration of every
// three-way split on small networks, and on VGG16 against a dynamic
// programme over the binding resource; the sequential-GP split checked for
// feasibility and against the integer optimum's bound; the alpha sweep's
// per-layer acceptance; and the loader's errors.
#include "study000/setup2.hpp"
#include "support/load_error_after_edit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <ychart/baselines/alpha_penalty.hpp>

#ifndef YCHART_EXAMPLES_DATA_DIR
#error "YCHART_EXAMPLES_DATA_DIR must name examples/data (tests/CMakeLists.txt defines it)"
#endif

namespace {

using namespace study000;

const Setup2& setup() {
  static const Setup2 s = load_setup2(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "carballo2022" / "setup2.json");
  return s;
}

// Every (cpu, gpu, fpga) split of every layer, costed by evaluate() (which
// knows nothing of the pruning or the model): the oracle.
double enumerate_best(const Setup2& s, const std::vector<ConvLayer>& net, bool fused, std::vector<LayerSplit>* arg) {
  double best = std::numeric_limits<double>::infinity();
  std::vector<LayerSplit> split(net.size());
  std::function<void(std::size_t)> go = [&](std::size_t i) {
    if (i == net.size()) {
      const auto c = evaluate(s, net, split, fused, true);
      if (c.fits && c.total_ms < best) best = c.total_ms, *arg = split;
      return;
    }
    for (int f = 0; f <= net[i].c; ++f)
      for (int m = 0; m + f <= net[i].c; ++m) {
        split[i] = {double(m), double(net[i].c - m - f), double(f)};
        go(i + 1);
      }
  };
  go(0);
  return best;
}

std::vector<ConvLayer> small_network(int seed) {
  // Early-network shapes (large maps, few channels), where the FPGA pays.
  std::vector<ConvLayer> net;
  const int cs[3][3] = {{3, 4, 5}, {2, 6, 3}, {5, 3, 4}};
  for (int i = 0; i < 3; ++i) {
    ConvLayer l;
    l.name = "l" + std::to_string(i);
    l.h = 112 >> (seed % 2), l.c = cs[seed % 3][i], l.n = 64 + 32 * i, l.k = 3, l.s = 1, l.p = 1;
    l.producer = i - 1;
    net.push_back(l);
  }
  return net;
}

Setup2 with_budget_fraction(double fraction, const std::vector<ConvLayer>& net) {
  Setup2 s = setup();
  for (auto& r : s.resources) {  // a fraction of what the whole network on the FPGA needs
    double all = 0;
    for (const auto& l : net) all += std::ceil(r.model.at(l, l.c));
    r.budget = std::max(1.0, std::floor(fraction * all));
  }
  return s;
}

TEST(Study000Setup2, ExactSplitMatchesEnumeration) {
  int checked = 0;
  for (int seed = 0; seed < 4; ++seed)
    for (double fraction : {0.15, 0.4, 1.0}) {
      const auto net = small_network(seed);
      const Setup2 s = with_budget_fraction(fraction, net);
      for (bool fused : {false, true}) {
        std::vector<LayerSplit> arg;
        const double best = enumerate_best(s, net, fused, &arg);
        const auto e = exact_network(s, net, fused);
        ASSERT_EQ(e.status, Status::optimal) << e.message;
        const auto c = evaluate(s, net, e.split, fused, true);
        EXPECT_TRUE(c.fits) << seed << " " << fraction;
        EXPECT_NEAR(e.latency_ms, best, 1e-9 * best) << "seed " << seed << " fraction " << fraction << " fused " << fused;
        for (std::size_t i = 0; i < net.size(); ++i)
          EXPECT_DOUBLE_EQ(e.split[i][cpu] + e.split[i][gpu] + e.split[i][fpga], net[i].c);
        ++checked;
      }
    }
  EXPECT_EQ(checked, 24);
}

// With the whole budget, some small networks fit entirely on the FPGA: then
// fusion must pay, and the exact fused optimum must be below the unfused one.
TEST(Study000Setup2, FusionPaysWhenWholeLayersFit) {
  bool some_fused = false;
  for (int seed = 0; seed < 4; ++seed) {
    const auto net = small_network(seed);
    const Setup2 s = with_budget_fraction(1.0, net);
    const auto plain = exact_network(s, net, false), fused = exact_network(s, net, true);
    ASSERT_EQ(fused.status, Status::optimal);
    EXPECT_LE(fused.latency_ms, plain.latency_ms + 1e-12);
    const auto c = evaluate(s, net, fused.split, true, true);
    if (c.fused_pairs > 0) {
      some_fused = true;
      EXPECT_LT(fused.latency_ms, plain.latency_ms);
    }
  }
  EXPECT_TRUE(some_fused);
}

// VGG16 with the real budget, where several resources bind at once: a
// depth-first branch and bound of the test's own (every FPGA count that fits
// alone, latencies from an independent scan of the CPU/GPU remainder,
// dominated counts dropped, bound = the remaining layers' fastest options)
// against the MIGP engine.
TEST(Study000Setup2, Vgg16ExactMatchesAnIndependentSearch) {
  const auto& s = setup();
  const auto& net = s.networks.at("vgg16");
  const auto e = exact_network(s, net, false);
  ASSERT_EQ(e.status, Status::optimal) << e.message;
  struct Option {
    double ms;
    std::vector<double> need;
  };
  std::vector<std::vector<Option>> options(net.size());
  for (std::size_t i = 0; i < net.size(); ++i) {
    const auto& l = net[i];
    double fastest = std::numeric_limits<double>::infinity();
    for (int f = 0; f <= l.c; ++f) {
      Option o;
      bool fits = true;
      for (const auto& r : s.resources) {
        o.need.push_back(f > 0 ? std::ceil(r.model.at(l, f) - 1e-9) : 0.0);
        fits = fits && o.need.back() <= r.budget;
      }
      if (!fits) break;  // the models grow with f: no larger count fits either
      double rest = std::numeric_limits<double>::infinity();
      for (int m = 0; m <= l.c - f; ++m)
        rest = std::min(rest, device_ms(s, cpu, l, m) + device_ms(s, gpu, l, l.c - f - m));
      o.ms = rest + device_ms(s, fpga, l, f) + comm_ms(s, l, f);
      if (o.ms < fastest) fastest = o.ms, options[i].push_back(o);  // else dominated: more resources, no faster
    }
  }
  std::vector<double> tail(net.size() + 1, 0.0);  // the fastest options of layers i.. (ignoring the budget)
  for (std::size_t i = net.size(); i-- > 0;) tail[i] = tail[i + 1] + options[i].back().ms;
  double best = std::numeric_limits<double>::infinity();
  std::vector<double> used(s.resources.size(), 0.0);
  long nodes = 0;
  std::function<void(std::size_t, double)> dfs = [&](std::size_t i, double so_far) {
    ++nodes;
    if (so_far + tail[i] >= best * (1 - 1e-12)) return;
    if (i == net.size()) {
      best = so_far;
      return;
    }
    for (auto o = options[i].rbegin(); o != options[i].rend(); ++o) {  // fastest first
      bool fits = true;
      for (std::size_t k = 0; k < used.size(); ++k) fits = fits && used[k] + o->need[k] <= s.resources[k].budget;
      if (!fits) continue;
      for (std::size_t k = 0; k < used.size(); ++k) used[k] += o->need[k];
      dfs(i + 1, so_far + o->ms);
      for (std::size_t k = 0; k < used.size(); ++k) used[k] -= o->need[k];
    }
  };
  dfs(0, 0.0);
  EXPECT_NEAR(e.latency_ms, best, 1e-9 * best) << nodes << " nodes";
  EXPECT_GT(nodes, 100);  // the budget binds: the search had to branch
}

TEST(Study000Setup2, SequentialGpSplitIsFeasibleAndNearTheIntegerOptimum) {
  const auto& s = setup();
  for (const char* name : {"alexnet", "resnet18"}) {
    const auto& net = s.networks.at(name);
    auto cm = continuous_model(s, net);
    SpOptions o;
    o.polish = true;
    const auto sol = cm.model.solve({}, o);
    ASSERT_EQ(sol.status(), Status::local_optimum) << name << ": " << sol.message();
    const auto split = split_of(cm, sol);
    for (std::size_t i = 0; i < net.size(); ++i)
      EXPECT_NEAR(split[i][cpu] + split[i][gpu] + split[i][fpga], net[i].c, 1e-6 * net[i].c) << net[i].name;
    const auto c = evaluate(s, net, split, false, false);
    // The budgets hold to the GP solvers' feasibility tolerance (a row stops
    // within 10 x SolveOptions::tolerance of its limit, in log space), not
    // to evaluate()'s roundoff: an active budget may end 1e-8 over.
    const double solver_feasibility = 10 * SolveOptions{}.tolerance;
    for (std::size_t k = 0; k < s.resources.size(); ++k)
      EXPECT_LE(c.resources[k], s.resources[k].budget * std::exp(solver_feasibility)) << name << " " << s.resources[k].name;
    EXPECT_NEAR(c.total_ms, sol.objective() * 1e3, 1e-9 * c.total_ms);  // the model is the evaluation
    // The continuous model pays every device's fixed cost (no share is 0),
    // so it cannot beat... nothing in general; but here it must lie within
    // 10 % of the exact integer split, which it relaxes apart from those costs.
    const auto e = exact_network(s, net, false);
    EXPECT_LT(std::abs(c.total_ms - e.latency_ms), 0.1 * e.latency_ms) << name;
    // and it is a local optimum: no feasible one-channel move between two
    // devices of a layer lowers it (a finite-difference KKT check).
    for (std::size_t i = 0; i < net.size(); ++i)
      for (std::size_t from = 0; from < 3; ++from)
        for (std::size_t to = 0; to < 3; ++to) {
          if (from == to || split[i][from] < 0.01 + 1e-3) continue;
          auto moved = split;
          const double d = std::min(1e-3, split[i][from] - 0.01);
          moved[i][from] -= d, moved[i][to] += d;
          const auto mc = evaluate(s, net, moved, false, false);
          if (mc.fits) {
            EXPECT_GE(mc.total_ms, c.total_ms - 1e-6 * c.total_ms) << name << " " << net[i].name;
          }
        }
  }
}

TEST(Study000Setup2, AlphaSweepStopsEachLayerWhenItsPartitionHolds) {
  const auto& s = setup();
  const auto& net = s.networks.at("alexnet");
  auto cm = continuous_model(s, net);
  ychart::baselines::AlphaSweepOptions ao;
  for (std::size_t i = 0; i < net.size(); ++i) {
    for (std::size_t d = 0; d < 3; ++d) cm.model.start(cm.channels[i][d], net[i].c / 3.0);
    ao.scale.push_back(1e-3);
  }
  ao.alpha_start = ao.alpha_step = 0.05;
  ao.freeze_satisfied = true;
  ao.max_iterations = 400;
  const auto r = ychart::baselines::alpha_penalty_sweep(cm.model, ao);
  ASSERT_GE(r.accepted, 0);
  const auto& it = r.iterations[std::size_t(r.accepted)];
  EXPECT_EQ(it.satisfied, static_cast<int>(net.size()));
  for (double ratio : it.ratio) EXPECT_GE(ratio, 1 - ao.tolerance);
  // The heuristic's answer is feasible for the resources and no better than
  // the local optimum of sequential GP on the same model.
  const auto split = split_of(cm, it.values);
  const auto c = evaluate(s, net, split, false, false);
  EXPECT_TRUE(c.fits);
  SpOptions o;
  o.polish = true;
  const auto sp = cm.model.solve({}, o);
  ASSERT_TRUE(sp.has_values());
  EXPECT_GE(c.total_ms, sp.objective() * 1e3 * (1 - 1e-3));
}

TEST(Study000Setup2, LoaderNamesFileAndField) {
  const auto dir = std::filesystem::temp_directory_path() / "ychart_test_study000_setup2";
  std::filesystem::create_directories(dir);
  std::ifstream in(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "carballo2022" / "setup2.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto expect_error = [&](const std::string& from, const std::string& to, const std::string& words) {
    expect_load_error_after_edit(text, from, to, dir / "setup2.json", [](const auto& file) { (void)load_setup2(file); }, words);
  };
  expect_error("\"name\": \"conv2\", \"h\": 27, \"c\": 64", "\"name\": \"conv2\", \"h\": 27, \"c\": 0", "c = 0 must be positive");
  expect_error("\"input\": \"layer1.3\"", "\"input\": \"layer9.9\"", "names no earlier layer");
  expect_error("\"budget\": 587", "\"budget\": -1", "must be positive");
  std::filesystem::remove_all(dir);
}

}  // namespace
