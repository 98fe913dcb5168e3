// ychart/io/json_fields.hpp
// Checks shared by the JSON loaders: an error at a value (file, line,
// column, path), a model_error a library call throws placed at the value it
// came from, objects whose unknown keys are errors (keys starting with
// "_" are comments), and numbers that must be positive or not negative.
#pragma once

#include "../config.hpp"
#include "../error.hpp"
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

/// Runs `step` (a library call that builds or checks what `v` describes)
/// and returns what it returns; a model_error it throws becomes a
/// parse_error at `v` with the same message, without the "ychart: " prefix.
template <class Step>
decltype(auto) placed_at(const JsonValue& v, Step&& step) {
  try {
    return step();
  } catch (const ychart::model_error& e) {
    constexpr std::string_view prefix = "ychart: ";
    std::string_view message = e.what();
    if (message.substr(0, prefix.size()) == prefix) message.remove_prefix(prefix.size());
    fail_at(v, std::string(message));
  }
}

YCHART_DECL void check_keys(const JsonValue& object, std::initializer_list<std::string_view> known);

YCHART_DECL double positive(const JsonValue& object, std::string_view key);

YCHART_DECL double non_negative(const JsonValue& v);

/// The key's value, which must not be negative, or `fallback` when the
/// object has no such key.
YCHART_DECL double non_negative_or(const JsonValue& object, std::string_view key, double fallback);

}  // namespace ychart::io

#if YCHART_HEADER_ONLY
#include "impl/json_fields.ipp"
#endif
