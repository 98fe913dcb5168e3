// ychart/io/table.hpp
// A results table for sweeps: named columns with a unit and a print
// precision, rows of cells (empty, double, long or text). It prints aligned
// for a terminal and writes CSV (full precision, readable back with
// CsvDocument) and JSON ({"columns": [...], "rows": [{name: value}]}).
#pragma once

#include "../error.hpp"
#include "csv.hpp"
#include "file.hpp"
#include "json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <locale>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ychart::io {

struct Column {
  std::string name;
  std::string unit;   // "" if none
  int precision = 4;  // significant digits when printed

  /// "name [unit]", or the name alone without a unit: the CSV and print header.
  std::string heading() const { return unit.empty() ? name : name + " [" + unit + "]"; }
};

/// std::monostate is an empty cell (a value that does not exist, e.g. an
/// infeasible point's objective).
using Cell = std::variant<std::monostate, double, long, std::string>;

/// A cell as a JSON value: empty as null (NaN and infinities too).
inline void write_cell(JsonWriter& json, const Cell& cell) {
  std::visit(
      [&](const auto& value) {
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::monostate>) json.value(nullptr);
        else json.value(value);
      },
      cell);
}

namespace detail {

/// Shortest text that reads back as the same double.
inline std::string round_trip_text(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

inline std::string integer_text(long value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

/// `significant_digits` like printf's %g, independent of the global locale.
inline std::string significant_text(double value, int significant_digits) {
  if (std::isnan(value)) return "-";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << std::setprecision(significant_digits) << value;
  return out.str();
}

}  // namespace detail

class Table {
 public:
  /// Throws ychart::error for an empty or repeated column name or a precision
  /// outside 1..17.
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      const Column& column = columns_[i];
      if (column.name.empty()) throw ychart::error("ychart: Table: column " + std::to_string(i) + " has no name");
      for (std::size_t j = 0; j < i; ++j)
        if (columns_[j].name == column.name) throw ychart::error("ychart: Table: two columns named `" + column.name + "`");
      if (column.precision < 1 || column.precision > 17)
        throw ychart::error("ychart: Table: column `" + column.name + "` has precision " +
                            std::to_string(column.precision) + " (expected 1..17 significant digits)");
    }
  }

  /// Appends a row; throws ychart::error unless it has one cell per column.
  void add_row(std::vector<Cell> cells) {
    if (cells.size() != columns_.size())
      throw ychart::error("ychart: Table::add_row: " + std::to_string(cells.size()) + " cells for " +
                          std::to_string(columns_.size()) + " columns");
    rows_.push_back(std::move(cells));
  }

  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<std::vector<Cell>>& rows() const { return rows_; }

  /// Throws ychart::error for an unknown name.
  std::size_t column_index(std::string_view name) const {
    for (std::size_t i = 0; i < columns_.size(); ++i)
      if (columns_[i].name == name) return i;
    throw ychart::error("ychart: Table: no column named `" + std::string(name) + "`");
  }

  /// The cell as a double: a long converted, an empty cell NaN; text, or a
  /// row out of range, throws ychart::error.
  double number(std::size_t row, std::string_view name) const {
    const std::size_t column = column_index(name);
    if (row >= rows_.size())
      throw ychart::error("ychart: Table: row " + std::to_string(row) + " out of range (" +
                          std::to_string(rows_.size()) + " rows)");
    const Cell& cell = rows_[row][column];
    if (const auto* value = std::get_if<double>(&cell)) return *value;
    if (const auto* value = std::get_if<long>(&cell)) return static_cast<double>(*value);
    if (std::holds_alternative<std::monostate>(cell)) return std::numeric_limits<double>::quiet_NaN();
    throw ychart::error("ychart: Table: row " + std::to_string(row) + " of column `" + std::string(name) +
                        "` holds text, not a number");
  }

