// ychart/ychart.hpp
// The whole library: units, typed expressions, models, the log-space
// lowering, the Ipopt GP solver and solutions.
#pragma once

#include "error.hpp"
#include "units/dimension.hpp"
#include "units/unit.hpp"
#include "expr/expr_class.hpp"
#include "expr/expression.hpp"
#include "expr/variable.hpp"
#include "expr/constraint.hpp"
#include "expr/operators.hpp"
#include "expr/functions.hpp"
#include "model/status.hpp"
#include "model/model.hpp"
#include "result/solution.hpp"
#include "lower/gp_standard_form.hpp"
#include "solve/ipopt_gp.hpp"
#include "solve/glpk_milp.hpp"
#include "lower/minlp_form.hpp"
#include "solve/migp_context.hpp"
#include "solve/outer_approximation.hpp"
#include "solve/branch_and_bound.hpp"
#include "solve/rounding_heuristic.hpp"
#include "solve/migp.hpp"
#include "solve/symmetric_packing.hpp"
#include "solve/symmetric_allocation.hpp"
#include "solve/solve.hpp"
