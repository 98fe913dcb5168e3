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

#include "../config.hpp"
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
  YCHART_DECL static CsvDocument parse(std::string_view text, std::string source_name);

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

/// Writes one CSV line (LF-terminated), quoting only the cells that need it.
YCHART_DECL void write_csv_row(std::ostream& out, const std::vector<std::string>& cells);

}  // namespace ychart::io

#if YCHART_HEADER_ONLY
#include "impl/csv.ipp"
#endif
