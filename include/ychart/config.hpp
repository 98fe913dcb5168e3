// ychart/config.hpp
// How ychart is built. Header-only (the default): every function is defined
// inline in the headers, and a program needs nothing but `-lipopt -lglpk`
// and CBC's libraries (`pkg-config --cflags --libs cbc`).
// Compiled once (define YCHART_SEPARATE_COMPILATION everywhere, and compile
// <ychart/impl/src.hpp> in exactly one source file, as the CMake target
// ychart::ychart does): the headers declare the solver entry points
// (Model::solve, SignomialModel::solve, ...) and their implementation, with
// the GP back ends, GLPK, the mixed-integer engine and the loaders, is
// compiled once instead of in every translation unit (Boost.Asio's
// BOOST_ASIO_SEPARATE_COMPILATION, fmt's and spdlog's compiled modes).
#pragma once

#if defined(YCHART_SEPARATE_COMPILATION)
#define YCHART_HEADER_ONLY 0
/// Marks a function defined in an implementation file (`impl/*.ipp`):
/// inline when the file is included by its header, an ordinary definition
/// when <ychart/impl/src.hpp> compiles it once.
#define YCHART_DECL
#else
#define YCHART_HEADER_ONLY 1
#define YCHART_DECL inline
#endif
