// ychart/io/json.hpp
// JSON in and out, through nlohmann-json. JsonValue is a parsed document
// (RFC 8259, strictly: no comments, trailing commas, NaN, leading zeros or
// text after the value; duplicate keys are errors too). Every value
// remembers its file, line, column and path (`kernels[3].dsp`), so a typed
// getter asked for the wrong type, or at() for a missing field, throws a
// parse_error that says where to look. JsonWriter writes pretty-printed JSON
// (2-space indent) for result files; doubles round-trip exactly and
// non-finite ones are written as null.
//
// nlohmann-json parses (its SAX interface) and writes, in impl/json.ipp
// only: a program that reads or writes JSON does not compile nlohmann's
// headers when ychart is compiled once. It keeps no source positions, so the parser is fed through an iterator that counts the bytes
// read, and each SAX event maps the end of its token back to a line and a
// column.
#pragma once

#include "../config.hpp"
#include "file.hpp"
#include "parse_error.hpp"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ychart::io {

namespace detail {
class JsonParser;
}

class JsonValue {
 public:
  enum class Kind { null, boolean, number, string, array, object };
  using Member = std::pair<std::string, JsonValue>;

  /// A null value that comes from no document.
  JsonValue() = default;

  /// Parses a whole document; `source_name` is the file name used in errors.
  static JsonValue parse(std::string_view text, std::string source_name);

