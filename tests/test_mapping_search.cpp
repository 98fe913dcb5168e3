// The mapper that proves, against the pruned exhaustive mapper on small
// random layers and hierarchies (every objective), with its infeasible
// cases and bad input; and the reuse rule it relies on, that at each level
// only which loop group is innermost matters, against random full orders;
// the energy-latency front against the Pareto set of every mapping, and a
// network's totals; one thread against two, and a search the time limit stops.
#include <ychart/baselines/mappers.hpp>
#include <ychart/mapping/detail/orders.hpp>
#include <ychart/mapping/load.hpp>
#include <ychart/mapping/network.hpp>
#include <ychart/mapping/pareto.hpp>
#include <ychart/mapping/search.hpp>

#include "support/mapping_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <tuple>

using namespace ychart;
using namespace ychart::mapping;

TEST(MappingSearch, EqualsExhaustiveEnumerationOnRandomLayersForEveryObjective) {
  std::mt19937_64 rng(32);
  int cases = 0, nontrivial = 0;
#ifdef YCHART_TESTS_UNDER_SANITIZER
  const int trials = 20;  // the sanitizers look for memory errors (88 s for 40 at -O0); 200 run in the other builds
#else
  const int trials = 200;
#endif
  for (int trial = 0; trial < trials; ++trial) {
    const auto w = test::random_workload(rng, 48);
    const auto a = test::random_architecture(rng);
    for (Objective o : {Objective::energy, Objective::latency, Objective::energy_delay}) {
      const auto exhaustive = baselines::exhaustive_mapper(w, a, o);
      ASSERT_TRUE(exhaustive.complete);
      SearchOptions options;
      options.objective = o;
      options.warm_start_samples = trial % 2 ? 0 : 50;  // with and without a first incumbent
      options.threads = 1 + static_cast<unsigned>(trial / 2 % 3);  // one thread, or shapes shared by two or three
      // One pass; or a first pass of 1 or 4 nodes per shape, so that most
      // shapes are taken up again where they stopped; or the default.
      options.first_pass_nodes = std::array<std::uint64_t, 4>{0, 1, 4, 256}[static_cast<std::size_t>(trial / 6 % 4)];
      const auto r = search_mapping(w, a, options);
      ASSERT_EQ(r.status, Status::optimal) << "trial " << trial << " " << name(o);
      ASSERT_TRUE(exhaustive.best.has_value());
      EXPECT_NEAR(r.objective, exhaustive.objective, 1e-9 * exhaustive.objective) << "trial " << trial << " " << name(o);
      EXPECT_NEAR(objective_value(*r.evaluation, o), r.objective, 1e-9 * r.objective);
      EXPECT_TRUE(r.evaluation->fits);
      EXPECT_EQ(r.bound, r.objective);
      if (exhaustive.fitting < exhaustive.evaluated) ++nontrivial;
      ++cases;
    }
  }
  EXPECT_EQ(cases, 3 * trials);
  // In many cases the capacities forbid some mappings (over half of the 600
  // in the full run; 27 of the sanitizers' 60).
  EXPECT_GT(nontrivial, cases * 2 / 5);
}

// A search stopped by the time limit, with one thread or two, returns a
// mapping no better than the proven optimum and a bound no higher.
TEST(MappingSearch, StoppedByTheTimeLimitItBoundsTheOptimum) {
  const std::string data = std::string(YCHART_EXAMPLES_DATA_DIR) + "/mapping/";
  const auto a = load_architecture(data + "eyeriss_like.yaml");
  const auto vgg = load_network(data + "vgg16.yaml");
  const auto layer = std::find_if(vgg.layers.begin(), vgg.layers.end(), [](const Workload& w) { return w.name == "conv5_1"; });
  ASSERT_NE(layer, vgg.layers.end());
  SearchOptions full;
  full.threads = 1;
  const auto proven = search_mapping(*layer, a, full);
  ASSERT_EQ(proven.status, Status::optimal);
  full.threads = 2;
  const auto proven_twice = search_mapping(*layer, a, full);
  ASSERT_EQ(proven_twice.status, Status::optimal);
  EXPECT_NEAR(proven_twice.objective, proven.objective, 1e-9 * proven.objective);
  full.first_pass_nodes = 0;  // one pass, every shape in full
  const auto one_pass = search_mapping(*layer, a, full);
  ASSERT_EQ(one_pass.status, Status::optimal);
  EXPECT_NEAR(one_pass.objective, proven.objective, 1e-9 * proven.objective);
  // Stopped in the first pass, or
  // in the second (one node per shape in the first, and 10 ms), with the
  // shapes left over taken up where they stopped.
  for (const auto& [threads, first_pass, limit] : {std::tuple{1u, 256u, 1e-3}, std::tuple{2u, 256u, 1e-3},
                                                   std::tuple{1u, 1u, 1e-2}, std::tuple{2u, 1u, 1e-2}}) {
    SearchOptions quick;
    quick.threads = threads, quick.first_pass_nodes = first_pass, quick.time_limit = limit;
    const auto r = search_mapping(*layer, a, quick);
    ASSERT_EQ(r.status, Status::time_limit) << threads << " " << first_pass;
    ASSERT_TRUE(r.mapping.has_value());
    EXPECT_GE(r.objective, proven.objective * (1 - 1e-9));
    EXPECT_LE(r.bound, proven.objective * (1 + 1e-9));
    EXPECT_GE(r.bound, 0);
    EXPECT_NEAR(r.gap, (r.objective - r.bound) / r.objective, 1e-12);
  }
}

