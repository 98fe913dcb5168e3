// ychart/io/impl/table.ipp
// The implementation of ychart/io/table.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../table.hpp"

namespace ychart::io {

YCHART_DECL Table::Table(std::vector<Column> columns) : columns_(std::move(columns)) {
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

YCHART_DECL void Table::add_row(std::vector<Cell> cells) {
  if (cells.size() != columns_.size())
    throw ychart::error("ychart: Table::add_row: " + std::to_string(cells.size()) + " cells for " +
                        std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(cells));
}

YCHART_DECL void write_cell(JsonWriter& json, const Cell& cell) {
  std::visit(
      [&](const auto& value) {
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::monostate>) json.value(nullptr);
        else json.value(value);
      },
      cell);
}

YCHART_DECL void Table::print(std::ostream& out) const {
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

YCHART_DECL void Table::write_csv(std::ostream& out) const {
  std::vector<std::string> line;
  for (const Column& column : columns_) line.push_back(column.heading());
  write_csv_row(out, line);
  for (const auto& row : rows_) {
    line.clear();
    for (const Cell& cell : row) line.push_back(csv_text(cell));
    write_csv_row(out, line);
  }
}

YCHART_DECL void Table::write_csv(const std::filesystem::path& path) const {
  std::ostringstream out;
  write_csv(out);
  write_text_file(path, out.str());
}

YCHART_DECL void Table::write_json(std::ostream& out) const {
  JsonWriter json(out);
  write_json(json);
}

YCHART_DECL void Table::write_json(JsonWriter& json) const {
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

YCHART_DECL void Table::write_json(const std::filesystem::path& path) const {
  std::ostringstream out;
  write_json(out);
  write_text_file(path, out.str());
}

YCHART_DECL std::string Table::print_text(const Cell& cell, int precision) {
  if (const auto* value = std::get_if<double>(&cell)) return detail::significant_text(*value, precision);
  if (const auto* value = std::get_if<long>(&cell)) return detail::integer_text(*value);
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  return "";
}

YCHART_DECL std::string Table::csv_text(const Cell& cell) {
  if (const auto* value = std::get_if<double>(&cell)) {
    if (std::isnan(*value)) return "";
    if (std::isinf(*value)) return *value > 0 ? "inf" : "-inf";
    return detail::round_trip_text(*value);
  }
  if (const auto* value = std::get_if<long>(&cell)) return detail::integer_text(*value);
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  return "";
}

}  // namespace ychart::io
