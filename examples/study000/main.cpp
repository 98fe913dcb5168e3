// examples/study000/main.cpp
// Study 000 (E. Carballo-Hernandez, PhD thesis, 2022), chapter 4, Setup 1:
// the channels of one grouped-convolution layer (112x112, C = 16, k = 1,
// N = 32) split between an FPGA and a GPU, minimising
// LAT_F(C_F) + LAT_G(C_G) + LAT_Comm(C_F) under the FPGA's ALM, ALUT, LAB
// and M20K budgets with C_F + C_G = C (Eq. 4.7); then the CPU+GPU+FPGA
// extension (Eq. 4.9). Three answers side by side with the thesis's:
//   alpha sweep     the thesis's method: condense at the balanced guess,
//                   penalise alpha / h_bar, raise alpha by a step until
//                   C_F + C_G reaches C (baselines/alpha_penalty.hpp);
//   sequential GP   SignomialModel::solve: a local optimum of the continuous
//                   split, no alpha;
//   exact integer   integer channels (0 = the device is unused), the
//                   tabulated flydels, proven optimal by the MIGP engine.
// The flydel coefficients are MADE UP (the thesis publishes none):
// examples/data/carballo2022/setup1.json states every assumption.
// Figures: the alpha sweep's split per iteration (Fig. 4.2) and its latency
// (Fig. 4.3).
//
// Setup 2 (Eq. 4.10, Fig. 4.8): AlexNet, VGG16 and ResNet18, every layer
// split across CPU, GPU and FPGA under one FPGA budget: the exact integer
// split, sequential GP, the alpha sweep with one alpha per layer, and the
// fused-layer variant (the thesis's x^200 surrogate beside an exact binary
// decision); per-layer speed-ups against CPU only; figures like Fig. 4.8.
// --json prints {"setup1": {"alpha_sweep", "sp", "exact", ...},
// "setup2": {"alexnet": {"speedup_min", "speedup_max", ...}, ...}}.
#include "common/cli.hpp"
#include "study000/sections.hpp"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string data;
  study000::Setup1Options setup1;
  double setup2_alpha_step = 0.05;
  std::vector<std::string> networks;
  examples::Outputs outputs("study000", "study000");
  examples::CommandLine cli("Study 000, chapter 4, Setup 1: one layer's channels split across FPGA and GPU (and CPU): "
                            "the thesis's alpha sweep, sequential GP and the exact integer split");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  cli.option("--alpha-start", setup1.alpha_start_us, "First alpha of the sweep (us; the thesis gives no unit)").show_default().positive();
  cli.option("--alpha-step", setup1.alpha_step_us, "Alpha added per iteration (us; the thesis steps by 10)").show_default().positive();
  cli.option("--tolerance", setup1.tolerance, "Accept when (C_F + C_G) / C >= 1 - tolerance").show_default();
  cli.option("--figure-iterations", setup1.figure_iterations, "Iterations drawn in the figures").show_default();
  cli.option("--setup2-alpha-step", setup2_alpha_step,
             "Setup 2's alpha step, as a fraction of each layer's latency at the balanced split")
      .show_default()
      .positive();
  cli.option("--networks", networks, "Setup 2's networks (default: all in setup2.json)");
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  try {
    if (int rc = outputs.begin()) return rc;
    const std::filesystem::path dir = data.empty() ? std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) : std::filesystem::path(data);
    study000::run_setup1(outputs, dir, setup1);
    if (int rc = study000::run_setup2(outputs, dir, networks, setup2_alpha_step)) return rc;
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study000: %s\n", e.what());
    return 1;
  }
}
