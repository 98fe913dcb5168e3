// ychart/io/csv.hpp
// CSV input for parameter tables and write_csv_row() for output.
// Reading follows RFC 4180 quoting ("" inside a quoted cell is one quote;
// quoted cells may hold commas and newlines), accepts LF or CRLF, skips blank
// lines and lines whose first non-blank character is '#', and trims spaces
// around unquoted cells. The first remaining line is the header. Every
// record remembers the line it starts on, so a bad cell is reported as
// "<file>:<line>:<column>: <column name>: ...".
// Hand-written, because no Debian-packaged parser fits (checked on Debian 12):
// libcsv-dev (libcsv 3, C) hands over fields by callback with no positions,
// so errors could not name a line and column, and it has no comment lines;
// libfccp-dev (fast-cpp-csv-parser, a 2016 snapshot) fixes the column count
// at compile time, rejects line breaks inside quoted cells and reports no
// column positions. Tables here have columns chosen at run time and errors
// must point at the cell.
#pragma once

#include "file.hpp"
#include "parse_error.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace ychart::io {

namespace detail {

/// What every record of one document shares: the file name and the header.
/// Records point at it, so they stay valid when the document is moved.
struct CsvSchema {
  std::string source_name;
  std::vector<std::string> header;
  int header_line = 0;

  /// Index of `column` in the header, or -1.
  int find(std::string_view column) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == column) return static_cast<int>(i);
    return -1;
  }

  std::string column_list() const {
    std::string list;
    for (const auto& name : header) list += (list.empty() ? "" : ", ") + name;
    return list;
  }
};

struct CsvCell {
  std::string text;
  int line = 0;
  int column = 0;
};

/// Drops one leading '+' (people write "+3") but not from "+-3" or "++3".
inline std::string_view without_plus_sign(std::string_view text) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '+' && text[1] != '-') text.remove_prefix(1);
  return text;
}

/// The whole text must be the number, and the number finite.
inline bool parse_finite_double(std::string_view text, double& out) {
  text = without_plus_sign(text);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) return false;
  out = value;
  return true;
}

inline bool parse_long(std::string_view text, long& out) {
  text = without_plus_sign(text);
  long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return false;
  out = value;
  return true;
}

inline std::string quoted(std::string_view text) {
  std::string out = "\"";
  out += text;
  out += '"';
  return out;
}

class CsvParser;

}  // namespace detail

class CsvRecord {
 public:
  /// 1-based line of the file on which the record starts.
  int line() const { return line_; }

  /// The cell's text (unquoted, trimmed unless it was quoted).
  std::string_view text(std::string_view column) const { return cell(column).text; }

  bool empty(std::string_view column) const { return cell(column).text.empty(); }

  /// The cell as a finite double; the whole cell must be the number.
  double number(std::string_view column) const {
    const detail::CsvCell& c = cell(column);
    double value = 0;
    if (!detail::parse_finite_double(c.text, value))
      throw parse_error(schema_->source_name, c.line, c.column, std::string(column),
                        c.text.empty() ? "expected a number, found an empty cell"
                                       : "expected a finite number, found " + detail::quoted(c.text));
    return value;
  }

  /// The cell as an integer ("3", "-2", "+7"; not "3.0").
  long integer(std::string_view column) const {
    const detail::CsvCell& c = cell(column);
    long value = 0;
    if (!detail::parse_long(c.text, value))
      throw parse_error(schema_->source_name, c.line, c.column, std::string(column),
                        c.text.empty() ? "expected an integer, found an empty cell"
                                       : "expected an integer, found " + detail::quoted(c.text));
    return value;
  }

  /// number(column), or `fallback` when the file has no such column or the
  /// cell is empty (optional parameters).
  double number_or(std::string_view column, double fallback) const {
    if (schema_->find(column) < 0 || empty(column)) return fallback;
    return number(column);
  }

 private:
  friend class detail::CsvParser;

