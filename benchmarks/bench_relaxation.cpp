// benchmarks/bench_relaxation.cpp
// Google Benchmark programs for the GP relaxation of study 001, chapter 3
// (ychart::pipeline::build_relaxation), against a hand-written Ipopt TNLP for the
// same problem (baseline_ipopt_relaxation.hpp).
//
// Instances, by K = number of pipeline stages (the benchmark argument):
//   K = 8      Alex-16 (shan2021::alex16()), F = 2, cap 61 %
//   K = 17     VGG (shan2021::vgg().stages()), F = 8, cap 61 %
//   K = 100, 1000, 10000: synthetic, same structure, seeded std::mt19937 data
//              drawn to resemble Tables 3.2-3.3 (WCET 0.5-70 ms, DSP 0-20 %,
//              one stage in five a pooling stage with no DSP, BRAM 0-12 %,
//              BW 1-7 %), F = ceil(K/2), cap 61 % (feasible: N_k = 1 fits).
//
// Families (times per iteration):
//   Ychart_BuildSolve      fresh Model via pipeline::build_relaxation, then solve()
//   Baseline_BuildSolve    fresh TNLP + IpoptApplication, then OptimizeTNLP
//                          (/adaptive: ychart's options; /monotone: mu_strategy
//                          monotone; /boxed: ychart's default box on the
//                          bounds the problem lacks, so that Ipopt sees the
//                          same NLP as from ychart; /boxed_monotone: both)
//   Ychart_Solve           solve() of one Model again and again (its Ipopt
//                          application is reused; lowering is redone)
//   Baseline_Solve         OptimizeTNLP with one reused application
//   Ychart_Build           pipeline::build_relaxation only; counter terms/s
//   Ychart_BuildLower      build + lower_gp + GpDerivativeMaps; terms/s
//   Ychart_Lower           lower_gp only
//   Ychart_Maps            GpDerivativeMaps only
//   Ychart_Ipopt           IpoptRunner::run on a ready form (Ipopt + ychart's
//                          TNLP callbacks, reused application)
// Ychart_Solve - Ychart_Lower - Ychart_Maps - Ychart_Ipopt is the cost of
// building the Solution (reports, constraint texts).
//
// Before timing, every family checks (once per instance and option set) that
// ychart and the baseline both end optimal and that their II agree to 1e-6
// relative (the environment variable YCHART_BENCH_RTOL overrides 1e-6);
// otherwise it calls SkipWithError with both values and the exact optimum.
// The ychart families check against the /adaptive baseline. Counters:
// II_ms, II_err (relative error against the exact optimum, found by
// bisection), ipopt_iter; the build families report terms/s, where terms
// are those the model is written with (objective and both sides of every
// constraint: 1 + 2K + 3 + resource terms).
//
// Run: build/benchmarks/bench_relaxation --benchmark_min_time=0.5
// (docs/performance.md has the command behind its table).
#include "baseline_ipopt_relaxation.hpp"

#include <ychart/engine.hpp>  // the lowering and the GP back ends, timed on their own

#include <data/shan2021_ch3.hpp>
#include <study001/common/study.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

struct Instance {
  std::vector<shan2021::Kernel> stages;
  int fpgas = 1;
  double cap_pct = 61.0;
  study001::App app;  // the stages as ychart's model reads them
  study001::Arch arch;
  std::vector<baseline::Stage> baseline_stages() const {
    std::vector<baseline::Stage> out;
    out.reserve(stages.size());
    for (const auto& s : stages) out.push_back({s.bram_pct, s.dsp_pct, s.bw_pct, s.wcet_ms});
    return out;
  }
};

Instance synthetic(int K) {
  std::mt19937 rng(20211122u + unsigned(K));
  std::uniform_real_distribution<double> wcet(0.5, 70.0), dsp(0.0, 20.0), bram(0.0, 12.0), bw(1.0, 7.0);
  Instance in;
  in.stages.reserve(std::size_t(K));
  for (int k = 0; k < K; ++k) {
    const bool pool = rng() % 5 == 0;
    const double w = wcet(rng), d = dsp(rng), b = bram(rng), m = bw(rng);
    in.stages.push_back({pool ? "POOL" : "CONV", b, pool ? 0.0 : d, m, w, 1});
  }
  in.fpgas = (K + 1) / 2;
  in.cap_pct = 61.0;
  return in;
}

