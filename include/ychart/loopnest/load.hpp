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

using io::check_keys;
using io::fail_at;
using io::non_negative;
using io::positive;

inline Loop loop_at(const io::JsonValue& v) {
  const auto l = parse_loop(v.string());
  if (!l) fail_at(v, "unknown loop `" + v.string() + "` (BS, OF, IF, FH, FW, KH or KW)");
  return *l;
}

template <class List>
std::size_t index_of(const io::JsonValue& v, const List& list, const char* what) {
  for (std::size_t k = 0; k < list.size(); ++k)
    if (list[k].id == v.string()) return k;
  std::string known;
  for (const auto& x : list) known += (known.empty() ? "" : ", ") + x.id;
  fail_at(v, std::string("unknown ") + what + " `" + v.string() + "` (the platform has: " + known + ")");
}

}  // namespace detail

inline Platform parse_platform(const io::JsonValue& root) {
  detail::check_keys(root, {"name", "memories", "channels", "processors"});
  Platform p;
  p.name = root.at("name").string();
  for (const auto& m : root.at("memories").elements()) {
    detail::check_keys(m, {"id", "bytes"});
    p.memories.push_back({m.at("id").string(), detail::positive(m, "bytes") * units::B});
  }
  for (const auto& c : root.at("channels").elements()) {
    detail::check_keys(c, {"id", "gb_per_s"});
    p.channels.push_back({c.at("id").string(), detail::positive(c, "gb_per_s") * units::GB_per_s});
  }
  const auto& processors = root.at("processors");
  if (processors.elements().empty()) detail::fail_at(processors, "a platform needs at least one processor");
  for (const auto& v : processors.elements()) {
    detail::check_keys(v, {"id", "type", "subtype", "peak_gops", "frequency_ghz", "parallelism", "active_power_w",
                           "idle_power_w", "ddr_pj_per_bit", "overhead_ms", "loop_order", "transfers", "unrolls"});
    Processor q;
    q.id = v.at("id").string();
    q.type = v.at("type").string();
    if (const auto* s = v.find("subtype")) q.subtype = s->string();
    q.peak = detail::positive(v, "peak_gops") * units::GOPS;
    q.frequency = detail::positive(v, "frequency_ghz") * units::GHz;
    for (const auto& f : v.at("parallelism").elements()) {
      const long x = f.integer();
      if (x < 1) detail::fail_at(f, "a parallelism factor must be a positive integer");
      q.parallelism.push_back(x);
    }
    if (const auto* a = v.find("active_power_w")) q.active_power = detail::non_negative(*a) * units::W;
    if (const auto* a = v.find("idle_power_w")) q.idle_power = detail::non_negative(*a) * units::W;
    if (const auto* a = v.find("ddr_pj_per_bit")) q.energy_per_byte = detail::non_negative(*a) * units::pJ_per_bit;
    if (const auto* a = v.find("overhead_ms")) q.overhead = detail::non_negative(*a) * units::ms;
    auto& cm = q.model;
    for (const auto& l : v.at("loop_order").elements()) {
      const auto loop = detail::loop_at(l);
      for (auto seen : cm.loop_order)
        if (seen == loop) detail::fail_at(l, std::string("loop ") + loop_name(loop) + " appears twice in the loop order");
      cm.loop_order.push_back(loop);
    }
    const auto& transfers = v.at("transfers");
    detail::check_keys(transfers, {"input", "output", "weights"});
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& t = transfers.at(data_kind_name(DataKind(d)));
      detail::check_keys(t, {"level", "channel", "memory", "limited_loop"});
      auto& placement = cm.transfer[std::size_t(d)];
      const auto& level = t.at("level");
      placement.level = static_cast<int>(level.integer());
      if (placement.level < 0 || placement.level > int(cm.loop_order.size()))
        detail::fail_at(level, "loop level " + std::to_string(placement.level) + " is not in the loop order (0 to " +
                                   std::to_string(cm.loop_order.size()) + ")");
      placement.channel = detail::index_of(t.at("channel"), p.channels, "channel");
      placement.memory = detail::index_of(t.at("memory"), p.memories, "memory");
      placement.limited_loop = detail::loop_at(t.at("limited_loop"));
    }
    const auto& unrolls = v.at("unrolls");
    for (std::size_t g = 0; g < unrolls.size(); ++g) {
      const auto& level = unrolls.at(g);
      if (g >= q.parallelism.size())
        detail::fail_at(level, "the computational model uses parallelism level " + std::to_string(g) + ", but processor `" +
                                   q.id + "` lists " + std::to_string(q.parallelism.size()) +
                                   " levels in \"parallelism\"");
      std::vector<Loop> loops;
      for (const auto& l : level.elements()) loops.push_back(detail::loop_at(l));
      cm.unrolls.push_back(std::move(loops));
    }
    p.processors.push_back(std::move(q));
    try {
      p.validate();
    } catch (const loopnest_error& e) {
      detail::fail_at(v, e.what());
    }
  }
  return p;
}

inline Platform load_platform(const std::filesystem::path& file) { return parse_platform(io::JsonValue::read(file)); }

}  // namespace ychart::loopnest
