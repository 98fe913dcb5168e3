// The native interior-point GP solver against Ipopt and against closed forms.
//
// (a) 300 random GPs (seeded): 1-8 variables, some bounded, 1-8 posynomial
//     constraints of 1-4 terms with real exponents, monomial equalities,
//     posynomial objectives (minimised) and monomial ones (maximised). Many are
//     infeasible or unbounded by construction. Each is solved with
//     GpSolver::automatic, ::native and ::ipopt: the verdicts (status, and the
//     optimum, relaxation product or unbounded variables) must agree.
// (b) A 240-variable resource allocation (the sparse factorisation) against
//     its closed form, with its sensitivity.
// (c) Warm starts: a sweep neighbour through SolveOptions::warm_start and a
//     branch-and-bound child through NativeGpSolver::run, against the closed
//     form and against Ipopt.
#include <ychart/ychart.hpp>
#include <ychart/engine.hpp>  // the solver engine itself, which this test exercises

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace ychart;

namespace {

SolveOptions with(GpSolver s) {
  SolveOptions o;
  o.gp_solver = s;
  return o;
}

double rel_diff(double a, double b) { return std::abs(a - b) / std::max(1.0, std::abs(b)); }

/// How far a point violates a GP constraint: posynomial / monomial - 1 (or its
/// absolute value for an equality).
double violation(const Constraint& c, const std::vector<double>& point) {
  const double ratio = c.posynomial().evaluate(point) / c.monomial().evaluate(point) - 1.0;
  return c.sense() == Constraint::Sense::equal ? std::abs(ratio) : ratio;
}

struct RandomGp {
  Model model;
  std::vector<Variable<>> x;
};

// A random GP. Exponents are drawn from {-2, -1, -0.5, 0.5, 1, 2} or a real in
// (-2, 2); coefficients log-uniform in [0.1, 10].
void fill_random_gp(RandomGp& g, std::mt19937& rng) {
  std::uniform_int_distribution<int> nvar(1, 8), ncons(1, 8), nterms(1, 4), coin(0, 3);
  std::uniform_real_distribution<double> logc(std::log(0.1), std::log(10.0)), real_exp(-2.0, 2.0);
  const double discrete_exp[] = {-2, -1, -0.5, 0.5, 1, 2};
  const int n = nvar(rng);
  for (int i = 0; i < n; ++i) {
    const int kind = coin(rng);
    const double lo = kind == 1 || kind == 3 ? std::exp(logc(rng)) * 0.1 : 0.0;
    const double hi = kind == 2 || kind == 3 ? std::exp(logc(rng)) * 10.0 : std::numeric_limits<double>::infinity();
    g.x.push_back(g.model.positive("x" + std::to_string(i), lo, std::max(hi, lo * 2)));
  }
  auto random_monomial = [&](int max_vars) {
    Monomial<> m = Constant<>(std::exp(logc(rng)));
    std::uniform_int_distribution<int> pick(0, n - 1), howmany(1, max_vars);
    for (int k = howmany(rng); k > 0; --k) {
      const double a = coin(rng) == 0 ? real_exp(rng) : discrete_exp[rng() % 6];
      m = m * pow(g.x[std::size_t(pick(rng))], a);
    }
    return m;
  };
  auto random_posynomial = [&]() {
    Posynomial<> p = random_monomial(3);
    for (int t = nterms(rng) - 1; t > 0; --t) p += random_monomial(3);
    return p;
  };
  // Each side drawn in turn: the order in which the operands of <= are
  // evaluated is unspecified (GCC and Clang differ), and the instances must
  // be the same whatever the compiler.
  for (int c = ncons(rng); c > 0; --c) {
    const auto left = random_posynomial();
    const auto right = random_monomial(2);
    g.model.subject_to(left <= right);
  }
  if (coin(rng) == 0) {
    const auto left = random_monomial(2);
    const auto right = random_monomial(2);
    g.model.subject_to(left == right);
  }
  if (coin(rng) == 0) g.model.maximize(random_monomial(3));
  else g.model.minimize(random_posynomial());
}

// The verdicts of two solves agree: the same status, and the same optimum,
// relaxation product or unbounded variables.
void expect_same_verdict(const RandomGp& g, const Solution& a, const Solution& b) {
  ASSERT_EQ(a.status(), b.status());
  if (a.status() == Status::optimal) {
    // Relative accuracy in log space, where both solvers work (optima near
    // the box reach 1e130).
    EXPECT_LE(rel_diff(std::log(a.objective()), std::log(b.objective())), 1e-6)
        << a.objective() << " vs " << b.objective();
    std::vector<double> point;  // every constraint holds at a's point
    for (const auto& x : g.x) point.push_back(a.value(x));
    for (std::size_t i = 0; i < g.model.constraints().size(); ++i)
      EXPECT_LE(violation(g.model.constraints()[i], point), 1e-7) << "constraint " << i;
  } else if (a.status() == Status::infeasible) {
    // Both relaxations are minimal: the same product of factors.
    double pa = 1.0, pb = 1.0;
    for (std::size_t i = 0; i < g.model.constraints().size(); ++i)
      pa *= a.constraint(i).relaxation, pb *= b.constraint(i).relaxation;
    for (const auto& r : a.bound_relaxations()) pa *= r.factor;
    for (const auto& r : b.bound_relaxations()) pb *= r.factor;
    EXPECT_LE(std::abs(std::log(pa) - std::log(pb)), 1e-5) << pa << " vs " << pb;
  } else {
    ASSERT_EQ(a.status(), Status::unbounded);
    EXPECT_EQ(a.unbounded_variables().size(), b.unbounded_variables().size());
  }
}

}  // namespace

