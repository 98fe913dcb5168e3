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
#include "study000/setup1.hpp"
#include "study000/setup1_report.hpp"
#include "study000/setup2_report.hpp"

#include <ychart/baselines/alpha_penalty.hpp>
#include <ychart/core.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

using namespace ychart;
using namespace study000;

int main(int argc, char** argv) {
  std::string data;
  double alpha_step_us = 10, alpha_start_us = 10, tolerance = 1e-3;
  int figure_iterations = 60;
  double setup2_alpha_step = 0.05;
  std::vector<std::string> networks;
  examples::Outputs outputs("study000", "study000");
  examples::CommandLine cli("Study 000, chapter 4, Setup 1: one layer's channels split across FPGA and GPU (and CPU): "
                            "the thesis's alpha sweep, sequential GP and the exact integer split");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  cli.option("--alpha-start", alpha_start_us, "First alpha of the sweep (us; the thesis gives no unit)").show_default().positive();
  cli.option("--alpha-step", alpha_step_us, "Alpha added per iteration (us; the thesis steps by 10)").show_default().positive();
  cli.option("--tolerance", tolerance, "Accept when (C_F + C_G) / C >= 1 - tolerance").show_default();
  cli.option("--figure-iterations", figure_iterations, "Iterations drawn in the figures").show_default();
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
    const Setup1 s = load_setup1(dir / "carballo2022" / "setup1.json");
    std::printf("Setup 1: GConv 112x112, C = %.0f, k = 1, N = 32; flydel coefficients are assumptions "
                "(carballo2022/setup1.json)\n\n", s.channels);

    // ---- the thesis's alpha sweep, condensed at the balanced guess ----
    auto two = split_model(s, {"fpga", "gpu"});
    two.model.start(two.c.at("fpga"), s.hat_fpga);
    two.model.start(two.c.at("gpu"), s.hat_gpu);
    baselines::AlphaSweepOptions ao;
    ao.alpha_start = alpha_start_us * 1e-6;  // the objective is in seconds
    ao.alpha_step = alpha_step_us * 1e-6;
    ao.tolerance = tolerance;
    ao.max_iterations = std::max(figure_iterations, 200);
    ao.stop_at_first = false;
    const auto sweep = baselines::alpha_penalty_sweep(two.model, ao);
    const auto fpga = two.c.at("fpga").index(), gpu = two.c.at("gpu").index();
    const auto sweep_table = alpha_sweep_table(sweep, fpga, gpu);
    if (sweep.accepted < 0)
      std::printf("alpha sweep: no iterate reached (C_F + C_G) / C >= %g in %d iterations\n", 1 - tolerance,
                  ao.max_iterations);
    const auto* accepted = sweep.accepted >= 0 ? &sweep.iterations[static_cast<std::size_t>(sweep.accepted)] : nullptr;
    double sweep_to_acceptance_ms = 0;
    for (int i = 0; i <= sweep.accepted; ++i) sweep_to_acceptance_ms += sweep.iterations[std::size_t(i)].seconds * 1e3;

    // ---- sequential GP, and the exact integer split ----
    auto sp_model = split_model(s, {"fpga", "gpu"});
    const auto sp = sp_model.model.solve();
    const auto sp_split = channels_of(sp_model, sp);
    const ExactSplit exact = exact_split(s, {"fpga", "gpu"});
    const auto summary = setup1_summary(s, accepted, sweep_to_acceptance_ms, fpga, gpu, sp, sp_split, exact);
    std::printf("FPGA + GPU (Eq. 4.7); the thesis's latency is our flydels at its split\n");
    summary.print(std::cout);
    std::printf("\nthe alpha sweep, condensed at C_F = C_G = %.0f, alpha += %g us:\n", s.hat_fpga, alpha_step_us);
    io::Table head({sweep_table.columns()});
    for (std::size_t i = 0; i < sweep.iterations.size() && i < std::size_t(std::max(sweep.accepted + 3, 5)); ++i)
      head.add_row(sweep_table.rows()[i]);
    head.print(std::cout);

    // ---- CPU + GPU + FPGA (Eq. 4.9) ----
    auto three = split_model(s, {"cpu", "fpga", "gpu"});
    const auto sp3 = three.model.solve();
    const ExactSplit exact3 = exact_split(s, {"cpu", "fpga", "gpu"});
    const auto ext = three_device_table(three, sp3, exact3);
    std::printf("\nCPU + GPU + FPGA (Eq. 4.9; the thesis gives no numbers, Fig. 4.4 puts most on the FPGA)\n");
    ext.print(std::cout);

    draw_setup1_figures(outputs, sweep, fpga, gpu, sp, exact, figure_iterations, alpha_start_us, alpha_step_us);
    outputs.add_table("setup1", summary);
    outputs.add_table("setup1_alpha_sweep", sweep_table);
    outputs.add_table("setup1_cpu_gpu_fpga", ext);
    AlphaSweepAnswer alpha{0, std::nan(""), std::nullopt, std::nan(""),
                           {s.thesis_iteration, s.thesis_alpha, {{"fpga", s.thesis_fpga}, {"gpu", s.thesis_gpu}}}};
    if (accepted)
      alpha = {accepted->iteration, accepted->alpha * 1e6,
               Channels{{"fpga", accepted->values[fpga]}, {"gpu", accepted->values[gpu]}}, accepted->objective,
               alpha.thesis};
    outputs.add_result("setup1", Setup1Answers{alpha,
                                               {std::string(to_string(sp.status())), sp_split,
                                                sp.has_values() ? sp.objective() : std::nan(""), sp.iterations()},
                                               exact_answer(exact),
                                               {exact_answer(exact3)}});

    // ---- Setup 2: full CNNs ----
    const Setup2 s2 = load_setup2(dir / "carballo2022" / "setup2.json");
    if (networks.empty()) networks = s2.network_names;
    std::vector<NetworkReport> reports;
    for (const auto& name : networks) {
      if (!s2.networks.count(name)) {
        std::fprintf(stderr, "study000: --networks: no network `%s` in setup2.json\n", name.c_str());
        return 2;
      }
      reports.push_back(run_network(s2, name, setup2_alpha_step));
    }
    report_setup2(outputs, s2, reports);
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study000: %s\n", e.what());
    return 1;
  }
}
