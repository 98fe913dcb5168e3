// examples/study001/ch3/report.hpp
// What the chapter-3 example shows of one case's sweep: the table of every
// method at every cap, Figures 3.3-3.5 (II against the cap and against the
// average use) and Figure 3.6 (VGG's DSPs per FPGA at a 61 % cap), and the
// check that the same allocation written plainly reaches the same optimum.
#pragma once

#include "ch3.hpp"
#include "common/cli.hpp"
#include "plain_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace study001::ch3 {

/// Every method's II, phi, use and time at every cap, one row per cap.
io::Table sweep_table(const std::vector<Point>& points);

/// Figures 3.3-3.5 for the case, and Figure 3.6 for VGG at 61 %.
void draw_figures(examples::Outputs& outputs, const Case& c, const App& app, const std::vector<Point>& points);

// The same allocation written plainly (plain_model.hpp: no
// interchangeable()) at the sweep's point nearest 60 %: Model::solve finds
// the interchangeable FPGAs itself; its optimum must equal the sweep's.
void plain_model_check(const Case& c, const std::vector<Point>& points);

}  // namespace study001::ch3
