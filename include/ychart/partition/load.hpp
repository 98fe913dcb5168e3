// ychart/partition/load.hpp
// Partition problems (study 004) from JSON, and back: a sequential graph
// with its per-segment costs, and the CPU + FPGA platform it is split on.
//   { "graph": { "name": "MobileNetV1-w4a4", "input_bytes": 150528,
//                "segments": [ { "name": "L0", "nodes": [0, 6],          // [first, end)
//                                "cpu_ms": 2.1, "fpga_cycles": 12544, "fpga_max_node_cycles": 12544,
//                                "output_bytes": 394272,
//                                "bram_18k": 4, "lut": 2100, "uram": 0, "dsp": 0,   // optional, 0
//                                "has_threshold": true } ] },                       // optional, true
//     "platform": { "name": "KV260", "clock_mhz": 100,
//                   "budget": { "bram_18k": 288, "lut": 117120, "uram": 64, "dsp": 1248 },
//                   "to_fpga":   { "ms_per_mb": 1.08, "ms": 0.03 },                 // eq. 4.1
//                   "from_fpga": { "ms_per_mb": 1.0, "ms": 0.02 },                  // eq. 4.2
//                   "cpu_speedup": 1 } }                                             // optional, 1
// Keys starting with "_" are comments. Unknown keys, numbers out of range,
// and segments that do not follow each other are errors naming the file,
// the line and the field. write_specification() writes the same format, with
// every number read back exactly as written.
#pragma once

#include "../config.hpp"
#include "sequential_graph.hpp"

#include "../io/json.hpp"
#include "../io/json_fields.hpp"

#include <filesystem>
#include <ostream>
#include <string_view>

namespace ychart::partition {

/// What a partition is computed from: the graph and the platform.
struct Specification {
  SequentialGraph graph;
  Platform platform;
};

YCHART_DECL Specification parse_specification(const io::JsonValue& root);

YCHART_DECL Specification load_specification(const std::filesystem::path& file);

/// The specification in the format parse_specification() reads; a
/// non-empty `source` is written first as a "_source" note (where the
/// numbers come from), which the loader skips.
YCHART_DECL void write_specification(std::ostream& out, const Specification& spec, std::string_view source = {});

}  // namespace ychart::partition

#if YCHART_HEADER_ONLY
#include "impl/load.ipp"
#endif
