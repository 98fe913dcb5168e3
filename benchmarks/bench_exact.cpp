// benchmarks/bench_exact.cpp
// Google Benchmark program for the exact mixed-integer model of study 001,
// chapter 3 (ychart::pipeline::build_mapping_model, eqs. 3.1-3.10): integer CUs
// per kernel per FPGA, F interchangeable FPGAs, every resource capped at cap %.
//
// Instances (<case>/<cap>/<weights>):
//   case     alex16  examples/data/shan2021/ch3_alex16.csv, 8 stages, F = 2,
//                    Table 3.4 alpha 1, beta 0.7
//            alex32  ch3_alex32.csv, 8 stages, F = 4, Table 3.4 alpha 1, beta 6
//            vgg     ch3_vgg16.csv, 17 stages, F = 8, Table 3.4 alpha 1, beta 50
//   cap      30, 40, 50, 61, 70, 80, 92 (% of every resource of one FPGA)
//   weights  beta0       alpha = 1, beta = 0: minimise II only (a MILP after
//                        the log transform)
//            beta_table  alpha, beta of Table 3.4: minimise alpha II[ms] +
//                        beta phi, phi the spreading (tabulated n/(1+n))
//
// Families (one solve per run: Iterations(1), so the names end in
// /iterations:1; times in ms, wall clock and CPU):
//   Exact/<case>/<cap>/<beta0|beta_table>
//       pipeline::build_mapping_model + Model::solve with the default method
//       (for these models: the decomposition over interchangeable FPGAs),
//       time limit 60 s per solve so the program always ends.
//   GlpkOneMilp/<case>/<cap>/beta0
//       the same beta0 model given straight to GLPK as one MILP
//       (SolveOptions::method = Method::glpk), time limit 10 s per solve.
//       Only beta0 is compared: the comparison is for the model
//       without spreading (the beta_table points are not registered).
// Only the solve is timed (the model is built with the timer paused).
//
// A run that ends neither optimal nor infeasible is still reported, with
// proven = 0 (its time is then about the time limit); it is not an error.
// Check: when Exact and GlpkOneMilp both prove a beta0 point optimal, their
// II must agree to 1e-6 relative (the environment variable
// YCHART_BENCH_RTOL overrides 1e-6), else GlpkOneMilp calls SkipWithError
// with both values. GlpkOneMilp takes the Exact result of the same run (the
// Exact family runs first); when a filter left it out, it solves the Exact
// model once, untimed, after its own timed solve. A solve that throws is
// reported with SkipWithError.
//
// Counters: II_ms (II of the incumbent, nan without one), objective (as
// Solution::objective(): SI units, so seconds for beta0), bound, gap
// (relative), status (ychart::Status as a number: 0 optimal, 1 infeasible,
// 3 time_limit, others not proven either), proven (1 optimal or infeasible,
// else 0), iterations (Solution::nodes(): decomposition iterations for
// Exact, GLPK's count for GlpkOneMilp). The label is the method that ran and
// the status.
//
// Run: build/benchmarks/bench_exact   (a few minutes; filter with
// --benchmark_filter=Exact/alex16 etc.)
#include <study001/common/study.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr double kExactTimeLimit = 60.0;  // s per Exact solve
constexpr double kGlpkTimeLimit = 10.0;   // s per GlpkOneMilp solve
constexpr int kCaps[] = {30, 40, 50, 61, 70, 80, 92};

using ychart::pipeline::FpgaResources;

struct NamedCase {
  const char* name;
  const char* file;  // in examples/data/shan2021
  int fpgas;
  double alpha, beta;  // Table 3.4
};
constexpr NamedCase kCases[] = {{"alex16", "ch3_alex16.csv", 2, 1.0, 0.7},
                                {"alex32", "ch3_alex32.csv", 4, 1.0, 6.0},
                                {"vgg", "ch3_vgg16.csv", 8, 1.0, 50.0}};

const study001::App& application(int index) {
  static const std::vector<study001::App> apps = [] {
    std::vector<study001::App> out;
    for (const auto& c : kCases)
      out.push_back(ychart::pipeline::load_pipeline<FpgaResources>(study001::data_dir() / c.file, c.name));
    return out;
  }();
  return apps.at(std::size_t(index));
}

/// The relative tolerance of the Exact / GLPK agreement check.
double agreement_rtol() {
  static const double rtol = [] {
    const char* e = std::getenv("YCHART_BENCH_RTOL");
    return e ? std::atof(e) : 1e-6;
  }();
  return rtol;
}

struct Point {
  int case_index = 0;
  int cap = 61;
  bool table_weights = false;  // false: beta0, true: Table 3.4 alpha, beta
  bool glpk = false;           // Method::glpk instead of the default
};

/// What one solve gave.
struct Outcome {
  std::string error;  // a thrown exception; empty otherwise
  ychart::Status status = ychart::Status::numerical_error;
  std::string method;
  double ii_ms = std::numeric_limits<double>::quiet_NaN();
  double objective = std::numeric_limits<double>::quiet_NaN();
  double bound = std::numeric_limits<double>::quiet_NaN();
  double gap = std::numeric_limits<double>::quiet_NaN();
  long nodes = 0;
  bool proven() const { return status == ychart::Status::optimal || status == ychart::Status::infeasible; }
};

