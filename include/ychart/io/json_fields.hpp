// ychart/io/json_fields.hpp
// Checks shared by the JSON loaders: an error at a value (file, line,
// column, path), objects whose unknown keys are errors (keys starting with
// "_" are comments), and numbers that must be positive or not negative.
#pragma once

#include "json.hpp"
#include "parse_error.hpp"

#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>

namespace ychart::io {

[[noreturn]] inline void fail_at(const JsonValue& v, const std::string& message) {
  throw parse_error(v.source_name(), v.line(), v.column(), v.path(), message);
}

inline void check_keys(const JsonValue& object, std::initializer_list<std::string_view> known) {
  if (!object.is_object()) fail_at(object, "must be an object");
  for (const auto& [key, value] : object.items()) {
    if (!key.empty() && key.front() == '_') continue;
    bool ok = false;
    std::string list;
    for (auto k : known) ok = ok || k == key, list += (list.empty() ? "" : ", ") + std::string(k);
    if (!ok) fail_at(value, "unknown key (known here: " + list + ")");
  }
}

inline double positive(const JsonValue& object, std::string_view key) {
  const auto& v = object.at(key);
  const double x = v.number();
  if (!(x > 0) || !std::isfinite(x)) fail_at(v, "must be positive");
  return x;
}

inline double non_negative(const JsonValue& v) {
  const double x = v.number();
  if (!(x >= 0) || !std::isfinite(x)) fail_at(v, "must not be negative");
  return x;
}

}  // namespace ychart::io
