// ychart/core.hpp
// The modelling core, all a model file needs: units and dimensions, typed
// expressions, Model and SignomialModel, Model::solve and sequential GP,
// and Solution (the studies' baselines: <ychart/baselines.hpp>). Like Eigen's
// <Eigen/Core>: include this, or the module of a problem class
// (<ychart/pipeline.hpp>, <ychart/partition.hpp>, <ychart/loopnest.hpp>,
// <ychart/synthesis.hpp>), or input and output (<ychart/io.hpp>), instead
// of the whole library (<ychart/ychart.hpp>).
#pragma once

#include "config.hpp"
#include "error.hpp"
#include "progress.hpp"
#include "units/dimension.hpp"
#include "units/unit.hpp"
#include "units/fpga_resources.hpp"
#include "units/operations.hpp"
#include "expr/expr_class.hpp"
#include "expr/expression.hpp"
#include "expr/variable.hpp"
#include "expr/constraint.hpp"
#include "expr/operators.hpp"
#include "expr/functions.hpp"
#include "model/status.hpp"
#include "model/model.hpp"
#include "model/signomial_model.hpp"
#include "result/solution.hpp"
#include "solve/solve.hpp"
#include "solve/signomial/sequential_gp.hpp"