TEST(MappingSearch, OnlyTheInnermostLoopGroupOfALevelChangesACount) {
  std::mt19937_64 rng(5040);
  for (int trial = 0; trial < 300; ++trial) {
    const auto w = test::random_workload(rng, 600);
    const auto a = test::random_architecture(rng);
    auto m = baselines::random_mapping(w, a, rng);
    for (auto& lm : m.levels) {
      lm.order = {all_dims.begin(), all_dims.end()};
      std::shuffle(lm.order.begin(), lm.order.end(), rng);
    }
    auto grouped = m;
    for (auto& lm : grouped.levels) {  // the group of the innermost loop that runs, innermost whole
      Tensor g = Tensor::weights;
      for (auto it = lm.order.rbegin(); it != lm.order.rend(); ++it)
        if (at(lm.temporal, *it) > 1) {
          g = ignored_by(*it);
          break;
        }
      lm.order = mapping::detail::order_with_innermost(g);
    }
    const auto e = evaluate(w, a, m), eg = evaluate(w, a, grouped);
    for (std::size_t l = 0; l < a.levels.size(); ++l)
      for (Tensor t : all_tensors) {
        EXPECT_LE(eg.levels[l][t].reads, e.levels[l][t].reads);
        EXPECT_LE(eg.levels[l][t].writes, e.levels[l][t].writes);
      }
  }
}

namespace {

Architecture two_levels() {
  StorageLevel rf{"RF", {true, true, true}, {}, 4, 1 * units::pJ, 1 * units::pJ, std::nullopt, 2, 1, true};
  StorageLevel dram{"DRAM", {true, true, true}, {}, std::nullopt, 100 * units::pJ, 100 * units::pJ, 1.0, 2, 2, false};
  return {"two", {rf, dram}, 0.5 * units::pJ, 1 * units::GHz};
}

}  // namespace

TEST(MappingSearch, ACapacityNoTileFitsIsInfeasibleWithTheLevelAndTheTensor) {
  const auto w = Workload::convolution("c", 1, 4, 4, 3, 3, 1, 1);
  auto a = two_levels();
  a.levels[0].shared_capacity = 2;  // three tensors, one word each at least
  auto r = search_mapping(w, a);
  EXPECT_EQ(r.status, Status::infeasible);
  EXPECT_EQ(r.infeasible_level, "RF");
  EXPECT_EQ(r.infeasible_tensor, "shared");
  a = two_levels();
  a.levels[1].capacity[static_cast<std::size_t>(Tensor::weights)] = 15;  // the 16 weights must live in DRAM
  r = search_mapping(w, a);
  EXPECT_EQ(r.status, Status::infeasible);
  EXPECT_EQ(r.infeasible_level, "DRAM");
  EXPECT_EQ(r.infeasible_tensor, "weights");
  SearchOptions tight;
  tight.max_latency = Constant<dim::time>(1e-12);
  r = search_mapping(w, two_levels(), tight);
  EXPECT_EQ(r.status, Status::infeasible);
  EXPECT_TRUE(r.infeasible_level.empty());
}

