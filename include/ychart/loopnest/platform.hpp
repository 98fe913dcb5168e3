// ychart/loopnest/platform.hpp
// ALOHA's platform model (study 002, Tables 4 and 5), typed in units:
// memories with capacities, I/O channels with bandwidths, and processors with
// a peak, a clock, an n-dimensional parallelism grid, optional power figures
// and a fixed overhead. Each processor carries its computational model (the
// deployment strategy of its library): the loop order, the loop level of each
// transfer, the channel and memory of each data kind (with the loop that
// memory limits), and which loops each parallelism level unrolls.
// combine() makes one platform of several boards. Platform::validate() throws loopnest_error naming the processor and field.
#pragma once

#include "../config.hpp"
#include "layer.hpp"

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/dimension.hpp"
#include "../units/operations.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace ychart::loopnest {

struct Memory {
  std::string id;
  Constant<dim::data> capacity{0.0};
};

struct IoChannel {
  std::string id;
  Constant<dim::bandwidth> bandwidth{0.0};
};

/// Where one data kind goes: loaded (input, weights) before, or stored
/// (output) after, loop level `level` of the loop order; through channel
/// `channel` into memory `memory` (indices into the platform's lists); the
/// memory limits loop `limited_loop`, which is tiled when it overflows.
struct TransferPlacement {
  int level = 0;
  std::size_t channel = 0;
  std::size_t memory = 0;
  Loop limited_loop = Loop::OF;
};

struct ComputationalModel {
  /// Level k of the loop order runs loop_order[k]. Loops not listed: BS
  /// outside level 0 (Listing 1 has the batch outermost), the others inside
  /// the last level in Listing 1's order (Table 4 omits KW).
  std::vector<Loop> loop_order;
  std::array<TransferPlacement, data_kind_count> transfer{};
  /// Grid level g unrolls these loops; several loops (Jetson's level 2: FH,
  /// FW) are unrolled together over their combined iteration space and must
  /// be adjacent in the loop order.
  std::vector<std::vector<Loop>> unrolls;
};

struct Processor {
  std::string id, type, subtype;
  Constant<dim::throughput> peak{0.0};
  Constant<dim::frequency> frequency{0.0};
  std::vector<long long> parallelism;  // the grid, one factor per level
  std::optional<Constant<dim::power>> active_power, idle_power;
  std::optional<Constant<units::dimension_quotient<dim::energy, dim::data>>> energy_per_byte;  // DDR access
  Constant<dim::time> overhead{0.0};
  ComputationalModel model;
};

struct Platform {
  std::string name;
  std::vector<Memory> memories;
  std::vector<IoChannel> channels;
  std::vector<Processor> processors;

  /// Throws loopnest_error naming the processor and the field at fault.
  void validate() const;

  std::size_t processor_index(const std::string& id) const {
    for (std::size_t k = 0; k < processors.size(); ++k)
      if (processors[k].id == id) return k;
    throw loopnest_error("ychart: platform `" + name + "` has no processor `" + id + "`", name);
  }
};

/// Several boards as one platform (study 002 binds to NEURAghe and Jetson
/// together): memories, channels and processors keep their order, their ids
/// get the board's name as a prefix ("NEURAghe.ch0").
YCHART_DECL Platform combine(const std::string& name, const std::vector<Platform>& boards);

}  // namespace ychart::loopnest

#if YCHART_HEADER_ONLY
#include "impl/platform.ipp"
#endif
