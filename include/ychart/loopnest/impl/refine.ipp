// ychart/loopnest/impl/refine.ipp
// The implementation of ychart/loopnest/refine.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../refine.hpp"

namespace ychart::loopnest {


namespace detail {

inline long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

/// The bytes of data kind d in one transfer at its level (Eq. 7's product
/// of dim'), with ALOHA's (KH * KW + 1) factor on weights.
inline double transfer_bytes(const RefinedNest& n, DataKind d, int level, double element) {
  double other = 1, kernel = 1;
  bool any_kernel = false;
  for (const auto& lp : n.loops) {
    const bool indexes = lp.indexes(n.tensor, d);
    if (!indexes) continue;
    const double f = lp.level >= level ? double(lp.inner) * double(lp.par) : double(lp.par);
    const bool is_kernel = lp.is_kernel();
    if (d == DataKind::weights && is_kernel) kernel *= f, any_kernel = true;
    else other *= f;
  }
  if (d == DataKind::weights) return other * ((any_kernel ? kernel : 1.0) + 1.0) * element;
  return other * element;
}

inline void place_transfers(RefinedNest& n, const Processor& p, double element) {
  for (int d = 0; d < data_kind_count; ++d) {
    auto& t = n.transfers[std::size_t(d)];
    const auto& where = p.model.transfer[std::size_t(d)];
    t.present = d != int(DataKind::weights) || n.tensor.has_weights;
    t.level = where.level;
    t.channel = where.channel;
    t.memory = where.memory;
    if (!t.present) continue;
    t.bytes = transfer_bytes(n, DataKind(d), t.level, element);
    double e = 1;
    for (const auto& lp : n.loops) e *= double(lp.tiles) * (lp.level < t.level ? double(lp.inner) : 1.0);
    t.executions = e;
  }
}

}  // namespace detail

YCHART_DECL RefinedNest refine(const Layer& layer, const Processor& p, const Platform& platform,
                               const RefineOptions& options) {
  RefinedNest n;
  n.tensor = computational_tensor(layer);
  const auto& cm = p.model;
  // What the hot path indexes with, checked here too (Platform::validate()
  // checks the rest): a platform built in C++ may not have been validated.
  for (const auto& t : cm.transfer)
    if (t.channel >= platform.channels.size() || t.memory >= platform.memories.size())
      throw loopnest_error("ychart: processor `" + p.id + "` transfers through a channel or into a memory that platform `" +
                           platform.name + "` lacks; call Platform::validate()", p.id);
  if (cm.unrolls.size() > p.parallelism.size())
    throw loopnest_error("ychart: processor `" + p.id + "`: the computational model uses parallelism level " +
                         std::to_string(p.parallelism.size()) + ", which the processor lacks", p.id);
  // Step 1: the loop order (unlisted loops: BS outside, the rest inside).
  std::array<int, loop_count> level{};
  level.fill(-2);
  for (std::size_t k = 0; k < cm.loop_order.size(); ++k) level[std::size_t(cm.loop_order[k])] = int(k);
  std::vector<Loop> order;
  if (level[std::size_t(Loop::BS)] == -2) order.push_back(Loop::BS), level[std::size_t(Loop::BS)] = -1;
  order.insert(order.end(), cm.loop_order.begin(), cm.loop_order.end());
  int next_level = int(cm.loop_order.size());
  for (int l = 1; l < loop_count; ++l)
    if (level[std::size_t(l)] == -2) order.push_back(Loop(l)), level[std::size_t(l)] = next_level++;
  // Step 2: unroll with round-up; loops one level unrolls together merge.
  std::array<int, loop_count> grid{};
  grid.fill(-1);
  for (std::size_t g = 0; g < cm.unrolls.size(); ++g)
    for (auto l : cm.unrolls[g]) grid[std::size_t(l)] = int(g);
  n.loops.reserve(order.size());
  for (auto l : order) {
    const int g = grid[std::size_t(l)];
    if (g >= 0 && !n.loops.empty() && n.loops.back().grid_level == g) {  // joins the previous loop of its group
      n.loops.back().members |= 1u << unsigned(l);
      if (double(n.loops.back().extent) * double(n.tensor[l]) > 4503599627370496.0)  // 2^52
        throw loopnest_error("ychart: layer `" + layer.name + "`: the loops parallelism level " + std::to_string(g) +
                             " unrolls together have more than 2^52 iterations", layer.name);
      n.loops.back().extent *= n.tensor[l];
      continue;
    }
    NestLoop lp;
    lp.members = 1u << unsigned(l);
    lp.level = level[std::size_t(l)];
    lp.grid_level = g;
    lp.extent = n.tensor[l];
    n.loops.push_back(lp);
  }
  double ops = n.tensor.ops_per_iteration;
  for (auto& lp : n.loops) {
    lp.par = lp.grid_level >= 0 ? p.parallelism[std::size_t(lp.grid_level)] : 1;
    lp.trip = lp.inner = detail::ceil_div(lp.extent, lp.par);
    ops *= double(lp.trip) * double(lp.par);
  }
  n.ops_re = ops;
  // Step 3: transfers.
  const double element = n.element = layer.element.value();
  for (auto& lp : n.loops)
    for (int l = 0; l < loop_count; ++l)
      if (lp.has(Loop(l)) && options.tiles[std::size_t(l)] > 0) {
        lp.tiles = std::min(options.tiles[std::size_t(l)], lp.trip);
        lp.inner = detail::ceil_div(lp.trip, lp.tiles);
      }
  detail::place_transfers(n, p, element);
  // Step 4: tile each loop a memory limits until every memory holds its data.
  bool forced = false;
  for (auto t : options.tiles) forced = forced || t > 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t m = 0; m < platform.memories.size(); ++m) {
      double total = 0, per_iteration = 0;
      std::size_t limited = 0;
      for (int d = 0; d < data_kind_count; ++d) {
        const auto& t = n.transfers[std::size_t(d)];
        if (!t.present || t.memory != m) continue;
        total += t.bytes;
        limited = n.index_of(cm.transfer[std::size_t(d)].limited_loop);
        const auto& lp = n.loops[limited];
        const bool indexes = lp.indexes(n.tensor, DataKind(d));
        if (indexes && lp.level >= t.level) per_iteration += t.bytes / double(lp.inner);
      }
      const double capacity = platform.memories[m].capacity.value();
      if (total <= capacity) continue;
      auto& lp = n.loops[limited];
      const double fixed = total - per_iteration * double(lp.inner);
      const double max_iterations = per_iteration > 0 ? std::floor((capacity - fixed) / per_iteration) : 0;
      if (forced || max_iterations < 1) {
        const double need = forced ? total : fixed + per_iteration;
        std::string loops;
        for (int l = 0; l < loop_count; ++l)
          if (lp.has(Loop(l))) loops += loop_name(Loop(l));
        throw tiling_error("ychart: layer `" + layer.name + "` on processor `" + p.id + "`: " +
                               (forced ? "with the given tiles, its data in memory `"
                                       : "even one iteration of loop " + loops + " needs ") +
                               (forced ? platform.memories[m].id + "` needs " : "") + ychart::detail::format_number(need) +
                               " B" + (forced ? "" : " in memory `" + platform.memories[m].id + "`") + ", which holds " +
                               ychart::detail::format_number(capacity) + " B",
                           platform.memories[m].id, need, capacity);
      }
      const long long tiles = detail::ceil_div(lp.trip, static_cast<long long>(max_iterations));
      if (tiles > lp.tiles) {
        lp.tiles = tiles;
        lp.inner = detail::ceil_div(lp.trip, tiles);
        detail::place_transfers(n, p, element);
        changed = true;
      }
    }
  }
  return n;
}

