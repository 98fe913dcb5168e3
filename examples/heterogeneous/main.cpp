// A heterogeneous platform: study 001's AlexNet-16 (Table 3.2) on two
// xcvu9p FPGAs and one GPU at once. Each of the eight stages keeps its
// measured FPGA implementation (resources in % of an FPGA, WCET of one CU)
// and gets a GPU implementation derived from the layer's operations: a GPU
// CU is a slice of the streaming multiprocessors running that layer at
// a stated share of the GPU's peak. Work of a stage is split between its
// CUs by speed, so FPGA and GPU CUs of one stage finish together.
//
// For each per-FPGA resource cap, the proven-optimal II (study 001's
// chapter-3 model: compute only) on: the two FPGAs alone -- checked against
// the one-kind model of study001_ch3 --, the GPU alone, and both; the mixed
// optimum's breakdown at 61 %; the same platform with host transfers over
// PCIe (sequential phases, data kept on a device between co-located
// stages): local search gives an incumbent, the tabulated (linear) model
// beats or proves it; an SVG of II against the cap and one of each device's use at 61 %.
// Then power: for each II_max the least power that meets it (double
// buffered, as study 001's chapter 5) on the FPGAs, the GPU and both, proven
// by the power model; the FPGA-only points are checked by a second method.
// FPGA CU powers are study 001's (Table 5.3), FPGA static power AWS F1's.
//
// The GPU figures are ASSUMPTIONS, not measurements of a study: the defaults
// describe an NVIDIA T4 (8.1 TFLOPS FP32 peak, 40 SMs, 16 GB, 70 W), running a
// batch-1 layer at 30 % of the peak of its slice, plus 10 us per launch;
// 10 W idle, the other 60 W shared by the busy slices.
// They are command-line parameters; examples/heterogeneous/README.md lists
// them.
//
// usage: heterogeneous_alexnet [--data DIR] [--svg-dir DIR] [--json] [--csv FILE] [--caps 30,40,...] [--threads N]
//            [--gpu-tflops F] [--gpu-efficiency E] [--gpu-slices S] [--gpu-overhead-us U] [--pcie-gb-s B]
//            [--time-limit S] [--gpu-watts W] [--gpu-idle-watts W] [--ii-max 0.5,1,...] [--power-cap P]
#include "alexnet16.hpp"
#include "common/cli.hpp"
#include "study001/common/study.hpp"  // parse_list

#include <ychart/pipeline.hpp>
#include <ychart/explore.hpp>
#include <ychart/io/svg.hpp>
#include <ychart/io/table.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#ifndef YCHART_EXAMPLES_DATA_DIR
#define YCHART_EXAMPLES_DATA_DIR "examples/data"
#endif

using namespace ychart;
using namespace ychart::pipeline;
using namespace ychart::explore;

