// ychart/io/file.hpp
// Whole-file reading and writing for the io layer. Reading throws a
// parse_error naming the file (a loader's input is missing); writing goes
// through a temporary sibling renamed over the target, so a reader never sees
// a half-written result file, and throws ychart::error naming the path.
#pragma once

#include "../config.hpp"
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
YCHART_DECL std::string read_text_file(const std::filesystem::path& path);

/// Replaces the file at `path` with `content`. Throws ychart::error naming the
/// path on failure and leaves no temporary file behind.
YCHART_DECL void write_text_file(const std::filesystem::path& path, std::string_view content);

}  // namespace ychart::io

#if YCHART_HEADER_ONLY
#include "impl/file.ipp"
#endif
