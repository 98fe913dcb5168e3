// examples/study002/binding.hpp
// Study 002, section 3: a chain of Table 6 layers bound to NEURAghe +
// Jetson TX2 -- ALOHA's Algorithm 1 (sequential and pipelined) beside the
// exact bindings for latency, pipelined throughput and energy under a
// latency limit; and the paper's two estimators beside ALOHA's per layer.
#pragma once

#include "study002/worked_example.hpp"

#include <ychart/loopnest/binding_model.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace study002 {

std::vector<Layer> layers_of(const io::JsonValue& list);

std::string binding_text(const Binding& b, const Platform& p);

struct BindingTables {
  io::Table bindings, estimates;
};

BindingTables bind_chain(const Platform& neuraghe, const Platform& jetson, const io::JsonValue& grid,
                         BindingSummary& out);

}  // namespace study002
