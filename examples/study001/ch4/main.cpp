// Study 001, chapter 4 (J. Shan, PhD thesis, Politecnico di Torino, 2021):
// the enhanced performance model, II = host-to-FPGA + execution +
// FPGA-to-host, with input duplication and locality, DDR contention and a
// clock that falls with DSP use, on the six cases of Tables 4.3-4.8. Per
// case and resource cap (the thesis's Fig. 4.10):
//   GP relaxation  -- compute only, real CU counts (eqs. 4.30-4.36)
//   bound          -- a proven lower bound on every mapping's enhanced II
//                     (the exact transfer model plus bounds on memory time
//                     and clock degradation, solved to optimality)
//   bound model    -- that model's optimal mapping, priced exactly
//   GP+A           -- the thesis's heuristic (Algorithms 2-3), priced exactly
//   simplified     -- the chapter-3 optimum, priced exactly (sec. 4.5)
// and the gap of the best mapping to the bound. Where GP+A allocates nothing
// at a cap, the thesis re-runs all of it at R + T_max: the "GP+A re-run"
// columns give that II, the cap it used and its largest resource use (over
// the plotted cap unless it fits), and the figure marks it. Then II against the number
// of FPGAs (Fig. 4.12) and VGG-16 on 6 FPGAs at 76 %, enhanced against
// simplified (Fig. 4.13).
//
// usage: study001_ch4 [--data DIR] [--platform FILE.json] [--svg-dir DIR] [--json] [--csv FILE]
//          [--cases alex16_2,...] [--caps 45,55,...] [--threads N]
//          [--time-limit S] [--threshold T] [--step D] [--psi-mhz P]
//          [--pcie-gb-s B] [--ddr-gb-s B] [--port-bytes W]
//          [--fpga-counts-cap R] [--no-fpga-counts] [--t-max P] [--max-reruns N]
//   --t-max P       % added to the cap per GP+A re-run (default 1)
//   --max-reruns N  GP+A re-runs at most (default 10; 0: plain GP+A only)
#include "ch4.hpp"

#include "common/cli.hpp"

#include <ychart/explore.hpp>

#include <filesystem>
#include <iostream>

using namespace study001::ch4;
using namespace ychart;
using namespace ychart::pipeline;
using namespace ychart::explore;

namespace {

io::Series series(const std::string& name, const std::vector<Point>& points, double (*y)(const Point&),
                  bool dashed = false) {
  io::Series s;
  s.name = name;
  s.dashed = dashed;
  for (const auto& p : points) s.x.push_back(p.cap), s.y.push_back(y(p));
  return s;
}

/// II split into its phases, one bar per x value.
io::StackedBarChart phase_bars(const std::string& title, const std::vector<std::string>& categories,
                               const std::vector<const Outcome*>& outcomes) {
  io::StackedBarChart chart;
  chart.title = title;
  chart.y_label = "II (ms)";
  chart.categories = categories;
  io::StackedBarChart::Segment h2f{"host-to-FPGA", {}}, exe{"execution", {}}, f2h{"FPGA-to-host", {}};
  for (const auto* o : outcomes) {
    h2f.values.push_back(o ? o->h2f_ms : not_a_number);
    exe.values.push_back(o ? o->exe_ms : not_a_number);
    f2h.values.push_back(o ? o->f2h_ms : not_a_number);
  }
  chart.segments = {h2f, exe, f2h};
  return chart;
}

}  // namespace

