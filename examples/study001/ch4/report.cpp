// examples/study001/ch4/report.cpp
// Definitions of report.hpp, compiled once (the ychart_studies library), so
// that the example's main does not compile the sweeps and the figures.
#include "report.hpp"

#include <ychart/explore.hpp>

namespace study001::ch4 {

io::Series series(const std::string& name, const std::vector<Point>& points, double (*y)(const Point&),
                  bool dashed) {
  io::Series s;
  s.name = name;
  s.dashed = dashed;
  for (const auto& p : points) s.x.push_back(p.cap), s.y.push_back(y(p));
  return s;
}

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

void print_platform(const Arch& base, const Parameters& params, const std::filesystem::path& dir) {
  const auto nominal_mhz = base.kind().clock.nominal.in(units::MHz);
  std::cout << "Platform: PCIe " << base.host_to_device.bandwidth.in(units::GB_per_s) << " GB/s, DDR "
            << base.kind().memory.read_bandwidth.in(units::GB_per_s) << " GB/s, AXI port "
            << base.kind().memory.port_bytes_per_cycle.in(units::B) << " B/cycle, FCK " << nominal_mhz
            << " MHz, psi " << base.kind().clock.degradation_per_utilisation.in(units::MHz)
            << " MHz per unit of DSP use (least-squares fit to Table 4.3's F1_k: "
            << fitted_psi_mhz(load_pipeline<FpgaResources>(dir / "ch4_alex32.csv", "Alex-32", kernel_columns()),
                              nominal_mhz)
            << " MHz); GP+A T " << params.threshold << " %, Delta " << params.step << " %, re-runs at cap + k x "
            << params.t_max << " %, k <= " << params.max_reruns << "; exact solves limited to "
            << params.time_limit << " s\n";
}

io::Table sweep_table(const std::vector<Point>& points) {
  io::Table table({{"cap", "%", 3},
                   {"GP II", "ms", 4},
                   {"bound", "ms", 4},
                   {"bound proven", "", 1},
                   {"bound-model mapping II", "ms", 4},
                   {"GP+A II", "ms", 4},
                   {"GP+A max DSP", "%", 3},
                   {"GP+A re-run II", "ms", 4},
                   {"re-run cap", "%", 3},
                   {"re-run max use", "%", 4},
                   {"simplified II", "ms", 4},
                   {"local search II", "ms", 4},
                   {"placement search II", "ms", 4},
                   {"proof", "", 1},
                   {"best II", "ms", 4},
                   {"best", "", 1},
                   {"gap", "%", 2},
                   {"bound time", "s", 2},
                   {"GP+A time", "s", 2},
                   {"local search time", "s", 2},
                   {"placement search time", "s", 2}});
  for (const auto& p : points)
    table.add_row({p.cap, p.gp_ii_ms, p.bound_ms, std::string(p.bound_proven ? "yes" : "no"), p.exact.ii_ms,
                   p.gpa.ii_ms, p.gpa.max_dsp, p.gpa_rerun.ii_ms, p.gpa_rerun_cap, p.gpa_rerun.max_use,
                   p.simplified.ii_ms, p.improved.ii_ms, p.placement.ii_ms, p.proof(), p.best_ms(), p.best_method(),
                   100 * p.gap(), p.bound_seconds, p.gpa.seconds, p.improved.seconds, p.placement.seconds});
  return table;
}

void draw_figures(examples::Outputs& outputs, const Case& c, const App& app, const std::vector<Point>& points) {
  io::LineChart chart;
  chart.title = c.title + ": II against the resource cap (enhanced model)";
  chart.x_label = "resource cap per FPGA (%)";
  chart.y_label = "II (ms)";
  chart.series = {series("lower bound (proven)", points, [](const Point& p) { return p.bound_ms; }, true),
                  series("bound model's mapping", points, [](const Point& p) { return p.exact.ii_ms; }),
                  series("GP+A (Algorithms 2-3)", points, [](const Point& p) { return p.gpa.ii_ms; }),
                  series("simplified model's optimum", points, [](const Point& p) { return p.simplified.ii_ms; }),
                  series("local search (ours)", points, [](const Point& p) { return p.improved.ii_ms; }),
                  series("placement search (ours)", points, [](const Point& p) { return p.placement.ii_ms; }),
                  series("GP relaxation (compute only)", points, [](const Point& p) { return p.gp_ii_ms; }, true)};
  // The fallback's points: at the plotted cap, but found at cap + k T_max.
  auto rerun = series("GP+A re-run (over the cap)", points, [](const Point& p) { return p.gpa_rerun.ii_ms; });
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

void fpga_count_sweep(examples::Outputs& outputs, const Arch& base, const std::filesystem::path& dir,
                      const std::vector<std::string>& only, double counts_cap, unsigned threads,
                      const Parameters& params) {
  using namespace ychart::explore;
  const std::filesystem::path out(outputs.svg_dir());
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
                   {"proof", "", 1},
                   {"best", "", 1}});
  for (const auto& [id, c] : apps) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.id) == only.end()) continue;
    const auto app = load_pipeline<FpgaResources>(dir / c.file, c.title, kernel_columns());
    SweepOptions so;
    so.threads = threads;
    so.label = app.name() + ", 1-8 FPGAs";
    auto with_fpgas = [&](double fpgas) {
      auto arch = base;
      arch.group().devices = static_cast<int>(fpgas);
      return arch;
    };
    auto points =
        sweep(counts, [&](double fpgas) { return solve_point(app, with_fpgas(fpgas), counts_cap, params); }, so);
    // The points ran independently; in count order, each unproven one is
    // searched again from the previous count's best where that is better.
    for (std::size_t i = 1; i < points.size(); ++i)
      if (const auto* fewer = points[i - 1].best())
        if (reseed_from_fewer_devices(app, with_fpgas(counts[i]), counts_cap, params, points[i], fewer->mapping))
          std::cout << "  " << id << " on " << counts[i] << " FPGAs: placement search again from the best on "
                    << counts[i - 1] << "\n";
    std::vector<std::string> categories;
    std::vector<const Outcome*> best;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      const auto* b = p.best();
      table.add_row({id, counts[i], p.best_ms(), b ? b->h2f_ms + b->f2h_ms : not_a_number,
                     b ? b->exe_ms : not_a_number, p.proven_bound_ms(), 100 * p.gap(), p.proof(), p.best_method()});
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

void cap_sweep(examples::Outputs& outputs, const Case& c, const Arch& base, const std::filesystem::path& dir,
               const std::vector<double>& caps, unsigned threads, const Parameters& params) {
  const std::filesystem::path out(outputs.svg_dir());
  const auto app = load_pipeline<FpgaResources>(dir / c.file, c.title, kernel_columns());
  auto arch = base;
  arch.group().devices = c.fpgas;
  ychart::explore::SweepOptions so;
  so.threads = threads;
  so.label = c.title;
  const auto points = ychart::explore::sweep(caps, [&](double cap) { return solve_point(app, arch, cap, params); }, so);
  const auto table = sweep_table(points);
  std::cout << "\n" << c.title << "\n";
  table.print(std::cout);
  table.write_csv(out / ("ch4_" + c.id + ".csv"));
  table.write_json(out / ("ch4_" + c.id + ".json"));
  outputs.add_table(c.id, table);
  draw_figures(outputs, c, app, points);
}

}  // namespace study001::ch4
