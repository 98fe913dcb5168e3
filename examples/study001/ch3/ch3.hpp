// examples/study001/ch3/ch3.hpp
// Study 001, chapter 3 (J. Shan, PhD thesis, Politecnico di Torino, 2021):
// The computations behind the example (main.cpp) and the benchmark
// (benchmarks/bench_study001.cpp): one sweep point per call.
#pragma once

#include "../common/study.hpp"
#include <ychart/baselines/shan2021.hpp>
#include <ychart/io/svg.hpp>
#include <ychart/io/table.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace study001::ch3 {

using namespace ychart;
using namespace ychart::pipeline;
using study001::App;
using study001::Arch;
using study001::not_a_number;

struct Case {
  std::string id, title, file;
  int fpgas;
  double alpha, beta;  // Table 3.4
  std::string figure;
};

extern const std::vector<Case> cases;

/// One method's result at one cap.
struct Outcome {
  double ii_ms = not_a_number, spreading = not_a_number, average_use = not_a_number, seconds = not_a_number;
  double max_use = not_a_number;  // the most used resource of the most used FPGA, %
  bool proven = false;
  Mapping mapping;
};

struct Point {
  double cap = 0;
  double gp_ii_ms = not_a_number, gp_seconds = not_a_number;
  Outcome exact, weighted, gpa;
  // Where GP+A allocates nothing at the cap: the thesis's fallback, all of
  // GP+A re-run at cap + k T_max (ychart::baselines::shan2021::Rerun); it breaks the cap unless
  // its max_use happens to fit. Empty when GP+A succeeds at the cap.
  Outcome gpa_rerun;
  double gpa_rerun_cap = not_a_number;  // cap + k T_max
  int gpa_reruns = 0;                   // k
};

/// GP+A's fallback as the example runs it unless told otherwise: T_max =
/// 1 %, at most 10 re-runs, never past a whole FPGA.
ychart::baselines::shan2021::Rerun default_rerun();

/// Average over all F FPGAs of each FPGA's most used resource, in % (the
/// thesis's "average FPGA utilization").
double average_use(const Evaluation& e);

Outcome priced(const App& app, const Arch& arch, const Mapping& m, double cap);

/// The GP relaxation at a cap (one value per resource type, %): its II and
/// the CU counts GP+A starts from; n_hat is empty when it is infeasible.
struct Gp {
  double ii_ms = not_a_number;
  std::vector<double> n_hat;
};

Gp solve_gp(const App& app, const Arch& arch, const std::vector<double>& cap);

Outcome solve_exact(const App& app, const Arch& arch, double cap, double alpha, double beta);

/// One cap: the GP relaxation, the two exact optima, GP+A and, where GP+A
/// allocates nothing, its fallback (`rerun`; max_reruns = 0 turns it off).
Point solve_point(const App& app, const Arch& arch, const Case& c, double cap,
                  const ychart::baselines::shan2021::Rerun& rerun = default_rerun());

}  // namespace study001::ch3
