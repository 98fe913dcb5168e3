// examples/study004/consistent.hpp
// Study 004, section (b): consistent units at PE = SIMD = 1 (cycles /
// 100 MHz is a time). The exact optimum under the thesis's budget and the
// device's, the thesis's choice and the whole network on the FPGA, the
// pipelined optimum, and the latency of every prefix range in both readings
// (figure).
#pragma once

#include "common/cli.hpp"
#include "study004/results.hpp"
#include "study004/setting.hpp"

#include <ychart/io/svg.hpp>

#include <cstdio>
#include <iostream>
#include <string>

namespace study004 {

/// Fills `out`'s consistent and cpu_only_s.
io::Table consistent_units(const Setting& s, MobileNetV1& out);

/// The latency of every prefix range [0, l), both readings, beside the CPU alone.
void draw_prefix_latency(const Setting& s, examples::Outputs& outputs);

}  // namespace study004
