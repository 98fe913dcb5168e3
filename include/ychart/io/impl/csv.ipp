// ychart/io/impl/csv.ipp
// The implementation of ychart/io/csv.hpp: the parser (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../csv.hpp"

namespace ychart::io {

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

YCHART_DECL CsvDocument CsvDocument::parse(std::string_view text, std::string source_name) {
  return detail::CsvParser(text, std::move(source_name)).run();
}

/// Writes one CSV line (LF-terminated), quoting only the cells that need it.
YCHART_DECL void write_csv_row(std::ostream& out, const std::vector<std::string>& cells) {
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
