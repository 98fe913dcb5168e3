// ychart/io/impl/json.ipp
// The implementation of ychart/io/json.hpp: the positions-keeping parser on
// nlohmann-json's SAX interface, and JsonWriter's state (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../json.hpp"

#include <nlohmann/json.hpp>

namespace ychart::io {

namespace detail {

inline bool is_identifier_key(std::string_view key) {
  if (key.empty() || (key.front() >= '0' && key.front() <= '9')) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

/// `parent.key`, or `parent["odd key"]` when the key is not an identifier.
inline std::string member_path(const std::string& parent, std::string_view key) {
  if (is_identifier_key(key)) return parent.empty() ? std::string(key) : parent + "." + std::string(key);
  std::string quoted = parent + "[\"";
  for (char c : key) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"]";
}

/// A char iterator that records how many bytes nlohmann's lexer has taken.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, const char* begin, std::size_t* consumed)
      : at_(at), begin_(begin), consumed_(consumed) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    *consumed_ = static_cast<std::size_t>(at_ - begin_);
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const CountingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  const char* begin_;
  std::size_t* consumed_;
};

/// Builds a JsonValue from nlohmann-json's SAX events. When an event fires,
/// the lexer has read its token and, after a number, one byte more; the
/// token's first byte is found by walking back over it.
class JsonParser {
 public:
  /// Deep enough for any configuration, shallow enough for the recursive
  /// destructor of JsonValue.
  static constexpr int max_depth = 512;

  using json = nlohmann::json;
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  JsonParser(std::string_view text, std::string source_name)
      : text_(text), source_(std::make_shared<const std::string>(std::move(source_name))) {
    // RFC 8259 lets a parser ignore a byte order mark; nlohmann skips it, and
    // columns start after it.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") scanned_ = 3;
  }

  JsonValue run() {
    if (text_.find_first_not_of(" \t\r\n", scanned_) == std::string_view::npos)
      fail_at(text_.size(), "", "empty document (expected a JSON value)");
    const CountingIterator first(text_.data(), text_.data(), &consumed_);
    const CountingIterator last(text_.data() + text_.size(), text_.data(), &consumed_);
    json::sax_parse(first, last, this, nlohmann::detail::input_format_t::json, /*strict=*/true,
                    /*ignore_comments=*/false);
    return std::move(root_);
  }

