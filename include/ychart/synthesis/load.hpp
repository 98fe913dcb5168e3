// ychart/synthesis/load.hpp
// Synthesis specifications from JSON (study 003):
//   { "max_hops": 10,                                              // optional
//     "resources": [ { "id": "NCS", "kind": "processor",           // or bus, memory
//                      "allocation_cost_us": 0, "power_w": 1.0,    // optional
//                      "parameters": [ { "name": "num_of_shaves", "values": [1, 2, ...],
//                                        "power_w": [0.1, ...] } ] } ],   // power optional
//     "links": [ { "id": "l1", "from": "NCS", "to": "bus12", "cost_us": 20,
//                  "bandwidth_mb_per_s": 40, "directed": false } ],       // last two optional
//     "tasks": [ { "id": "input", "operation": "Placeholder" },           // a process task
//                { "id": "t0", "communication": true, "bytes": 3136,
//                  "from": "input", "to": ["model/conv2d_1"] } ],
//     "mappings": [ { "task": "input", "resource": "Desktop", "cost_us": 0 },
//                   { "task": "model/add_1", "resource": "NCS", "parameter": "num_of_shaves",
//                     "cost_us": [ 31.2, ... ] } ] }                     // one per value
// Keys starting with "_" are comments. Unknown keys are errors naming the
// file, line and field; unknown resources, tasks and parameters too.
#pragma once

#include "../config.hpp"
#include "specification.hpp"

#include "../expr/operators.hpp"

#include "../io/json.hpp"
#include "../io/json_fields.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace ychart::synthesis {

YCHART_DECL Specification parse_specification(const io::JsonValue& root);

YCHART_DECL Specification load_specification(const std::filesystem::path& file);

}  // namespace ychart::synthesis

#if YCHART_HEADER_ONLY
#include "impl/load.ipp"
#endif