namespace {

using namespace heterogeneous;

struct Solved {
  double ii_ms = std::numeric_limits<double>::quiet_NaN();     // the best mapping's, priced by evaluate()
  double bound_ms = std::numeric_limits<double>::quiet_NaN();  // proven: no mapping is faster
  double gap = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0;
  Status status = Status::numerical_error;
  Mapping mapping;
  std::string found_by = "model";  // or "local search", or "cap N %" (a smaller cap's mapping)
};

Solved solve_on(const Tasks& app, const Plat& p, double cap, double time_limit,
                Schedule schedule = Schedule::compute_only) {
  Solved out;
  const auto start = std::chrono::steady_clock::now();
  MappingModelOptions<FpgaResources, GpuResources> o;
  std::get<0>(o.caps) = uniform_resources<FpgaResources>(cap);
  o.schedule = schedule;
  auto pm = build_mapping_model(app, p, o);
  SolveOptions so;
  so.time_limit = time_limit;
  const auto s = pm.model.solve(so);
  out.status = s.status();
  out.bound_ms = 1e3 * s.bound();
  if (s.has_values() && (s.status() == Status::optimal || s.status() == Status::time_limit)) {
    out.mapping = pm.mapping(s);
    EvaluationOptions<FpgaResources, GpuResources> eo;
    eo.model.schedule = schedule;
    out.ii_ms = evaluate(app, p, out.mapping, eo).ii.in(units::ms);  // the evaluator prices it exactly
    out.gap = (out.ii_ms - out.bound_ms) / out.ii_ms;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

/// The same FPGA-only point with the one-kind model (study001_ch3's): a
/// second method the heterogeneous model must agree with.
double one_kind_ii_ms(const Tasks& app, double cap) {
  std::vector<Task<FpgaResources>> ks;
  for (const auto& t : app.kernels()) {
    Task<FpgaResources> k;
    k.name = t.name;
    k.type = t.type;
    k.implementation().use = t.implementation<0>()->use;
    k.implementation().wcet = t.implementation<0>()->wcet;
    ks.push_back(k);
  }
  Platform<FpgaResources> arch;
  arch.name = "2 FPGAs";
  arch.group().devices = 2;
  MappingModelOptions<FpgaResources> o;
  o.cap() = uniform_resources<FpgaResources>(cap);
  auto mm = build_mapping_model(Application<FpgaResources>::pipeline("Alex-16", ks), arch, o);
  const auto s = mm.model.solve();
  return s.status() == Status::optimal ? mm.initiation_interval(s).in(units::ms) : std::numeric_limits<double>::quiet_NaN();
}

struct Point {
  double cap = 0;
  Solved fpga, gpu, both, both_transfers;
  double one_kind_ms = 0;
};

/// Each device's use of its binding resource (DSP on an FPGA, SMs on the
/// GPU) by stage, as stacked bars.
io::StackedBarChart use_bars(const Tasks& app, const Plat& p, const Mapping& m, double cap) {
  io::StackedBarChart chart;
  chart.title = "Alex-16 on " + p.name + " at a " + std::to_string(int(cap)) + " % FPGA cap";
  chart.y_label = "use (% of DSPs on an FPGA, of SMs on the GPU)";
  const std::size_t D = static_cast<std::size_t>(p.devices());
  for (std::size_t d = 0; d < D; ++d)
    chart.categories.push_back(p.kind_name(p.group_of(d)) + " " + std::to_string(d + 1 - p.first_device(p.group_of(d))));
  for (std::size_t k = 0; k < app.size(); ++k) {
    io::StackedBarChart::Segment s;
    s.name = app.kernel(k).name;
    for (std::size_t d = 0; d < D; ++d)
      s.values.push_back(m.cus[k][d] * (p.group_of(d) == 0 ? app.kernel(k).implementation<0>()->use.dsp
                                                            : app.kernel(k).implementation<1>()->use.sm));
    chart.segments.push_back(std::move(s));
  }
  chart.reference_line = cap;
  chart.reference_label = "FPGA cap " + std::to_string(int(cap)) + " %";
  return chart;
}

/// With host transfers (sequential phases, locality), in two steps. First
/// an incumbent: the compute-only optimum priced with transfers, and local
/// searches (priced by evaluate()) from it and from a first fit. Then the
/// tabulated model (linear, MappingModelOptions::tabulate), its tables
/// bounded by the incumbent's II from above and the compute-only optimum's
/// execution time from below.
Solved solve_transfers(const Tasks& app, const Plat& p, double cap, double time_limit, const Solved& compute_only) {
  const auto start = std::chrono::steady_clock::now();
  EvaluationOptions<FpgaResources, GpuResources> eo;
  eo.model.schedule = Schedule::sequential_phases;
  std::get<0>(eo.caps) = uniform_resources<FpgaResources>(cap);
  Solved best;
  std::vector<Mapping> starts;
  if (!compute_only.mapping.cus.empty()) starts.push_back(compute_only.mapping);
  if (auto f = first_fit(app, p, eo.caps)) starts.push_back(*f);
  for (const auto& m : starts) {
    const auto r = local_search(app, p, m, eo);
    if (!(r.evaluation.ii.in(units::ms) >= best.ii_ms)) best.ii_ms = r.evaluation.ii.in(units::ms), best.mapping = r.mapping;
  }
  if (best.mapping.cus.empty()) {  // nothing fits: the model says so
    best.status = Status::infeasible;
    return best;
  }
  MappingModelOptions<FpgaResources, GpuResources> o;
  o.caps = eo.caps;
  o.schedule = eo.model.schedule;
  o.tabulate = true;
  o.ii_upper_bound_ms = best.ii_ms;
  const bool proven = compute_only.status == Status::optimal;
  o.execution_lower_bound_ms = proven ? compute_only.ii_ms : std::isfinite(compute_only.bound_ms) ? compute_only.bound_ms : 0.0;
  auto pm = build_mapping_model(app, p, o);
  SolveOptions so;
  so.time_limit = time_limit;
  const auto s = pm.model.solve(so);
  best.status = s.status();
  best.bound_ms = 1e3 * s.bound();
  best.found_by = "local search";  // until the model matches or beats it
  if (s.has_values() && (s.status() == Status::optimal || s.status() == Status::time_limit)) {
    const auto m = pm.mapping(s);
    if (const double ii = evaluate(app, p, m, eo).ii.in(units::ms); ii < best.ii_ms * (1 + 1e-9))
      best.ii_ms = ii, best.mapping = m, best.found_by = "model";
  }
  if (best.status == Status::optimal) best.bound_ms = std::min(best.bound_ms, best.ii_ms);
  best.gap = (best.ii_ms - best.bound_ms) / best.ii_ms;
  best.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return best;
}

/// The power-optimal mapping at II_max (the model's proven optimum, priced
/// by evaluate()); NaN power when no mapping meets II_max.
struct PowerPoint {
  double watts = std::numeric_limits<double>::quiet_NaN(), bound = std::numeric_limits<double>::quiet_NaN();
  double gap = std::numeric_limits<double>::quiet_NaN(), seconds = 0;
  int devices = 0, gpu_cus = 0;
  Status status = Status::numerical_error;
};

PowerPoint power_optimal(const Tasks& app, const Plat& p, double ii_max_ms, double cap, double time_limit) {
  PowerPoint out;
  const auto start = std::chrono::steady_clock::now();
  PowerModelOptions<FpgaResources, GpuResources> o;  // study 001 chapter 5's timing: double buffered, no locality
  std::get<0>(o.caps) = uniform_resources<FpgaResources>(cap);
  o.model.scale_clocks = false;  // busy-time power
  o.model.clock_gating = true;
  auto pm = build_power_model(app, p, ii_max_ms * units::ms, o);
  SolveOptions so;
  so.time_limit = time_limit;
  const auto s = pm.model.solve(so);
  out.status = s.status();
  out.bound = s.bound();
  if (s.has_values() && (s.status() == Status::optimal || s.status() == Status::time_limit)) {
    const auto m = pm.mapping(s);
    EvaluationOptions<FpgaResources, GpuResources> eo;
    eo.caps = o.caps;
    eo.model = o.model;  // the price the model minimised
    eo.operating_ii = ii_max_ms * units::ms;
    const auto e = evaluate(app, p, m, eo);
    if (!e.feasible) throw model_error("the power model's mapping breaks its constraints: " + e.violations.front());
    out.watts = e.power->total.value();
    out.gap = (out.watts - out.bound) / out.watts;
    out.devices = e.devices_used;
    for (const auto& row : m.cus) out.gpu_cus += row.empty() || p.devices_of(1) == 0 ? 0 : row.back();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

/// A second method for the FPGAs alone: CUs there are busy only while they
/// compute, so the dynamic energy is sum_k P_k WCET_k whatever the
/// mapping, and the least power is F_min static powers plus it over II,
/// F_min the fewest FPGAs whose fastest mapping (the II model) meets II_max.
double fpga_only_power(const Tasks& app, const std::vector<double>& fastest_ii_ms, double static_w, double ii_max_ms) {
  double energy = 0;  // mJ
  for (const auto& t : app.kernels())
    energy += t.implementation<0>()->power.value() * t.implementation<0>()->wcet.in(units::ms);
  for (std::size_t f = 0; f < fastest_ii_ms.size(); ++f)
    if (fastest_ii_ms[f] <= ii_max_ms * (1 + 1e-9)) return double(f + 1) * static_w + energy / ii_max_ms;
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = YCHART_EXAMPLES_DATA_DIR;
  std::vector<double> caps = {30, 40, 50, 61, 70, 82, 92};
  unsigned threads = 0;
  double time_limit = 10, pcie_gb_s = 9.4;
  std::vector<double> ii_max = {0.4, 0.5, 0.6, 0.8, 1.0, 1.4, 2.0, 3.0, 5.0};
  double power_cap = 100;
  GpuAssumptions gpu;
  examples::Outputs outputs("heterogeneous_alexnet", "heterogeneous");
  examples::CommandLine cli("AlexNet-16 on two FPGAs and a GPU at once: proven-optimal II and least power "
               "(the GPU figures are assumptions, see --help and the README)");
  cli.option("--data", data, "Directory of the transcribed tables").show_default();
  cli.option("--caps", caps, "Resource caps per FPGA (%)").comma_separated().show_default().within(1.0, 100.0);
  cli.option("--threads", threads, "Sweep threads (0: one per core)").show_default();
  cli.option("--time-limit", time_limit, "Time limit per exact solve (s)").show_default().positive();
  cli.option("--pcie-gb-s", pcie_gb_s, "PCIe bandwidth (GB/s)").show_default();
  cli.option("--gpu-tflops", gpu.tflops, "GPU FP32 peak (TFLOPS; assumption)").show_default();
  cli.option("--gpu-efficiency", gpu.efficiency, "Share of a slice's peak a layer reaches").show_default();
  cli.option("--gpu-slices", gpu.slices, "CUs the GPU holds").show_default();
  cli.option("--gpu-overhead-us", gpu.overhead_us, "Launch overhead per layer run (us)").show_default();
  cli.option("--gpu-watts", gpu.board_watts, "GPU board power at full load (W)").show_default();
  cli.option("--gpu-idle-watts", gpu.idle_watts, "GPU idle power (W)").show_default();
  cli.option("--ii-max", ii_max, "II limits of the power sweep (ms)").comma_separated().show_default();
  cli.option("--power-cap", power_cap, "Resource cap of the power sweep (%)").show_default();
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  const std::string out_dir = outputs.svg_dir();
  try {
    if (!(pcie_gb_s > 0)) throw model_error("--pcie-gb-s must be positive");
    if (!(gpu.tflops > 0 && gpu.efficiency > 0 && gpu.efficiency <= 1 && gpu.slices >= 1 && gpu.overhead_us >= 0))
      throw model_error("the GPU parameters must be positive (efficiency at most 1)");
    if (!(gpu.idle_watts >= 0 && gpu.board_watts > gpu.idle_watts))
      throw model_error("--gpu-watts must exceed --gpu-idle-watts, which must not be negative");
    if (!(power_cap > 0 && power_cap <= 100)) throw model_error("--power-cap must lie in (0, 100]");
    if (int rc = outputs.begin()) return rc;
    const auto app = alexnet16(data, gpu);
    std::cout << "Alex-16 stages (FPGA: study 001 Table 3.2; GPU: derived, " << gpu.tflops << " TFLOPS x "
              << gpu.efficiency << ", " << gpu.slices << " slices)\n";
    io::Table stages({{"stage", "", 1}, {"FPGA WCET", "ms", 4}, {"FPGA dsp", "%", 3}, {"GPU WCET", "ms", 4},
                      {"GPU sm", "%", 3}});
    for (const auto& t : app.kernels())
      stages.add_row({t.name, t.implementation<0>()->wcet.in(units::ms), t.implementation<0>()->use.dsp,
                      t.implementation<1>()->wcet.in(units::ms), t.implementation<1>()->use.sm});
    stages.print(std::cout);

    const auto f1 = load_architecture<FpgaResources>(std::filesystem::path(data) / "shan2021" / "aws_f1.json");
    const auto fpgas = platform(2, 0, pcie_gb_s, f1.kind(), gpu), gpus = platform(0, 1, pcie_gb_s, f1.kind(), gpu),
               both = platform(2, 1, pcie_gb_s, f1.kind(), gpu);
    SweepOptions so;
    so.threads = threads;
    so.label = "FPGA + GPU";
    auto points = sweep(
        caps,
        [&](double cap) {
          Point p;
          p.cap = cap;
          p.fpga = solve_on(app, fpgas, cap, time_limit);
          p.gpu = solve_on(app, gpus, cap, time_limit);
          p.both = solve_on(app, both, cap, time_limit);
          p.both_transfers = solve_transfers(app, both, cap, time_limit, p.both);
          p.one_kind_ms = one_kind_ii_ms(app, cap);
          return p;
        },
        so);

    // A mapping within a smaller cap is within every larger one: where a
    // search stopped at its limit, the other caps' mappings compete too.
    for (auto& p : points)
      for (const auto& q : points)
        if (q.cap < p.cap && p.both_transfers.status != Status::optimal && !q.both_transfers.mapping.cus.empty()) {
          EvaluationOptions<FpgaResources, GpuResources> eo;
          eo.model.schedule = Schedule::sequential_phases;
          std::get<0>(eo.caps) = uniform_resources<FpgaResources>(p.cap);
          const auto e = evaluate(app, both, q.both_transfers.mapping, eo);
          if (e.feasible && e.ii.in(units::ms) < p.both_transfers.ii_ms * (1 - 1e-9)) {
            p.both_transfers.ii_ms = e.ii.in(units::ms);
            p.both_transfers.mapping = q.both_transfers.mapping;
            p.both_transfers.gap = (p.both_transfers.ii_ms - p.both_transfers.bound_ms) / p.both_transfers.ii_ms;
            p.both_transfers.found_by = "cap " + std::to_string(int(q.cap)) + " %";
          }
        }
    io::Table table({{"cap", "%", 3},
                     {"2 FPGA II", "ms", 4},
                     {"one-kind model II", "ms", 4},
                     {"1 GPU II", "ms", 4},
                     {"2 FPGA + 1 GPU II", "ms", 4},
                     {"speed-up over FPGAs", "", 3},
                     {"GPU CUs", "", 2},
                     {"with transfers II", "ms", 4},
                     {"bound", "ms", 4},
                     {"gap", "%", 2},
                     {"found by", "", 1},
                     {"time FPGA", "s", 2},
                     {"time GPU", "s", 2},
                     {"time both", "s", 2},
                     {"time transfers", "s", 2}});
    bool agree = true;
    for (const auto& p : points) {
      long gpu_cus = 0;
      for (const auto& row : p.both.mapping.cus) gpu_cus += row.empty() ? 0 : row.back();
      table.add_row({p.cap, p.fpga.ii_ms, p.one_kind_ms, p.gpu.ii_ms, p.both.ii_ms, p.fpga.ii_ms / p.both.ii_ms,
                     gpu_cus, p.both_transfers.ii_ms, p.both_transfers.bound_ms, 100 * p.both_transfers.gap,
                     p.both_transfers.found_by,
                     p.fpga.seconds, p.gpu.seconds, p.both.seconds,
                     p.both_transfers.seconds});
      for (const auto* s : {&p.fpga, &p.gpu, &p.both, &p.both_transfers})
        if (s->status != Status::optimal)
          std::cout << "cap " << p.cap << ": a solve ended " << to_string(s->status)
                    << (s->mapping.cus.empty() ? "" : " (its best mapping, bound and gap are shown)") << "\n";
      if (std::isfinite(p.fpga.ii_ms) != std::isfinite(p.one_kind_ms) ||
          (std::isfinite(p.fpga.ii_ms) && std::abs(p.fpga.ii_ms - p.one_kind_ms) > 1e-6 * p.one_kind_ms))
        agree = false;
    }
    std::cout << "\nII against the per-FPGA cap (every point proven optimal unless stated above; the\n"
                 "transfer model's proven bound and gap are shown)\n";
    table.print(std::cout);
    std::cout << (agree ? "the FPGA-only optima equal the one-kind model's at every cap\n"
                        : "WARNING: the FPGA-only optima differ from the one-kind model's\n");
    table.write_csv(std::filesystem::path(out_dir) / "alex16_fpga_gpu.csv");
    table.write_json(std::filesystem::path(out_dir) / "alex16_fpga_gpu.json");
    outputs.add_table("ii", table);

    auto series = [&](const std::string& name, auto y_of) {
      io::Series s;
      s.name = name;
      for (const auto& p : points) s.x.push_back(p.cap), s.y.push_back(y_of(p));
      return s;
    };
    io::LineChart chart;
    chart.title = "Alex-16: II against the FPGA resource cap";
    chart.x_label = "resource cap per FPGA (%)";
    chart.y_label = "II (ms)";
    chart.series = {series("2 FPGAs", [](const Point& p) { return p.fpga.ii_ms; }),
                    series("1 GPU", [](const Point& p) { return p.gpu.ii_ms; }),
                    series("2 FPGAs + 1 GPU", [](const Point& p) { return p.both.ii_ms; }),
                    series("2 FPGAs + 1 GPU, PCIe transfers", [](const Point& p) { return p.both_transfers.ii_ms; })};
    outputs.figure("alex16_fpga_gpu_cap.svg", chart);

    for (const auto& p : points)
      if (p.cap == 61 && p.both.status == Status::optimal) {
        std::cout << "\nthe 2 FPGA + 1 GPU optimum at 61 %:\n";
        for (std::size_t k = 0; k < app.size(); ++k) {
          std::cout << "  " << app.kernel(k).name << ":";
          for (int n : p.both.mapping.cus[k]) std::cout << " " << n;
          std::cout << "\n";
        }
        EvaluationOptions<FpgaResources, GpuResources> eo;
        std::get<0>(eo.caps) = uniform_resources<FpgaResources>(p.cap);
        evaluate(app, both, p.both.mapping, eo).print(std::cout);
        outputs.figure("alex16_fpga_gpu_61.svg", use_bars(app, both, p.both.mapping, p.cap));
        if (!p.both_transfers.mapping.cus.empty()) {
          std::cout << "\nwith host transfers (sequential phases, locality) at 61 %:\n";
          eo.model.schedule = Schedule::sequential_phases;
          evaluate(app, both, p.both_transfers.mapping, eo).print(std::cout);
        }
      }
    // Power: the least power that meets each II_max (double buffered, no
    // locality, as study 001's chapter 5), each point proven by the power model.
    const double fpga_static = f1.kind().static_power.value() + f1.kind().memory.static_power.value();
    std::vector<double> fastest;  // the II model's fastest II on 1 and 2 FPGAs (ms)
    for (int f = 1; f <= 2; ++f) {
      MappingModelOptions<FpgaResources, GpuResources> o;
      std::get<0>(o.caps) = uniform_resources<FpgaResources>(power_cap);
      o.schedule = Schedule::double_buffered;
      o.locality = false;
      auto pm = build_mapping_model(app, platform(f, 0, pcie_gb_s, f1.kind(), gpu), o);
      const auto s = pm.model.solve();
      if (s.status() != Status::optimal) throw model_error("the FPGA-only II model was not proven: " + s.message());
      fastest.push_back(pm.initiation_interval(s).in(units::ms));
    }
    struct PowerRow {
      double ii_max = 0, check = 0;
      PowerPoint fpga, gpu, both;
    };
    SweepOptions po;
    po.threads = threads;
    po.label = "power";
    const auto powers = sweep(
        ii_max,
        [&](double ii) {
          return PowerRow{ii, fpga_only_power(app, fastest, fpga_static, ii),
                          power_optimal(app, fpgas, ii, power_cap, time_limit),
                          power_optimal(app, gpus, ii, power_cap, time_limit),
                          power_optimal(app, both, ii, power_cap, time_limit)};
        },
        po);
    io::Table ptable({{"II_max", "ms", 3},
                      {"2 FPGA power", "W", 4},
                      {"second method", "W", 4},
                      {"FPGAs", "", 1},
                      {"1 GPU power", "W", 4},
                      {"2 FPGA + 1 GPU power", "W", 4},
                      {"devices", "", 1},
                      {"GPU CUs", "", 1},
                      {"saving vs best single kind", "%", 3},
                      {"time both", "s", 2}});
    bool power_agrees = true;
    for (const auto& r : powers) {
      const double single = std::fmin(r.fpga.watts, r.gpu.watts);
      ptable.add_row({r.ii_max, r.fpga.watts, r.check, r.fpga.devices, r.gpu.watts, r.both.watts, r.both.devices,
                      r.both.gpu_cus, 100 * (single - r.both.watts) / single, r.both.seconds});
      for (const auto* s : {&r.fpga, &r.gpu, &r.both})
        if (s->status != Status::optimal && s->status != Status::infeasible)
          std::cout << "II_max " << r.ii_max << ": a power solve ended " << to_string(s->status) << " (bound "
                    << s->bound << " W, gap " << 100 * s->gap << " %)\n";
      if (std::isfinite(r.fpga.watts) != std::isfinite(r.check) ||
          (std::isfinite(r.check) && std::abs(r.fpga.watts - r.check) > 1e-6 * r.check))
        power_agrees = false;
    }
    std::cout << "\nleast power meeting II_max (double buffered, no locality; FPGA cap " << power_cap
              << " %; FPGA: study 001 Table 5.3 CU power, " << fpga_static << " W static; GPU: " << gpu.idle_watts
              << " W idle, " << gpu.cu_watts() << " W per busy CU, assumed)\n";
    ptable.print(std::cout);
    std::cout << (power_agrees ? "the FPGA-only optima equal the second method at every II_max\n"
                               : "WARNING: the FPGA-only power optima differ from the second method\n");
    ptable.write_csv(std::filesystem::path(out_dir) / "alex16_fpga_gpu_power.csv");
    outputs.add_table("power", ptable);
    io::LineChart pchart;
    pchart.title = "Alex-16: least power against II_max";
    pchart.x_label = "II_max (ms)";
    pchart.y_label = "power (W)";
    pchart.log_x = true;  // the II_max grid grows geometrically
    auto power_series = [&](const std::string& name, auto y_of) {
      io::Series s;
      s.name = name;
      for (const auto& r : powers) s.x.push_back(r.ii_max), s.y.push_back(y_of(r));
      return s;
    };
    pchart.series = {power_series("2 FPGAs", [](const PowerRow& r) { return r.fpga.watts; }),
                     power_series("1 GPU", [](const PowerRow& r) { return r.gpu.watts; }),
                     power_series("2 FPGAs + 1 GPU", [](const PowerRow& r) { return r.both.watts; })};
    outputs.figure("alex16_fpga_gpu_power.svg", pchart);

    std::cout << "\nfiles written to " << out_dir << "/\n";
    const int written = outputs.finish();
    return agree && power_agrees ? written : 1;
  } catch (const std::exception& e) {
    std::cerr << "heterogeneous_alexnet: " << e.what() << "\n";
    return 1;
  }
}
