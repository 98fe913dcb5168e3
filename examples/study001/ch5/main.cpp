// Study 001, chapters 5 and 6 (J. Shan, PhD thesis, Politecnico di Torino,
// 2021): the power-optimal mapping under a throughput constraint II <= II_max
// on AlexNet-16, AlexNet-32, VGG-16 (Tables 5.2-5.4) and the Transformer
// (Table 6.1). Transfers overlap execution (double buffering, eq. 5.5),
// every CU receives its kernel's whole input (no locality), power follows
// eqs. 5.13-5.22, each FPGA runs at the slowest clock that keeps the II.
//
// Per II_max: CU_min and F_min (eqs. 6.7-6.8; F_min is a proof that fewer
// FPGAs cannot work), the thesis's heuristic H2 (Algorithm 4), its power
// breakdown from ychart's exact evaluator, a lower bound on the power of
// every mapping (F_min devices' static power plus the compute-energy floor
// sum_k P_k T_wc,k and the transfer energies, over II) and H2's gap to it;
// H1 (ch. 6.2) and the exact optimum (the thesis's MINLP, solved by
// ychart::pipeline::solve_power_optimal, started from the better heuristic; a
// point stopped by --time-limit shows its proven bound and gap); and the
// baselines of ch. 5.4 built on the fastest exact mapping: frequency
// scaling (FS, all its clocks scaled by one factor) and clock gating (CK,
// its fastest run's dynamic energy, static power for the whole II). The
// Fig. 5.2 findings (0.8 ms needs 3 FPGAs, 1.4 ms needs 2) are checked and
// printed. Replication (ch. 5.4): the exact mapping at the largest II_max
// (fewest FPGAs) copied until the II is met, the copies serving inputs round
// robin (ch5.hpp, replication(), says how it is priced and what it assumes).
// Figures: power against II_max (fig5_7_*) and FPGAs used against II_max
// for the exact optimum, FS/CK and replication (fig5_6_*).
//
// usage: study001_ch5 [--data DIR] [--platform FILE.json] [--svg-dir DIR] [--time-limit S]
//                     [--json] [--csv FILE]
//   --time-limit S  seconds per H1 and per exact solve at each point (default 10)
// The platform (power constants, FCK, PCIe bandwidth) comes from
// examples/data/shan2021/aws_f1.json; the thesis gives no PCIe bandwidth,
// 9.4 GB/s is the digest's estimate (sec. 10.6) -- edit the file to change it.
#include "ch5.hpp"
#include "report.hpp"

#include "common/cli.hpp"

#include <ychart/explore.hpp>

#include <filesystem>
#include <iostream>

using namespace study001::ch5;
using namespace ychart;
using namespace ychart::pipeline;
using namespace ychart::explore;

int main(int argc, char** argv) {
  std::string data, platform;
  double time_limit = 10.0;
  examples::Outputs outputs("study001_ch5", "study001_ch5");
  examples::CommandLine cli("Study 001, chapters 5-6: the power-optimal mapping under II <= II_max, heuristics, exact "
               "optimum and baselines (Figures 5.2, 5.6, 5.7)");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  cli.option("--platform", platform, "Platform JSON (default: shan2021/aws_f1.json)").type_name("FILE.json");
  cli.option("--time-limit", time_limit, "Seconds per H1 and per exact solve at each point")
      .show_default()
      .positive();
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  const std::string out_dir = outputs.svg_dir();
  try {
    if (int rc = outputs.begin()) return rc;
    const auto arch = load_architecture<FpgaResources>(
        platform.empty() ? study001::data_dir(data) / "aws_f1.json" : std::filesystem::path(platform));
    KernelColumns columns;
    columns.wcet = "twc_ms";
    for (const auto& c : cases) {
      const auto app = load_pipeline<FpgaResources>(study001::data_dir(data) / c.file, c.title, columns);
      SweepOptions so;
      so.label = c.title;
      const auto points = sweep(c.ii_ms, [&](double ii) { return solve_point_exact(app, arch, ii, time_limit); }, so);
      const auto starts = baseline_starts(app, arch, points);
      std::vector<Baselines> baselines;
      for (const auto& p : points) baselines.push_back(baselines_at(app, arch, starts, p));
      const auto table = sweep_table(points, baselines);
      std::cout << "\n" << c.title << " on " << arch.name << "\n";
      table.print(std::cout);
      if (starts.slowest) print_replication_base(app, arch, points, *starts.slowest);
      table.write_csv(std::filesystem::path(out_dir) / ("ch5_" + c.id + ".csv"));
      table.write_json(std::filesystem::path(out_dir) / ("ch5_" + c.id + ".json"));
      outputs.add_table(c.id, table);
      draw_figures(outputs, c, points, baselines);
      if (c.id == "alex16") figure52_checks(app, arch, points, starts.slowest);
    }
    std::cout << "\nfiles written to " << out_dir << "/\n";
    return outputs.finish();
  } catch (const std::exception& e) {
    std::cerr << "study001_ch5: " << e.what() << "\n";
    return 1;
  }
}