  // ---- nlohmann-json's SAX interface ----
  bool null() { return scalar(JsonValue::Kind::null, token_start_of_word()); }
  bool boolean(bool value) {
    JsonValue v = make(JsonValue::Kind::boolean, token_start_of_word());
    v.boolean_ = value;
    return attach(std::move(v));
  }
  bool number_integer(number_integer_t) { return number(); }
  bool number_unsigned(number_unsigned_t) { return number(); }
  bool number_float(number_float_t value, const string_t&) { return number(value); }
  bool string(string_t& value) {
    JsonValue v = make(JsonValue::Kind::string, token_start_of_string());
    v.text_ = std::move(value);
    return attach(std::move(v));
  }
  bool binary(binary_t&) { return true; }  // JSON text has no binary values
  bool start_object(std::size_t) { return open(JsonValue::Kind::object); }
  bool start_array(std::size_t) { return open(JsonValue::Kind::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(string_t& name) {
    const std::size_t start = token_start_of_string();
    Frame& frame = stack_.back();
    const Position at = position(start);
    const auto [first, inserted] = frame.key_lines.emplace(name, at.line);
    if (!inserted)
      fail_at(start, frame.value.path_,
              "duplicate key \"" + name + "\" (first at line " + std::to_string(first->second) + ")");
    frame.key = std::move(name);
    frame.key_pending = true;
    return true;
  }
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) {
    // `position` counts the bytes read, the offending one included.
    std::size_t at = std::min(position > 0 ? position - 1 : 0, text_.size());
    std::string path = child_path();
    std::string message = e.what();
    if (const auto bracket = message.find("] "); message.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
      message.erase(0, bracket + 2);
    // nlohmann's location is left out: ours counts characters, not bytes.
    if (message.rfind("parse error", 0) == 0)
      if (const auto colon = message.find(": "); colon != std::string::npos) message.erase(0, colon + 2);

    // Hints for the usual mistakes, in the user's words.
    const char here = at < text_.size() ? text_[at] : '\0';
    std::size_t before = at;
    while (before > 0 && std::string_view(" \t\r\n").find(text_[before - 1]) != std::string_view::npos) --before;
    const std::size_t token_start = position >= last_token.size() ? position - last_token.size() : 0;
    if (e.id == 406) {  // number overflow: point at the number
      while (at > 0 && is_number_char(text_[at - 1])) --at;
      if (at < text_.size() && !is_number_char(text_[at])) ++at;
      message = "number " + std::string(text_.substr(at, number_end(at) - at)) + " is out of range (" + message + ")";
    } else if (token_start > 0 && token_start < text_.size() && is_number_char(text_[token_start]) &&
               text_[token_start - 1] == '0' &&
               (token_start == 1 || !is_number_char(text_[token_start - 2]) || text_[token_start - 2] == '-')) {
      at = token_start - 1;
      if (at > 0 && text_[at - 1] == '-') --at;
      path = last_path_;
      message = "numbers cannot have leading zeros (" + message + ")";
    } else if ((here == ']' || here == '}') && before > 0 && text_[before - 1] == ',') {
      message = "trailing comma before '" + std::string(1, here) + "' (" + message + ")";
    } else if (here == '/') {
      message = "comments are not allowed in JSON (" + message + ")";
    } else if (here == 'N' || here == 'I') {
      message = "NaN and Infinity are not JSON numbers (" + message + ")";
    } else if (message.find("; expected end of input") != std::string::npos) {
      path.clear();
      message = "unexpected text after the JSON value (" + message + ")";
    }
    fail_at(at, path, message);
  }

 private:
  struct Position {
    int line;
    int column;
  };
  struct Frame {
    JsonValue value;
    std::string key;
    bool key_pending = false;
    std::unordered_map<std::string, int> key_lines;  // key -> line, to report duplicates
  };

  [[noreturn]] void fail_at(std::size_t offset, const std::string& path, const std::string& what) {
    const Position at = position(offset);
    throw ychart::io::parse_error(*source_, at.line, at.column, path, what);
  }

  /// Line and column (characters, 1-based) of a byte offset; offsets come in
  /// document order, so the scan only moves forward.
  Position position(std::size_t offset) {
    offset = std::min(offset, text_.size());
    if (offset < scanned_) {  // an error before the last event's token: rescan
      scanned_ = text_.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
      line_ = 1;
      column_ = 1;
    }
    for (; scanned_ < offset; ++scanned_) {
      const char c = text_[scanned_];
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
        ++column_;  // UTF-8 continuation bytes do not move the column
      }
    }
    return {line_, column_};
  }

  std::size_t last_read() const { return consumed_ > 0 ? consumed_ - 1 : 0; }
  static bool is_word_char(char c) { return c >= 'a' && c <= 'z'; }
  static bool is_number_char(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  }
  std::size_t token_start_of_word() const {
    std::size_t start = last_read();
    while (start > 0 && is_word_char(text_[start - 1])) --start;
    return start;
  }
  std::size_t token_start_of_string() const {
    std::size_t start = last_read();  // the closing quote
    while (start > 0) {
      --start;
      if (text_[start] != '"') continue;
      std::size_t slashes = 0;
      while (start - slashes > 0 && text_[start - slashes - 1] == '\\') ++slashes;
      if (slashes % 2 == 0) break;
    }
    return start;
  }
  /// [start, end) of the number just read: the lexer read one byte past it,
  /// unless it ended the input.
  std::pair<std::size_t, std::size_t> number_span() const {
    std::size_t end = consumed_;
    if (end > 0 && (end < text_.size() || !is_number_char(text_[end - 1]))) --end;
    if (end == text_.size() && end > 0 && !is_number_char(text_[end - 1])) --end;
    std::size_t start = end;
    while (start > 0 && is_number_char(text_[start - 1])) --start;
    return {start, end};
  }

  std::size_t number_end(std::size_t start) const {
    while (start < text_.size() && is_number_char(text_[start])) ++start;
    return start;
  }

  bool number(double value = std::numeric_limits<double>::quiet_NaN()) {
    const auto [start, end] = number_span();
    JsonValue v = make(JsonValue::Kind::number, start);
    v.text_ = std::string(text_.substr(start, end - start));
    if (std::isnan(value)) {  // an integer literal: read as a double, keeping -0
      const auto [ptr, ec] = std::from_chars(v.text_.data(), v.text_.data() + v.text_.size(), value);
      (void)ptr;
      if (ec != std::errc{}) value = std::strtod(v.text_.c_str(), nullptr);
    }
    v.number_ = value;
    return attach(std::move(v));
  }

  std::string child_path() const {
    if (stack_.empty()) return "";
    const Frame& frame = stack_.back();
    if (frame.value.kind_ == JsonValue::Kind::object)
      return frame.key_pending ? member_path(frame.value.path_, frame.key) : frame.value.path_;
    return frame.value.path_ + "[" + std::to_string(frame.value.elements_.size()) + "]";
  }

  JsonValue make(JsonValue::Kind kind, std::size_t start) {
    JsonValue value;
    value.kind_ = kind;
    value.source_ = source_;
    value.path_ = child_path();
    const Position at = position(start);
    value.line_ = at.line;
    value.column_ = at.column;
    return value;
  }

  bool scalar(JsonValue::Kind kind, std::size_t start) { return attach(make(kind, start)); }

  bool open(JsonValue::Kind kind) {
    const std::size_t start = last_read();
    if (static_cast<int>(stack_.size()) >= max_depth)
      fail_at(start, child_path(), "nesting deeper than " + std::to_string(max_depth) + " levels");
    stack_.push_back(Frame{make(kind, start), {}, false, {}});
    return true;
  }

  bool close() {
    JsonValue done = std::move(stack_.back().value);
    stack_.pop_back();
    return attach(std::move(done));
  }

  bool attach(JsonValue value) {
    last_path_ = value.path_;
    if (stack_.empty()) {
      root_ = std::move(value);
      return true;
    }
    Frame& frame = stack_.back();
    if (frame.value.kind_ == JsonValue::Kind::object) {
      frame.value.members_.emplace_back(std::move(frame.key), std::move(value));
      frame.key_pending = false;
    } else {
      frame.value.elements_.push_back(std::move(value));
    }
    return true;
  }

  std::string_view text_;
  std::shared_ptr<const std::string> source_;
  std::size_t consumed_ = 0;
  std::size_t scanned_ = 0;
  int line_ = 1;
  int column_ = 1;
  std::vector<Frame> stack_;
  JsonValue root_;
  std::string last_path_;  // of the value attached last (a leading zero's error names it)
};

}  // namespace detail

YCHART_DECL JsonValue JsonValue::parse(std::string_view text, std::string source_name) {
  return detail::JsonParser(text, std::move(source_name)).run();
}

struct JsonWriter::State {
  struct Frame {
    nlohmann::ordered_json value;
    std::optional<std::string> key;  // set between key() and its value
  };

