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
#include "report.hpp"

#include "common/cli.hpp"

#include <ychart/explore.hpp>

#include <filesystem>
#include <iostream>

using namespace study001::ch3;
using namespace ychart;
using namespace ychart::pipeline;
using namespace ychart::explore;

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

      const auto table = sweep_table(points);
      std::cout << "\n" << c.title << " (alpha " << c.alpha << ", beta " << c.beta << "; GP+A re-runs: T_max "
                << rerun.t_max << " %, at most " << rerun.max_reruns << ")\n";
      table.print(std::cout);
      plain_model_check(c, points);
      table.write_csv(std::filesystem::path(out_dir) / ("ch3_" + c.id + ".csv"));
      table.write_json(std::filesystem::path(out_dir) / ("ch3_" + c.id + ".json"));
      outputs.add_table(c.id, table);
      draw_figures(outputs, c, app, points);
    }
    std::cout << "\nfiles written to " << out_dir << "/\n";
    return outputs.finish();
  } catch (const std::exception& e) {
    std::cerr << "study001_ch3: " << e.what() << "\n";
    return 1;
  }
}
