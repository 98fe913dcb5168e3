// ychart/io/json.hpp
// JSON in and out. JsonValue is a parsed document (RFC 8259, strictly: no
// comments, trailing commas, NaN, leading zeros or text after the value).
// Every value remembers its file, line, column and path (`kernels[3].dsp`),
// so a typed getter asked for the wrong type, or at() for a missing field,
// throws a parse_error that says where to look. JsonWriter streams
// pretty-printed JSON (2-space indent) for result files; doubles round-trip
// exactly and non-finite ones are written as null.
// Hand-written: the project takes no JSON library as a dependency.
#pragma once

#include "file.hpp"
#include "parse_error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <numeric>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
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

namespace detail {

inline bool is_identifier_key(std::string_view key) {
  if (key.empty() || (key.front() >= '0' && key.front() <= '9')) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

/// `kernels` + `dsp` -> `kernels.dsp`; keys that are not identifiers are
/// bracketed: `limits["max II"]`.
inline std::string member_path(const std::string& parent, std::string_view key) {
  if (is_identifier_key(key)) return parent.empty() ? std::string(key) : parent + "." + std::string(key);
  std::string path = parent + "[\"";
  for (char c : key) {
    if (c == '"' || c == '\\') path += '\\';
    path += c;
  }
  return path + "\"]";
}

inline void append_utf8(std::string& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

class JsonParser {
 public:
  /// Deep enough for any configuration, shallow enough not to overflow the stack.
  static constexpr int max_depth = 512;

  JsonParser(std::string_view text, std::string source_name)
      : text_(text), source_(std::make_shared<const std::string>(std::move(source_name))) {}

  JsonValue run() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // RFC 8259 lets a parser ignore a byte order mark
    skip_whitespace();
    if (at_end()) fail("", "empty document (expected a JSON value)");
    JsonValue root = parse_value("", 0);
    skip_whitespace();
    if (!at_end()) fail("", "unexpected " + describe_here() + " after the JSON value");
    return root;
  }

 private:
  struct Position {
    int line;
    int column;
  };

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  Position here() const { return {line_, column_}; }

  void advance() {
    if (peek() == '\n') {
      ++line_;
      column_ = 1;
    } else if ((static_cast<unsigned char>(peek()) & 0xC0) != 0x80) {
      ++column_;  // columns count characters: UTF-8 continuation bytes do not move it
    }
    ++pos_;
  }

  [[noreturn]] void fail(const std::string& path, const std::string& what) const { fail_at(here(), path, what); }
  [[noreturn]] void fail_at(Position at, const std::string& path, const std::string& what) const {
    throw parse_error(*source_, at.line, at.column, path, what);
  }

  std::string describe_here() const {
    if (at_end()) return "end of input";
    const unsigned char c = static_cast<unsigned char>(peek());
    if (c >= 0x21 && c < 0x7F) return std::string("character '") + peek() + "'";
    constexpr char hex[] = "0123456789ABCDEF";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 0xF];
  }

  void skip_whitespace() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) advance();
  }

  JsonValue start_value(JsonValue::Kind kind, const std::string& path) const {
    JsonValue value;
    value.kind_ = kind;
    value.source_ = source_;
    value.path_ = path;
    value.line_ = line_;
    value.column_ = column_;
    return value;
  }

  JsonValue parse_value(const std::string& path, int depth) {
    if (at_end()) fail(path, "unexpected end of input (expected a value)");
    switch (peek()) {
      case '{': return parse_object(path, depth);
      case '[': return parse_array(path, depth);
      case '"': {
        JsonValue value = start_value(JsonValue::Kind::string, path);
        value.text_ = parse_string(path);
        return value;
      }
      case 't': return parse_literal("true", path);
      case 'f': return parse_literal("false", path);
      case 'n': return parse_literal("null", path);
      case '/': fail(path, "comments are not allowed in JSON");
      case '\'': fail(path, "strings must be in double quotes");
      case 'N':
      case 'I': fail(path, "NaN and Infinity are not JSON numbers");
      default: break;
    }
    if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return parse_number(path);
    fail(path, "unexpected " + describe_here() + " (expected a value)");
  }

  JsonValue parse_literal(std::string_view word, const std::string& path) {
    JsonValue value = start_value(word == "null" ? JsonValue::Kind::null : JsonValue::Kind::boolean, path);
    if (text_.substr(pos_, word.size()) != word) fail(path, "invalid literal (expected " + std::string(word) + ")");
    for (std::size_t i = 0; i < word.size(); ++i) advance();
    value.boolean_ = word == "true";
    return value;
  }

  bool at_digit() const { return !at_end() && peek() >= '0' && peek() <= '9'; }

  JsonValue parse_number(const std::string& path) {
    JsonValue value = start_value(JsonValue::Kind::number, path);
    const Position start = here();
    const std::size_t first = pos_;
    if (peek() == '-') advance();
    if (!at_end() && (peek() == 'I' || peek() == 'N')) fail(path, "NaN and Infinity are not JSON numbers");
    if (!at_digit()) fail(path, "expected a digit after '-'");
    if (peek() == '0') {
      advance();
      if (at_digit()) fail_at(start, path, "leading zeros are not allowed in JSON numbers");
    } else {
      while (at_digit()) advance();
    }
    if (!at_end() && peek() == '.') {
      advance();
      if (!at_digit()) fail(path, "expected a digit after the decimal point");
      while (at_digit()) advance();
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      advance();
      if (!at_end() && (peek() == '+' || peek() == '-')) advance();
      if (!at_digit()) fail(path, "expected a digit in the exponent");
      while (at_digit()) advance();
    }
    value.text_ = std::string(text_.substr(first, pos_ - first));
    const char* begin = value.text_.data();
    const char* end = begin + value.text_.size();
    const auto [stop, ec] = std::from_chars(begin, end, value.number_);
    if (ec == std::errc::result_out_of_range) {
      if (decimal_magnitude(value.text_) >= 0) fail_at(start, path, "number " + value.text_ + " is out of range");
      value.number_ = value.text_.front() == '-' ? -0.0 : 0.0;  // underflow: as close to zero as a double gets
    } else if (ec != std::errc{} || stop != end) {
      fail_at(start, path, "invalid number " + value.text_);
    }
    return value;
  }

  /// The power of ten of the leading digit of a grammatical JSON number
  /// (0 for "3e0"); negative means an out-of-range literal underflows.
  static long decimal_magnitude(std::string_view literal) {
    std::size_t i = literal.front() == '-' ? 1 : 0;
    long magnitude = 0;
    bool found = false;
    for (; i < literal.size() && literal[i] != '.' && literal[i] != 'e' && literal[i] != 'E'; ++i) {
      if (found) ++magnitude;
      else if (literal[i] != '0') found = true;
    }
    if (i < literal.size() && literal[i] == '.') {
      for (++i; i < literal.size() && literal[i] != 'e' && literal[i] != 'E'; ++i) {
        if (found) continue;
        --magnitude;
        if (literal[i] != '0') found = true;
      }
    }
    if (i < literal.size()) {
      long exponent = 0;
      const char* begin = literal.data() + i + 1;
      if (*begin == '+') ++begin;
      const auto [stop, ec] = std::from_chars(begin, literal.data() + literal.size(), exponent);
      if (ec == std::errc::result_out_of_range) exponent = *begin == '-' ? -1000000 : 1000000;
      (void)stop;
      magnitude += std::clamp(exponent, -1000000L, 1000000L);
    }
    return magnitude;
  }

  unsigned read_hex4(Position escape_start, const std::string& path) {
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      if (at_end()) fail_at(escape_start, path, "\\u must be followed by four hex digits");
      const char c = peek();
      unsigned digit;
      if (c >= '0' && c <= '9') digit = unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') digit = unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') digit = unsigned(c - 'A' + 10);
      else fail_at(escape_start, path, "\\u must be followed by four hex digits");
      code = code * 16 + digit;
      advance();
    }
    return code;
  }

  /// Copies one UTF-8 encoded character, rejecting malformed sequences
  /// (RFC 8259 documents are UTF-8).
  void copy_utf8_character(std::string& out, const std::string& path) {
    const Position start = here();
    const auto lead = static_cast<unsigned char>(peek());
    int continuation_bytes;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) continuation_bytes = 1;
    else if (lead >= 0xE0 && lead <= 0xEF) {
      continuation_bytes = 2;
      if (lead == 0xE0) low = 0xA0;   // overlong
      if (lead == 0xED) high = 0x9F;  // UTF-16 surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      continuation_bytes = 3;
      if (lead == 0xF0) low = 0x90;   // overlong
      if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
    } else {
      fail_at(start, path, "invalid UTF-8 in a string");
    }
    out += peek();
    advance();
    for (int i = 0; i < continuation_bytes; ++i) {
      const auto byte = at_end() ? 0 : static_cast<unsigned char>(peek());
      if (byte < (i == 0 ? low : 0x80) || byte > (i == 0 ? high : 0xBF)) fail_at(start, path, "invalid UTF-8 in a string");
      out += peek();
      advance();
    }
  }

  std::string parse_string(const std::string& path) {
    const Position start = here();
    advance();  // opening quote
    std::string out;
    while (true) {
      if (at_end()) fail_at(start, path, "unterminated string");
      const char c = peek();
      if (c == '"') {
        advance();
        return out;
      }
      if (c == '\n' || c == '\r') fail_at(start, path, "unterminated string (a line break inside a string is written \\n)");
      if (static_cast<unsigned char>(c) < 0x20) fail(path, "control character in a string (escape it)");
      if (static_cast<unsigned char>(c) >= 0x80) {
        copy_utf8_character(out, path);
        continue;
      }
      if (c != '\\') {
        out += c;
        advance();
        continue;
      }
      const Position escape_start = here();
      advance();
      if (at_end()) fail_at(start, path, "unterminated string");
      const char escaped = peek();
      advance();
      switch (escaped) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': append_utf8(out, read_unicode_escape(escape_start, path)); break;
        default: {
          const std::string shown = static_cast<unsigned char>(escaped) >= 0x21 && static_cast<unsigned char>(escaped) < 0x7F
                                        ? std::string(1, escaped)
                                        : "?";
          fail_at(escape_start, path, "invalid escape \\" + shown + " in a string");
        }
      }
    }
  }

  /// After "\u": one code point, joining a UTF-16 surrogate pair.
  std::uint32_t read_unicode_escape(Position escape_start, const std::string& path) {
    const unsigned first = read_hex4(escape_start, path);
    if (first >= 0xDC00 && first <= 0xDFFF) fail_at(escape_start, path, "unpaired low surrogate \\u in a string");
    if (first < 0xD800 || first > 0xDBFF) return first;
    const Position second_start = here();
    if (text_.substr(pos_, 2) != "\\u") fail_at(escape_start, path, "unpaired high surrogate \\u in a string");
    advance();
    advance();
    const unsigned second = read_hex4(second_start, path);
    if (second < 0xDC00 || second > 0xDFFF) fail_at(escape_start, path, "unpaired high surrogate \\u in a string");
    return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
  }

  void check_depth(int depth, const std::string& path) const {
    if (depth >= max_depth) fail(path, "nesting deeper than " + std::to_string(max_depth) + " levels");
  }

  JsonValue parse_array(const std::string& path, int depth) {
    check_depth(depth, path);
    JsonValue array = start_value(JsonValue::Kind::array, path);
    advance();  // '['
    skip_whitespace();
    if (!at_end() && peek() == ']') {
      advance();
      return array;
    }
    while (true) {
      const std::string element_path = path + "[" + std::to_string(array.elements_.size()) + "]";
      array.elements_.push_back(parse_value(element_path, depth + 1));
      skip_whitespace();
      if (at_end()) fail_at({array.line_, array.column_}, path, "unterminated array (missing ']')");
      if (peek() == ']') {
        advance();
        return array;
      }
      if (peek() != ',') fail(path, "expected ',' or ']' after an array element, found " + describe_here());
      const Position comma = here();
      advance();
      skip_whitespace();
      if (!at_end() && peek() == ']') fail_at(comma, path, "trailing comma before ']'");
    }
  }

  JsonValue parse_object(const std::string& path, int depth) {
    check_depth(depth, path);
    JsonValue object = start_value(JsonValue::Kind::object, path);
    std::vector<Position> key_positions;
    advance();  // '{'
    skip_whitespace();
    if (!at_end() && peek() == '}') {
      advance();
      return object;
    }
    while (true) {
      if (at_end()) fail_at({object.line_, object.column_}, path, "unterminated object (missing '}')");
      if (peek() != '"') fail(path, "expected a string in double quotes as the key, found " + describe_here());
      key_positions.push_back(here());
      std::string key = parse_string(path);
      skip_whitespace();
      if (at_end() || peek() != ':') fail(path, "expected ':' after the key \"" + key + "\", found " + describe_here());
      advance();
      skip_whitespace();
      std::string value_path = member_path(path, key);
      JsonValue member = parse_value(value_path, depth + 1);
      object.members_.emplace_back(std::move(key), std::move(member));
      skip_whitespace();
      if (at_end()) fail_at({object.line_, object.column_}, path, "unterminated object (missing '}')");
      if (peek() == '}') {
        advance();
        break;
      }
      if (peek() != ',') fail(path, "expected ',' or '}' after an object member, found " + describe_here());
      const Position comma = here();
      advance();
      skip_whitespace();
      if (!at_end() && peek() == '}') fail_at(comma, path, "trailing comma before '}'");
    }
    reject_duplicate_keys(object, key_positions);
    return object;
  }

  /// Sorting instead of a lookup per key keeps large objects O(n log n).
  /// Reports the earliest repeated key, at the repeat, naming the first line.
  void reject_duplicate_keys(const JsonValue& object, const std::vector<Position>& key_positions) const {
    const auto& members = object.members_;
    const auto key = [&](std::size_t i) -> const std::string& { return members[i].first; };
    std::vector<std::size_t> order(members.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // Stable: equal keys stay in document order, so a run starts with the first occurrence.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    std::size_t repeat = members.size();
    std::size_t original = 0;
    for (std::size_t i = 1; i < order.size(); ++i) {
      const bool second_of_run = key(order[i]) == key(order[i - 1]) && (i == 1 || key(order[i - 1]) != key(order[i - 2]));
      if (second_of_run && order[i] < repeat) {
        repeat = order[i];
        original = order[i - 1];
      }
    }
    if (repeat == members.size()) return;
    fail_at(key_positions[repeat], object.path_,
            "duplicate key \"" + key(repeat) + "\" (first at line " + std::to_string(key_positions[original].line) + ")");
  }

  std::string_view text_;
  std::shared_ptr<const std::string> source_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace detail

inline JsonValue JsonValue::parse(std::string_view text, std::string source_name) {
  return detail::JsonParser(text, std::move(source_name)).run();
}

/// Streams pretty-printed JSON. Calls must nest properly: inside an object
/// every value follows a key(); misuse throws std::logic_error.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& begin_object() { return open(true); }
  JsonWriter& end_object() { return close(true); }
  JsonWriter& begin_array() { return open(false); }
  JsonWriter& end_array() { return close(false); }

  JsonWriter& key(std::string_view name) {
    if (stack_.empty() || !stack_.back().is_object) throw std::logic_error("JsonWriter: key() outside an object");
    Frame& frame = stack_.back();
    if (frame.key_pending) throw std::logic_error("JsonWriter: key(\"" + std::string(name) + "\") right after another key");
    if (std::find(frame.keys.begin(), frame.keys.end(), name) != frame.keys.end())
      throw std::logic_error("JsonWriter: duplicate key \"" + std::string(name) + "\"");
    frame.keys.emplace_back(name);
    new_line_in(frame);
    write_string(name);
    out_ << ": ";
    frame.key_pending = true;
    return *this;
  }

  /// Shortest text that reads back as the same double; NaN and infinities as null.
  JsonWriter& value(double number) {
    before_value();
    if (!std::isfinite(number)) {
      out_ << "null";
    } else {
      char buffer[32];
      const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
      out_.write(buffer, result.ptr - buffer);
    }
    return after_value();
  }
  JsonWriter& value(int number) { return integer(number); }
  JsonWriter& value(long number) { return integer(number); }
  JsonWriter& value(long long number) { return integer(number); }
  JsonWriter& value(unsigned number) { return integer(number); }
  JsonWriter& value(unsigned long number) { return integer(number); }
  JsonWriter& value(unsigned long long number) { return integer(number); }
  JsonWriter& value(bool flag) {
    before_value();
    out_ << (flag ? "true" : "false");
    return after_value();
  }
  JsonWriter& value(std::string_view text) {
    before_value();
    write_string(text);
    return after_value();
  }
  /// Without it a string literal would pick value(bool).
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::nullptr_t) {
    before_value();
    out_ << "null";
    return after_value();
  }

  /// True once one top-level value is written and every container closed.
  bool complete() const { return root_written_ && stack_.empty(); }

 private:
  struct Frame {
    bool is_object = false;
    bool empty = true;
    bool key_pending = false;
    std::vector<std::string> keys;
  };

  template <class Integer>
  JsonWriter& integer(Integer number) {
    before_value();
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
    out_.write(buffer, result.ptr - buffer);
    return after_value();
  }

  void indent() {
    for (std::size_t i = 0; i < stack_.size(); ++i) out_ << "  ";
  }

  void new_line_in(Frame& frame) {
    if (!frame.empty) out_ << ',';
    out_ << '\n';
    frame.empty = false;
    indent();
  }

  void before_value() {
    if (stack_.empty()) {
      if (root_written_) throw std::logic_error("JsonWriter: a second top-level value");
      return;
    }
    Frame& frame = stack_.back();
    if (frame.is_object) {
      if (!frame.key_pending) throw std::logic_error("JsonWriter: a value inside an object needs a key() first");
      frame.key_pending = false;
      return;
    }
    new_line_in(frame);
  }

  JsonWriter& after_value() {
    if (stack_.empty()) {
      root_written_ = true;
      out_ << '\n';
    }
    return *this;
  }

  JsonWriter& open(bool is_object) {
    before_value();
    out_ << (is_object ? '{' : '[');
    stack_.emplace_back().is_object = is_object;
    return *this;
  }

  JsonWriter& close(bool is_object) {
    const char* name = is_object ? "end_object()" : "end_array()";
    if (stack_.empty() || stack_.back().is_object != is_object)
      throw std::logic_error(std::string("JsonWriter: ") + name + " without a matching begin");
    if (stack_.back().key_pending) throw std::logic_error(std::string("JsonWriter: ") + name + " after a key without a value");
    const bool was_empty = stack_.back().empty;
    stack_.pop_back();
    if (!was_empty) {
      out_ << '\n';
      indent();
    }
    out_ << (is_object ? '}' : ']');
    return after_value();
  }

  void write_string(std::string_view text) {
    constexpr char hex[] = "0123456789abcdef";
    out_ << '"';
    for (char c : text) {
      switch (c) {
        case '"': out_ << "\\\""; break;
        case '\\': out_ << "\\\\"; break;
        case '\n': out_ << "\\n"; break;
        case '\r': out_ << "\\r"; break;
        case '\t': out_ << "\\t"; break;
        case '\b': out_ << "\\b"; break;
        case '\f': out_ << "\\f"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20)
            out_ << "\\u00" << hex[static_cast<unsigned char>(c) >> 4] << hex[c & 0xF];
          else
            out_ << c;
      }
    }
    out_ << '"';
  }

  std::ostream& out_;
  std::vector<Frame> stack_;
  bool root_written_ = false;
};

}  // namespace ychart::io
