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
// stages); an SVG of II against the cap and one of each device's use at 61 %.
//
// The GPU figures are ASSUMPTIONS, not measurements of a study: the defaults
// describe an NVIDIA T4 (8.1 TFLOPS FP32 peak, 40 SMs, 16 GB), running a
// batch-1 layer at 30 % of the peak of its slice, plus 10 us per launch.
// They are command-line parameters; examples/heterogeneous/README.md lists
// them.
//
// usage: heterogeneous_alexnet [--data DIR] [--out DIR] [--caps 30,40,...] [--threads N]
//            [--gpu-tflops F] [--gpu-efficiency E] [--gpu-slices S] [--gpu-overhead-us U] [--pcie-gb-s B]
//            [--time-limit S]
#include "alexnet16.hpp"
#include "study001/common/study.hpp"  // parse_list

#include <ychart/ychart.hpp>
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
using namespace ychart::dse;

namespace {

using namespace heterogeneous;

struct Solved {
  double ii_ms = std::numeric_limits<double>::quiet_NaN();     // the best mapping's, priced by evaluate()
  double bound_ms = std::numeric_limits<double>::quiet_NaN();  // proven: no mapping is faster
  double gap = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0;
  Status status = Status::numerical_error;
  Mapping mapping;
};

Solved solve_on(const Tasks& app, const Plat& p, double cap, double time_limit,
                Schedule schedule = Schedule::compute_only) {
  Solved out;
  const auto start = std::chrono::steady_clock::now();
  PlatformModelOptions<FpgaResources, GpuResources> o;
  std::get<0>(o.caps) = uniform_resources<FpgaResources>(cap);
  o.schedule = schedule;
  auto pm = build_platform_model(app, p, o);
  SolveOptions so;
  so.time_limit = time_limit;
  const auto s = pm.model.solve(so);
  out.status = s.status();
  out.bound_ms = 1e3 * s.bound();
  if (s.has_values() && (s.status() == Status::optimal || s.status() == Status::time_limit)) {
    out.mapping = pm.mapping(s);
    PlatformEvaluationOptions<FpgaResources, GpuResources> eo;
    eo.schedule = schedule;
    out.ii_ms = evaluate(app, p, out.mapping, eo).ii.in(units::ms);  // the evaluator prices it exactly
    out.gap = (out.ii_ms - out.bound_ms) / out.ii_ms;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

/// The same FPGA-only point with the one-kind model (study001_ch3's): a
/// second method the heterogeneous model must agree with.
double one_kind_ii_ms(const Tasks& app, double cap) {
  std::vector<Kernel<FpgaResources>> ks;
  for (const auto& t : app.kernels()) {
    Kernel<FpgaResources> k;
    k.name = t.name;
    k.type = t.type;
    k.use = t.implementation<0>()->use;
    k.wcet = t.implementation<0>()->wcet;
    ks.push_back(k);
  }
  Architecture<FpgaResources> arch;
  arch.name = "2 FPGAs";
  arch.devices = 2;
  MappingModelOptions<FpgaResources> o;
  o.cap = uniform_resources<FpgaResources>(cap);
  auto mm = build_mapping_model(Application<FpgaResources>::pipeline("Alex-16", ks), arch, o);
  const auto s = mm.model.solve();
  return s.status() == Status::optimal ? mm.ii_ms(s) : std::numeric_limits<double>::quiet_NaN();
}

struct Point {
  double cap = 0;
  Solved fpga, gpu, both, both_transfers;
  double one_kind_ms = 0;
};

/// Each device's use of its binding resource (DSP on an FPGA, SMs on the
/// GPU) by stage, as stacked bars.
void use_bars(const Tasks& app, const Plat& p, const Mapping& m, double cap, const std::filesystem::path& file) {
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
  io::write_svg(file, chart);
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = YCHART_EXAMPLES_DATA_DIR, out_dir = "heterogeneous";
  std::vector<double> caps = {30, 40, 50, 61, 70, 82, 92};
  unsigned threads = 0;
  double time_limit = 10, pcie_gb_s = 9.4;
  GpuAssumptions gpu;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--data") data = next();
    else if (a == "--out") out_dir = next();
    else if (a == "--caps") caps = study001::parse_list(next());
    else if (a == "--threads") threads = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--time-limit") time_limit = std::stod(next());
    else if (a == "--pcie-gb-s") pcie_gb_s = std::stod(next());
    else if (a == "--gpu-tflops") gpu.tflops = std::stod(next());
    else if (a == "--gpu-efficiency") gpu.efficiency = std::stod(next());
    else if (a == "--gpu-slices") gpu.slices = std::stoi(next());
    else if (a == "--gpu-overhead-us") gpu.overhead_us = std::stod(next());
    else {
      std::cerr << "usage: heterogeneous_alexnet [--data DIR] [--out DIR] [--caps 30,40,...] [--threads N] "
                   "[--gpu-tflops F] [--gpu-efficiency E] [--gpu-slices S] [--gpu-overhead-us U] [--pcie-gb-s B] "
                   "[--time-limit S]\n";
      return 2;
    }
  }
  try {
    if (!(pcie_gb_s > 0)) throw model_error("--pcie-gb-s must be positive");
    if (!(gpu.tflops > 0 && gpu.efficiency > 0 && gpu.efficiency <= 1 && gpu.slices >= 1 && gpu.overhead_us >= 0))
      throw model_error("the GPU parameters must be positive (efficiency at most 1)");
    std::filesystem::create_directories(out_dir);
    const auto app = alexnet16(data, gpu);
    std::cout << "Alex-16 stages (FPGA: study 001 Table 3.2; GPU: derived, " << gpu.tflops << " TFLOPS x "
              << gpu.efficiency << ", " << gpu.slices << " slices)\n";
    io::Table stages({{"stage", "", 1}, {"FPGA WCET", "ms", 4}, {"FPGA dsp", "%", 3}, {"GPU WCET", "ms", 4},
                      {"GPU sm", "%", 3}});
    for (const auto& t : app.kernels())
      stages.add_row({t.name, t.implementation<0>()->wcet.in(units::ms), t.implementation<0>()->use.dsp,
                      t.implementation<1>()->wcet.in(units::ms), t.implementation<1>()->use.sm});
    stages.print(std::cout);

    const auto fpgas = platform(2, 0, pcie_gb_s), gpus = platform(0, 1, pcie_gb_s), both = platform(2, 1, pcie_gb_s);
    SweepOptions so;
    so.threads = threads;
    so.label = "FPGA + GPU";
    const auto points = sweep(
        caps,
        [&](double cap) {
          Point p;
          p.cap = cap;
          p.fpga = solve_on(app, fpgas, cap, time_limit);
          p.gpu = solve_on(app, gpus, cap, time_limit);
          p.both = solve_on(app, both, cap, time_limit);
          p.both_transfers = solve_on(app, both, cap, time_limit, Schedule::sequential_phases);
          // The compute-only optimum is a mapping too: priced with transfers it
          // may beat the search's incumbent when the search stops at its limit.
          if (p.both.status == Status::optimal && p.both_transfers.status != Status::optimal) {
            PlatformEvaluationOptions<FpgaResources, GpuResources> eo;
            eo.schedule = Schedule::sequential_phases;
            const double priced = evaluate(app, both, p.both.mapping, eo).ii.in(units::ms);
            if (!(priced >= p.both_transfers.ii_ms)) {
              p.both_transfers.ii_ms = priced;
              p.both_transfers.mapping = p.both.mapping;
              p.both_transfers.gap = (priced - p.both_transfers.bound_ms) / priced;
            }
          }
          p.one_kind_ms = one_kind_ii_ms(app, cap);
          return p;
        },
        so);

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
                     {"time FPGA", "s", 2},
                     {"time GPU", "s", 2},
                     {"time both", "s", 2},
                     {"time transfers", "s", 2}});
    bool agree = true;
    for (const auto& p : points) {
      long gpu_cus = 0;
      for (const auto& row : p.both.mapping.cus) gpu_cus += row.empty() ? 0 : row.back();
      table.add_row({p.cap, p.fpga.ii_ms, p.one_kind_ms, p.gpu.ii_ms, p.both.ii_ms, p.fpga.ii_ms / p.both.ii_ms,
                     gpu_cus, p.both_transfers.ii_ms, p.both_transfers.bound_ms, 100 * p.both_transfers.gap, p.fpga.seconds, p.gpu.seconds, p.both.seconds,
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
    io::write_svg(std::filesystem::path(out_dir) / "alex16_fpga_gpu_cap.svg", chart);

    for (const auto& p : points)
      if (p.cap == 61 && p.both.status == Status::optimal) {
        std::cout << "\nthe 2 FPGA + 1 GPU optimum at 61 %:\n";
        for (std::size_t k = 0; k < app.size(); ++k) {
          std::cout << "  " << app.kernel(k).name << ":";
          for (int n : p.both.mapping.cus[k]) std::cout << " " << n;
          std::cout << "\n";
        }
        PlatformEvaluationOptions<FpgaResources, GpuResources> eo;
        std::get<0>(eo.caps) = uniform_resources<FpgaResources>(p.cap);
        evaluate(app, both, p.both.mapping, eo).print(std::cout);
        use_bars(app, both, p.both.mapping, p.cap, std::filesystem::path(out_dir) / "alex16_fpga_gpu_61.svg");
        if (!p.both_transfers.mapping.cus.empty()) {
          std::cout << "\nwith host transfers (sequential phases, locality) at 61 %:\n";
          eo.schedule = Schedule::sequential_phases;
          evaluate(app, both, p.both_transfers.mapping, eo).print(std::cout);
        }
      }
    std::cout << "\nfiles written to " << out_dir << "/\n";
    return agree ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "heterogeneous_alexnet: " << e.what() << "\n";
    return 1;
  }
}
