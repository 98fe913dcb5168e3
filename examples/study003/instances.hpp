// examples/study003/instances.hpp
// Larger synthesis instances for study 003, shared by the example, the
// tests and the benchmarks. All MADE UP (the thesis publishes no costs):
// * mobilenet(): MobileNet v1 (224x224) as 87 elementary operations on
//   the thesis's architecture (host, NCS with 1-12 SHAVEs, Coral, two USB
//   buses). Conv costs are a*MACs + b, element-wise ones a*elements + b,
//   per device; tensors are float32 and cross USB at 400 MB/s plus a
//   fixed cost per link.
// * random_layered(): a layered task graph of `tasks` process tasks on a
//   host and `processors - 1` accelerators, each behind its own bus, with
//   with `cross_bus`, one extra bus joining the first two accelerators
//   (so routes differ, and the links form a cycle);
//   each accelerator runs a random 60 % of the operation kinds.
#pragma once

#include "ychart/synthesis/specification.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace study003 {

namespace ys = ychart::synthesis;
namespace units = ychart::units;

/// The thesis's architecture (Listing 5.3) with the SHAVE parameter.
void thesis_architecture(ys::Specification& spec, double bandwidth_mb_per_s = 0);

/// The SHAVE factor of the 13-node example's data file: the NCS's cost at
/// s SHAVEs is its 12-SHAVE cost times shave_factor[s - 1].
inline constexpr std::array<double, 12> shave_factor{3.10, 1.722, 1.348, 1.21,   1.16,  1.1482,
                                                     1.155, 1.162, 1.1736, 1.05, 1.012, 1.0};

ys::Specification mobilenet();

ys::Specification random_layered(std::size_t tasks, std::size_t processors, std::uint64_t seed,
                                 bool cross_bus = true);

}  // namespace study003
