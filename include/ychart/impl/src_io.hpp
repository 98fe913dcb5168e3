// ychart/impl/src_io.hpp
// One part of the compiled part of ychart (see impl/src.hpp): the readers and writers: CSV, JSON, tables, SVG, the HTML report;
// and the thread pool of explore::sweep.
// The CMake target compiles each part in a source of its own, so that a
// parallel build compiles them side by side.
#pragma once

#include "../config.hpp"

#if YCHART_HEADER_ONLY
#error "ychart/impl/src_io.hpp is for YCHART_SEPARATE_COMPILATION builds; header-only programs do not include it"
#endif

// In dependency order: an implementation file comes after those of the
// headers its header includes.
#include "../io/impl/file.ipp"
#include "../io/impl/csv.ipp"
#include "../io/impl/json.ipp"
#include "../io/impl/json_fields.ipp"
#include "../io/impl/svg.ipp"
#include "../io/impl/table.ipp"
#include "../report/impl/report.ipp"
#include "../explore/impl/local_sweep.ipp"
