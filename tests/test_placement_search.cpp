// least_ii_by_placement (pipeline/placement_search.hpp) against enumeration
// of every compute-unit count on random small applications, under every
// schedule and every switch of study 001 chapter 4's model, on the AWS F1
// platform of examples/data/shan2021.
#include <ychart/pipeline/load.hpp>
#include <ychart/pipeline/placement_search.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace ychart;
using namespace ychart::pipeline;

namespace search_tree = ychart::pipeline::detail;
using App = Application<FpgaResources>;
using Arch = Platform<FpgaResources>;

Arch aws_f1(int devices) {
  auto arch = load_architecture<FpgaResources>(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "shan2021" /
                                               "aws_f1.json");
  arch.group().devices = devices;
  return arch;
}

struct Instance {
  App app;
  EvaluationOptions<FpgaResources> options;
  std::string description;
};

/// Tasks like the thesis's kernels (DSP the binding resource, clocks of
/// 200-250 MHz, megabytes of data), a chain with now and then an edge that
/// skips a task, and a model with random switches.
Instance random_instance(std::mt19937& rng, int tasks, double cap, double least_dsp) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto between = [&](double a, double b) { return a + (b - a) * u(rng); };
  App app("random");
  for (int k = 0; k < tasks; ++k) {
    Task<FpgaResources> t;
    t.name = "T" + std::to_string(k);
    t.data_in = between(0.05, 2.0) * units::MB;
    t.data_out = between(0.05, 2.0) * units::MB;
    t.constants = between(0.0, 1.0) * units::MB;
    t.input_scaling = u(rng) < 0.5 ? 0.0 : 1.0;
    auto& impl = t.implementation();
    impl.use.dsp = between(least_dsp, 2 * least_dsp);
    impl.use.lut = between(0.0, least_dsp);
    impl.wcet = between(0.2, 3.0) * units::ms;
    impl.clock = between(200.0, 250.0) * units::MHz;
    impl.read_write_ports = 1 + static_cast<int>(u(rng) < 0.3);
    app.add(t);
  }
  for (int k = 1; k < tasks; ++k) app.connect(k - 1, k, app.kernel(k).data_in);
  if (tasks >= 3 && u(rng) < 0.4) app.connect(0, 2, app.kernel(2).data_in * 0.5);
  EvaluationOptions<FpgaResources> o;
  const Schedule schedules[] = {Schedule::sequential_phases, Schedule::double_buffered, Schedule::compute_only};
  o.model.schedule = schedules[std::uniform_int_distribution<int>(0, 2)(rng)];
  o.model.locality = u(rng) < 0.8;
  o.model.memory_contention = u(rng) < 0.8;
  o.model.clock_degradation = u(rng) < 0.8;
  o.model.shared_device_clock = u(rng) < 0.8;
  o.cap() = uniform_resources<FpgaResources>(cap);
  std::string d = std::to_string(tasks) + " tasks, cap " + std::to_string(cap) + ", " + to_string(o.model.schedule) +
                  (o.model.locality ? ", locality" : "") + (o.model.memory_contention ? ", contention" : "") +
                  (o.model.clock_degradation ? ", degradation" : "") + (o.model.shared_device_clock ? ", shared clock" : "");
  return {std::move(app), o, d};
}

/// The least II over every count matrix whose cells fit the cap on their
/// own (a cell above cap / use breaks the cap whatever the rest is).
std::optional<double> least_ii_by_enumeration(const App& app, const Arch& arch,
                                              const EvaluationOptions<FpgaResources>& options) {
  const std::size_t K = app.size(), F = static_cast<std::size_t>(arch.devices());
  ychart::pipeline::detail::MappingEvaluator<FpgaResources> ev(app, arch, options);
  std::vector<int> most(K);
  for (std::size_t k = 0; k < K; ++k)
    most[k] = static_cast<int>(std::floor(options.cap()->dsp / app.kernel(k).implementation().use.dsp + 1e-9));
  Mapping m;
  m.cus.assign(K, std::vector<int>(F, 0));
  std::optional<double> best;
  auto visit = [&](auto& self, std::size_t cell) -> void {
    if (cell == K * F) {
      for (std::size_t k = 0; k < K; ++k)
        if (m.total(k) == 0) return;
      const auto e = ev.run(m);
      if (e.feasible && (!best || e.ii.value() < *best)) best = e.ii.value();
      return;
    }
    const std::size_t k = cell / F, d = cell % F;
    for (int c = 0; c <= most[k]; ++c) {
      m.cus[k][d] = c;
      self(self, cell + 1);
    }
    m.cus[k][d] = 0;
  };
  visit(visit, 0);
  return best;
}

