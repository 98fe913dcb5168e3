// examples/study001/ch5/ch5.hpp
// Study 001, chapters 5 and 6 (J. Shan, PhD thesis, Politecnico di Torino,
// 2021). The computations behind the example (main.cpp) and the benchmark
// (benchmarks/bench_study001.cpp): one sweep point per call.
#pragma once

#include "../common/study.hpp"
#include <ychart/baselines/shan2021.hpp>
#include <ychart/baselines/shan2021_h1.hpp>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace study001::ch5 {

using namespace ychart;
using namespace ychart::pipeline;
using study001::App;
using study001::Arch;
using study001::not_a_number;

struct Case {
  std::string id, title, file;
  std::vector<double> ii_ms;  // the II_max grid
};

extern const std::vector<Case> cases;

struct Point {
  double ii_ms = 0;
  int f_min = 0, h2_fpgas = 0;
  double h2_power = not_a_number, bound = not_a_number, gap = not_a_number, seconds = not_a_number;
  double device_static = not_a_number, memory_static = not_a_number, compute = not_a_number, memory_transfer = not_a_number, memory_execution = not_a_number;
  double transfers_ms = not_a_number;
  Mapping mapping;  // H2's
  // The exact optimum (ychart::pipeline::solve_power_optimal), started from the
  // better of H2 and H1: power, proven bound, gap (0 when proven), FPGAs.
  Status exact_status = Status::infeasible;
  double exact_power = not_a_number, exact_bound = not_a_number, exact_gap = not_a_number, exact_seconds = not_a_number;
  int exact_fpgas = 0;
  Mapping exact_mapping;
  // H1 (ch. 6.2): the model on F_min FPGAs, N_k in {CU_min_k, CU_min_k + 1},
  // without DDR energy, priced by evaluate().
  Status h1_status = Status::infeasible;
  double h1_power = not_a_number, h1_seconds = not_a_number;
  int h1_fpgas = 0;
};

/// The chapter-5 timing: transfers overlap execution, no DDR-to-DDR transfers.
EvaluationOptions<FpgaResources> transfer_model();

/// The same, run at `ii_ms` and priced (eqs. 5.13-5.22).
EvaluationOptions<FpgaResources> power_model(double ii_ms);

Arch with_devices(Arch a, std::size_t devices);

/// CU_min, F_min, H2 (Algorithm 4) priced by evaluate(), the bound and H2's gap to it.
Point solve_point(const App& app, const Arch& arch, double ii_ms);

/// The ch. 5 power model as ychart's exact model sees it.
PowerModelOptions<FpgaResources> exact_options();

/// solve_point(), then H1 and the exact optimum, each solve stopped after `time_limit` s.
Point solve_point_exact(const App& app, const Arch& arch, double ii_ms, double time_limit);

/// Frequency scaling (FS, ch. 5.4): `fastest`'s clocks at its own II, all
/// multiplied by one factor so that execution just fills `ii_ms`.
double frequency_scaling_power(const App& app, const Arch& arch, const Mapping& fastest, double fastest_ii_ms,
                               double ii_ms);

/// Clock gating (CK, ch. 5.4): `fastest` at its own clocks; each FPGA's
/// clock stops when its CUs finish, so a run costs the dynamic energy of the
/// fastest point (compute, DDR) and the static power lasts the whole II.
double clock_gating_power(const App& app, const Arch& arch, const Mapping& fastest, double fastest_ii_ms,
                          double ii_ms);

/// Replication (ch. 5.4): `base` copied r times, the copies serving inputs
/// round robin. A copy then starts a run every r x II_max, so the r copies
/// cost r x evaluate(base at operating II r x II_max): r times the base's
/// static power plus, per input, the base's dynamic energy (compute, DDR of
/// the transfers, DDR of the execution: eqs. 5.14-5.21 are energies per run
/// of one copy) over II_max. r is the least count with r x II_max >= the
/// base's own II. Assumptions: each copy has FPGAs, DDR and PCIe links of
/// its own (AWS F1: one link and four DDR banks per FPGA), so a copy's
/// execution and DDR do not slow another's; the host still moves every
/// input and output, serially (eq. 5.5, as evaluate() does within one
/// mapping), so the copies need the base's T_h2f + T_f2h <= II_max; the
/// host's own power and the round-robin dispatch are not modelled, as in
/// eqs. 5.13-5.22.
struct Replication {
  bool feasible = false;
  std::string limit;  // why not: "FPGAs" (r x the base's FPGAs > the platform's) or "host transfers"
  int copies = 0, fpgas = 0;  // r, r x the base's FPGAs
  double power = not_a_number;  // W
  double base_ii_ms = not_a_number, host_ms = not_a_number;  // the base's own II and T_h2f + T_f2h
};

Replication replication(const App& app, const Arch& arch, const Mapping& base, double ii_ms);

}  // namespace study001::ch5
