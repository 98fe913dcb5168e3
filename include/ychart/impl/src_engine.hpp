// ychart/impl/src_engine.hpp
// One part of the compiled part of ychart (see impl/src.hpp): the solver entry points (Model::solve, SignomialModel::solve,
// alpha_penalty_sweep) and everything behind them: the native GP solver and
// Ipopt, GLPK, the mixed-integer engine, symmetry, sequential GP.
// The CMake target compiles each part in a source of its own, so that a
// parallel build compiles them side by side.
#pragma once

#include "../config.hpp"

#if YCHART_HEADER_ONLY
#error "ychart/impl/src_engine.hpp is for YCHART_SEPARATE_COMPILATION builds; header-only programs do not include it"
#endif

// In dependency order: an implementation file comes after those of the
// headers its header includes.
#include "../solve/impl/solve.ipp"
#include "../solve/signomial/impl/sequential_gp.ipp"
#include "../baselines/impl/alpha_penalty.ipp"
