// ychart/report/impl/report.ipp
// The implementation of ychart/report/report.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../report.hpp"

namespace ychart::report {

YCHART_DECL ModelSummary summarize(const Model& model, std::string name) {
  ModelSummary s;
  s.name = std::move(name);
  for (const auto& v : model.registry().variables) {
    switch (v.kind) {
      case ychart::detail::VariableKind::positive: ++s.positive; break;
      case ychart::detail::VariableKind::discrete: ++s.discrete; break;
      case ychart::detail::VariableKind::real: ++s.real; break;
      case ychart::detail::VariableKind::tabulated: ++s.tabulated; break;
    }
  }
  s.constraints = model.constraints().size();
  s.symmetric_groups = model.symmetries().size();
  if (model.has_objective()) s.sense = model.sense() == Model::Sense::minimize ? "minimise" : "maximise";
  s.objective_unit = model.objective_unit();
  return s;
}

namespace detail {

inline std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

/// "II ychart" -> "ii-ychart": ids for tables and figures.
inline std::string slug(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (alnum) out += c;
    else if (c >= 'A' && c <= 'Z') out += static_cast<char>(c - 'A' + 'a');
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "item" : out;
}

inline constexpr std::string_view style = R"(
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-variant-numeric: tabular-nums; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f4f4f4; cursor: pointer; user-select: none; }
td.text, th.text { text-align: left; } td.empty { color: #aaa; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
figure { margin: 1.2em 0; } figcaption { color: #555; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dl.summary dt { font-weight: 600; }
.status-optimal { color: #1a7f37; } .status-other { color: #b35900; }
)";

// Sorts a table by the clicked column (numbers by data-value, text
// otherwise; a second click reverses), then marks the page ready.
inline constexpr std::string_view script = R"(
document.querySelectorAll('table.results').forEach(function (table) {
  table.querySelectorAll('thead th').forEach(function (th, column) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var ascending = th.dataset.order !== 'ascending';
      th.dataset.order = ascending ? 'ascending' : 'descending';
      rows.sort(function (a, b) {
        var x = a.cells[column].dataset.value, y = b.cells[column].dataset.value;
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : String(x).localeCompare(String(y));
        return ascending ? order : -order;
     });
      rows.forEach(function (row) { body.appendChild(row);});
   });
 });
});
document.body.dataset.ready = 'true';
)";

}  // namespace detail

YCHART_DECL Report& Report::model(const ModelSummary& summary) {
  std::string html = "<dl class=\"summary\" data-model=\"" + detail::html_escape(summary.name) + "\">";
  auto row = [&](std::string_view term, const std::string& value, std::string_view key) {
    html += "<dt>" + std::string(term) + "</dt><dd data-key=\"" + std::string(key) + "\">" +
            detail::html_escape(value) + "</dd>";
  };
  row("model", summary.name, "name");
  row("objective", summary.sense.empty() ? "none" : summary.sense +
      (summary.objective_unit.empty() ? "" : " (" + summary.objective_unit + ")"), "objective");
  row("positive variables", std::to_string(summary.positive), "positive");
  row("integer / choice variables", std::to_string(summary.discrete), "discrete");
  row("real variables", std::to_string(summary.real), "real");
  row("tabulated terms", std::to_string(summary.tabulated), "tabulated");
  row("constraints", std::to_string(summary.constraints), "constraints");
  row("declared symmetry groups", std::to_string(summary.symmetric_groups), "symmetric_groups");
  html += "</dl>\n";
  blocks_.push_back({Kind::html, "", std::move(html)});
  return *this;
}

YCHART_DECL Report& Report::table(std::string name, const io::Table& table) {
  for (std::size_t c = 0; c < table.columns().size(); ++c)
    if (table.columns()[c].name.rfind("status", 0) == 0)
      for (const auto& row : table.rows())
        if (const auto* status = std::get_if<std::string>(&row[c]); status && !status->empty()) ++tally_[*status];
  blocks_.push_back({Kind::html, "", table_html(name, table)});
  return *this;
}

YCHART_DECL Report& Report::svg_figure(std::string caption, std::string svg) {
  if (svg.rfind("<?xml", 0) == 0) svg.erase(0, svg.find('\n') + 1);  // an HTML page takes no XML declaration
  const std::string id = "figure-" + std::to_string(++figures_);
  blocks_.push_back({Kind::html, "",
                     "<figure id=\"" + id + "\">" + svg + "<figcaption>" + detail::html_escape(caption) +
                         "</figcaption></figure>\n"});
  return *this;
}

