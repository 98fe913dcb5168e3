// ychart/solve/solve.hpp
// Model::solve(): lowers the model, runs a GP back end (the native
// interior-point method or Ipopt) or the mixed-integer engine, and turns the
// outcome into a Solution with a status that can be trusted. A failed run is
// never reported as infeasible on the solver's word alone: the feasibility
// relaxation (product of slacks) decides between `infeasible`, with the
// constraints to relax, and `numerical_error`. An optimum that sits on the
// artificial box around log space means the model is unbounded.
//
// Model::solve is declared in model/model.hpp. Header-only, this header
// brings its definition (solve/impl/solve.ipp, and with it every solver);
// with YCHART_SEPARATE_COMPILATION it brings nothing more, and the solvers
// are compiled once, in <ychart/impl/src.hpp>.
#pragma once

#include "../config.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"

#if YCHART_HEADER_ONLY
#include "impl/solve.ipp"
#endif