/// Checks the search against enumeration; returns whether any mapping is feasible.
bool expect_equals_enumeration(const Instance& in, const Arch& arch) {
  SCOPED_TRACE(in.description + ", " + std::to_string(arch.devices()) + " devices");
  const auto r = least_ii_by_placement(in.app, arch, in.options);
  const auto oracle = least_ii_by_enumeration(in.app, arch, in.options);
  if (!oracle) {
    EXPECT_EQ(r.status, Status::infeasible);
    EXPECT_FALSE(r.mapping.has_value());
    search_tree::PlacementTree<FpgaResources> grown(in.app, arch, in.options, 60.0,
                                                    search_tree::TaskOrder::grown_along_edges);
    EXPECT_TRUE(grown.search());
    EXPECT_FALSE(grown.best().has_value());
    return false;
  }
  EXPECT_EQ(r.status, Status::optimal);
  if (!r.mapping || !r.evaluation) {
    ADD_FAILURE() << "no mapping, where enumeration finds II " << *oracle;
    return true;
  }
  EXPECT_TRUE(r.evaluation->feasible);
  EXPECT_NEAR(r.evaluation->ii.value(), *oracle, 1e-9 * *oracle);
  // The answer is evaluate()'s own pricing of the mapping returned.
  EXPECT_EQ(evaluate(in.app, arch, *r.mapping, in.options).ii.value(), r.evaluation->ii.value());
  // Each task order alone is a complete search (the function runs the
  // later ones only when the first times out, which these instances never do).
  for (const auto order : {search_tree::TaskOrder::heaviest_first, search_tree::TaskOrder::grown_along_edges,
                           search_tree::TaskOrder::index}) {
    search_tree::PlacementTree<FpgaResources> tree(in.app, arch, in.options, 60.0, order);
    EXPECT_TRUE(tree.search());
    const auto best = tree.best();
    if (!best) {
      ADD_FAILURE() << "order " << static_cast<int>(order) << " finds no mapping";
      continue;
    }
    EXPECT_NEAR(evaluate(in.app, arch, *best, in.options).ii.value(), *oracle, 1e-9 * *oracle)
        << "order " << static_cast<int>(order);
  }
  return true;
}

struct Sweep {
  unsigned seed;
  int devices, instances;
  double least_cap, most_cap, least_dsp;
  int least_tasks, task_choices;  // instance i has least_tasks + i % task_choices tasks
};

/// Random instances of one sweep against enumeration; the number with a
/// feasible mapping.
int feasible_of_sweep(const Sweep& s) {
  std::mt19937 rng(s.seed);
  const auto arch = aws_f1(s.devices);
  int feasible = 0;
  for (int i = 0; i < s.instances; ++i) {
    const double cap = std::uniform_real_distribution<double>(s.least_cap, s.most_cap)(rng);
    feasible += expect_equals_enumeration(
        random_instance(rng, s.least_tasks + i % s.task_choices, cap, s.least_dsp), arch);
  }
  return feasible;
}

// Each sweep mostly has mappings to compare, not only infeasible ones.
TEST(PlacementSearch, TwoDevicesEqualEnumeration) {
  EXPECT_GE(feasible_of_sweep({20261129, 2, 60, 30.0, 70.0, 15.0, 2, 2}), 40);
}

TEST(PlacementSearch, ThreeDevicesEqualEnumeration) {
  EXPECT_GE(feasible_of_sweep({11292026, 3, 30, 25.0, 45.0, 15.0, 2, 2}), 20);
}

TEST(PlacementSearch, FourTasksEqualEnumeration) {
  EXPECT_GE(feasible_of_sweep({4, 2, 10, 33.0, 44.0, 11.0, 4, 1}), 5);
}

// A cap below every task's one CU: infeasible, by the search and by enumeration.
TEST(PlacementSearch, NoMappingUnderTheCapIsInfeasible) {
  std::mt19937 rng(7);
  const auto arch = aws_f1(2);
  auto in = random_instance(rng, 3, 10.0, 15.0);
  ASSERT_FALSE(least_ii_by_enumeration(in.app, arch, in.options).has_value());
  const auto r = least_ii_by_placement(in.app, arch, in.options);
  EXPECT_EQ(r.status, Status::infeasible);
  EXPECT_FALSE(r.mapping.has_value());
}

// An incumbent nothing beats is returned, proven.
TEST(PlacementSearch, AnOptimalIncumbentIsProven) {
  std::mt19937 rng(8);
  const auto arch = aws_f1(2);
  auto in = random_instance(rng, 3, 60.0, 15.0);
  const auto first = least_ii_by_placement(in.app, arch, in.options);
  ASSERT_EQ(first.status, Status::optimal);
  PlacementSearchOptions search;
  search.incumbent = first.mapping;
  const auto again = least_ii_by_placement(in.app, arch, in.options, search);
  EXPECT_EQ(again.status, Status::optimal);
  ASSERT_TRUE(again.evaluation);
  EXPECT_EQ(again.evaluation->ii.value(), first.evaluation->ii.value());
}

// A time limit too short for the search: time_limit, never a claim.
TEST(PlacementSearch, TimeLimitClaimsNothing) {
  std::mt19937 rng(9);
  const auto arch = aws_f1(4);
  auto in = random_instance(rng, 8, 90.0, 4.0);
  PlacementSearchOptions search;
  search.time_limit = 1e-4;
  const auto r = least_ii_by_placement(in.app, arch, in.options, search);
  EXPECT_EQ(r.status, Status::time_limit);
}

TEST(PlacementSearch, BadInputIsAnError) {
  std::mt19937 rng(10);
  const auto arch = aws_f1(2);
  auto in = random_instance(rng, 2, 50.0, 15.0);
  auto with_operating_ii = in.options;
  with_operating_ii.operating_ii = 1.0 * units::ms;
  EXPECT_THROW(least_ii_by_placement(in.app, arch, with_operating_ii), model_error);
  PlacementSearchOptions no_time;
  no_time.time_limit = 0.0;
  EXPECT_THROW(least_ii_by_placement(in.app, arch, in.options, no_time), model_error);
  EXPECT_THROW(least_ii_by_placement(App("empty"), arch, in.options), model_error);
  EXPECT_THROW(least_ii_by_placement(in.app, aws_f1(17), in.options), model_error);
  PlacementSearchOptions short_incumbent;
  Mapping one_row;  // for two tasks
  one_row.cus = {{1, 0}};
  short_incumbent.incumbent = one_row;
  EXPECT_THROW(least_ii_by_placement(in.app, arch, in.options, short_incumbent), model_error);
}

}  // namespace