int main(int argc, char** argv) {
  std::string data, platform;
  std::vector<double> caps = {45, 55, 61, 68, 76, 82, 92};
  std::vector<std::string> only;
  unsigned threads = 0;
  Parameters params;
  std::optional<double> psi_mhz, pcie, ddr, port;
  double counts_cap = 76;
  bool no_fpga_counts = false;
  examples::Outputs outputs("study001_ch4", "study001_ch4");
  examples::CommandLine cli("Study 001, chapter 4: the enhanced model (transfers, DDR contention, clock degradation), "
               "bound and heuristics (Figures 4.10-4.13)");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  cli.option("--platform", platform, "Platform JSON (default: shan2021/aws_f1.json)").type_name("FILE.json");
  cli.option("--cases", only, "Only these cases (alex16_2, alex32_4, ...)").comma_separated();
  cli.option("--caps", caps, "Resource caps per FPGA (%)").comma_separated().show_default().within(1.0, 100.0);
  cli.option("--threads", threads, "Sweep threads (0: one per core)").show_default();
  cli.option("--time-limit", params.time_limit, "Time limit per exact solve (s)").show_default().positive();
  cli.option("--threshold", params.threshold, "GP+A threshold T (%)").show_default();
  cli.option("--step", params.step, "GP+A step Delta (%)").show_default();
  cli.option("--psi-mhz", psi_mhz, "Clock degradation per unit of DSP use (MHz)");
  cli.option("--pcie-gb-s", pcie, "PCIe bandwidth (GB/s)").positive();
  cli.option("--ddr-gb-s", ddr, "DDR bandwidth (GB/s)").positive();
  cli.option("--port-bytes", port, "AXI port width (bytes per cycle)").positive();
  cli.option("--fpga-counts-cap", counts_cap, "The cap of the FPGA-count sweep (Fig. 4.12, %)")
      .show_default()
      .within(1.0, 100.0);
  cli.flag("--no-fpga-counts", no_fpga_counts, "Skip the FPGA-count sweep");
  cli.option("--t-max", params.t_max, "% points added to the cap per GP+A re-run").show_default().positive();
  cli.option("--max-reruns", params.max_reruns, "GP+A re-runs at most (0: plain GP+A only)")
      .show_default()
      .non_negative();
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  const bool fpga_counts = !no_fpga_counts;
  const std::string out_dir = outputs.svg_dir();
  try {
    const auto dir = study001::data_dir(data);
    auto base = load_architecture<FpgaResources>(platform.empty() ? dir / "aws_f1.json" : std::filesystem::path(platform));
    if (psi_mhz) base.kind.clock.degradation_per_utilisation = *psi_mhz * units::MHz;
    if (pcie) base.host_to_device.bandwidth = base.device_to_host.bandwidth = *pcie * units::GB_per_s;
    if (ddr) base.kind.memory.read_bandwidth = base.kind.memory.write_bandwidth = *ddr * units::GB_per_s;
    if (port) base.kind.memory.port_bytes_per_cycle = *port * units::B;
    const auto nominal_mhz = base.kind.clock.nominal.in(units::MHz);
    std::cout << "Platform: PCIe " << base.host_to_device.bandwidth.in(units::GB_per_s) << " GB/s, DDR "
              << base.kind.memory.read_bandwidth.in(units::GB_per_s) << " GB/s, AXI port "
              << base.kind.memory.port_bytes_per_cycle.in(units::B) << " B/cycle, FCK " << nominal_mhz
              << " MHz, psi " << base.kind.clock.degradation_per_utilisation.in(units::MHz)
              << " MHz per unit of DSP use (least-squares fit to Table 4.3's F1_k: "
              << fitted_psi_mhz(load_pipeline<FpgaResources>(dir / "ch4_alex32.csv", "Alex-32", kernel_columns()),
                                nominal_mhz)
              << " MHz); GP+A T " << params.threshold << " %, Delta " << params.step << " %, re-runs at cap + k x "
              << params.t_max << " %, k <= " << params.max_reruns << "; exact solves limited to "
              << params.time_limit << " s\n";
    if (int rc = outputs.begin()) return rc;
    const std::filesystem::path out(out_dir);

    for (const auto& c : cases) {
      if (!only.empty() && std::find(only.begin(), only.end(), c.id) == only.end()) continue;
      const auto app = load_pipeline<FpgaResources>(dir / c.file, c.title, kernel_columns());
      auto arch = base;
      arch.devices = c.fpgas;
      SweepOptions so;
      so.threads = threads;
      so.label = c.title;
      const auto points = sweep(caps, [&](double cap) { return solve_point(app, arch, cap, params); }, so);

      io::Table table({{"cap", "%", 3},
                       {"GP II", "ms", 4},
                       {"bound", "ms", 4},
                       {"proven", "", 1},
                       {"bound-model mapping II", "ms", 4},
                       {"GP+A II", "ms", 4},
                       {"GP+A max DSP", "%", 3},
                       {"GP+A re-run II", "ms", 4},
                       {"re-run cap", "%", 3},
                       {"re-run max use", "%", 4},
                       {"simplified II", "ms", 4},
                       {"local search II", "ms", 4},
                       {"best II", "ms", 4},
                       {"best", "", 1},
                       {"gap", "%", 2},
                       {"bound time", "s", 2},
                       {"GP+A time", "s", 2},
                       {"local search time", "s", 2}});
      for (const auto& p : points)
        table.add_row({p.cap, p.gp_ii_ms, p.bound_ms, std::string(p.bound_proven ? "yes" : "no"), p.exact.ii_ms,
                       p.gpa.ii_ms, p.gpa.max_dsp, p.gpa_rerun.ii_ms, p.gpa_rerun_cap, p.gpa_rerun.max_use,
                       p.simplified.ii_ms, p.improved.ii_ms, p.best_ms(), p.best_method(),
                       100 * p.gap(), p.bound_seconds, p.gpa.seconds, p.improved.seconds});
      std::cout << "\n" << c.title << "\n";
      table.print(std::cout);
      table.write_csv(out / ("ch4_" + c.id + ".csv"));
      table.write_json(out / ("ch4_" + c.id + ".json"));
      outputs.add_table(c.id, table);

      io::LineChart chart;
      chart.title = c.title + ": II against the resource cap (enhanced model)";
      chart.x_label = "resource cap per FPGA (%)";
      chart.y_label = "II (ms)";
      chart.series = {series("lower bound (proven)", points, [](const Point& p) { return p.bound_ms; }, true),
                      series("bound model's mapping", points, [](const Point& p) { return p.exact.ii_ms; }),
                      series("GP+A (Algorithms 2-3)", points, [](const Point& p) { return p.gpa.ii_ms; }),
                      series("simplified model's optimum", points, [](const Point& p) { return p.simplified.ii_ms; }),
                      series("local search (ours)", points, [](const Point& p) { return p.improved.ii_ms; }),
                      series("GP relaxation (compute only)", points, [](const Point& p) { return p.gp_ii_ms; }, true)};
      // The fallback's points: at the plotted cap, but found at cap + k T_max.
      auto rerun = series("GP+A re-run (over the cap)", points,
                          [](const Point& p) { return p.gpa_rerun.ii_ms; });
      rerun.line = false;
      chart.series.push_back(rerun);
      outputs.figure("fig4_10_" + c.id + ".svg", chart);
      std::vector<std::string> categories;
      std::vector<const Outcome*> best;
      for (const auto& p : points) categories.push_back(std::to_string(int(p.cap)) + " %"), best.push_back(p.best());
      outputs.figure("ch4_" + c.id + "_phases.svg", phase_bars(c.title + ": the best mapping's II by phase", categories, best));

      if (c.id == "vgg16_6")
        for (const auto& p : points)
          if (p.cap == 76) {
            std::cout << "VGG-16 on 6 FPGAs at 76 % (Fig. 4.13): enhanced " << p.best_ms() << " ms, simplified "
                      << p.simplified.ii_ms << " ms (thesis: 12 ms and 28.8 ms)\n";
            if (const auto* b = p.best())
              outputs.figure("fig4_13_vgg16_6_76_enhanced.svg",
                             study001::dsp_bars(app, b->mapping, p.cap,
                                                "VGG-16 on 6 FPGAs at 76 %: enhanced model (" + p.best_method() + ")"));
            if (!p.simplified.mapping.cus.empty())
              outputs.figure("fig4_13_vgg16_6_76_simplified.svg",
                             study001::dsp_bars(app, p.simplified.mapping, p.cap, "VGG-16 on 6 FPGAs at 76 %: simplified model"));
          }
    }

    if (fpga_counts) {
      // Fig. 4.12: the best II per number of FPGAs, split into transfers and execution.
      const std::vector<std::pair<std::string, Case>> apps = {{"alex16", cases[0]}, {"alex32", cases[1]},
                                                              {"yolo32", cases[2]}, {"vgg16", cases[3]},
                                                              {"resnet16", cases[5]}};
      std::vector<double> counts = {1, 2, 3, 4, 5, 6, 7, 8};
      io::Table table({{"application", "", 1},
                       {"FPGAs", "", 1},
                       {"best II", "ms", 4},
                       {"transfers", "ms", 4},
                       {"execution", "ms", 4},
                       {"bound", "ms", 4},
                       {"gap", "%", 2},
                       {"best", "", 1}});
      for (const auto& [id, c] : apps) {
        if (!only.empty() && std::find(only.begin(), only.end(), c.id) == only.end()) continue;
        const auto app = load_pipeline<FpgaResources>(dir / c.file, c.title, kernel_columns());
        SweepOptions so;
        so.threads = threads;
        so.label = app.name() + ", 1-8 FPGAs";
        const auto points = sweep(
            counts,
            [&](double fpgas) {
              auto arch = base;
              arch.devices = static_cast<int>(fpgas);
              return solve_point(app, arch, counts_cap, params);
            },
            so);
        std::vector<std::string> categories;
        std::vector<const Outcome*> best;
        for (std::size_t i = 0; i < points.size(); ++i) {
          const auto& p = points[i];
          const auto* b = p.best();
          table.add_row({id, counts[i], p.best_ms(), b ? b->h2f_ms + b->f2h_ms : not_a_number,
                         b ? b->exe_ms : not_a_number, p.bound_ms, 100 * p.gap(), p.best_method()});
          categories.push_back(std::to_string(int(counts[i])));
          best.push_back(b);
        }
        outputs.figure("fig4_12_" + id + ".svg",
                       phase_bars(id + ": best II against the number of FPGAs at a " +
                                      std::to_string(int(counts_cap)) + " % cap",
                                  categories, best));
      }
      std::cout << "\nII against the number of FPGAs (Fig. 4.12), cap " << counts_cap << " %\n";
      table.print(std::cout);
      table.write_csv(out / "fig4_12.csv");
      table.write_json(out / "fig4_12.json");
      outputs.add_table("fpga_counts", table);
    }
    std::cout << "\nfiles written to " << out_dir << "/\n";
    return outputs.finish();
  } catch (const std::exception& e) {
    std::cerr << "study001_ch4: " << e.what() << "\n";
    return 1;
  }
}
