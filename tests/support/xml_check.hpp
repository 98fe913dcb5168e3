// tests/support/xml_check.hpp
// A small strict XML reader for the SVG tests: it accepts only well-formed
// documents (one root, tags properly nested and closed, attribute values
// quoted and unique, no raw '<' or '&' in text or attribute values except the
// predefined and numeric entities) and returns the element tree with
// attribute values and text unescaped, so tests can count and inspect
// elements. check_svg() additionally requires a single <svg> root carrying
// the SVG namespace. Deliberately independent of ychart's own escaping code.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xml_check {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Element {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // in order, values unescaped
  std::vector<Element> children;
  std::string text;  // character data directly inside, unescaped

  const std::string* attribute(std::string_view attribute_name) const {
    for (const auto& [key, value] : attributes)
      if (key == attribute_name) return &value;
    return nullptr;
  }
  std::string attribute_or(std::string_view attribute_name, std::string fallback = "") const {
    const std::string* value = attribute(attribute_name);
    return value ? *value : fallback;
  }
};

class Reader {
 public:
  explicit Reader(std::string_view document) : text_(document) {}

  Element read_document() {
    if (text_.substr(0, 5) == "<?xml") {
      const std::size_t end = text_.find("?>");
      if (end == std::string_view::npos) fail("unterminated XML declaration");
      move_to(end + 2);
    }
    skip_misc();
    if (at_end() || peek() != '<') fail("expected the root element");
    Element root = read_element();
    skip_misc();
    if (!at_end()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(std::to_string(line_) + ":" + std::to_string(column_) + ": " + what);
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  bool starts_with(std::string_view prefix) const { return text_.substr(pos_, prefix.size()) == prefix; }
  void advance() {
    if (peek() == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }
  void move_to(std::size_t position) {
    while (pos_ < position) advance();
  }
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  void skip_spaces() {
    while (!at_end() && is_space(peek())) advance();
  }

  /// Whitespace and comments, allowed around the root element.
  void skip_misc() {
    while (true) {
      skip_spaces();
      if (starts_with("<!--")) {
        skip_comment();
        continue;
      }
      return;
    }
  }

  void skip_comment() {
    const std::size_t end = text_.find("-->", pos_ + 4);
    if (end == std::string_view::npos) fail("unterminated comment");
    if (text_.substr(pos_ + 4, end - pos_ - 4).find("--") != std::string_view::npos) fail("'--' inside a comment");
    move_to(end + 3);
  }

  static bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
  }
  static bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

  std::string read_name() {
    if (at_end() || !is_name_start(peek())) fail("expected a name");
    std::string name;
    while (!at_end() && is_name_char(peek())) {
      name += peek();
      advance();
    }
    return name;
  }

  /// At '&': one predefined or numeric entity, appended unescaped.
  void read_entity(std::string& out) {
    const std::size_t end = text_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 10) fail("'&' that does not start an entity");
    const std::string_view entity = text_.substr(pos_ + 1, end - pos_ - 1);
    if (entity == "amp") out += '&';
    else if (entity == "lt") out += '<';
    else if (entity == "gt") out += '>';
    else if (entity == "quot") out += '"';
    else if (entity == "apos") out += '\'';
    else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x';
      const std::string_view digits = entity.substr(hex ? 2 : 1);
      if (digits.empty()) fail("empty character reference");
      for (char c : digits) {
        const bool ok = (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
        if (!ok) fail("bad character reference &" + std::string(entity) + ";");
      }
      out += '?';  // the tests never look at these characters
    } else {
      fail("unknown entity &" + std::string(entity) + ";");
    }
    move_to(end + 1);
  }

  Element read_element() {
    advance();  // '<'
    Element element;
    element.name = read_name();
    while (true) {
      const bool had_space = !at_end() && is_space(peek());
      skip_spaces();
      if (at_end()) fail("unterminated start tag <" + element.name);
      if (starts_with("/>")) {
        move_to(pos_ + 2);
        return element;
      }
      if (peek() == '>') {
        advance();
        break;
      }
      if (!had_space) fail("attributes must be separated by whitespace in <" + element.name + ">");
      std::string key = read_name();
      if (element.attribute(key)) fail("duplicate attribute " + key + " in <" + element.name + ">");
      skip_spaces();
      if (at_end() || peek() != '=') fail("expected '=' after attribute " + key);
      advance();
      skip_spaces();
      if (at_end() || (peek() != '"' && peek() != '\'')) fail("attribute " + key + " is not quoted");
      const char quote = peek();
      advance();
      std::string value;
      while (true) {
        if (at_end()) fail("unterminated attribute value " + key);
        const char c = peek();
        if (c == quote) break;
        if (c == '<') fail("raw '<' in attribute " + key);
        if (c == '&') {
          read_entity(value);
          continue;
        }
        value += c;
        advance();
      }
      advance();  // closing quote
      element.attributes.emplace_back(std::move(key), std::move(value));
    }
    // Content until the matching end tag.
    while (true) {
      if (at_end()) fail("element <" + element.name + "> is not closed");
      if (starts_with("</")) {
        move_to(pos_ + 2);
        const std::string closing = read_name();
        if (closing != element.name) fail("</" + closing + "> closes <" + element.name + ">");
        skip_spaces();
        if (at_end() || peek() != '>') fail("expected '>' in end tag");
        advance();
        return element;
      }
      if (starts_with("<!--")) {
        skip_comment();
        continue;
      }
      if (starts_with("<!") || starts_with("<?")) fail("declarations, CDATA and processing instructions are not expected");
      if (peek() == '<') {
        element.children.push_back(read_element());
        continue;
      }
      if (peek() == '&') {
        read_entity(element.text);
        continue;
      }
      if (starts_with("]]>")) fail("']]>' in text");
      element.text += peek();
      advance();
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

/// The element tree of a well-formed document; throws Error("line:col: ...").
inline Element parse(std::string_view document) { return Reader(document).read_document(); }

/// parse() plus: the root is <svg> in the SVG namespace.
inline Element check_svg(std::string_view document) {
  Element root = parse(document);
  if (root.name != "svg") throw Error("the root element is <" + root.name + ">, not <svg>");
  if (root.attribute_or("xmlns") != "http://www.w3.org/2000/svg") throw Error("<svg> lacks xmlns=\"http://www.w3.org/2000/svg\"");
  return root;
}

inline void collect(const Element& element, const std::function<bool(const Element&)>& wanted,
                    std::vector<const Element*>& found) {
  if (wanted(element)) found.push_back(&element);
  for (const Element& child : element.children) collect(child, wanted, found);
}

/// Every element (root included) for which `wanted` holds, in document order.
inline std::vector<const Element*> find_all(const Element& root, const std::function<bool(const Element&)>& wanted) {
  std::vector<const Element*> found;
  collect(root, wanted, found);
  return found;
}

/// Elements whose class attribute is exactly `class_name`.
inline std::vector<const Element*> with_class(const Element& root, std::string_view class_name) {
  return find_all(root, [&](const Element& e) { return e.attribute_or("class") == class_name; });
}

}  // namespace xml_check
