// ychart/mapping/load.hpp
// Reads the mapping class's inputs from YAML, the form accelerator papers
// and Timeloop-style tools describe hierarchies in (docs/mapping.md has the
// format): an architecture (storage levels innermost first, with
// capacities, energies in pJ, bandwidths, fan-outs, multicast, bypass) and
// a network (its layers' seven loops and strides, with a repeat count).
// Every error is an io::parse_error at `file:line:column: field: reason`,
// unknown keys included (keys starting with `_` are notes).
//
// Header-only on purpose: yaml-cpp (Debian's libyaml-cpp-dev) stays out of
// the compiled library, so a program that reads no YAML does not link it.
// Link yaml-cpp (the CMake target `yaml-cpp`) where this header is used.
#pragma once

#include "architecture.hpp"
#include "network.hpp"
#include "workload.hpp"

#include "../error.hpp"
#include "../expr/operators.hpp"
#include "../io/parse_error.hpp"
#include "../units/unit.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ychart::mapping {

namespace detail {

class YamlReader {
 public:
  static constexpr int max_depth = 32;
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& field, const std::string& why) const {
    const auto mark = at.Mark();
    throw io::parse_error(file_, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, field, why);
  }

  YAML::Node parse(std::string_view text) const {
    // yaml-cpp parses nested collections recursively: refuse depths no
    // architecture needs before they can exhaust the stack.
    int depth = 0, line = 1, dashes = 0;
    bool line_start = true;
    for (char ch : text) {
      if (ch == '[' || ch == '{') ++depth;
      if ((ch == ']' || ch == '}') && depth > 0) --depth;
      if (ch == '\n') ++line, dashes = 0, line_start = true;
      else if (line_start && ch == '-') ++dashes;
      else if (ch != ' ') line_start = false;
      if (depth > max_depth || dashes > max_depth)
        throw io::parse_error(file_, line, 0, "", "nested more than " + std::to_string(max_depth) + " deep");
    }
    try {
      return YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
      throw io::parse_error(file_, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0, "",
                            e.msg);
    }
  }

  /// The map at `node`, every key of which is in `known` or starts with `_`.
  void keys(const YAML::Node& node, const std::string& field, std::initializer_list<const char*> known) const {
    if (!node.IsMap()) fail(node, field, "expected a map");
    const std::set<std::string> allowed(known.begin(), known.end());
    for (const auto& kv : node) {
      const auto key = scalar(kv.first, field);
      if (!key.empty() && key[0] == '_') continue;
      if (!allowed.count(key)) fail(kv.first, join(field, key), "unknown key");
    }
  }

  std::string scalar(const YAML::Node& node, const std::string& field) const {
    if (!node.IsScalar()) fail(node, field, "expected a value");
    return node.Scalar();
  }

  YAML::Node required(const YAML::Node& map, const char* key, const std::string& field) const {
    const auto node = map[key];
    if (!node) fail(map, join(field, key), "missing");
    return node;
  }

  double positive(const YAML::Node& node, const std::string& field) const {
    const auto text = scalar(node, field);
    double v = 0;
    std::istringstream in(text);
    in >> v;
    if (in.fail() || !in.eof() || !std::isfinite(v)) fail(node, field, "expected a number, got `" + text + "`");
    if (v <= 0) fail(node, field, "must be positive, got " + text);
    return v;
  }

  std::int64_t count(const YAML::Node& node, const std::string& field) const {
    const double v = positive(node, field);
    if (v != std::floor(v) || v > 9e15) fail(node, field, "expected a whole number, got " + scalar(node, field));
    return static_cast<std::int64_t>(v);
  }

  bool boolean(const YAML::Node& node, const std::string& field) const {
    const auto text = scalar(node, field);
    if (text == "true") return true;
    if (text == "false") return false;
    fail(node, field, "expected true or false, got `" + text + "`");
  }

  Tensor tensor(const YAML::Node& node, const std::string& field) const {
    const auto text = scalar(node, field);
    for (Tensor t : all_tensors)
      if (text == name(t)) return t;
    fail(node, field, "unknown tensor `" + text + "` (weights, inputs or outputs)");
  }