// `automatic` (the native solver, Ipopt where it fails) and Ipopt alone give
// the same verdict on every instance; the native solver alone, wherever it
// gives a verdict, gives Ipopt's.
// Every GP of the suite goes through both back ends only if the test
// programs set the process default (tests/support/gp_solver_for_tests.cpp);
// the library itself reads no environment.
TEST(NativeGp, TheSuiteSolvesEveryGpWithBothBackEnds) {
#ifdef YCHART_TESTS_UNDER_SANITIZER
  EXPECT_EQ(default_gp_solver(), GpSolver::automatic);
#else
  EXPECT_EQ(default_gp_solver(), GpSolver::cross_check);
#endif
  SolveOptions o;
  EXPECT_EQ(solve::gp::effective_gp_solver(o), default_gp_solver());
  o.gp_solver = GpSolver::native;
  EXPECT_EQ(solve::gp::effective_gp_solver(o), GpSolver::native);  // an explicit choice wins
}

TEST(NativeGp, RandomGpsAgreeWithIpopt) {
  std::mt19937 rng(20261125u);
  int counts[3] = {0, 0, 0};  // optimal, infeasible, unbounded
  int native_verdicts = 0, ipopt_undecided = 0, fallbacks = 0;
#ifdef YCHART_TESTS_UNDER_SANITIZER
  // ASan's allocator makes Ipopt's solves 6x slower: 300 instances took 12 min.
  const int instances = 60;
#else
  const int instances = 300;
#endif
  for (int instance = 0; instance < instances; ++instance) {
    RandomGp g;
    fill_random_gp(g, rng);
    const auto automatic = g.model.solve(with(GpSolver::automatic));
    const auto ipopt = g.model.solve(with(GpSolver::ipopt));
    const auto native = g.model.solve(with(GpSolver::native));
    SCOPED_TRACE("instance " + std::to_string(instance) + "\nautomatic: " + automatic.message() +
                 "\nipopt: " + ipopt.message() + "\nnative: " + native.message());
    if (ipopt.status() != Status::optimal && ipopt.status() != Status::infeasible &&
        ipopt.status() != Status::unbounded) {
      ++ipopt_undecided;  // no reference verdict (e.g. Ipopt's iteration limit)
      continue;
    }
    ++counts[ipopt.status() == Status::optimal ? 0 : ipopt.status() == Status::infeasible ? 1 : 2];
    expect_same_verdict(g, automatic, ipopt);
    // Solution::gp_fallbacks counts what `automatic` gave Ipopt: an optimum
    // that Ipopt found, or a verdict the native method alone could not
    // reach, has at least one; a single back end never falls back.
    EXPECT_EQ(ipopt.gp_fallbacks(), 0);
    EXPECT_EQ(native.gp_fallbacks(), 0);
    if (automatic.status() == Status::optimal) {
      EXPECT_EQ(automatic.method() == "ipopt", automatic.gp_fallbacks() > 0);
    }
    if (native.status() == Status::numerical_error) {
      EXPECT_GE(automatic.gp_fallbacks(), 1);
    }
    fallbacks += automatic.gp_fallbacks();
    if (native.status() != Status::numerical_error) {
      ++native_verdicts;
      expect_same_verdict(g, native, ipopt);
    }
  }
  // The generator reaches all three outcomes (measured 2026-11-25 on 300,
  // the same instances with GCC and Clang since each constraint's sides are
  // drawn in turn: 70 optimal, 209 infeasible, 19 unbounded, 2 undecided by
  // Ipopt).
  std::cout << "optimal " << counts[0] << ", infeasible " << counts[1] << ", unbounded " << counts[2]
            << ", undecided by Ipopt " << ipopt_undecided << ", settled by native " << native_verdicts
            << ", GP fallbacks to Ipopt " << fallbacks << '\n';
  EXPECT_GT(counts[0], instances * 50 / 300);
  EXPECT_GT(counts[1], instances * 20 / 300);
  EXPECT_GE(counts[2], instances / 30);
  EXPECT_LE(ipopt_undecided, 4);
  // The native solver alone settles at least 90 % (measured 2026-11-25: 93 %;
  // 2026-11-29, after the fixes counting fallbacks led to: 293 of 300; with
  // the slack reset: all 298 that Ipopt decides).
  EXPECT_GE(native_verdicts, instances * 9 / 10);
}