  CsvRecord(std::shared_ptr<const detail::CsvSchema> schema, int line, std::vector<detail::CsvCell> cells)
      : schema_(std::move(schema)), line_(line), cells_(std::move(cells)) {}

  const detail::CsvCell& cell(std::string_view column) const {
    const int index = schema_->find(column);
    if (index < 0)
      throw parse_error(schema_->source_name, schema_->header_line, 0, std::string(column),
                        "no such column in the header (columns: " + schema_->column_list() + ")");
    return cells_[static_cast<std::size_t>(index)];
  }

  std::shared_ptr<const detail::CsvSchema> schema_;
  int line_;
  std::vector<detail::CsvCell> cells_;
};

class CsvDocument {
 public:
  /// Parses `text`; `source_name` is the file name used in error messages.
  static CsvDocument parse(std::string_view text, std::string source_name);

  /// Reads and parses a file; parse_error naming the file if it cannot be read.
  static CsvDocument read(const std::filesystem::path& path) {
    return parse(read_text_file(path), path.string());
  }

  const std::vector<std::string>& header() const { return schema_->header; }
  const std::string& source_name() const { return schema_->source_name; }
  /// 1-based line of the header.
  int header_line() const { return schema_->header_line; }

  bool has_column(std::string_view column) const { return schema_->find(column) >= 0; }

  /// Throws parse_error, at the header line, for the first missing column.
  void require_columns(std::initializer_list<std::string_view> columns) const {
    for (std::string_view column : columns)
      if (!has_column(column))
        throw parse_error(schema_->source_name, schema_->header_line, 0, std::string(column),
                          "required column missing from the header (columns: " + schema_->column_list() + ")");
  }

  std::size_t size() const { return records_.size(); }
  const CsvRecord& operator[](std::size_t index) const { return records_.at(index); }
  std::vector<CsvRecord>::const_iterator begin() const { return records_.begin(); }
  std::vector<CsvRecord>::const_iterator end() const { return records_.end(); }

 private:
  friend class detail::CsvParser;
  CsvDocument() = default;

  std::shared_ptr<const detail::CsvSchema> schema_;
  std::vector<CsvRecord> records_;
};

namespace detail {

class CsvParser {
 public:
  CsvParser(std::string_view text, std::string source_name) : text_(text), source_name_(std::move(source_name)) {}

  CsvDocument run() {
    auto schema = std::make_shared<CsvSchema>();
    schema->source_name = source_name_;
    std::vector<std::vector<CsvCell>> rows;
    std::vector<int> row_lines;
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte order mark, as spreadsheets write it
    while (skip_blank_and_comment_lines()) {
      row_lines.push_back(line_);
      rows.push_back(read_record());
    }
    if (rows.empty()) throw parse_error(source_name_, 0, 0, "", "no header line (the file is empty or only comments)");

    schema->header_line = row_lines.front();
    for (CsvCell& cell : rows.front()) {
      if (cell.text.empty())
        throw parse_error(source_name_, cell.line, cell.column, "", "empty column name in the header");
      if (schema->find(cell.text) >= 0)
        throw parse_error(source_name_, cell.line, cell.column, cell.text, "duplicate column name in the header");
      schema->header.push_back(std::move(cell.text));
    }

    CsvDocument document;
    document.schema_ = schema;
    const std::size_t expected = schema->header.size();
    for (std::size_t r = 1; r < rows.size(); ++r) {
      if (rows[r].size() != expected)
        throw parse_error(source_name_, row_lines[r], 0, "",
                          "expected " + std::to_string(expected) + " cells (as in the header on line " +
                              std::to_string(schema->header_line) + "), found " + std::to_string(rows[r].size()));
      document.records_.push_back(CsvRecord(schema, row_lines[r], std::move(rows[r])));
    }
    return document;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }

  bool at_line_end() const {
    return at_end() || peek() == '\n' || (peek() == '\r' && (pos_ + 1 == text_.size() || text_[pos_ + 1] == '\n'));
  }

