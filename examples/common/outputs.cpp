// examples/common/outputs.cpp
// examples::Outputs, compiled once for all examples.
#include "common/cli.hpp"

#include <cstdio>
#include <sstream>
#include <system_error>

#include <unistd.h>

namespace examples {

Outputs::Outputs(std::string example, std::string default_svg_dir)
    : example_(std::move(example)), svg_dir_(std::move(default_svg_dir)), report_(example_) {}

Outputs::~Outputs() = default;

void Outputs::add_options(CommandLine& cli) {
  cli.flag("--json", json_, "Print the results as JSON on stdout (the text report goes to stderr)");
  cli.option("--csv", csv_, "Write the main results table to this CSV file").type_name("FILE");
  if (!svg_dir_.empty())
    cli.option("--svg-dir,--out", svg_dir_, "Directory for the SVG figures").show_default().type_name("DIR");
  cli.option("--report", report_path_, "Write an HTML report (tables, figures, solver statuses) to this file")
      .type_name("FILE.html");
  report_ = ychart::report::Report(example_ + ": " + cli.description());
}

int Outputs::begin() {
  if (!svg_dir_.empty()) {
    std::error_code error;
    std::filesystem::create_directories(svg_dir_, error);
    if (error || !std::filesystem::is_directory(svg_dir_)) {
      std::fprintf(stderr, "%s: --svg-dir %s: cannot create the directory (%s)\n", example_.c_str(), svg_dir_.c_str(),
                   error ? error.message().c_str() : "a file of that name exists");
      return 2;
    }
  }
  if (!json_) return 0;
  std::fflush(stdout);
  json_fd_ = ::dup(STDOUT_FILENO);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  return 0;
}

void Outputs::add_table(std::string name, ychart::io::Table table) {
  report_.table(name, table);
  tables_.emplace_back(std::move(name), std::move(table));
}

int Outputs::finish() {
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

}  // namespace examples
