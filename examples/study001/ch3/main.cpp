// Study 001, chapter 3 (J. Shan, PhD thesis, Politecnico di Torino, 2021):
// the simplified performance model, II against the per-FPGA resource cap,
// for AlexNet-16 on 2 FPGAs, AlexNet-32 on 4 and VGG-16 on 8 (Tables
// 3.2-3.4). Four series per case, as in the thesis's Figures 3.3-3.5:
//   GP relaxation     -- Ipopt, real CU counts split equally (eqs. 3.14-3.21)
//   exact, beta = 0   -- the proven integer optimum of II (the thesis's "MINLP")
//   exact, Table 3.4  -- the proven optimum of alpha II + beta phi ("MINLP+G")
//   GP+A              -- the thesis's heuristic: GP, floor/ceil, Algorithm 1
// and the VGG resource distribution at a 61 % cap (Figure 3.6). Where GP+A
// allocates nothing at a cap, the thesis re-runs all of it at a looser cap
// R + T_max; the "re-run" columns and markers show that result, the cap it
// used and its largest resource use (over the plotted cap unless it fits).
// After each table, the same allocation written plainly (no
// interchangeable(): plain_model.hpp) is solved at one cap; the solver finds
// the interchangeable FPGAs itself and must reach the same optimum.
//
// usage: study001_ch3 [--data DIR] [--svg-dir DIR] [--caps 30,40,...] [--threads N]
//                     [--t-max P] [--max-reruns N] [--json] [--csv FILE]
//   --t-max P         % points added to the cap per GP+A re-run (default 1)
//   --max-reruns N    GP+A re-runs at most (default 10; 0: plain GP+A only)
// Writes ch3_<case>.csv/.json, fig3_3..3_5 (II vs cap, II vs average use)
// and fig3_6_*.svg into --svg-dir (default: study001_ch3); --help lists all.
#include "ch3.hpp"

#include "common/cli.hpp"
#include "plain_model.hpp"

#include <ychart/explore.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>

using namespace study001::ch3;
using namespace ychart;
using namespace ychart::pipeline;
using namespace ychart::explore;

// The same allocation written plainly (plain_model.hpp: no
// interchangeable()) at the sweep's point nearest 60 %: Model::solve finds
// the interchangeable FPGAs itself; its optimum must equal the sweep's.
void plain_model_check(const Case& c, const std::vector<Point>& points) {
  const Point* at = &points.front();
  for (const auto& p : points)
    if (std::abs(p.cap - 60) < std::abs(at->cap - 60)) at = &p;
  const auto kernels = c.id == "alex16" ? shan2021::alex16() : c.id == "alex32" ? shan2021::alex32() : shan2021::vgg();
  auto plain = plain_allocation(kernels.stages(), c.fpgas, at->cap, c.alpha, c.beta);
  const auto t0 = std::chrono::steady_clock::now();
  const auto s = plain.model.solve();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double ours = at->weighted.proven ? c.alpha * at->weighted.ii_ms + c.beta * at->weighted.spreading : not_a_number;
  std::cout << "plain model (no interchangeable()) at " << at->cap << " %: " << to_string(s.status()) << " by "
            << s.method() << " in " << seconds << " s, objective "
            << (s.has_values() ? s.objective() : not_a_number) << " (declared model: " << ours << ")";
  if (s.optimal() && at->weighted.proven && std::abs(s.objective() - ours) > 1e-6 * std::max(1.0, ours))
    std::cout << "  DIFFERENT";
  std::cout << "\n";
}