YCHART_DECL Report& Report::solution(std::string name, const Solution& s) {
  ++tally_[std::string(to_string(s.status()))];
  io::Table t({{"solve", "", 1}, {"status", "", 1}, {"objective", "", 8}, {"bound", "", 8}, {"gap", "", 3},
               {"method", "", 1}, {"time", "s", 3}});
  const double nan = std::nan("");
  t.add_row({name, std::string(to_string(s.status())), s.has_values() ? s.objective() : nan, s.bound(), s.gap(),
             s.method(), s.solve_time()});
  blocks_.push_back({Kind::html, "", table_html(name, t)});
  return *this;
}

YCHART_DECL std::string Report::html() const {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                    detail::html_escape(title_) + "</title>\n<style>" + std::string(detail::style) +
                    "</style>\n</head>\n<body>\n<h1>" + detail::html_escape(title_) + "</h1>\n";
  out += "<section id=\"statuses\"><h2>Solver statuses</h2>\n";
  if (tally_.empty()) {
    out += "<p>No solver results in this report.</p>\n";
  } else {
    out += "<table id=\"status-tally\"><thead><tr><th class=\"text\">status</th><th>results</th></tr></thead><tbody>\n";
    for (const auto& [status, count] : tally_)
      out += "<tr data-status=\"" + detail::html_escape(status) + "\"><td class=\"text " +
             (status == "optimal" ? "status-optimal" : "status-other") + "\">" + detail::html_escape(status) +
             "</td><td data-value=\"" + std::to_string(count) + "\">" + std::to_string(count) + "</td></tr>\n";
    out += "</tbody></table>\n";
  }
  out += "</section>\n<section>\n";
  for (const auto& b : blocks_) {
    switch (b.kind) {
      case Kind::section: out += "</section>\n<section>\n<h2>" + detail::html_escape(b.text) + "</h2>\n"; break;
      case Kind::text: out += "<p>" + detail::html_escape(b.text) + "</p>\n"; break;
      case Kind::html: out += b.html; break;
    }
  }
  out += "</section>\n<footer><p>Written by ychart.</p></footer>\n<script>" + std::string(detail::script) +
         "</script>\n</body>\n</html>\n";
  return out;
}

YCHART_DECL std::string Report::table_html(const std::string& name, const io::Table& table) {
  std::string id = "table-" + detail::slug(name);
  if (++table_ids_[id] > 1) id += "-" + std::to_string(table_ids_[id]);
  std::string out = "<table class=\"results\" id=\"" + id + "\" data-table=\"" + detail::html_escape(name) +
                    "\">\n<caption>" + detail::html_escape(name) + "</caption>\n<thead><tr>";
  for (const auto& column : table.columns()) {
    const bool text_column = !table.rows().empty() && std::holds_alternative<std::string>(table.rows().front()[
                                 static_cast<std::size_t>(&column - table.columns().data())]);
    out += "<th" + std::string(text_column ? " class=\"text\"" : "") + " data-column=\"" +
           detail::html_escape(column.name) + "\" data-unit=\"" + detail::html_escape(column.unit) + "\">" +
           detail::html_escape(column.heading()) + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows()) {
    out += "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c) {
      const auto& column = table.columns()[c];
      const std::string data_column = " data-column=\"" + detail::html_escape(column.name) + "\"";
      if (const auto* v = std::get_if<double>(&row[c]); v && std::isfinite(*v)) {
        out += "<td" + data_column + " data-value=\"" + io::detail::round_trip_text(*v) + "\">" +
               io::detail::significant_text(*v, column.precision) + "</td>";
      } else if (const auto* n = std::get_if<long>(&row[c])) {
        out += "<td" + data_column + " data-value=\"" + io::detail::integer_text(*n) + "\">" +
               io::detail::integer_text(*n) + "</td>";
      } else if (const auto* s = std::get_if<std::string>(&row[c])) {
        out += "<td class=\"text\"" + data_column + " data-value=\"" + detail::html_escape(*s) + "\">" +
               detail::html_escape(*s) + "</td>";
      } else {
        out += "<td class=\"empty\"" + data_column + " data-value=\"\">&ndash;</td>";
      }
    }
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
  return out;
}

YCHART_DECL Report& Report::figure(std::string caption, const io::LineChart& chart) {
  return svg_figure(std::move(caption), io::to_svg(chart));
}

YCHART_DECL Report& Report::figure(std::string caption, const io::StackedBarChart& chart) {
  return svg_figure(std::move(caption), io::to_svg(chart));
}

YCHART_DECL void Report::write(const std::filesystem::path& path) const { io::write_text_file(path, html()); }

}  // namespace ychart::report
