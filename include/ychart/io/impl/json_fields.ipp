// ychart/io/impl/json_fields.ipp
// The implementation of ychart/io/json_fields.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../json_fields.hpp"

namespace ychart::io {

YCHART_DECL void check_keys(const JsonValue& object, std::initializer_list<std::string_view> known) {
  if (!object.is_object()) fail_at(object, "must be an object");
  for (const auto& [key, value] : object.items()) {
    if (!key.empty() && key.front() == '_') continue;
    bool ok = false;
    std::string list;
    for (auto k : known) ok = ok || k == key, list += (list.empty() ? "" : ", ") + std::string(k);
    if (!ok) fail_at(value, "unknown key (known here: " + list + ")");
  }
}

YCHART_DECL double positive(const JsonValue& object, std::string_view key) {
  const auto& v = object.at(key);
  const double x = v.number();
  if (!(x > 0) || !std::isfinite(x)) fail_at(v, "must be positive");
  return x;
}

YCHART_DECL double non_negative(const JsonValue& v) {
  const double x = v.number();
  if (!(x >= 0) || !std::isfinite(x)) fail_at(v, "must not be negative");
  return x;
}

YCHART_DECL double non_negative_or(const JsonValue& object, std::string_view key, double fallback) {
  const auto* v = object.find(key);
  return v ? non_negative(*v) : fallback;
}

}  // namespace ychart::io
