// ychart/solve/solve.hpp
// Model::solve(): an ordered list of strategies (the symmetric
// decomposition, the mixed-integer search, the geometric program), the
// first that accepts the model solving it (solve/impl/solve.ipp). Each turns
// its outcome into a Solution with a status that can be trusted: a failed
// GP run is never reported as infeasible on the solver's word alone (the
// feasibility relaxation decides, solve/gp/gp_model.hpp), and an optimum on
// the artificial box around log space means the model is unbounded.
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
