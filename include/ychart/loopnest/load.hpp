// ychart/loopnest/load.hpp
// ALOHA platform models from JSON (study 002, Tables 4 and 5):
//   { "name": "NEURAghe",
//     "memories":  [ { "id": "mem0", "bytes": 73728 }, ... ],
//     "channels":  [ { "id": "ch0", "gb_per_s": 0.72 }, ... ],
//     "processors": [ { "id": "0", "type": "accelerator", "subtype": "FPGA engine",
//         "peak_gops": 129.6, "frequency_ghz": 0.18, "parallelism": [9, 10, 4],
//         "active_power_w": 3.6, "idle_power_w": 1.8, "ddr_pj_per_bit": 91,   // optional
//         "overhead_ms": 0.1,
//         "loop_order": ["IF", "OF", "FH", "FW", "KH"],
//         "transfers": { "input":   { "level": 1, "channel": "ch0", "memory": "mem0", "limited_loop": "FH" },
//                        "output":  { ... }, "weights": { ... } },
//         "unrolls": [["IF"], ["OF"], ["FW"]] } ] }
// Keys starting with "_" are comments. Unknown keys, unknown loops, channels
// or memories, and a computational model that uses a parallelism level the
// processor lacks are errors naming the file, the line and the field.
#pragma once

#include "../config.hpp"
#include "platform.hpp"

#include "../expr/operators.hpp"
#include "../io/json.hpp"
#include "../io/json_fields.hpp"
#include "../io/parse_error.hpp"

#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

namespace ychart::loopnest {

namespace detail {

inline Loop loop_at(const io::JsonValue& v) {
  const auto l = parse_loop(v.string());
  if (!l) io::fail_at(v, "unknown loop `" + v.string() + "` (BS, OF, IF, FH, FW, KH or KW)");
  return *l;
}

template <class List>
std::size_t index_of(const io::JsonValue& v, const List& list, const char* what) {
  for (std::size_t k = 0; k < list.size(); ++k)
    if (list[k].id == v.string()) return k;
  std::string known;
  for (const auto& x : list) known += (known.empty() ? "" : ", ") + x.id;
  io::fail_at(v, std::string("unknown ") + what + " `" + v.string() + "` (the platform has: " + known + ")");
}

}  // namespace detail

YCHART_DECL Platform parse_platform(const io::JsonValue& root);

YCHART_DECL Platform load_platform(const std::filesystem::path& file);

}  // namespace ychart::loopnest

#if YCHART_HEADER_ONLY
#include "impl/load.ipp"
#endif
