// ychart/explore.hpp
// Problem-independent design-space exploration, above the solvers and the
// problem classes: sweeps of any evaluation or solve over a parameter grid
// (in parallel, over MPI ranks when built with ychart::mpi) and exact Pareto
// fronts by the epsilon-constraint method (a grid of epsilons or a walk).
#pragma once

#include "explore/sweep.hpp"
#include "explore/pareto.hpp"
