// ychart/impl/src.hpp
// The compiled part of ychart. With YCHART_SEPARATE_COMPILATION defined in
// every translation unit, include this header in exactly one source file of
// the program (the CMake target ychart::ychart does that for you, from
// ychart's installed src/ychart.cpp). It defines, once, the solver entry
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

// In dependency order: an implementation file comes after those of the
// headers its header includes.
#include "../solve/impl/solve.ipp"
#include "../solve/impl/sequential_gp.ipp"
#include "../solve/impl/alpha_penalty.ipp"
#include "../finn/impl/estimates.ipp"
#include "../io/impl/file.ipp"
#include "../io/impl/csv.ipp"
#include "../io/impl/json.ipp"
#include "../io/impl/json_fields.ipp"
#include "../io/impl/svg.ipp"
#include "../io/impl/table.ipp"
#include "../loopnest/impl/refine.ipp"
#include "../loopnest/impl/evaluate.ipp"
#include "../loopnest/impl/cnn.ipp"
#include "../loopnest/impl/binding_model.ipp"
#include "../loopnest/impl/design_model.ipp"
#include "../loopnest/impl/load.ipp"
#include "../partition/impl/evaluate.ipp"
#include "../partition/impl/enumerate.ipp"
#include "../partition/impl/partition_model.ipp"
#include "../partition/impl/folding_model.ipp"
#include "../report/impl/report.ipp"
#include "../synthesis/impl/implementation.ipp"
#include "../synthesis/impl/evolutionary.ipp"
#include "../synthesis/impl/load.ipp"
#include "../synthesis/impl/synthesis_model.ipp"
#include "../synthesis/impl/pareto.ipp"
