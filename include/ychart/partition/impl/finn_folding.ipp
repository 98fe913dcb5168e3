// ychart/partition/impl/finn_folding.ipp
// The implementation of ychart/partition/finn_folding.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../finn_folding.hpp"

#include "../../error.hpp"
#include "../../io/json_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

namespace ychart::partition {

namespace detail {

inline bool finn_ram_style(std::string_view s) {
  return s == "auto" || s == "block" || s == "distributed" || s == "ultra";
}

/// FINN reserves "Defaults" for per-op-type defaults (and asserts that no
/// node is called "defaults"): either spelling, in any case.
inline bool finn_reserved_name(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return lower == "defaults";
}

/// PE or SIMD as FINN's integer attribute; graph_error naming the node otherwise.
inline long finn_factor(double x, const char* attribute, const FoldableNode& node, const NodeOption& option) {
  if (!(x >= 1) || x != std::floor(x) || x > 1e9) {
    std::ostringstream value;
    value << x;
    throw graph_error("ychart: write_finn_folding: node " + node.name + ", option \"" + option.label + "\": " +
                          attribute + " = " + value.str() + " is not a whole number of at least 1",
                      node.name);
  }
  return long(x);
}

inline void write_finn_entry(io::JsonWriter& w, const FoldableNode& node, const NodeOption& o) {
  w.key(node.name).begin_object();
  if (node.finn.pe) w.key("PE").value(finn_factor(o.pe, "PE", node, o));
  if (node.finn.simd) w.key("SIMD").value(finn_factor(o.simd, "SIMD", node, o));
  if (node.finn.ram_style) {
    if (!finn_ram_style(o.ram_style))
      throw graph_error("ychart: write_finn_folding: node " + node.name + ", option \"" + o.label + "\": ram_style \"" +
                            o.ram_style + "\" is not one of FINN's: auto, block, distributed, ultra",
                        node.name);
    w.key("ram_style").value(o.ram_style);
  }
  w.end_object();
}

/// Whether `o` has the entry's PE, SIMD and ram_style (those the node has).
inline bool option_matches(const FoldableNode& node, const NodeOption& o, const io::JsonValue& entry) {
  if (node.finn.pe && double(entry.at("PE").integer()) != o.pe) return false;
  if (node.finn.simd && double(entry.at("SIMD").integer()) != o.simd) return false;
  if (node.finn.ram_style && entry.at("ram_style").string() != o.ram_style) return false;
  return true;
}

inline std::string entry_text(const FoldableNode& node, const io::JsonValue& entry) {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
  if (node.finn.pe) add("PE=" + std::to_string(entry.at("PE").integer()));
  if (node.finn.simd) add("SIMD=" + std::to_string(entry.at("SIMD").integer()));
  if (node.finn.ram_style) add("ram_style=" + entry.at("ram_style").string());
  return text;
}

/// The choice for segment s: -1 when no node of it has an entry.
inline std::vector<int> segment_choice(const io::JsonValue& config, const std::vector<FoldableNode>& segment) {
  std::vector<const io::JsonValue*> entries;
  const io::JsonValue* named = nullptr;  // an entry of this segment, for errors
  std::string missing;
  for (const auto& node : segment) {
    const io::JsonValue* e = node.finn.any() ? config.find(node.name) : nullptr;
    entries.push_back(e);
    if (e) named = e;
    else if (node.finn.any()) missing += (missing.empty() ? "" : ", ") + node.name;
  }
  if (!named) return std::vector<int>(segment.size(), -1);
  if (!missing.empty())
    io::fail_at(*named, "names a node of a segment on the FPGA, but the file has no entry for " + missing +
                            " of the same segment: a segment runs on the FPGA whole or not at all");
  std::vector<int> choice;
  for (std::size_t k = 0; k < segment.size(); ++k) {
    const auto& node = segment[k];
    if (!entries[k]) {  // a node without attributes: its only option
      if (node.options.size() != 1)
        io::fail_at(*named, "cannot place node " + node.name + ": it has " + std::to_string(node.options.size()) +
                                " options and no FINN attributes to tell them apart");
      choice.push_back(0);
      continue;
    }
    const auto& entry = *entries[k];
    const auto it = std::find_if(node.options.begin(), node.options.end(),
                                 [&](const NodeOption& o) { return option_matches(node, o, entry); });
    if (it == node.options.end()) io::fail_at(entry, entry_text(node, entry) + " is none of node " + node.name + "'s options");
    choice.push_back(int(it - node.options.begin()));
  }
  return choice;
}

/// Records a node's name; a second node of that name is an error, because
/// FINN's configuration keys nodes by name. `caller` names the function.
inline void add_unique_finn_name(std::set<std::string>& names, const FoldableNode& node, const char* caller) {
  if (!names.insert(node.name).second)
    throw graph_error(std::string("ychart: ") + caller + ": two nodes are called " + node.name +
                          "; FINN's configuration keys nodes by name",
                      node.name);
}

}  // namespace detail

YCHART_DECL void write_finn_folding(std::ostream& out, const FoldableGraph& nodes,
                                    const std::vector<std::vector<int>>& choice) {
  if (choice.size() != nodes.size())
    throw graph_error("ychart: write_finn_folding: a choice for " + std::to_string(choice.size()) + " segments, " +
                      std::to_string(nodes.size()) + " segments of nodes");
  std::set<std::string> written;
  io::JsonWriter w(out);
  w.begin_object();
  w.key("Defaults").begin_object().end_object();
  for (std::size_t s = 0; s < nodes.size(); ++s) {
    if (choice[s].size() != nodes[s].size())
      throw graph_error("ychart: write_finn_folding: segment " + std::to_string(s) + " has " +
                        std::to_string(nodes[s].size()) + " nodes and a choice for " + std::to_string(choice[s].size()));
    for (std::size_t k = 0; k < nodes[s].size(); ++k) {
      const auto& node = nodes[s][k];
      const int c = choice[s][k];
      if (c < 0 || !node.finn.any()) continue;
      if (std::size_t(c) >= node.options.size())
        throw graph_error("ychart: write_finn_folding: node " + node.name + " has no option " + std::to_string(c), node.name);
      if (detail::finn_reserved_name(node.name))
        throw graph_error("ychart: write_finn_folding: a node may not be called \"" + node.name +
                              "\": FINN reserves \"Defaults\" for per-op-type defaults",
                          node.name);
      detail::add_unique_finn_name(written, node, "write_finn_folding");
      detail::write_finn_entry(w, node, node.options[std::size_t(c)]);
    }
  }
  w.end_object();
}

YCHART_DECL void write_finn_folding(std::ostream& out, const FoldableGraph& nodes, const FoldedPartition& r) {
  if (r.choice.empty())
    throw model_error("ychart: write_finn_folding: the solve ended " + std::string(to_string(r.status)) +
                      " without a folding to write");
  write_finn_folding(out, nodes, r.choice);
}

YCHART_DECL std::vector<std::vector<int>> read_finn_folding(const io::JsonValue& config, const FoldableGraph& nodes) {
  std::set<std::string> names;
  for (const auto& segment : nodes)
    for (const auto& node : segment)
      if (node.finn.any()) detail::add_unique_finn_name(names, node, "read_finn_folding");
  for (const auto& [key, value] : config.items()) {
    if (key == "Defaults") {
      (void)value.items();  // an object, not read
      continue;
    }
    if (!names.count(key)) io::fail_at(value, "names no node of the graph that has FINN attributes");
    (void)value.items();
  }
  std::vector<std::vector<int>> choice;
  for (const auto& segment : nodes) choice.push_back(detail::segment_choice(config, segment));
  return choice;
}

}  // namespace ychart::partition
