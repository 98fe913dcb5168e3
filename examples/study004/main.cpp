// examples/study004/main.cpp
// Study 004 (P. Geel, MSc thesis, TU Delft, 2023): MobileNetV1-w4a4 split
// between the Kria KV260's Cortex-A53 and its FPGA, one contiguous FPGA
// range. The thesis enumerated the 406 ranges, costed each with FINN's
// estimate (cycles x 10 ns, labelled ms), two transfer fits and measured CPU
// times (ms), and took the argmin: range(0, 81), 126.61 "ms", 2.82x faster
// than the CPU alone. Its FPGA times are seconds (digest section 6.2).
//   (a) as reported: the thesis's tables and arithmetic, with its labels;
//       and our reconstruction under the same arithmetic, solved exactly;
//   (b) consistent units at PE = SIMD = 1: cycles / 100 MHz is a time, and
//       the exact optimum is the CPU alone.
// Data: examples/data/geel2023/mobilenet_v1.json (the reconstructed layer
// table; every assumption is stated there). --json prints
// {"mobilenet_v1": {"ranges", "cpu_only_s", "as_reported", "consistent", "fpga_0_81", ...}}.
// Each section is a header of its own (as_reported.hpp, consistent.hpp,
// folding.hpp) that prints its tables and fills its part of the result
// declared in results.hpp, which --json writes as it is.
#include "common/cli.hpp"
#include "study004/as_reported.hpp"
#include "study004/consistent.hpp"
#include "study004/folding.hpp"
#include "study004/results.hpp"
#include "study004/setting.hpp"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  std::string data;
  examples::Outputs outputs("study004", "study004_figures");
  examples::CommandLine cli("Study 004: MobileNetV1 split between the KV260's CPU and FPGA, as the thesis reported it and in "
               "consistent units, solved exactly");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  try {
    using namespace study004;
    if (int rc = outputs.begin()) return rc;
    const std::filesystem::path dir =
        data.empty() ? std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) : std::filesystem::path(data);
    const Setting setting = load_setting(dir / "geel2023" / "mobilenet_v1.json");
    const auto& g = setting.g;
    std::printf("Study 004: %s, %zu segments between %zu cut points, %d nodes; CPU alone %.2f ms (thesis %.2f)\n\n",
                g.name.c_str(), g.segments.size(), g.segments.size() + 1, g.node_count(), setting.cpu_only_ms,
                setting.m.cpu_only_ms);
    MobileNetV1 result;
    const auto reported = as_reported(setting, result);
    const auto small = cnv_and_cybsec(setting.m);
    const auto consistent = consistent_units(setting, result);
    const auto faster = faster_cpu(setting);
    const auto folding = folding_and_partition(setting, result, outputs);
    const auto r81 = range_0_81(setting, result);
    draw_prefix_latency(setting, outputs);

    outputs.add_table("as_reported", reported);
    outputs.add_table("consistent", consistent);
    outputs.add_table("fpga_0_81", r81);
    outputs.add_table("cnv_cybsec_as_reported", small);
    outputs.add_table("faster_cpu", faster);
    outputs.add_table("folded", folding.optima);
    outputs.add_table("folding", folding.folding);
    outputs.add_result("mobilenet_v1", result);
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study004: %s\n", e.what());
    return 1;
  }
}