YCHART_DECL std::string RefinedNest::listing(const Platform& platform, bool show_transfers) const {
  static constexpr const char* names[] = {"batch", "o_feat", "i_feat", "fh", "fw", "k_y", "k_x"};
  auto name_of = [](const NestLoop& lp) {
    std::string s;
    for (int l = 0; l < loop_count; ++l)
      if (lp.has(Loop(l))) s += (s.empty() ? "" : "_") + std::string(names[l]);
    return s;
  };
  auto number = [](double v) {
    return v == std::floor(v) && std::fabs(v) < 1e15 ? std::to_string(static_cast<long long>(v))
                                                     : ychart::detail::format_number(v);
  };
  std::string out;
  int indent = 0;
  auto line = [&](const std::string& s) { out += std::string(std::size_t(2 * indent), ' ') + s + "\n"; };
  for (const auto& lp : loops)
    if (lp.tiles > 1) line("for " + name_of(lp) + "_tile in range(" + std::to_string(lp.tiles) + "):"), ++indent;
  // The sizes as the paper writes them: the factors of every loop that indexes the data.
  auto size_text = [&](DataKind d) {
    const auto& t = transfers[std::size_t(d)];
    std::string s, kernel;
    for (const auto& lp : loops) {
      const bool indexes = lp.indexes(tensor, d);
      if (!indexes || (lp.level == -1 && lp.extent == 1)) continue;  // the paper omits a batch of 1
      std::string f;
      if (lp.level >= t.level) f = std::to_string(lp.inner);
      if (lp.par > 1) f += (f.empty() ? "" : "*") + std::to_string(lp.par);
      if (f.empty()) f = "1";
      const bool is_kernel = lp.is_kernel();
      auto& into = d == DataKind::weights && is_kernel ? kernel : s;
      into += (into.empty() ? "" : "*") + f;
    }
    if (d == DataKind::weights) s += "*(" + (kernel.empty() ? std::string("1") : kernel) + "+1)";
    return s + "*" + number(element);
  };
  auto transfer_line = [&](DataKind d) {
    const auto& t = transfers[std::size_t(d)];
    const std::string action = d == DataKind::output ? "store" : "load";
    return action + "(" + size_text(d) + " = " + number(t.bytes) + " B, " + platform.memories[t.memory].id + ", " +
           platform.channels[t.channel].id + ")  # " + data_kind_name(d) + ", " + number(t.executions) + "x";
  };
  // Transfers sit inside the last loop of a lower level (or at the top).
  auto host = [&](const TransferSite& t) {
    int h = -1;
    for (std::size_t i = 0; i < loops.size(); ++i)
      if (loops[i].level < t.level && !(loops[i].level == -1 && loops[i].extent == 1)) h = int(i);
    return h;
  };
  const bool show_batch = loops.front().level != -1 || loops.front().extent > 1;
  auto loads_at = [&](int h) {
    if (!show_transfers) return;
    for (auto d : {DataKind::input, DataKind::weights})
      if (transfers[std::size_t(d)].present && host(transfers[std::size_t(d)]) == h) line(transfer_line(d));
  };
  auto stores_at = [&](int h) {
    if (!show_transfers) return;
    if (transfers[std::size_t(DataKind::output)].present && host(transfers[std::size_t(DataKind::output)]) == h)
      line(transfer_line(DataKind::output));
  };
  loads_at(-1);
  const int base = indent;
  std::vector<int> body_indent(loops.size(), base);
  for (std::size_t i = 0; i < loops.size(); ++i) {
    const auto& lp = loops[i];
    if (i == 0 && !show_batch) {
      body_indent[i] = indent;
      continue;
    }
    line("for " + name_of(lp) + " in range(" + std::to_string(lp.inner) + "):");
    ++indent;
    body_indent[i] = indent;
    loads_at(int(i));
    if (lp.par > 1) {
      line("for par" + std::to_string(lp.grid_level) + " in range(" + std::to_string(lp.par) + "):");
      ++indent;
    }
  }
  line(tensor.ops_per_iteration == 2 ? "do MAC" : "do max");
  for (int i = int(loops.size()) - 1; i >= 0; --i) {
    indent = body_indent[std::size_t(i)];
    stores_at(i);
  }
  indent = base;
  stores_at(-1);
  return out;
}

}  // namespace ychart::loopnest
