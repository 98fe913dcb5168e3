// examples/common/cli.hpp
// The command line every example shares, through CLI11: --help, --json
// (results as JSON on stdout; the report a person reads moves to stderr),
// --csv FILE (the example's main table; its other tables go next to it as
// FILE-stem.<table>.csv), --svg-dir DIR (where the figures go), --report
// FILE (one self-contained HTML page with the tables, the figures and the
// solver statuses: ychart::report), and each example's own options, added
// to the same CLI::App.
#pragma once

#include <ychart/io/file.hpp>
#include <ychart/io/json.hpp>
#include <ychart/io/svg.hpp>
#include <ychart/io/table.hpp>
#include <ychart/report/report.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>
#include <system_error>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <unistd.h>

namespace examples {

class Outputs {
 public:
  Outputs(std::string example, std::string default_svg_dir)
      : example_(std::move(example)), svg_dir_(std::move(default_svg_dir)), report_(example_) {}

  /// Adds --json, --csv and, for an example that draws figures (a default
  /// directory was given), --svg-dir (--out is kept as its alias).
  void add_options(CLI::App& app) {
    app.add_flag("--json", json_, "Print the results as JSON on stdout (the text report goes to stderr)");
    app.add_option("--csv", csv_, "Write the main results table to this CSV file")->type_name("FILE");
    if (!svg_dir_.empty())
      app.add_option("--svg-dir,--out", svg_dir_, "Directory for the SVG figures")->capture_default_str()->type_name("DIR");
    app.add_option("--report", report_path_, "Write an HTML report (tables, figures, solver statuses) to this file")
        ->type_name("FILE.html");
    report_ = ychart::report::Report(example_ + ": " + app.get_description());
  }

  /// Call after parsing: creates --svg-dir and, with --json, sends
  /// everything the program prints (cout and printf alike) to stderr,
  /// keeping stdout for the JSON. Returns 0, or 2 after saying on stderr why
  /// the directory cannot be made: `if (int rc = outputs.begin()) return rc;`.
  [[nodiscard]] int begin() {
    if (!svg_dir_.empty()) {
      std::error_code error;
      std::filesystem::create_directories(svg_dir_, error);
      if (error || !std::filesystem::is_directory(svg_dir_)) {
        std::fprintf(stderr, "%s: --svg-dir %s: cannot create the directory (%s)\n", example_.c_str(),
                     svg_dir_.c_str(), error ? error.message().c_str() : "a file of that name exists");
        return 2;
      }
    }
    if (!json_) return 0;
    std::fflush(stdout);
    json_fd_ = ::dup(STDOUT_FILENO);
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    return 0;
  }

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
  void add_table(std::string name, ychart::io::Table table) {
    report_.table(name, table);
    tables_.emplace_back(std::move(name), std::move(table));
  }
  /// A top-level member of the --json document, written by `write` (a
  /// study's own result shape, e.g. {"setup1": {...}}).
  void add_json(std::string key, std::function<void(ychart::io::JsonWriter&)> write) {
    json_members_.emplace_back(std::move(key), std::move(write));
  }

  /// Scalars for --json ("summary").
  void add_value(std::string name, ychart::io::Cell value) { values_.emplace_back(std::move(name), std::move(value)); }

  /// Writes --csv and --json; returns the exit code (1 if a file cannot be written).
  int finish() {
    if (!report_path_.empty()) report_.write(report_path_);
    if (!csv_.empty() && !tables_.empty()) {
      const std::filesystem::path main(csv_);
      tables_.front().second.write_csv(main);
      for (std::size_t t = 1; t < tables_.size(); ++t) {
        auto other = main;
        other.replace_filename(main.stem().string() + "." + tables_[t].first + ".csv");
        tables_[t].second.write_csv(other);
      }
    }
    if (!json_) return 0;
    std::ostringstream text;
    ychart::io::JsonWriter json(text);
    json.begin_object().key("example").value(example_);
    json.key("summary").begin_object();
    for (const auto& [name, value] : values_) {
      json.key(name);
      ychart::io::write_cell(json, value);
    }
    json.end_object().key("tables").begin_object();
    for (const auto& [name, table] : tables_) {
      json.key(name);
      table.write_json(json);
    }
    json.end_object();
    for (const auto& [key, write] : json_members_) {
      json.key(key);
      write(json);
    }
    json.end_object();
    std::fflush(stdout);
    const std::string out = text.str();
    std::size_t done = 0;
    while (done < out.size()) {
      const auto n = ::write(json_fd_, out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(json_fd_);
    return done == out.size() ? 0 : 1;
  }

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
