// examples/common/cli.hpp
// What every example shares: the command line (common/command_line.hpp) and
// its outputs: --help, --json (results as JSON on stdout; the report a
// person reads moves to stderr), --csv FILE (the example's main table; its
// other tables go next to it as FILE-stem.<table>.csv), --svg-dir DIR (where
// the figures go), --report FILE (one self-contained HTML page with the
// tables, the figures and the solver statuses: ychart::report), and each
// example's own options, added to the same CommandLine. The bodies are in
// common/outputs.cpp, compiled once for all examples.
#pragma once

#include "common/command_line.hpp"

#include <ychart/io/json.hpp>
#include <ychart/io/reflect.hpp>
#include <ychart/io/svg.hpp>
#include <ychart/io/table.hpp>
#include <ychart/report/report.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace examples {

class Outputs {
 public:
  Outputs(std::string example, std::string default_svg_dir);
  ~Outputs();

  /// Adds --json, --csv and, for an example that draws figures (a default
  /// directory was given), --svg-dir (--out is kept as its alias).
  void add_options(CommandLine& cli);

  /// Call after parsing: creates --svg-dir and, with --json, sends
  /// everything the program prints (cout and printf alike) to stderr,
  /// keeping stdout for the JSON. Returns 0, or 2 after saying on stderr why
  /// the directory cannot be made: `if (int rc = outputs.begin()) return rc;`.
  [[nodiscard]] int begin();

  /// A figure's path in --svg-dir.
  std::filesystem::path svg(const std::string& file) const { return std::filesystem::path(svg_dir_) / file; }

  /// Writes a figure to --svg-dir as `file` and adds it to the report.
  template <class Chart>
  void figure(const std::string& file, const Chart& chart) {
    if (!svg_dir_.empty()) ychart::io::write_svg(svg(file), chart);
    report_.figure(chart.title.empty() ? file : chart.title + " (" + file + ")", chart);
  }

  /// The report, for text, sections and model summaries of the example's own.
  ychart::report::Report& report() { return report_; }
  const std::string& svg_dir() const { return svg_dir_; }
  bool json() const { return json_; }

  /// Tables for --csv and --json, in order; the first added is the main one.
  void add_table(std::string name, ychart::io::Table table);
  /// A top-level member of the --json document, written by `write` (a
  /// study's own result shape, e.g. {"setup1": {...}}).
  void add_json(std::string key, std::function<void(ychart::io::JsonWriter&)> write) {
    json_members_.emplace_back(std::move(key), std::move(write));
  }

  /// A top-level member of the --json document that is a result struct
  /// (declared with BOOST_HANA_DEFINE_STRUCT; see ychart/io/reflect.hpp),
  /// written member by member under its members' names.
  template <class Result>
  void add_result(std::string key, Result result) {
    add_json(std::move(key), [r = std::move(result)](ychart::io::JsonWriter& json) { ychart::io::write_json(json, r); });
  }

  /// Scalars for --json ("summary").
  void add_value(std::string name, ychart::io::Cell value) { values_.emplace_back(std::move(name), std::move(value)); }

  /// Writes --csv and --json; returns the exit code (1 if a file cannot be written).
  int finish();

 private:
  std::string example_;
  bool json_ = false;
  std::string csv_;
  std::string svg_dir_;
  int json_fd_ = -1;
  std::string report_path_;
  ychart::report::Report report_;
  std::vector<std::pair<std::string, ychart::io::Table>> tables_;
  std::vector<std::pair<std::string, ychart::io::Cell>> values_;
  std::vector<std::pair<std::string, std::function<void(ychart::io::JsonWriter&)>>> json_members_;
};

}  // namespace examples
