// examples/study002/rounding.hpp
// Study 002, section 2: the rounding effect 1 - OPS_th / OPS_re over the
// Table 6 grid on NEURAghe (mean, mean where the kernel fits the image,
// worst layer), which layers tile, and which exceed a Jetson GPU memory
// (named by the tiling_error's element); a figure of the mean by input
// features.
#pragma once

#include "common/cli.hpp"
#include "study002/worked_example.hpp"

#include <ychart/io/svg.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace study002 {

io::Table rounding_effect(const Platform& neuraghe, const Platform& jetson, const io::JsonValue& grid,
                          RoundingEffect& out, examples::Outputs& outputs);

}  // namespace study002
