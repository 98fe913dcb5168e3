// ychart/mapping/impl/network.ipp
// The implementation of ychart/mapping/network.hpp.
#pragma once

#include "../../config.hpp"
#include "../../error.hpp"
#include "../network.hpp"

#include <chrono>

namespace ychart::mapping {

YCHART_DECL NetworkResult search_network(const Network& n, const Architecture& a, const SearchOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (!n.repeat.empty() && n.repeat.size() != n.layers.size())
    throw loopnest_error("ychart: network `" + n.name + "`: one repeat count per layer", n.name);
  NetworkResult r;
  double energy = 0, latency = 0;
  for (std::size_t i = 0; i < n.layers.size(); ++i) {
    if (n.times(i) < 1) throw loopnest_error("ychart: network `" + n.name + "`: layer `" + n.layers[i].name + "` repeats fewer than once", n.layers[i].name);
    auto layer = search_mapping(n.layers[i], a, o);
    if (!layer.evaluation)
      throw loopnest_error("ychart: network `" + n.name + "`: layer `" + n.layers[i].name + "` has no mapping: " + layer.message,
                           n.layers[i].name);
    const auto times = static_cast<double>(n.times(i));
    energy += times * layer.evaluation->energy.value();
    latency += times * layer.evaluation->latency.value();
    r.bound += times * layer.bound;
    r.proven = r.proven && layer.status == Status::optimal;
    r.layers.push_back(std::move(layer));
  }
  r.energy = Constant<dim::energy>(energy);
  r.latency = Constant<dim::time>(latency);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ychart::mapping
