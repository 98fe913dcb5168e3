// examples/common/command_line.hpp
// The examples' command line: options bound to variables, checks (positive,
// a range, one of a list), comma-separated lists, and --help. It is CLI11
// underneath, compiled once in examples/common/command_line.cpp: CLI11 2.1
// (Debian) is header-only with no precompiled mode, and parsing it cost
// every example about as long as all of ychart's dependencies together
// (docs/performance.md, "Compile time").
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class Option;
}

namespace examples {

class CommandLine {
 public:
  /// What `option` returns: refines the option just added, in a chain,
  /// e.g. `cli.option("--caps", caps, "...").comma_separated().within(1, 100)`.
  class Option {
   public:
    /// --help shows the value the variable holds before parsing.
    Option& show_default();
    /// The value (each element of a list) must be > 0, or >= 0.
    Option& positive();
    Option& non_negative();
    /// The value (each element of a list) must lie in [low, high].
    Option& within(double low, double high);
    /// The value must be one of `names`.
    Option& one_of(std::vector<std::string> names);
    /// A list option also takes its elements as one comma-separated word.
    Option& comma_separated();
    /// What --help shows for the value, e.g. "FILE.json".
    Option& type_name(const std::string& name);

   private:
    friend class CommandLine;
    explicit Option(CLI::Option* option) : option_(option) {}
    CLI::Option* option_;
  };

  explicit CommandLine(std::string description);
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  std::string description() const;

  /// `names` as CLI11 takes them: "--svg-dir,--out".
  void flag(const std::string& names, bool& value, const std::string& help);
  Option option(const std::string& names, int& value, const std::string& help);
  Option option(const std::string& names, unsigned& value, const std::string& help);
  Option option(const std::string& names, std::size_t& value, const std::string& help);
  Option option(const std::string& names, double& value, const std::string& help);
  Option option(const std::string& names, std::optional<double>& value, const std::string& help);
  Option option(const std::string& names, std::string& value, const std::string& help);
  Option option(const std::string& names, std::vector<double>& value, const std::string& help);
  Option option(const std::string& names, std::vector<std::size_t>& value, const std::string& help);
  Option option(const std::string& names, std::vector<std::string>& value, const std::string& help);

  /// Parses the command line into the bound variables. Returns the exit code
  /// when the program should stop now (0 after --help, nonzero after an
  /// error, which it has printed), or nothing to go on:
  /// `if (auto rc = cli.parse(argc, argv)) return *rc;`.
  [[nodiscard]] std::optional<int> parse(int argc, const char* const* argv);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace examples