TEST(MappingSearch, BadInputNamesTheElement) {
  const auto expect_element = [](auto f, const std::string& element) {
    try {
      f();
      ADD_FAILURE() << "no error";
    } catch (const loopnest_error& e) {
      EXPECT_EQ(e.element, element) << e.what();
    }
  };
  auto w = Workload::convolution("c", 1, 4, 4, 3, 3, 1, 1);
  const auto a = two_levels();
  expect_element([&] { auto bad = w; at(bad.extent, Dim::K) = 0; search_mapping(bad, a); }, "c");
  expect_element([&] { auto bad = a; bad.levels[0].capacity[0] = 0; search_mapping(w, bad); }, "RF");
  expect_element([&] { auto bad = a; bad.levels[1].read_energy = Constant<dim::energy>(-1.0); search_mapping(w, bad); }, "DRAM");
  expect_element([&] { auto bad = a; bad.levels[1].keeps[2] = false; search_mapping(w, bad); }, "DRAM");
  SearchOptions too_many;
  too_many.threads = 65;
  EXPECT_THROW(search_mapping(w, a, too_many), loopnest_error);
  Mapping m;
  m.levels.resize(2);
  at(m.levels[1].temporal, Dim::K) = 4, at(m.levels[1].temporal, Dim::C) = 4, at(m.levels[1].temporal, Dim::P) = 3;
  at(m.levels[1].temporal, Dim::Q) = 3;
  EXPECT_NO_THROW(evaluate(w, a, m));
  auto wide = m;
  at(wide.levels[0].spatial_x, Dim::K) = 4, at(wide.levels[1].temporal, Dim::K) = 1;  // RF fans out to 2
  expect_element([&] { evaluate(w, a, wide); }, "RF");
  auto twice = m;
  twice.levels[1].order = {Dim::K, Dim::K, Dim::C, Dim::P, Dim::Q, Dim::R, Dim::S};
  expect_element([&] { evaluate(w, a, twice); }, "DRAM");
  auto short_k = m;
  at(short_k.levels[1].temporal, Dim::K) = 2;
  expect_element([&] { evaluate(w, a, short_k); }, "K");
}

TEST(MappingFront, EqualsTheParetoSetOfEveryMapping) {
  std::mt19937_64 rng(77);
  int fronts = 0, longer = 0;
#ifdef YCHART_TESTS_UNDER_SANITIZER
  const int trials = 10;  // 30 took 79 s under the sanitizers; 30 run in the other builds
#else
  const int trials = 30;
#endif
  for (int trial = 0; trial < trials; ++trial) {
    const auto w = test::random_workload(rng, 36);
    const auto a = test::random_architecture(rng);
    std::vector<std::pair<double, double>> all;  // (latency, energy) of every mapping that fits
    baselines::exhaustive_mapper(w, a, Objective::energy, 50'000'000,
                                 [&](const Evaluation& e) { all.push_back({e.latency.value(), e.energy.value()}); });
    std::sort(all.begin(), all.end());
    std::vector<std::pair<double, double>> pareto;  // by latency; each strictly less energy than the faster ones
    for (const auto& p : all)
      if (pareto.empty() || p.second < pareto.back().second * (1 - 1e-9)) {
        if (!pareto.empty() && p.first <= pareto.back().first * (1 + 1e-9)) continue;
        pareto.push_back(p);
      }
    const auto front = energy_latency_front(w, a);
    ASSERT_TRUE(front.exact);
    ASSERT_EQ(front.points.size(), pareto.size()) << "trial " << trial;
    for (std::size_t i = 0; i < pareto.size(); ++i) {
      EXPECT_NEAR(front.points[i].latency.value(), pareto[i].first, 1e-9 * pareto[i].first) << "trial " << trial;
      EXPECT_NEAR(front.points[i].energy.value(), pareto[i].second, 1e-9 * pareto[i].second) << "trial " << trial;
    }
    ++fronts;
    if (pareto.size() > 1) ++longer;
  }
  EXPECT_EQ(fronts, trials);
  EXPECT_GT(longer, trials / 3);  // most fronts have more than one point
}

TEST(MappingNetwork, TotalsAreTheLayersTimesTheirRepeats) {
  std::mt19937_64 rng(50);
  const auto a = test::random_architecture(rng);
  Network n{"three", {test::random_workload(rng, 40), test::random_workload(rng, 40), test::random_workload(rng, 40)}, {1, 3, 2}};
  const auto r = search_network(n, a);
  ASSERT_TRUE(r.proven);
  double energy = 0, latency = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto alone = search_mapping(n.layers[i], a);
    EXPECT_NEAR(r.layers[i].objective, alone.objective, 1e-12 * alone.objective);
    energy += static_cast<double>(n.repeat[i]) * r.layers[i].evaluation->energy.value();
    latency += static_cast<double>(n.repeat[i]) * r.layers[i].evaluation->latency.value();
  }
  EXPECT_NEAR(r.energy.value(), energy, 1e-12 * energy);
  EXPECT_NEAR(r.latency.value(), latency, 1e-12 * latency);
  n.repeat = {1, 0, 1};
  EXPECT_THROW(search_network(n, a), loopnest_error);
}
