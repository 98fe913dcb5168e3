// ychart/report/report.hpp
// ychart::report::Report: one self-contained HTML file for a sweep or a
// study, to open in any browser or attach to a paper's artefact. It holds,
// in the order they are added: text, model summaries (variables by kind,
// constraints, objective), results tables, SVG figures (inlined) and
// solutions; and it opens with a tally of the solver statuses found in
// them. No external files, fonts or scripts: a small inline script sorts a
// table when its header is clicked.
//
// Every number keeps its exact value in a data-value attribute, every table
// cell its column in data-column, so scripts and tests can read the DOM.
#pragma once

#include "../config.hpp"
#include "../io/file.hpp"
#include "../io/svg.hpp"
#include "../io/table.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ychart::report {

/// What a model holds, for a report's summary.
struct ModelSummary {
  std::string name;
  std::size_t positive = 0, discrete = 0, real = 0, tabulated = 0;
  std::size_t constraints = 0;
  std::size_t symmetric_groups = 0;  // declared interchangeable groups
  std::string sense;                 // "minimise" or "maximise"; "" without an objective
  std::string objective_unit;
};

/// Counts `model`'s variables by kind, its constraints and declared symmetry
/// groups, for Report::model.
YCHART_DECL ModelSummary summarize(const Model& model, std::string name);

class Report {
 public:
  explicit Report(std::string title) : title_(std::move(title)) {}

  /// A heading that starts a new section.
  Report& section(std::string heading) {
    blocks_.push_back({Kind::section, std::move(heading), ""});
    return *this;
  }
  /// A paragraph of plain text (escaped).
  Report& text(std::string paragraph) {
    blocks_.push_back({Kind::text, std::move(paragraph), ""});
    return *this;
  }
  Report& model(const ModelSummary& summary);
  /// A results table; a column whose name starts with "status" feeds the tally.
  Report& table(std::string name, const io::Table& table);
  Report& figure(std::string caption, const io::LineChart& chart);
  Report& figure(std::string caption, const io::StackedBarChart& chart);
  /// An SVG drawn elsewhere, inlined as it is.
  Report& svg_figure(std::string caption, std::string svg);
  /// One solve: status, objective, bound, gap, method and time.
  Report& solution(std::string name, const Solution& s);

  /// How many results (table rows and solutions) ended with each status.
  const std::map<std::string, long>& status_tally() const { return tally_; }

  std::string html() const;

  void write(const std::filesystem::path& path) const;

 private:
  enum class Kind { section, text, html };
  struct Block {
    Kind kind;
    std::string text;
    std::string html;
  };

  std::string table_html(const std::string& name, const io::Table& table);

  std::string title_;
  std::vector<Block> blocks_;
  std::map<std::string, long> tally_;
  std::map<std::string, int> table_ids_;
  int figures_ = 0;
};

}  // namespace ychart::report

#if YCHART_HEADER_ONLY
#include "impl/report.ipp"
#endif
