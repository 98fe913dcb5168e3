// examples/study000/sections.hpp
// The two sections of the study 000 example, each a source file of its own
// (setup1_report.cpp, setup2_report.cpp, in the ychart_studies library), so
// that the example's main is the study's script and compiles without the
// models: Setup 1 (one layer's channels, Eqs. 4.7 and 4.9) and Setup 2
// (whole CNNs, Eq. 4.10). Each prints its tables, hands its figures and its
// part of --json to Outputs.
#pragma once

#include "common/cli.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace study000 {

/// The alpha sweep's settings and the figures' extent (the example's options).
struct Setup1Options {
  double alpha_start_us = 10, alpha_step_us = 10, tolerance = 1e-3;
  int figure_iterations = 60;
};

/// Setup 1 from `data_dir`/carballo2022/setup1.json: the thesis's alpha
/// sweep, sequential GP and the exact integer split on FPGA + GPU, then
/// CPU + GPU + FPGA; tables, Figs. 4.2-4.3 and the "setup1" result.
void run_setup1(examples::Outputs& outputs, const std::filesystem::path& data_dir, const Setup1Options& options);

/// Setup 2 from `data_dir`/carballo2022/setup2.json for `networks` (empty:
/// all): every method per network, tables, figures and the "setup2" result.
/// Returns 2 after naming an unknown network on stderr, else 0.
int run_setup2(examples::Outputs& outputs, const std::filesystem::path& data_dir, std::vector<std::string> networks,
               double alpha_step);

}  // namespace study000