  explicit State(std::ostream& o) : out(o) {}

  void check_value_allowed() const {
    if (stack.empty()) {
      if (root_written) throw std::logic_error("JsonWriter: a second top-level value");
      return;
    }
    const Frame& frame = stack.back();
    if (frame.value.is_object() && !frame.key)
      throw std::logic_error("JsonWriter: a value inside an object needs a key() first");
  }

  void put(nlohmann::ordered_json value) {
    check_value_allowed();
    if (stack.empty()) {
      root_written = true;
      // Strings are written as given; invalid UTF-8 becomes U+FFFD rather
      // than an exception halfway through a result file.
      out << value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
      return;
    }
    Frame& frame = stack.back();
    if (frame.value.is_object()) {
      frame.value[*frame.key] = std::move(value);
      frame.key.reset();
    } else {
      frame.value.push_back(std::move(value));
    }
  }

  void open(nlohmann::ordered_json container) {
    check_value_allowed();
    stack.push_back(Frame{std::move(container), std::nullopt});
  }

  void close(bool is_object) {
    const char* name = is_object ? "end_object()" : "end_array()";
    if (stack.empty() || stack.back().value.is_object() != is_object)
      throw std::logic_error(std::string("JsonWriter: ") + name + " without a matching begin");
    if (stack.back().key) throw std::logic_error(std::string("JsonWriter: ") + name + " after a key without a value");
    nlohmann::ordered_json done = std::move(stack.back().value);
    stack.pop_back();
    put(std::move(done));
  }

  std::ostream& out;
  std::vector<Frame> stack;
  bool root_written = false;
};

YCHART_DECL JsonWriter::JsonWriter(std::ostream& out) : state_(std::make_unique<State>(out)) {}
YCHART_DECL JsonWriter::~JsonWriter() = default;

YCHART_DECL JsonWriter& JsonWriter::begin_object() {
  state_->open(nlohmann::ordered_json::object());
  return *this;
}
YCHART_DECL JsonWriter& JsonWriter::end_object() {
  state_->close(true);
  return *this;
}
YCHART_DECL JsonWriter& JsonWriter::begin_array() {
  state_->open(nlohmann::ordered_json::array());
  return *this;
}
YCHART_DECL JsonWriter& JsonWriter::end_array() {
  state_->close(false);
  return *this;
}

YCHART_DECL JsonWriter& JsonWriter::key(std::string_view name) {
  auto& stack = state_->stack;
  if (stack.empty() || !stack.back().value.is_object()) throw std::logic_error("JsonWriter: key() outside an object");
  State::Frame& frame = stack.back();
  if (frame.key) throw std::logic_error("JsonWriter: key(\"" + std::string(name) + "\") right after another key");
  if (frame.value.contains(name)) throw std::logic_error("JsonWriter: duplicate key \"" + std::string(name) + "\"");
  frame.key = std::string(name);
  return *this;
}

YCHART_DECL JsonWriter& JsonWriter::value(double number) {
  if (std::isfinite(number)) state_->put(number);
  else state_->put(nullptr);
  return *this;
}
YCHART_DECL JsonWriter& JsonWriter::value(long long number) {
  state_->put(number);
  return *this;
}
YCHART_DECL JsonWriter& JsonWriter::value(unsigned long long number) {
  state_->put(number);
  return *this;
}
YCHART_DECL JsonWriter& JsonWriter::value(bool flag) {
  state_->put(flag);
  return *this;
}
YCHART_DECL JsonWriter& JsonWriter::value(std::string_view text) {
  state_->put(std::string(text));
  return *this;
}
YCHART_DECL JsonWriter& JsonWriter::value(std::nullptr_t) {
  state_->put(nullptr);
  return *this;
}

YCHART_DECL bool JsonWriter::complete() const { return state_->root_written && state_->stack.empty(); }

}  // namespace ychart::io
