// ychart/solve/milp/solve_milp.hpp
// solve_milp(): a mixed-integer linear program by the back end its options
// name -- GLPK (glpk_milp.hpp) or CBC (cbc_milp.hpp) -- or, for
// MilpSolver::automatic, by the one measured faster at the form's size.
#pragma once

#include "cbc_milp.hpp"
#include "glpk_milp.hpp"
#include "milp_form.hpp"

namespace ychart::solve::milp {

/// The back end MilpSolver::automatic picks for the form: GLPK for forms
/// under milp_cbc_columns columns, where it solves in milliseconds what CBC
/// takes tens of milliseconds to set up, and CBC from there, where its root
/// cuts close gaps GLPK's branch and bound does not (docs/performance.md).
inline MilpSolver choose_milp_solver(const MilpForm& f, MilpSolver asked) {
  if (asked != MilpSolver::automatic) return asked;
  return f.n >= milp_cbc_columns ? MilpSolver::cbc : MilpSolver::glpk;
}

inline MilpResult solve_milp(const MilpForm& f, const MilpOptions& o = {}) {
  return choose_milp_solver(f, o.solver) == MilpSolver::cbc ? solve_milp_cbc(f, o) : solve_milp_glpk(f, o);
}

}  // namespace ychart::solve::milp
