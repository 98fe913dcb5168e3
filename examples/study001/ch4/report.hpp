// examples/study001/ch4/report.hpp
// What the chapter-4 example shows: the platform it runs on, one case's
// sweep as a table with Figure 4.10 (II against the cap), the best
// mapping's II by phase and Figure 4.13 (VGG-16 on 6 FPGAs at 76 %), and
// the sweep over FPGA counts of Figure 4.12.
#pragma once

#include "ch4.hpp"
#include "common/cli.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace study001::ch4 {

io::Series series(const std::string& name, const std::vector<Point>& points, double (*y)(const Point&),
                  bool dashed = false);

/// II split into its phases, one bar per x value.
io::StackedBarChart phase_bars(const std::string& title, const std::vector<std::string>& categories,
                               const std::vector<const Outcome*>& outcomes);

/// The platform's parameters, the psi fitted to Table 4.3 and GP+A's settings.
void print_platform(const Arch& base, const Parameters& params, const std::filesystem::path& dir);

/// Every method's II at every cap, the best and its gap to the bound.
io::Table sweep_table(const std::vector<Point>& points);

/// Figure 4.10, the best mapping's phases, and Figure 4.13 for VGG-16 on 6 FPGAs.
void draw_figures(examples::Outputs& outputs, const Case& c, const App& app, const std::vector<Point>& points);

/// One case over the caps (Figure 4.10): every method at every cap, the
/// table printed and written (CSV, JSON, --json), and the case's figures.
void cap_sweep(examples::Outputs& outputs, const Case& c, const Arch& base, const std::filesystem::path& dir,
               const std::vector<double>& caps, unsigned threads, const Parameters& params);

/// Figure 4.12: the best II per number of FPGAs, split into transfers and execution.
void fpga_count_sweep(examples::Outputs& outputs, const Arch& base, const std::filesystem::path& dir,
                      const std::vector<std::string>& only, double counts_cap, unsigned threads,
                      const Parameters& params);

}  // namespace study001::ch4
