// examples/study002/design.hpp
// Study 002, section 4: an accelerator designed on NEURAghe's template for
// a CNN under an area budget -- the GP relaxation (a bound), the proven
// least-latency and least-energy designs, and the latency-energy front
// walked by the epsilon-constraint method, beside NEURAghe itself (figure);
// and the least latency with a square array, a row of our own added to the
// public design model.
#pragma once

#include "common/cli.hpp"
#include "study002/binding.hpp"

#include <ychart/io/svg.hpp>
#include <ychart/loopnest/design_model.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace study002 {

/// The template's choices, read from Table 7's design block.
AcceleratorTemplate accelerator_template(const Platform& neuraghe, const io::JsonValue& dz);

/// The front from the least-energy end: the least energy with latency below
/// the previous point's, until the limit passes the least latency. Every
/// point is proven, so this is the whole front (at a latency resolution of
/// 0.1 %); a point not proven in 20 s ends the walk with its status.
std::vector<AcceleratorDesign> design_front(const Cnn& nas, const Platform& neuraghe,
                                            const AcceleratorTemplate& tpl, DesignOptions dopt,
                                            const AcceleratorDesign& frugal, const AcceleratorDesign& fastest);

io::Table design(const Platform& neuraghe, const io::JsonValue& grid, DesignSummary& out,
                 examples::Outputs& outputs);

}  // namespace study002