using Key = std::tuple<int, int, bool, bool>;
Key key(const Point& p) { return {p.case_index, p.cap, p.table_weights, p.glpk}; }

/// Results of the runs so far, for the cross-check.
std::map<Key, Outcome>& results() {
  static std::map<Key, Outcome> r;
  return r;
}

ychart::pipeline::MappingModel build(const Point& p) {
  const auto& c = kCases[p.case_index];
  ychart::pipeline::MappingModelOptions<FpgaResources> o;
  o.cap() = ychart::pipeline::uniform_resources<FpgaResources>(double(p.cap));
  o.alpha = p.table_weights ? c.alpha : 1.0;
  o.beta = p.table_weights ? c.beta : 0.0;
  return ychart::pipeline::build_mapping_model(application(p.case_index), study001::aws_f1(c.fpgas), o);
}

ychart::SolveOptions options(const Point& p) {
  ychart::SolveOptions o;
  o.time_limit = p.glpk ? kGlpkTimeLimit : kExactTimeLimit;
  if (p.glpk) o.method = ychart::Method::glpk;
  return o;
}

Outcome outcome(const ychart::pipeline::MappingModel& a, const ychart::Solution& s) {
  Outcome out;
  out.status = s.status();
  out.method = s.method();
  out.bound = s.bound();
  out.gap = s.gap();
  out.nodes = s.nodes();
  if (s.has_values()) {
    out.ii_ms = a.initiation_interval(s).in(ychart::units::ms);
    out.objective = s.objective();
  }
  return out;
}

/// One untimed solve (for the cross-check when the partner run was filtered out).
Outcome solve_untimed(const Point& p) {
  try {
    auto a = build(p);
    const auto s = a.model.solve(options(p));
    return outcome(a, s);
  } catch (const std::exception& e) {
    Outcome out;
    out.error = e.what();
    return out;
  }
}

void report(benchmark::State& state, const Outcome& r) {
  state.counters["II_ms"] = r.ii_ms;
  state.counters["objective"] = r.objective;
  state.counters["bound"] = r.bound;
  state.counters["gap"] = r.gap;
  state.counters["status"] = double(static_cast<int>(r.status));
  state.counters["proven"] = r.proven() ? 1.0 : 0.0;
  state.counters["iterations"] = double(r.nodes);
  state.SetLabel(r.method + " " + std::string(ychart::to_string(r.status)));
}

/// GlpkOneMilp: both optimal => II agree to agreement_rtol(); "" when passed.
std::string cross_check(const Point& glpk_point, const Outcome& glpk) {
  if (glpk.status != ychart::Status::optimal) return "";
  Point exact_point = glpk_point;
  exact_point.glpk = false;
  auto it = results().find(key(exact_point));
  if (it == results().end()) it = results().emplace(key(exact_point), solve_untimed(exact_point)).first;
  const Outcome& exact = it->second;
  if (!exact.error.empty() || exact.status != ychart::Status::optimal) return "";
  const double rel = std::abs(glpk.ii_ms - exact.ii_ms) / std::abs(exact.ii_ms);
  if (rel <= agreement_rtol()) return "";
  char buf[320];
  std::snprintf(buf, sizeof buf, "II differs: Exact (%s) %.12g ms, GLPK %.12g ms, rel %.3g > %.3g",
                exact.method.c_str(), exact.ii_ms, glpk.ii_ms, rel, agreement_rtol());
  return buf;
}

void BM_Solve(benchmark::State& state, Point p) {
  Outcome r;
  for (auto _ : state) {
    state.PauseTiming();
    auto a = build(p);
    const auto o = options(p);
    state.ResumeTiming();
    try {
      const auto s = a.model.solve(o);
      state.PauseTiming();
      r = outcome(a, s);
      state.ResumeTiming();
    } catch (const std::exception& e) {
      r = Outcome{};
      r.error = e.what();
    }
    if (!r.error.empty()) break;
  }
  if (!r.error.empty()) {
    state.SkipWithError(("solve threw: " + r.error).c_str());
    return;
  }
  results()[key(p)] = r;
  report(state, r);
  if (p.glpk) {
    const std::string err = cross_check(p, r);
    if (!err.empty()) state.SkipWithError(err.c_str());
  }
}

void register_all() {
  for (int glpk = 0; glpk < 2; ++glpk)
    for (int c = 0; c < int(std::size(kCases)); ++c)
      for (int cap : kCaps)
        for (int table = 0; table < 2; ++table) {
          if (glpk && table) continue;  // the comparison is for beta = 0
          const Point p{c, cap, table != 0, glpk != 0};
          const std::string name = std::string(glpk ? "GlpkOneMilp/" : "Exact/") + kCases[c].name + "/" +
                                   std::to_string(cap) + "/" + (table ? "beta_table" : "beta0");
          benchmark::RegisterBenchmark(name.c_str(), BM_Solve, p)
              ->Iterations(1)
              ->Unit(benchmark::kMillisecond);
        }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
