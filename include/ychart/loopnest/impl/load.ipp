// ychart/loopnest/impl/load.ipp
// The implementation of ychart/loopnest/load.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../load.hpp"

namespace ychart::loopnest {


YCHART_DECL Platform parse_platform(const io::JsonValue& root) {
  io::check_keys(root, {"name", "memories", "channels", "processors"});
  Platform p;
  p.name = root.at("name").string();
  for (const auto& m : root.at("memories").elements()) {
    io::check_keys(m, {"id", "bytes"});
    p.memories.push_back({m.at("id").string(), io::positive(m, "bytes") * units::B});
  }
  for (const auto& c : root.at("channels").elements()) {
    io::check_keys(c, {"id", "gb_per_s"});
    p.channels.push_back({c.at("id").string(), io::positive(c, "gb_per_s") * units::GB_per_s});
  }
  const auto& processors = root.at("processors");
  if (processors.elements().empty()) io::fail_at(processors, "a platform needs at least one processor");
  for (const auto& v : processors.elements()) {
    io::check_keys(v, {"id", "type", "subtype", "peak_gops", "frequency_ghz", "parallelism", "active_power_w",
                       "idle_power_w", "ddr_pj_per_bit", "overhead_ms", "loop_order", "transfers", "unrolls"});
    Processor q;
    q.id = v.at("id").string();
    q.type = v.at("type").string();
    if (const auto* s = v.find("subtype")) q.subtype = s->string();
    q.peak = io::positive(v, "peak_gops") * units::GOPS;
    q.frequency = io::positive(v, "frequency_ghz") * units::GHz;
    for (const auto& f : v.at("parallelism").elements()) {
      const long x = f.integer();
      if (x < 1) io::fail_at(f, "a parallelism factor must be a positive integer");
      q.parallelism.push_back(x);
    }
    if (const auto* a = v.find("active_power_w")) q.active_power = io::non_negative(*a) * units::W;
    if (const auto* a = v.find("idle_power_w")) q.idle_power = io::non_negative(*a) * units::W;
    if (const auto* a = v.find("ddr_pj_per_bit")) q.energy_per_byte = io::non_negative(*a) * units::pJ_per_bit;
    if (const auto* a = v.find("overhead_ms")) q.overhead = io::non_negative(*a) * units::ms;
    auto& cm = q.model;
    for (const auto& l : v.at("loop_order").elements()) {
      const auto loop = detail::loop_at(l);
      for (auto seen : cm.loop_order)
        if (seen == loop) io::fail_at(l, std::string("loop ") + loop_name(loop) + " appears twice in the loop order");
      cm.loop_order.push_back(loop);
    }
    const auto& transfers = v.at("transfers");
    io::check_keys(transfers, {"input", "output", "weights"});
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& t = transfers.at(data_kind_name(DataKind(d)));
      io::check_keys(t, {"level", "channel", "memory", "limited_loop"});
      auto& placement = cm.transfer[std::size_t(d)];
      const auto& level = t.at("level");
      placement.level = static_cast<int>(level.integer());
      if (placement.level < 0 || placement.level > int(cm.loop_order.size()))
        io::fail_at(level, "loop level " + std::to_string(placement.level) + " is not in the loop order (0 to " +
                                   std::to_string(cm.loop_order.size()) + ")");
      placement.channel = detail::index_of(t.at("channel"), p.channels, "channel");
      placement.memory = detail::index_of(t.at("memory"), p.memories, "memory");
      placement.limited_loop = detail::loop_at(t.at("limited_loop"));
    }
    const auto& unrolls = v.at("unrolls");
    for (std::size_t g = 0; g < unrolls.size(); ++g) {
      const auto& level = unrolls.at(g);
      if (g >= q.parallelism.size())
        io::fail_at(level, "the computational model uses parallelism level " + std::to_string(g) + ", but processor `" +
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
      io::fail_at(v, e.what());
    }
  }
  return p;
}

YCHART_DECL Platform load_platform(const std::filesystem::path& file) { return parse_platform(io::JsonValue::read(file)); }

}  // namespace ychart::loopnest
