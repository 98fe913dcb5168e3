// examples/study002/worked_example.hpp
// Study 002, section 1: layer l1 on NEURAghe end to end -- the four
// refinement steps as Listings 3-6, and every intermediate beside the
// paper's and the digest's derived latency and energy.
#pragma once

#include "study002/results.hpp"

#include <ychart/io/json.hpp>
#include <ychart/io/table.hpp>
#include <ychart/loopnest/evaluate.hpp>
#include <ychart/loopnest/refine.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

namespace study002 {

namespace io = ychart::io;
namespace units = ychart::units;
using namespace ychart::loopnest;

/// The platform with memories too large to bind: the nest before tiling (Listing 5).
Platform unbounded(const Platform& p);

io::Table worked_example(const Platform& neuraghe, const io::JsonValue& worked, WorkedExample& out);

}  // namespace study002