  /// Aligned columns under a "name [unit]" header: numbers right-aligned with
  /// the column's significant digits (NaN "-", infinities "inf"/"-inf"),
  /// columns holding text left-aligned.
  void print(std::ostream& out) const {
    std::vector<std::vector<std::string>> texts(rows_.size());
    std::vector<std::size_t> widths(columns_.size());
    std::vector<bool> right_aligned(columns_.size(), true);
    for (std::size_t c = 0; c < columns_.size(); ++c) widths[c] = display_width(columns_[c].heading());
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      for (std::size_t c = 0; c < columns_.size(); ++c) {
        const Cell& cell = rows_[r][c];
        if (std::holds_alternative<std::string>(cell)) right_aligned[c] = false;
        texts[r].push_back(print_text(cell, columns_[c].precision));
        widths[c] = std::max(widths[c], display_width(texts[r].back()));
      }
    }
    const auto print_line = [&](const auto& cell_text) {
      std::string line;
      for (std::size_t c = 0; c < columns_.size(); ++c) {
        const std::string& text = cell_text(c);
        const std::string padding(widths[c] - display_width(text), ' ');
        if (c > 0) line += "  ";
        line += right_aligned[c] ? padding + text : text + padding;
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << '\n';
    };
    std::vector<std::string> headings, rules;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      headings.push_back(columns_[c].heading());
      rules.emplace_back(widths[c], '-');
    }
    print_line([&](std::size_t c) -> const std::string& { return headings[c]; });
    print_line([&](std::size_t c) -> const std::string& { return rules[c]; });
    for (const auto& row_texts : texts) print_line([&](std::size_t c) -> const std::string& { return row_texts[c]; });
  }

  /// Header "name [unit]" (name alone without unit); numbers in full
  /// precision; empty cells and NaN as empty cells (spreadsheets and pandas
  /// read them as missing), infinities as "inf"/"-inf".
  void write_csv(std::ostream& out) const {
    std::vector<std::string> line;
    for (const Column& column : columns_) line.push_back(column.heading());
    write_csv_row(out, line);
    for (const auto& row : rows_) {
      line.clear();
      for (const Cell& cell : row) line.push_back(csv_text(cell));
      write_csv_row(out, line);
    }
  }

  void write_csv(const std::filesystem::path& path) const {
    std::ostringstream out;
    write_csv(out);
    write_text_file(path, out.str());
  }

  /// {"columns": [{"name", "unit"}...], "rows": [{name: value, ...}...]};
  /// empty cells, NaN and infinities as null.
  void write_json(std::ostream& out) const {
    JsonWriter json(out);
    write_json(json);
  }

  /// The same object as a value inside a larger document.
  void write_json(JsonWriter& json) const {
    json.begin_object().key("columns").begin_array();
    for (const Column& column : columns_)
      json.begin_object().key("name").value(column.name).key("unit").value(column.unit).end_object();
    json.end_array().key("rows").begin_array();
    for (const auto& row : rows_) {
      json.begin_object();
      for (std::size_t c = 0; c < columns_.size(); ++c) {
        json.key(columns_[c].name);
        write_cell(json, row[c]);
      }
      json.end_object();
    }
    json.end_array().end_object();
  }

  void write_json(const std::filesystem::path& path) const {
    std::ostringstream out;
    write_json(out);
    write_text_file(path, out.str());
  }

 private:
  /// Characters, not bytes, so UTF-8 names (e.g. "µs") align.
  static std::size_t display_width(std::string_view text) {
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  }

  static std::string print_text(const Cell& cell, int precision) {
    if (const auto* value = std::get_if<double>(&cell)) return detail::significant_text(*value, precision);
    if (const auto* value = std::get_if<long>(&cell)) return detail::integer_text(*value);
    if (const auto* text = std::get_if<std::string>(&cell)) return *text;
    return "";
  }

  static std::string csv_text(const Cell& cell) {
    if (const auto* value = std::get_if<double>(&cell)) {
      if (std::isnan(*value)) return "";
      if (std::isinf(*value)) return *value > 0 ? "inf" : "-inf";
      return detail::round_trip_text(*value);
    }
    if (const auto* value = std::get_if<long>(&cell)) return detail::integer_text(*value);
    if (const auto* text = std::get_if<std::string>(&cell)) return *text;
    return "";
  }

  std::vector<Column> columns_;
  std::vector<std::vector<Cell>> rows_;
};

inline std::ostream& operator<<(std::ostream& out, const Table& table) {
  table.print(out);
  return out;
}

}  // namespace ychart::io