int main(int argc, char** argv) {
  std::string data;
  std::vector<double> caps = {30, 40, 50, 55, 61, 70, 76, 82, 92};
  unsigned threads = 0;
  auto rerun = default_rerun();
  examples::Outputs outputs("study001_ch3", "study001_ch3");
  examples::CommandLine cli("Study 001, chapter 3: II against the resource cap, exact and GP+A (Figures 3.3-3.6)");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  cli.option("--caps", caps, "Resource caps per FPGA (%)").comma_separated().show_default().within(1.0, 100.0);
  cli.option("--threads", threads, "Sweep threads (0: one per core)").show_default();
  cli.option("--t-max", rerun.t_max, "% points added to the cap per GP+A re-run").show_default().positive();
  cli.option("--max-reruns", rerun.max_reruns, "GP+A re-runs at most (0: plain GP+A only)")
      .show_default()
      .non_negative();
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  const std::string out_dir = outputs.svg_dir();
  try {
    if (int rc = outputs.begin()) return rc;
    KernelColumns columns;
    columns.wcet = "wcet_ms";
    for (const auto& c : cases) {
      const auto app = load_pipeline<FpgaResources>(study001::data_dir(data) / c.file, c.title, columns);
      const auto arch = study001::aws_f1(c.fpgas);
      SweepOptions so;
      so.threads = threads;
      so.label = c.title;
      const auto points = sweep(caps, [&](double cap) { return solve_point(app, arch, c, cap, rerun); }, so);

      io::Table table({{"cap", "%", 3},
                       {"GP II", "ms", 4},
                       {"exact II", "ms", 4},
                       {"exact phi", "", 3},
                       {"exact avg use", "%", 3},
                       {"weighted II", "ms", 4},
                       {"weighted phi", "", 3},
                       {"GP+A II", "ms", 4},
                       {"GP+A phi", "", 3},
                       {"GP+A avg use", "%", 3},
                       {"re-run II", "ms", 4},
                       {"re-run cap", "%", 3},
                       {"re-run max use", "%", 4},
                       {"re-run phi", "", 3},
                       {"exact time", "s", 2},
                       {"weighted time", "s", 2},
                       {"GP+A time", "s", 2}});
      for (const auto& p : points)
        table.add_row({p.cap, p.gp_ii_ms, p.exact.ii_ms, p.exact.spreading, p.exact.average_use, p.weighted.ii_ms,
                       p.weighted.spreading, p.gpa.ii_ms, p.gpa.spreading, p.gpa.average_use, p.gpa_rerun.ii_ms,
                       p.gpa_rerun_cap, p.gpa_rerun.max_use, p.gpa_rerun.spreading, p.exact.seconds,
                       p.weighted.seconds, p.gpa.seconds});
      std::cout << "\n" << c.title << " (alpha " << c.alpha << ", beta " << c.beta << "; GP+A re-runs: T_max "
                << rerun.t_max << " %, at most " << rerun.max_reruns << ")\n";
      table.print(std::cout);
      plain_model_check(c, points);
      table.write_csv(std::filesystem::path(out_dir) / ("ch3_" + c.id + ".csv"));
      table.write_json(std::filesystem::path(out_dir) / ("ch3_" + c.id + ".json"));
      outputs.add_table(c.id, table);

      auto series = [&](const std::string& name, auto x_of, auto y_of, bool dashed) {
        io::Series s;
        s.name = name;
        s.dashed = dashed;
        for (const auto& p : points) s.x.push_back(x_of(p)), s.y.push_back(y_of(p));
        return s;
      };
      auto cap_of = [](const Point& p) { return p.cap; };
      io::LineChart left;
      left.title = c.title + ": II against the resource cap";
      left.x_label = "resource cap per FPGA (%)";
      left.y_label = "II (ms)";
      left.series = {series("GP relaxation", cap_of, [](const Point& p) { return p.gp_ii_ms; }, true),
                     series("exact, beta = 0 (MINLP)", cap_of, [](const Point& p) { return p.exact.ii_ms; }, false),
                     series("exact, Table 3.4 beta (MINLP+G)", cap_of,
                            [](const Point& p) { return p.weighted.ii_ms; }, false),
                     series("GP+A (Algorithm 1)", cap_of, [](const Point& p) { return p.gpa.ii_ms; }, false)};
      // The fallback's points sit at the cap they are plotted for but used
      // cap + k T_max: markers only, named as over the cap.
      auto rerun_series = series("GP+A re-run (over the cap)", cap_of,
                                 [](const Point& p) { return p.gpa_rerun.ii_ms; }, false);
      rerun_series.line = false;
      left.series.push_back(rerun_series);
      outputs.figure(c.figure + "_" + c.id + "_cap.svg", left);
      io::LineChart right;
      right.title = c.title + ": II against average FPGA use";
      right.x_label = "average use of the FPGAs (%)";
      right.y_label = "II (ms)";
      right.series = {
          series("exact, beta = 0 (MINLP)", [](const Point& p) { return p.exact.average_use; },
                 [](const Point& p) { return p.exact.ii_ms; }, false),
          series("exact, Table 3.4 beta (MINLP+G)", [](const Point& p) { return p.weighted.average_use; },
                 [](const Point& p) { return p.weighted.ii_ms; }, false),
          series("GP+A (Algorithm 1)", [](const Point& p) { return p.gpa.average_use; },
                 [](const Point& p) { return p.gpa.ii_ms; }, false)};
      outputs.figure(c.figure + "_" + c.id + "_use.svg", right);

      if (c.id == "vgg16")
        for (const auto& p : points)
          if (p.cap == 61) {
            outputs.figure("fig3_6_vgg16_61_exact.svg",
                           study001::dsp_bars(app, p.exact.mapping, p.cap, "VGG at a 61 % cap: exact, beta = 0 (MINLP)"));
            outputs.figure("fig3_6_vgg16_61_weighted.svg",
                           study001::dsp_bars(app, p.weighted.mapping, p.cap,
                                              "VGG at a 61 % cap: exact, beta = 50 (MINLP+G)"));
            if (!p.gpa.mapping.cus.empty())
              outputs.figure("fig3_6_vgg16_61_gpa.svg",
                             study001::dsp_bars(app, p.gpa.mapping, p.cap, "VGG at a 61 % cap: GP+A"));
          }
    }
    std::cout << "\nfiles written to " << out_dir << "/\n";
    return outputs.finish();
  } catch (const std::exception& e) {
    std::cerr << "study001_ch3: " << e.what() << "\n";
    return 1;
  }
}
