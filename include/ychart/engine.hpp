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
#include "lower/minlp_form.hpp"
#include "solve/gp_result.hpp"
#include "solve/native_gp.hpp"
#include "solve/ipopt_gp.hpp"
#include "solve/ipopt_sp.hpp"
#include "solve/gp_backend.hpp"
#include "solve/glpk_milp.hpp"
#include "solve/migp_context.hpp"
#include "solve/outer_approximation.hpp"
#include "solve/branch_and_bound.hpp"
#include "solve/rounding_heuristic.hpp"
#include "solve/integer_neighbourhood.hpp"
#include "solve/migp.hpp"
#include "solve/symmetric_packing.hpp"
#include "solve/symmetric_allocation.hpp"
#include "solve/symmetry.hpp"