/// The stages as a pipeline on `fpgas` FPGAs.
void make_pipeline(Instance& in) {
  std::vector<ychart::pipeline::Task<study001::FpgaResources>> kernels;
  for (const auto& s : in.stages) {
    ychart::pipeline::Task<study001::FpgaResources> k;
    k.name = s.name;
    k.implementation().wcet = s.wcet_ms * ychart::units::ms;
    k.implementation().use.bram = s.bram_pct, k.implementation().use.dsp = s.dsp_pct, k.implementation().use.bw = s.bw_pct;
    kernels.push_back(k);
  }
  in.app = study001::App::pipeline("stages", kernels);
  in.arch = study001::aws_f1(in.fpgas);
}

/// What every ychart family builds: the relaxation of `in`.
ychart::pipeline::Relaxation<study001::FpgaResources> relaxation(const Instance& in) {
  const auto cap = ychart::pipeline::uniform_resources<study001::FpgaResources>(in.cap_pct);
  return ychart::pipeline::build_relaxation(in.app, in.arch, cap);
}

const Instance& instance(int K) {
  static std::map<int, Instance> cache;
  auto it = cache.find(K);
  if (it != cache.end()) return it->second;
  Instance in;
  if (K == 8) {
    in.stages = shan2021::alex16().stages();
    in.fpgas = shan2021::alex16().fpgas;  // 2
  } else if (K == 17) {
    in.stages = shan2021::vgg().stages();
    in.fpgas = shan2021::vgg().fpgas;  // 8
  } else {
    in = synthetic(K);
  }
  make_pipeline(in);
  return cache.emplace(K, std::move(in)).first->second;
}

/// Terms the model is written with: objective, and both sides of every constraint.
double term_count(const ychart::Model& m) {
  double n = double(m.objective().size());
  for (const auto& c : m.constraints()) n += double(c.posynomial().size() + c.monomial().size());
  return n;
}

/// The exact optimum, for reporting accuracy. At the optimum N_k = max(1,
/// WCET_k / II), and II is the smallest value at which every resource row
/// holds; the rows decrease in II, so bisection in long double finds it.
double exact_ii(const Instance& in) {
  auto fits = [&](long double ii) {
    long double g[3] = {0, 0, 0};
    for (const auto& s : in.stages) {
      const long double n = std::max<long double>(1.0L, s.wcet_ms / ii);
      g[0] += s.bram_pct * n, g[1] += s.dsp_pct * n, g[2] += s.bw_pct * n;
    }
    const long double limit = (long double)in.fpgas * in.cap_pct;
    return g[0] <= limit && g[1] <= limit && g[2] <= limit;
  };
  long double lo = 1e-9L, hi = 1e9L;
  for (int i = 0; i < 200; ++i) {
    const long double mid = std::sqrt(lo * hi);
    (fits(mid) ? hi : lo) = mid;
  }
  return double(hi);
}

/// The relative tolerance of the ychart / baseline agreement check: 1e-6, or
/// the environment variable YCHART_BENCH_RTOL.
double agreement_rtol() {
  static const double rtol = [] {
    const char* e = std::getenv("YCHART_BENCH_RTOL");
    return e ? std::atof(e) : 1e-6;
  }();
  return rtol;
}

struct YchartRun {
  std::string error;
  double ii = 0.0;
  int iterations = 0;
};

ychart::SolveOptions with_solver(ychart::GpSolver solver) {
  ychart::SolveOptions o;
  o.gp_solver = solver;
  return o;
}

const YchartRun& ychart_run(int K, ychart::GpSolver solver) {
  static std::map<std::pair<int, ychart::GpSolver>, YchartRun> cache;
  if (auto it = cache.find({K, solver}); it != cache.end()) return it->second;
  const auto& in = instance(K);
  YchartRun y;
  auto r = relaxation(in);
  const auto sol = r.model.solve(with_solver(solver));
  y.iterations = sol.iterations();
  if (sol.optimal()) y.ii = sol.value(r.ii);
  else y.error = "ychart: status " + std::string(ychart::to_string(sol.status())) + " (" + sol.message() + ")";
  return cache.emplace(std::pair{K, solver}, std::move(y)).first->second;
}

