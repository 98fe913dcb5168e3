// Symmetry found, not declared: study 001 ch. 3's CU allocation written
// plainly (examples/study001/ch3/plain_model.hpp, no interchangeable()),
// solved three ways in the same run:
//   Plain/...      Model::solve as is: the FPGAs are found interchangeable
//                  (solve/symmetry/symmetry.hpp) and the symmetric decomposition runs;
//   Declared/...   the same model with interchangeable() declared (and
//                  verified);
//   Baseline/...   detect_symmetry = false: the general mixed-integer search
//                  the plain model got before (60 s limit).
// PlainGrid/... sweeps the whole grid (2-12 FPGAs, caps 30-90 %).
// Every run's objective is checked against the others' where both are
// optimal. Counters: objective, status, proven, found (1 if the model was
// found symmetric), detect_ms (the detection alone).
#include "study001/ch3/plain_model.hpp"

#include <ychart/engine.hpp>  // symmetry detection, timed on its own

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace ychart;

struct Point {
  const char* net;
  int fpgas;
  double cap, beta;
};

// The measurements (AlexNet-16 at 80 % on 2 FPGAs and 60 % on 3 with
// beta 0.7, VGG on 8 FPGAs at 50-90 %) and the declared decomposition's
// harder points (VGG on 6, 4, 12 FPGAs).
const Point kPoints[] = {
    {"alex16", 2, 80, 0.7}, {"alex16", 3, 60, 0.7}, {"alex32", 4, 60, 6.0}, {"vgg", 8, 50, 50},
    {"vgg", 8, 60, 50},     {"vgg", 8, 80, 50},     {"vgg", 8, 90, 50},     {"vgg", 8, 50, 0},
    {"vgg", 8, 60, 0},      {"vgg", 6, 60, 50},     {"vgg", 4, 80, 50},     {"vgg", 12, 60, 50},
};

shan2021::Case net(const std::string& name) {
  if (name == "alex16") return shan2021::alex16();
  if (name == "alex32") return shan2021::alex32();
  return shan2021::vgg();
}

enum class Way { plain, declared, baseline };

std::map<std::string, double>& optima() {
  static std::map<std::string, double> m;
  return m;
}

void BM_Allocation(benchmark::State& state, Point p, Way way) {
  const auto stages = net(p.net).stages();
  Solution s;
  double detect_ms = 0;
  std::size_t found = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto a = study001::ch3::plain_allocation(stages, p.fpgas, p.cap, 1.0, p.beta);
    if (way == Way::declared) {
      std::vector<std::vector<Discrete<>>> devices(std::size_t(p.fpgas));
      for (std::size_t f = 0; f < devices.size(); ++f)
        for (const auto& row : a.n) devices[f].push_back(row[f]);
      a.model.interchangeable(devices);
    }
    SolveOptions o;
    o.time_limit = 60;
    o.detect_symmetry = way != Way::baseline;
    const auto t0 = std::chrono::steady_clock::now();
    found = solve::symmetry::find_interchangeable_blocks(a.model).size();
    detect_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    state.ResumeTiming();
    s = a.model.solve(o);
  }
  state.counters["objective"] = s.has_values() ? s.objective() : NAN;
  state.counters["status"] = double(static_cast<int>(s.status()));
  state.counters["proven"] = s.status() == Status::optimal ? 1.0 : 0.0;
  state.counters["found"] = found > 0 ? 1.0 : 0.0;
  state.counters["detect_ms"] = detect_ms;
  state.SetLabel(s.method() + " " + std::string(to_string(s.status())));
  if (s.status() != Status::optimal) return;
  const std::string key = std::string(p.net) + std::to_string(p.fpgas) + "/" + std::to_string(p.cap) + "/" +
                          std::to_string(p.beta);
  auto [it, fresh] = optima().emplace(key, s.objective());
  if (!fresh && std::abs(it->second - s.objective()) > 1e-6 * std::max(1.0, std::abs(it->second)))
    state.SkipWithError("the ways disagree on the optimum");
}

// The target grid: every device count 2-12 and cap 30-90 % (step
// 10) for one network and one beta, each point solved once by Model::solve
// on the plain model (10 s limit). Counters: points, proven (optimal or
// infeasible), over_1s (points slower than 1 s), slowest_ms.
// `heuristic` false: no incumbent search before GLPK (SolveOptions::heuristic),
// the baseline of the neighbourhood search, timed in the same run.
void BM_PlainGrid(benchmark::State& state, const char* name, bool table_beta, bool heuristic) {
  const auto c = net(name);
  const auto stages = c.stages();
  const double beta = table_beta ? c.beta : 0.0;
  int points = 0, proven = 0, over = 0;
  double slowest = 0.0;
  for (auto _ : state) {
    points = proven = over = 0;
    slowest = 0.0;
    for (int fpgas = 2; fpgas <= 12; ++fpgas)
      for (int cap = 30; cap <= 90; cap += 10) {
        auto a = study001::ch3::plain_allocation(stages, fpgas, cap, 1.0, beta);
        SolveOptions o;
        o.time_limit = 10;
        o.heuristic = heuristic;
        const auto t0 = std::chrono::steady_clock::now();
        const auto s = a.model.solve(o);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ++points;
        proven += s.status() == Status::optimal || s.status() == Status::infeasible;
        over += ms > 1000.0;
        slowest = std::max(slowest, ms);
      }
  }
  state.counters["points"] = points;
  state.counters["proven"] = proven;
  state.counters["over_1s"] = over;
  state.counters["slowest_ms"] = slowest;
}

void register_all() {
  for (const char* name : {"alex16", "alex32", "vgg"})
    for (bool table_beta : {false, true}) {
      const std::string bench = std::string("PlainGrid/") + name + (table_beta ? "/beta_table" : "/beta_0");
      benchmark::RegisterBenchmark(bench.c_str(), BM_PlainGrid, name, table_beta, true)
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    }
  benchmark::RegisterBenchmark("PlainGrid/vgg/beta_0/no_heuristic", BM_PlainGrid, "vgg", false, false)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  for (Way way : {Way::plain, Way::declared, Way::baseline})
    for (const auto& p : kPoints) {
      const char* w = way == Way::plain ? "Plain/" : way == Way::declared ? "Declared/" : "Baseline/";
      const std::string name = std::string(w) + p.net + "/" + std::to_string(p.fpgas) + "/" +
                               std::to_string(int(p.cap)) + "/beta_" + (p.beta > 0 ? "table" : "0");
      benchmark::RegisterBenchmark(name.c_str(), BM_Allocation, p, way)->Iterations(1)->Unit(benchmark::kMillisecond);
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