namespace {

// minimise sum_i c_i / x_i  s.t.  sum_i a_i x_i <= B: the optimum is
// (sum_i sqrt(a_i c_i))^2 / B, and its sensitivity to B is -1.
struct Allocation {
  Model model;
  std::vector<Variable<>> x;
  double closed_form = 0.0;
};

void build_allocation(Allocation& al, int n, double budget) {
  std::mt19937 rng(7u + unsigned(n));
  std::uniform_real_distribution<double> u(0.2, 5.0);
  Posynomial<> cost, use;
  double root_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double a = u(rng), c = u(rng);
    al.x.push_back(al.model.positive("x" + std::to_string(i)));
    cost += c / al.x.back();
    use += a * al.x.back();
    root_sum += std::sqrt(a * c);
  }
  al.model.subject_to(use <= budget, "budget");
  al.model.minimize(cost);
  al.closed_form = root_sum * root_sum / budget;
}

}  // namespace

TEST(NativeGp, LargeAllocationUsesTheSparseFactorisation) {
  Allocation al;
  build_allocation(al, 240, 50.0);
  const auto form = lower::lower_gp(al.model);
  EXPECT_GT(solve::gp::NativeGpSolver(form).dim(), solve::gp::NativeGpSolver::dense_limit);
  const auto s = al.model.solve(with(GpSolver::native));
  ASSERT_EQ(s.status(), Status::optimal) << s.message();
  EXPECT_NEAR(s.objective(), al.closed_form, 1e-7 * al.closed_form);
  EXPECT_NEAR(s.constraint(0).sensitivity, -1.0, 1e-6);
}

TEST(NativeGp, WarmStartFromASweepNeighbour) {
  Allocation first, second;
  build_allocation(first, 12, 10.0);
  build_allocation(second, 12, 10.5);
  const auto s1 = first.model.solve(with(GpSolver::native));
  ASSERT_EQ(s1.status(), Status::optimal);
  auto o = with(GpSolver::native);
  o.warm_start = &s1;
  const auto warm = second.model.solve(o);
  const auto cold = second.model.solve(with(GpSolver::native));
  ASSERT_EQ(warm.status(), Status::optimal) << warm.message();
  EXPECT_NEAR(warm.objective(), second.closed_form, 1e-8 * second.closed_form);
  EXPECT_NEAR(cold.objective(), second.closed_form, 1e-8 * second.closed_form);
}