struct Check {
  std::string error;  // empty: passed
  double ii_ychart = 0.0, ii_baseline = 0.0, ii_exact = 0.0;
  int it_ychart = 0, it_baseline = 0;
};

/// Solves once with ychart (GP back end `solver`) and once with the baseline
/// (options `o`) and compares.
const Check& verify(int K, const baseline::BaselineOptions& o,
                    ychart::GpSolver solver = ychart::GpSolver::native) {
  static std::map<std::tuple<int, std::string, double, ychart::GpSolver>, Check> cache;
  const auto key = std::make_tuple(K, o.mu_strategy, o.box, solver);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const auto& in = instance(K);
  Check c;
  const auto& y = ychart_run(K, solver);
  const auto base = baseline::solve(in.baseline_stages(), in.fpgas, in.cap_pct, o);
  c.it_ychart = y.iterations;
  c.it_baseline = base.iterations;
  c.ii_exact = exact_ii(in);
  char buf[320];
  if (!y.error.empty()) {
    c.error = y.error;
  } else if (!base.optimal()) {
    std::snprintf(buf, sizeof buf, "baseline: Ipopt status %d", int(base.status));
    c.error = buf;
  } else {
    c.ii_ychart = y.ii;
    c.ii_baseline = base.ii_ms;
    const double rel = std::abs(c.ii_ychart - c.ii_baseline) / std::abs(c.ii_baseline);
    if (!(rel <= agreement_rtol())) {
      std::snprintf(buf, sizeof buf,
                    "II differs: ychart %.12g ms, baseline (mu %s%s) %.12g ms, rel %.3g > %.3g; exact %.12g ms",
                    c.ii_ychart, o.mu_strategy.c_str(), o.box > 0 ? ", boxed" : "", c.ii_baseline, rel,
                    agreement_rtol(), c.ii_exact);
      c.error = buf;
    }
  }
  return cache.emplace(key, std::move(c)).first->second;
}

bool verified(benchmark::State& state, const baseline::BaselineOptions& o = {},
              ychart::GpSolver solver = ychart::GpSolver::native) {
  const auto& c = verify(int(state.range(0)), o, solver);
  if (!c.error.empty()) {
    state.SkipWithError(c.error.c_str());
    return false;
  }
  return true;
}

void report(benchmark::State& state, const Check& c, bool ychart_side) {
  const double ii = ychart_side ? c.ii_ychart : c.ii_baseline;
  state.counters["II_ms"] = ii;
  state.counters["II_err"] = std::abs(ii - c.ii_exact) / c.ii_exact;  // relative, vs the exact optimum
  state.counters["ipopt_iter"] = ychart_side ? c.it_ychart : c.it_baseline;
}

baseline::BaselineOptions adaptive() { return {}; }
baseline::BaselineOptions monotone() {
  baseline::BaselineOptions o;
  o.mu_strategy = "monotone";
  return o;
}
baseline::BaselineOptions boxed() {
  baseline::BaselineOptions o;
  o.box = ychart::SolveOptions{}.bound_exponent * std::log(10.0);  // ychart's default box
  return o;
}
baseline::BaselineOptions boxed_monotone() {
  auto o = boxed();
  o.mu_strategy = "monotone";
  return o;
}

// ---- build + solve ----

void BM_Ychart_BuildSolve(benchmark::State& state, ychart::GpSolver solver) {
  if (!verified(state, {}, solver)) return;
  const auto& in = instance(int(state.range(0)));
  const auto options = with_solver(solver);
  for (auto _ : state) {
    auto r = relaxation(in);
    auto sol = r.model.solve(options);
    benchmark::DoNotOptimize(sol);
  }
  report(state, verify(int(state.range(0)), {}, solver), true);
}

void BM_Baseline_BuildSolve(benchmark::State& state, baseline::BaselineOptions o) {
  if (!verified(state, o)) return;
  const auto& in = instance(int(state.range(0)));
  const auto stages = in.baseline_stages();
  for (auto _ : state) {
    auto r = baseline::solve(stages, in.fpgas, in.cap_pct, o);
    benchmark::DoNotOptimize(r);
  }
  report(state, verify(int(state.range(0)), o), false);
}

