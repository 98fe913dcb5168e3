// ychart/synthesis.hpp
// Study 003's class: system-level synthesis on architecture graphs (resources,
// links, task graphs, mapping options), the exact allocation-binding-routing
// model, evaluation, exact Pareto fronts and the JSON loader (the thesis's
// evolutionary baseline: <ychart/baselines/evolutionary.hpp>).
#pragma once

#include "core.hpp"
#include "synthesis/architecture.hpp"
#include "synthesis/application.hpp"
#include "synthesis/specification.hpp"
#include "synthesis/implementation.hpp"
#include "synthesis/synthesis_model.hpp"
#include "synthesis/pareto.hpp"
#include "synthesis/load.hpp"