  static std::string join(const std::string& field, const std::string& key) { return field.empty() ? key : field + "." + key; }
  static std::string index(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

inline StorageLevel parse_level(const YamlReader& r, const YAML::Node& node, const std::string& field) {
  r.keys(node, field, {"name", "keeps", "capacity_words", "shared_capacity_words", "read_energy_pJ", "write_energy_pJ",
                       "bandwidth_words_per_cycle", "fanout", "multicast"});
  StorageLevel level;
  level.name = r.scalar(r.required(node, "name", field), YamlReader::join(field, "name"));
  if (const auto keeps = node["keeps"]) {
    if (!keeps.IsSequence()) r.fail(keeps, YamlReader::join(field, "keeps"), "expected a list of tensors");
    level.keeps = {false, false, false};
    for (std::size_t i = 0; i < keeps.size(); ++i)
      level.keeps[static_cast<std::size_t>(r.tensor(keeps[i], YamlReader::index(YamlReader::join(field, "keeps"), i)))] = true;
  }
  if (const auto caps = node["capacity_words"]) {
    const auto f = YamlReader::join(field, "capacity_words");
    r.keys(caps, f, {"weights", "inputs", "outputs"});
    for (const auto& kv : caps) {
      const auto key = r.scalar(kv.first, f);
      if (!key.empty() && key[0] == '_') continue;
      level.capacity[static_cast<std::size_t>(r.tensor(kv.first, f))] = r.count(kv.second, YamlReader::join(f, key));
    }
  }
  if (const auto s = node["shared_capacity_words"]) level.shared_capacity = r.count(s, YamlReader::join(field, "shared_capacity_words"));
  level.read_energy = r.positive(r.required(node, "read_energy_pJ", field), YamlReader::join(field, "read_energy_pJ")) * units::pJ;
  level.write_energy = r.positive(r.required(node, "write_energy_pJ", field), YamlReader::join(field, "write_energy_pJ")) * units::pJ;
  if (const auto b = node["bandwidth_words_per_cycle"]) level.bandwidth = r.positive(b, YamlReader::join(field, "bandwidth_words_per_cycle"));
  if (const auto f = node["fanout"]) {
    const auto ff = YamlReader::join(field, "fanout");
    if (!f.IsSequence() || f.size() != 2) r.fail(f, ff, "expected [x, y]");
    level.fanout_x = r.count(f[0], YamlReader::index(ff, 0)), level.fanout_y = r.count(f[1], YamlReader::index(ff, 1));
  }
  if (const auto m = node["multicast"]) level.multicast = r.boolean(m, YamlReader::join(field, "multicast"));
  return level;
}

}  // namespace detail

/// An architecture from YAML text; `file` names it in errors.
inline Architecture parse_architecture(std::string_view text, const std::string& file = "<yaml>") {
  const detail::YamlReader r(file);
  const auto root = r.parse(text);
  r.keys(root, "", {"name", "clock_MHz", "mac_energy_pJ", "levels"});
  Architecture a;
  a.name = r.scalar(r.required(root, "name", ""), "name");
  a.clock = r.positive(r.required(root, "clock_MHz", ""), "clock_MHz") * units::MHz;
  a.mac_energy = r.positive(r.required(root, "mac_energy_pJ", ""), "mac_energy_pJ") * units::pJ;
  const auto levels = r.required(root, "levels", "");
  if (!levels.IsSequence() || levels.size() == 0) r.fail(levels, "levels", "expected a list of storage levels, innermost first");
  for (std::size_t i = 0; i < levels.size(); ++i) a.levels.push_back(detail::parse_level(r, levels[i], detail::YamlReader::index("levels", i)));
  try {
    a.validate();
  } catch (const loopnest_error& e) {  // at the level it names
    for (std::size_t i = 0; i < a.levels.size(); ++i)
      if (a.levels[i].name == e.element) r.fail(levels[i], detail::YamlReader::index("levels", i), e.what());
    r.fail(root, "", e.what());
  }
  return a;
}

/// A network from YAML text: `name`, and `layers`, each with `name`, the
/// extents K, C, P, Q (N, R, S default to 1), `stride` (or `stride_h`,
/// `stride_w`; default 1) and `repeat` (default 1).
inline Network parse_network(std::string_view text, const std::string& file = "<yaml>") {
  const detail::YamlReader r(file);
  const auto root = r.parse(text);
  r.keys(root, "", {"name", "layers"});
  Network n;
  n.name = r.scalar(r.required(root, "name", ""), "name");
  const auto layers = r.required(root, "layers", "");
  if (!layers.IsSequence() || layers.size() == 0) r.fail(layers, "layers", "expected a list of layers");
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const auto& node = layers[i];
    const auto field = detail::YamlReader::index("layers", i);
    r.keys(node, field, {"name", "N", "K", "C", "P", "Q", "R", "S", "stride", "stride_h", "stride_w", "repeat"});
    Workload w;
    w.name = r.scalar(r.required(node, "name", field), detail::YamlReader::join(field, "name"));
    for (Dim d : all_dims) {
      const std::string key(name(d));
      const auto v = node[key];
      if (!v && (d == Dim::N || d == Dim::R || d == Dim::S)) continue;
      at(w.extent, d) = r.count(v ? v : r.required(node, key.c_str(), field), detail::YamlReader::join(field, key));
    }
    if (const auto s = node["stride"]) w.stride_h = w.stride_w = r.count(s, detail::YamlReader::join(field, "stride"));
    if (const auto s = node["stride_h"]) w.stride_h = r.count(s, detail::YamlReader::join(field, "stride_h"));
    if (const auto s = node["stride_w"]) w.stride_w = r.count(s, detail::YamlReader::join(field, "stride_w"));
    n.repeat.push_back(node["repeat"] ? r.count(node["repeat"], detail::YamlReader::join(field, "repeat")) : 1);
    n.layers.push_back(std::move(w));
  }
  return n;
}

namespace detail {
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::parse_error(path, 0, 0, "", "cannot open the file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace detail

inline Architecture load_architecture(const std::string& path) { return parse_architecture(detail::read_text(path), path); }
inline Network load_network(const std::string& path) { return parse_network(detail::read_text(path), path); }

}  // namespace ychart::mapping
