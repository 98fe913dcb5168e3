// ychart/pipeline.hpp
// Study 001's class, pipelined kernels on device groups: resource records,
// applications, architectures and heterogeneous platforms, mappings,
// evaluate, the mapping, platform and power models, local search, the
// least II proven by placement search, CSV/JSON loading (sweeps and Pareto fronts over any of them: <ychart/explore.hpp>).
#pragma once

#include "core.hpp"
#include "pipeline/resources.hpp"
#include "pipeline/application.hpp"
#include "pipeline/architecture.hpp"
#include "pipeline/mapping.hpp"
#include "pipeline/evaluate.hpp"
#include "pipeline/local_search.hpp"
#include "pipeline/placement_search.hpp"
#include "pipeline/mapping_model.hpp"
#include "pipeline/relaxation.hpp"
#include "pipeline/power_model.hpp"
#include "pipeline/load.hpp"
