// ychart/solve/signomial/sequential_gp.hpp
// SignomialModel::solve(): sequential GP, a local optimum (the steps are in
// solve/signomial/impl/sequential_gp.ipp). SignomialModel::solve is declared in
// model/signomial_model.hpp. Header-only, this header brings its definition;
// with YCHART_SEPARATE_COMPILATION it is compiled once, in
// <ychart/impl/src.hpp>.
#pragma once

#include "../../config.hpp"
#include "../../model/signomial_model.hpp"
#include "../../result/solution.hpp"
#include "../solve.hpp"

#if YCHART_HEADER_ONLY
#include "impl/sequential_gp.ipp"
#endif