// ---- solve only ----

void BM_Ychart_Solve(benchmark::State& state, ychart::GpSolver solver) {
  if (!verified(state, {}, solver)) return;
  const auto& in = instance(int(state.range(0)));
  auto r = relaxation(in);
  const auto options = with_solver(solver);
  for (auto _ : state) {
    auto sol = r.model.solve(options);
    benchmark::DoNotOptimize(sol);
  }
  report(state, verify(int(state.range(0)), {}, solver), true);
}

void BM_Baseline_Solve(benchmark::State& state) {
  if (!verified(state)) return;
  const auto& in = instance(int(state.range(0)));
  const auto stages = in.baseline_stages();
  auto app = baseline::make_application();
  for (auto _ : state) {
    auto r = baseline::solve(*app, stages, in.fpgas, in.cap_pct);
    benchmark::DoNotOptimize(r);
  }
  report(state, verify(int(state.range(0)), {}), false);
}

// ---- ychart's phases ----

void BM_Ychart_Build(benchmark::State& state) {
  if (!verified(state)) return;
  const auto& in = instance(int(state.range(0)));
  double terms = 0.0;
  for (auto _ : state) {
    auto r = relaxation(in);
    terms = term_count(r.model);
    benchmark::DoNotOptimize(r);
  }
  state.counters["terms"] = terms;
  state.counters["terms_per_s"] = benchmark::Counter(terms * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Ychart_BuildLower(benchmark::State& state) {
  if (!verified(state)) return;
  const auto& in = instance(int(state.range(0)));
  double terms = 0.0;
  for (auto _ : state) {
    auto r = relaxation(in);
    const auto form = ychart::lower::lower_gp(r.model);
    const ychart::solve::gp::GpDerivativeMaps maps(form);
    terms = term_count(r.model);
    benchmark::DoNotOptimize(maps);
  }
  state.counters["terms"] = terms;
  state.counters["terms_per_s"] = benchmark::Counter(terms * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Ychart_Lower(benchmark::State& state) {
  if (!verified(state)) return;
  const auto& in = instance(int(state.range(0)));
  auto r = relaxation(in);
  for (auto _ : state) {
    auto form = ychart::lower::lower_gp(r.model);
    benchmark::DoNotOptimize(form);
  }
}

void BM_Ychart_Maps(benchmark::State& state) {
  if (!verified(state)) return;
  const auto& in = instance(int(state.range(0)));
  auto r = relaxation(in);
  const auto form = ychart::lower::lower_gp(r.model);
  for (auto _ : state) {
    ychart::solve::gp::GpDerivativeMaps maps(form);
    benchmark::DoNotOptimize(maps);
  }
}

void BM_Ychart_Ipopt(benchmark::State& state) {
  if (!verified(state)) return;
  const auto& in = instance(int(state.range(0)));
  auto r = relaxation(in);
  const auto form = ychart::lower::lower_gp(r.model);
  const ychart::solve::gp::GpDerivativeMaps maps(form);
  ychart::solve::gp::IpoptRunner runner;
  const ychart::SolveOptions options;
  const double box = options.bound_exponent * std::log(10.0);
  for (auto _ : state) {
    auto res = runner.run(form, maps, options, {.box = box, .box_all = false});  // solve()'s fast path
    benchmark::DoNotOptimize(res);
  }
}

void BM_Ychart_Native(benchmark::State& state) {
  if (!verified(state)) return;
  const auto& in = instance(int(state.range(0)));
  auto r = relaxation(in);
  const auto form = ychart::lower::lower_gp(r.model);
  ychart::solve::gp::NativeGpSolver native(form);
  const ychart::SolveOptions options;
  const double box = options.bound_exponent * std::log(10.0);
  int iterations = 0;
  for (auto _ : state) {
    auto res = native.run(options, {.box = box, .box_all = false});
    iterations = res.iterations;
    benchmark::DoNotOptimize(res);
  }
  state.counters["iter"] = iterations;
}

// A branch-and-bound child: the stage with the most compute units gets the
// upper bound floor(N*) (in log space), and the form is solved again, warm
// from the parent's primal-dual point or cold. Both check that the child's
// optimum agrees with a cold Ipopt solve of the same child.
void BM_Ychart_ChildResolve(benchmark::State& state, bool warm) {
  const auto& in = instance(int(state.range(0)));
  auto r = relaxation(in);
  const auto form = ychart::lower::lower_gp(r.model);
  ychart::solve::gp::NativeGpSolver native(form);
  const ychart::SolveOptions options;
  const double box = options.bound_exponent * std::log(10.0);
  // As Model::solve: boxes only on columns free on both sides, then on
  // every open side if that run fails; the child uses the parent's choice.
  bool box_all = false;
  auto parent = native.run(options, {.box = box, .box_all = box_all});
  if (!parent.success()) parent = native.run(options, {.box = box, .box_all = box_all = true});
  if (!parent.success()) return state.SkipWithError("the parent did not solve");
  int column = -1;
  for (const auto& n : r.cus) {
    const int j = int(n.index());
    if (column < 0 || parent.y[j] > parent.y[column]) column = j;
  }
  auto upper = form.upper;
  upper[column] = std::log(std::max(1.0, std::floor(std::exp(parent.y[column]) - 1e-9)));
  ychart::solve::gp::GpWarmStart from_parent{parent.y, parent.lambda, parent.z_lower, parent.z_upper};
  const ychart::solve::gp::GpDerivativeMaps maps(form);
  ychart::solve::gp::IpoptRunner ipopt;
  const auto check = ipopt.run(form, maps, options, {.box = box, .box_all = box_all, .upper = upper});
  const ychart::solve::gp::GpRequest child{
      .box = box, .box_all = box_all, .upper = upper, .warm = warm ? from_parent : ychart::solve::gp::GpWarmStart{}};
  const auto first = native.run(options, child);
  if (!check.success() || !first.success() ||
      std::abs(first.objective - check.objective) > 1e-6 * std::max(1.0, std::abs(check.objective)))
    return state.SkipWithError("the child's optimum differs from Ipopt's");
  for (auto _ : state) {
    auto res = native.run(options, child);
    benchmark::DoNotOptimize(res);
  }
  state.counters["iter"] = first.iterations;
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int K : {8, 17, 100, 1000, 10000}) b->Arg(K);
  b->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Ychart_BuildSolve, native, ychart::GpSolver::native)->Apply(sizes);
BENCHMARK_CAPTURE(BM_Ychart_BuildSolve, ipopt, ychart::GpSolver::ipopt)->Apply(sizes);
BENCHMARK_CAPTURE(BM_Baseline_BuildSolve, adaptive, adaptive())->Apply(sizes);
BENCHMARK_CAPTURE(BM_Baseline_BuildSolve, monotone, monotone())->Apply(sizes);
BENCHMARK_CAPTURE(BM_Baseline_BuildSolve, boxed, boxed())->Apply(sizes);
BENCHMARK_CAPTURE(BM_Baseline_BuildSolve, boxed_monotone, boxed_monotone())->Apply(sizes);
BENCHMARK_CAPTURE(BM_Ychart_Solve, native, ychart::GpSolver::native)->Apply(sizes);
BENCHMARK_CAPTURE(BM_Ychart_Solve, ipopt, ychart::GpSolver::ipopt)->Apply(sizes);
BENCHMARK(BM_Baseline_Solve)->Apply(sizes);
BENCHMARK(BM_Ychart_Build)->Apply(sizes);
BENCHMARK(BM_Ychart_BuildLower)->Apply(sizes);
BENCHMARK(BM_Ychart_Lower)->Apply(sizes);
BENCHMARK(BM_Ychart_Maps)->Apply(sizes);
BENCHMARK(BM_Ychart_Ipopt)->Apply(sizes);
BENCHMARK(BM_Ychart_Native)->Apply(sizes);
BENCHMARK_CAPTURE(BM_Ychart_ChildResolve, warm, true)->Apply(sizes);
BENCHMARK_CAPTURE(BM_Ychart_ChildResolve, cold, false)->Apply(sizes);

BENCHMARK_MAIN();
