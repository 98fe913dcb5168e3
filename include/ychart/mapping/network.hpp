// ychart/mapping/network.hpp
// A network at a time: every layer of a CNN searched on one architecture,
// each layer's proven optimum (or bound and gap), and the network's totals
// (energy and latency summed over the layers, each counted as often as it
// occurs).
#pragma once

#include "../config.hpp"
#include "search.hpp"
#include "workload.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ychart::mapping {

/// A network: its layers in order, each with how often it occurs.
struct Network {
  std::string name;
  std::vector<Workload> layers;
  std::vector<std::int64_t> repeat;  // per layer, at least 1 (empty: once each)

  std::int64_t times(std::size_t layer) const { return repeat.empty() ? 1 : repeat.at(layer); }
};

struct NetworkResult {
  std::vector<MappingResult> layers;  // in the network's order
  Constant<dim::energy> energy{0.0};  // the layers' energies, each times its repeat
  Constant<dim::time> latency{0.0};   // the same for latencies (layers run one after another)
  double bound = 0;                   // the sum of the layers' bounds, in the objective's unit
  bool proven = true;                 // every layer optimal
  double seconds = 0;
};

/// search_mapping on every layer with `options` (its time limit is per layer).
/// Throws loopnest_error naming the layer that no mapping fits.
YCHART_DECL NetworkResult search_network(const Network& network, const Architecture& architecture,
                                         const SearchOptions& options = {});

}  // namespace ychart::mapping

#if YCHART_HEADER_ONLY
#include "impl/network.ipp"
#endif
