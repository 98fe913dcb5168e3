// tests/support/load_error_after_edit.hpp
// For loader tests of malformed input: a valid data file with one edit
// (`from` replaced by `to`) must make the loader throw an io::parse_error
// whose message names the file and says `words`.
#pragma once

#include "parse_error_of.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

inline void expect_load_error_after_edit(const std::string& text, const std::string& from, const std::string& to,
                                         const std::filesystem::path& file,
                                         const std::function<void(const std::filesystem::path&)>& load,
                                         const std::string& words) {
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  std::string bad = text;
  bad.replace(at, from.size(), to);
  std::ofstream(file) << bad;
  const auto e = parse_error_of([&] { load(file); });
  EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << "after " << to << ": " << e.what();
  EXPECT_NE(std::string(e.what()).find(file.filename().string() + ":"), std::string::npos) << e.what();
}
