// ychart/impl/src.hpp
// The compiled part of ychart. With YCHART_SEPARATE_COMPILATION defined in
// every translation unit, include this header in exactly one source file of
// the program (the CMake target ychart::ychart does that for you, from
// ychart's installed src/*.cpp, one part each). It defines, once, the solver entry
// points the headers declare and everything behind them: the native GP
// solver and Ipopt, GLPK, the mixed-integer engine, symmetry, sequential GP;
// the readers and writers (CSV, JSON, tables, SVG, the HTML report); and
// the non-template functions of the problem classes (their models,
// evaluators and loaders).
#pragma once

#include "../config.hpp"

#if YCHART_HEADER_ONLY
#error "ychart/impl/src.hpp is for YCHART_SEPARATE_COMPILATION builds; header-only programs do not include it"
#endif

#include "src_engine.hpp"
#include "src_io.hpp"
#include "src_classes.hpp"
#include "src_pipeline.hpp"
