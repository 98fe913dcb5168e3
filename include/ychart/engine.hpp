// ychart/engine.hpp
// The solver engine below Model::solve, for those who test or extend it:
// the log-space standard form and the mixed-integer form (lower/), the
// native GP solver and the Ipopt TNLP, GLPK, outer approximation, branch and
// bound, the rounding heuristic, symmetry detection and the symmetric
// decomposition. It brings Ipopt's and GLPK's headers and is always
// header-only; a model file does not need it (<ychart/core.hpp> is enough).
#pragma once

#include "core.hpp"
#include "lower/gp_standard_form.hpp"
#include "lower/lower_minlp.hpp"
#include "solve/gp/gp_result.hpp"
#include "solve/gp/native_gp.hpp"
#include "solve/gp/ipopt_gp.hpp"
#include "solve/signomial/ipopt_sp.hpp"
#include "solve/gp/gp_backend.hpp"
#include "solve/milp/solve_milp.hpp"
#include "solve/mixed_integer/migp_context.hpp"
#include "solve/mixed_integer/outer_approximation.hpp"
#include "solve/mixed_integer/branch_and_bound.hpp"
#include "solve/mixed_integer/rounding_heuristic.hpp"
#include "solve/mixed_integer/integer_neighbourhood.hpp"
#include "solve/mixed_integer/migp.hpp"
#include "solve/symmetry/symmetric_packing.hpp"
#include "solve/symmetry/symmetric_allocation.hpp"
#include "solve/symmetry/symmetry.hpp"
