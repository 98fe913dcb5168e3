// examples/common/command_line.cpp
// CommandLine over CLI11, compiled once for all examples.
#include "common/command_line.hpp"
#include "common/gp_fallback_report.hpp"

#include <CLI/CLI.hpp>

#include <utility>

namespace examples {

struct CommandLine::State {
  explicit State(std::string description) : app(std::move(description)) {}
  CLI::App app;
};

CommandLine::CommandLine(std::string description) : state_(std::make_unique<State>(std::move(description))) {}
CommandLine::~CommandLine() = default;

std::string CommandLine::description() const { return state_->app.get_description(); }

void CommandLine::flag(const std::string& names, bool& value, const std::string& help) {
  state_->app.add_flag(names, value, help);
}

#define YCHART_EXAMPLES_OPTION(Type)                                                               \
  CommandLine::Option CommandLine::option(const std::string& names, Type& value, const std::string& help) { \
    return Option(state_->app.add_option(names, value, help));                                     \
  }
YCHART_EXAMPLES_OPTION(int)
YCHART_EXAMPLES_OPTION(unsigned)
YCHART_EXAMPLES_OPTION(std::size_t)
YCHART_EXAMPLES_OPTION(double)
YCHART_EXAMPLES_OPTION(std::optional<double>)
YCHART_EXAMPLES_OPTION(std::string)
YCHART_EXAMPLES_OPTION(std::vector<double>)
YCHART_EXAMPLES_OPTION(std::vector<std::size_t>)
YCHART_EXAMPLES_OPTION(std::vector<std::string>)
#undef YCHART_EXAMPLES_OPTION

CommandLine::Option& CommandLine::Option::show_default() {
  option_->capture_default_str();
  return *this;
}
CommandLine::Option& CommandLine::Option::positive() {
  option_->check(CLI::PositiveNumber);
  return *this;
}
CommandLine::Option& CommandLine::Option::non_negative() {
  option_->check(CLI::NonNegativeNumber);
  return *this;
}
CommandLine::Option& CommandLine::Option::within(double low, double high) {
  option_->check(CLI::Range(low, high));
  return *this;
}
CommandLine::Option& CommandLine::Option::one_of(std::vector<std::string> names) {
  option_->check(CLI::IsMember(std::move(names)));
  return *this;
}
CommandLine::Option& CommandLine::Option::comma_separated() {
  option_->delimiter(',');
  return *this;
}
CommandLine::Option& CommandLine::Option::type_name(const std::string& name) {
  option_->type_name(name);
  return *this;
}

std::optional<int> CommandLine::parse(int argc, const char* const* argv) {
  report_gp_fallbacks_at_exit();
  try {
    state_->app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return state_->app.exit(error);
  }
  return std::nullopt;
}

}  // namespace examples
