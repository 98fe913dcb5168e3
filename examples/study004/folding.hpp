// examples/study004/folding.hpp
// Study 004, section (c): folding (PE, SIMD, weights in BRAM or URAM per
// layer) and the partition solved together, for the most frames/s and the
// least latency under the thesis's BRAM budget and the device's; the
// folding chosen, node by node, and its cycles beside PE = SIMD = 1
// (figure); and range(0, 81) at PE = SIMD = 1 beside the thesis's synthesis
// report.
#pragma once

#include "common/cli.hpp"
#include "study004/results.hpp"
#include "study004/setting.hpp"

#include <ychart/io/svg.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace study004 {

struct FoldingTables {
  io::Table optima, folding;
};

/// Folding and partition solved together for the most frames/s and the
/// least latency, under the thesis's BRAM budget and the device's: prints
/// the tables, draws the folding's cycles and fills `out`'s folded.
FoldingTables folding_and_partition(const Setting& s, MobileNetV1& out, examples::Outputs& outputs);

/// range(0, 81) at PE = SIMD = 1 beside the thesis's synthesis report; fills `out`'s fpga_0_81.
io::Table range_0_81(const Setting& s, MobileNetV1& out);

}  // namespace study004
