// ychart/io/impl/file.ipp
// The implementation of ychart/io/file.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../file.hpp"

namespace ychart::io {


YCHART_DECL std::string read_text_file(const std::filesystem::path& path) {
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

YCHART_DECL void write_text_file(const std::filesystem::path& path, std::string_view content) {
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
