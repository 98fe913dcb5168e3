// ychart/io/table.hpp
// A results table for sweeps: named columns with a unit and a print
// precision, rows of cells (empty, double, long or text). It prints aligned
// for a terminal and writes CSV (full precision, readable back with
// CsvDocument) and JSON ({"columns": [...], "rows": [{name: value}]}).
#pragma once

#include "../config.hpp"
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
YCHART_DECL void write_cell(JsonWriter& json, const Cell& cell);

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
  explicit Table(std::vector<Column> columns);

  /// Appends a row; throws ychart::error unless it has one cell per column.
  void add_row(std::vector<Cell> cells);

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
  void print(std::ostream& out) const;

  /// Header "name [unit]" (name alone without unit); numbers in full
  /// precision; empty cells and NaN as empty cells (spreadsheets and pandas
  /// read them as missing), infinities as "inf"/"-inf".
  void write_csv(std::ostream& out) const;

  void write_csv(const std::filesystem::path& path) const;

  /// {"columns": [{"name", "unit"}...], "rows": [{name: value, ...}...]};
  /// empty cells, NaN and infinities as null.
  void write_json(std::ostream& out) const;

  /// The same object as a value inside a larger document.
  void write_json(JsonWriter& json) const;

  void write_json(const std::filesystem::path& path) const;

 private:
  /// Characters, not bytes, so UTF-8 names (e.g. "µs") align.
  static std::size_t display_width(std::string_view text) {
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  }

  static std::string print_text(const Cell& cell, int precision);

  static std::string csv_text(const Cell& cell);

  std::vector<Column> columns_;
  std::vector<std::vector<Cell>> rows_;
};

inline std::ostream& operator<<(std::ostream& out, const Table& table) {
  table.print(out);
  return out;
}

}  // namespace ychart::io

#if YCHART_HEADER_ONLY
#include "impl/table.ipp"
#endif