  void advance() {
    // Columns count characters, not bytes: skip UTF-8 continuation bytes.
    if ((static_cast<unsigned char>(peek()) & 0xC0) != 0x80) ++column_;
    ++pos_;
  }

  void consume_line_end() {
    if (at_end()) return;
    if (peek() == '\r') ++pos_;
    if (!at_end() && peek() == '\n') ++pos_;
    ++line_;
    column_ = 1;
  }

  void skip_spaces() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) advance();
  }

  /// Moves to the start of the next record; false at the end of the text.
  bool skip_blank_and_comment_lines() {
    while (!at_end()) {
      const std::size_t line_start = pos_;
      skip_spaces();
      if (at_line_end()) {
        if (at_end()) return false;
        consume_line_end();
        continue;
      }
      if (peek() == '#') {
        while (!at_line_end()) advance();
        consume_line_end();
        continue;
      }
      pos_ = line_start;
      column_ = 1;
      return true;
    }
    return false;
  }

  std::vector<CsvCell> read_record() {
    std::vector<CsvCell> cells;
    while (true) {
      cells.push_back(read_cell());
      if (at_line_end()) {
        consume_line_end();
        return cells;
      }
      advance();  // the ',' that read_cell() stopped at
    }
  }

  CsvCell read_cell() {
    skip_spaces();
    CsvCell cell;
    cell.line = line_;
    cell.column = column_;
    if (!at_end() && peek() == '"') {
      read_quoted(cell);
      skip_spaces();
      if (!at_line_end() && peek() != ',')
        throw parse_error(source_name_, line_, column_, "",
                          "unexpected character after a closing quote (expected ',' or the end of the line)");
      return cell;
    }
    while (!at_line_end() && peek() != ',') {
      if (peek() == '"')
        throw parse_error(source_name_, line_, column_, "",
                          "a quote inside an unquoted cell (quote the whole cell and double the quote: \"\")");
      cell.text += peek();
      advance();
    }
    while (!cell.text.empty() && (cell.text.back() == ' ' || cell.text.back() == '\t')) cell.text.pop_back();
    return cell;
  }

  void read_quoted(CsvCell& cell) {
    advance();  // opening quote
    while (true) {
      if (at_end())
        throw parse_error(source_name_, cell.line, cell.column, "", "unterminated quoted cell (no closing quote)");
      const char c = peek();
      if (c == '"') {
        advance();
        if (!at_end() && peek() == '"') {
          cell.text += '"';
          advance();
          continue;
        }
        return;
      }
      if (c == '\n' || (c == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n')) {
        // A line break inside quotes is part of the cell; CRLF is kept as LF.
        cell.text += '\n';
        consume_line_end();
        continue;
      }
      cell.text += c;
      advance();
    }
  }

  std::string_view text_;
  std::string source_name_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

/// Quotes a cell only when a reader would otherwise see something else.
inline bool needs_quotes(std::string_view cell, bool first_in_row) {
  if (cell.empty()) return false;
  if (cell.find_first_of(",\"\r\n") != std::string_view::npos) return true;
  const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
  if (is_space(cell.front()) || is_space(cell.back())) return true;  // unquoted cells are trimmed
  return first_in_row && cell.front() == '#';                         // would start a comment line
}

}  // namespace detail

inline CsvDocument CsvDocument::parse(std::string_view text, std::string source_name) {
  return detail::CsvParser(text, std::move(source_name)).run();
}

/// Writes one CSV line (LF-terminated), quoting only the cells that need it.
inline void write_csv_row(std::ostream& out, const std::vector<std::string>& cells) {
  // A row of one empty cell would be a blank line, which readers skip.
  if (cells.size() == 1 && cells.front().empty()) {
    out << "\"\"\n";
    return;
  }
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out << ',';
    const std::string& cell = cells[i];
    if (!detail::needs_quotes(cell, i == 0)) {
      out << cell;
      continue;
    }
    out << '"';
    for (char c : cell) {
      if (c == '"') out << '"';
      out << c;
    }
    out << '"';
  }
  out << '\n';
}

}  // namespace ychart::io