  /// Reads and parses a file; parse_error naming the file if it cannot be read.
  static JsonValue read(const std::filesystem::path& path) { return parse(read_text_file(path), path.string()); }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::null; }
  bool is_bool() const { return kind_ == Kind::boolean; }
  bool is_number() const { return kind_ == Kind::number; }
  bool is_string() const { return kind_ == Kind::string; }
  bool is_array() const { return kind_ == Kind::array; }
  bool is_object() const { return kind_ == Kind::object; }

  /// Where the value starts (1-based) and in which document.
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& source_name() const {
    static const std::string none;
    return source_ ? *source_ : none;
  }
  /// "" for the root, otherwise like `kernels[3].dsp`.
  const std::string& path() const { return path_; }

  /// The member `key` of an object; parse_error "missing field" if absent.
  const JsonValue& at(std::string_view key) const {
    if (const JsonValue* member = find(key)) return *member;
    throw parse_error(source_name(), line_, column_, path_, "missing field \"" + std::string(key) + "\"");
  }

  /// The member `key` of an object, or nullptr (optional fields); a
  /// parse_error if this is not an object.
  const JsonValue* find(std::string_view key) const {
    require(Kind::object);
    for (const Member& member : members_)
      if (member.first == key) return &member.second;
    return nullptr;
  }

  const JsonValue& at(std::size_t index) const {
    require(Kind::array);
    if (index >= elements_.size())
      throw parse_error(source_name(), line_, column_, path_,
                        "index " + std::to_string(index) + " out of range (the array has " +
                            std::to_string(elements_.size()) + " elements)");
    return elements_[index];
  }

  /// Elements of an array or members of an object.
  std::size_t size() const {
    if (kind_ == Kind::array) return elements_.size();
    if (kind_ == Kind::object) return members_.size();
    type_error("an array or an object");
  }

  /// Members of an object in document order.
  const std::vector<Member>& items() const {
    require(Kind::object);
    return members_;
  }

  const std::vector<JsonValue>& elements() const {
    require(Kind::array);
    return elements_;
  }

  double number() const {
    require(Kind::number);
    return number_;
  }

  /// A number with an integral value that fits a long ("3", "-2", "1e3").
  long integer() const {
    require(Kind::number);
    const bool plain_integer = text_.find_first_of(".eE") == std::string::npos;
    if (plain_integer) {
      long value = 0;
      const auto [end, ec] = std::from_chars(text_.data(), text_.data() + text_.size(), value);
      if (ec == std::errc{} && end == text_.data() + text_.size()) return value;
    } else {
      // -2^63 and 2^63 (for a 64-bit long) are exact doubles; the range is half-open.
      const double lowest = static_cast<double>(std::numeric_limits<long>::min());
      if (number_ == std::trunc(number_) && number_ >= lowest && number_ < -lowest) return static_cast<long>(number_);
    }
    throw parse_error(source_name(), line_, column_, path_,
                      plain_integer ? "integer " + text_ + " is out of range"
                                    : "expected an integer, found " + text_);
  }

  const std::string& string() const {
    require(Kind::string);
    return text_;
  }

  bool boolean() const {
    require(Kind::boolean);
    return boolean_;
  }

 private:
  friend class detail::JsonParser;

  void require(Kind expected) const {
    if (kind_ != expected) type_error(article_name(expected));
  }

  [[noreturn]] void type_error(const std::string& expected) const {
    throw parse_error(source_name(), line_, column_, path_, "expected " + expected + ", found " + describe());
  }

  static std::string article_name(Kind kind) {
    switch (kind) {
      case Kind::null: return "null";
      case Kind::boolean: return "true or false";
      case Kind::number: return "a number";
      case Kind::string: return "a string";
      case Kind::array: return "an array";
      case Kind::object: return "an object";
    }
    return "?";
  }

  std::string describe() const {
    switch (kind_) {
      case Kind::null: return "null";
      case Kind::boolean: return boolean_ ? "true" : "false";
      case Kind::number: return "the number " + text_;
      case Kind::string: {
        if (text_.size() <= 40) return "the string \"" + text_ + "\"";
        std::size_t cut = 40;
        while (cut > 0 && (static_cast<unsigned char>(text_[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
        return "the string \"" + text_.substr(0, cut) + "...\"";
      }
      case Kind::array: return "an array";
      case Kind::object: return "an object";
    }
    return "?";
  }

  Kind kind_ = Kind::null;
  bool boolean_ = false;
  double number_ = 0;
  std::string text_;  // a string's value, or a number's literal (integer() reads it exactly)
  std::vector<JsonValue> elements_;
  std::vector<Member> members_;
  std::shared_ptr<const std::string> source_;
  std::string path_;
  int line_ = 0;
  int column_ = 0;
};

/// Writes pretty-printed JSON through nlohmann-json, once the top-level value
/// is complete. Calls must nest properly: inside an object every value
/// follows a key(); misuse throws std::logic_error.
class JsonWriter {
 public:
  YCHART_DECL explicit JsonWriter(std::ostream& out);
  YCHART_DECL ~JsonWriter();
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  YCHART_DECL JsonWriter& begin_object();
  YCHART_DECL JsonWriter& end_object();
  YCHART_DECL JsonWriter& begin_array();
  YCHART_DECL JsonWriter& end_array();

  YCHART_DECL JsonWriter& key(std::string_view name);

  /// Shortest text that reads back as the same double; NaN and infinities as null.
  YCHART_DECL JsonWriter& value(double number);
  JsonWriter& value(int number) { return value(static_cast<long long>(number)); }
  JsonWriter& value(long number) { return value(static_cast<long long>(number)); }
  YCHART_DECL JsonWriter& value(long long number);
  JsonWriter& value(unsigned number) { return value(static_cast<unsigned long long>(number)); }
  JsonWriter& value(unsigned long number) { return value(static_cast<unsigned long long>(number)); }
  YCHART_DECL JsonWriter& value(unsigned long long number);
  YCHART_DECL JsonWriter& value(bool flag);
  YCHART_DECL JsonWriter& value(std::string_view text);
  /// Without it a string literal would pick value(bool).
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  YCHART_DECL JsonWriter& value(std::nullptr_t);

  /// True once one top-level value is written and every container closed.
  YCHART_DECL bool complete() const;

 private:
  struct State;  // the open containers, as nlohmann-json values (impl/json.ipp)
  std::unique_ptr<State> state_;
};

}  // namespace ychart::io

#if YCHART_HEADER_ONLY
#include "impl/json.ipp"
#endif