TEST(NativeGp, WarmStartOfABranchAndBoundChild) {
  Allocation al;
  build_allocation(al, 8, 10.0);
  const auto form = lower::lower_gp(al.model);
  solve::gp::NativeGpSolver native(form);
  const SolveOptions o;
  const double box = o.bound_exponent * std::log(10.0);
  const auto parent = native.run(o, {.box = box, .box_all = true});
  ASSERT_TRUE(parent.success()) << parent.message;
  // The child: x_0 at most half its relaxed value.
  auto upper = form.upper;
  upper[al.x[0].index()] = parent.y[al.x[0].index()] - std::log(2.0);
  const solve::gp::GpWarmStart warm{parent.y, parent.lambda, parent.z_lower, parent.z_upper};
  const auto child_warm = native.run(o, {.box = box, .box_all = true, .upper = upper, .warm = warm});
  const auto child_cold = native.run(o, {.box = box, .box_all = true, .upper = upper});
  solve::gp::IpoptRunner ipopt;
  const solve::gp::GpDerivativeMaps maps(form);
  const auto child_ipopt = ipopt.run(form, maps, o, {.box = box, .box_all = true, .upper = upper});
  ASSERT_TRUE(child_warm.success() && child_cold.success() && child_ipopt.success())
      << "warm: " << child_warm.message << "; cold: " << child_cold.message << "; ipopt: " << child_ipopt.message;
  EXPECT_NEAR(child_warm.objective, child_ipopt.objective, 1e-7);
  EXPECT_NEAR(child_cold.objective, child_ipopt.objective, 1e-7);
  EXPECT_GT(child_warm.objective, parent.objective + 1e-3);  // the bound binds
  EXPECT_NEAR(child_warm.y[al.x[0].index()], upper[al.x[0].index()], 1e-7);
}

// A feasibility relaxation decides `infeasible` alone only when its run
// succeeded and its total slack is clearly more than an interior point
// leaves at its tolerance (1e-4, and 1e-6 per slack). The second case is
// what Ipopt returned on the relaxation of a feasible exact study-001 model
// (Alex-16 on two FPGAs at a 92 % cap: stopped at the acceptable level with a
// total slack of 2.26e-5), which the search used to call infeasible; Ipopt
// then solved the model. Boyd's infeasible example needs 1.55 (at the
// acceptable level too): that decides.
TEST(NativeGp, OnlyAClearSlackProvesInfeasibility) {
  using solve::gp::GpResult;
  using solve::gp::GpRunStatus;
  // A run of a relaxation of a 3-column model whose `slack_count` slack
  // columns sum to `total_slack`.
  constexpr int model_columns = 3;
  auto run = [](GpRunStatus status, const char* solver, double total_slack = 0.0, int slack_count = 0) {
    GpResult r;
    r.status = status;
    r.solver = solver;
    r.y.assign(model_columns, 1.0);
    r.y.resize(model_columns + slack_count, total_slack / std::max(slack_count, 1));
    return r;
  };
  auto proves_infeasible = [](const GpResult& relaxation) {
    return solve::gp::proves_infeasible(relaxation, model_columns);
  };
  EXPECT_NEAR(solve::gp::total_slack(run(GpRunStatus::solved, "native", 0.05, 10), model_columns), 0.05, 1e-15);
  EXPECT_TRUE(proves_infeasible(run(GpRunStatus::solved, "native", 0.05, 10)));
  EXPECT_TRUE(proves_infeasible(run(GpRunStatus::solved_acceptable, "ipopt", 1.55, 10)));
  EXPECT_FALSE(proves_infeasible(run(GpRunStatus::solved_acceptable, "ipopt", 2.26e-5, 100)));
  EXPECT_FALSE(proves_infeasible(run(GpRunStatus::solved, "native", 2.26e-5, 10)));
  EXPECT_FALSE(proves_infeasible(run(GpRunStatus::solved, "native", 5e-4, 1000)));  // 1e-6 per slack
  EXPECT_FALSE(proves_infeasible(run(GpRunStatus::failed, "native", 0.05, 10)));
  // The second opinion: Ipopt's own infeasibility detection on the model.
  EXPECT_TRUE(solve::gp::ipopt_found_infeasible(run(GpRunStatus::suspected_infeasible, "ipopt")));
  EXPECT_FALSE(solve::gp::ipopt_found_infeasible(run(GpRunStatus::suspected_infeasible, "native")));
  EXPECT_FALSE(solve::gp::ipopt_found_infeasible(run(GpRunStatus::failed, "ipopt")));
}
