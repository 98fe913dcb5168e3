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
//          [--time-limit S] [--placement-time-limit S] [--threshold T] [--step D] [--psi-mhz P]
//          [--pcie-gb-s B] [--ddr-gb-s B] [--port-bytes W]
//          [--fpga-counts-cap R] [--no-fpga-counts] [--t-max P] [--max-reruns N]
//   --t-max P       % added to the cap per GP+A re-run (default 1)
//   --max-reruns N  GP+A re-runs at most (default 10; 0: plain GP+A only)
#include "ch4.hpp"
#include "report.hpp"

#include "common/cli.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

using namespace study001::ch4;
using namespace ychart;
using namespace ychart::pipeline;

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
  cli.option("--placement-time-limit", params.placement_time_limit, "Time limit of the placement search per point (s)")
      .show_default()
      .positive();
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
    if (psi_mhz) base.kind().clock.degradation_per_utilisation = *psi_mhz * units::MHz;
    if (pcie) base.host_to_device.bandwidth = base.device_to_host.bandwidth = *pcie * units::GB_per_s;
    if (ddr) base.kind().memory.read_bandwidth = base.kind().memory.write_bandwidth = *ddr * units::GB_per_s;
    if (port) base.kind().memory.port_bytes_per_cycle = *port * units::B;
    if (int rc = outputs.begin()) return rc;  // before anything is printed: --json keeps stdout for the JSON
    print_platform(base, params, dir);
    for (const auto& c : cases) {
      if (!only.empty() && std::find(only.begin(), only.end(), c.id) == only.end()) continue;
      cap_sweep(outputs, c, base, dir, caps, threads, params);
    }

    if (fpga_counts) fpga_count_sweep(outputs, base, dir, only, counts_cap, threads, params);
    std::cout << "\nfiles written to " << out_dir << "/\n";
    return outputs.finish();
  } catch (const std::exception& e) {
    std::cerr << "study001_ch4: " << e.what() << "\n";
    return 1;
  }
}
