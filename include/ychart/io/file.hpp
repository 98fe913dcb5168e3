// ychart/io/file.hpp
// Whole-file reading and writing for the io layer. Reading throws a
// parse_error naming the file (a loader's input is missing); writing goes
// through a temporary sibling renamed over the target, so a reader never sees
// a half-written result file, and throws ychart::error naming the path.
#pragma once

#include "../error.hpp"
#include "parse_error.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>

namespace ychart::io {

/// The bytes of a file. Throws parse_error (line 0) if it cannot be read.
inline std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    throw parse_error(path.string(), 0, 0, "",
                      exists ? "cannot open the file for reading" : "no such file");
  }
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw parse_error(path.string(), 0, 0, "", "read error");
  return std::move(content).str();
}

/// Replaces the file at `path` with `content`. Throws ychart::error naming the
/// path on failure and leaves no temporary file behind.
inline void write_text_file(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw ychart::error("ychart: cannot write " + path.string() + ": cannot create " + temporary.string());
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw ychart::error("ychart: cannot write " + path.string() + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw ychart::error("ychart: cannot write " + path.string() + ": " + ec.message());
  }
}

}  // namespace ychart::io
