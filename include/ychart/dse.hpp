// ychart/dse.hpp
// Study 001's Y-chart layer: resource records, applications, architectures
// and heterogeneous platforms, mappings, evaluate, the mapping, platform and
// power models, local search, CSV/JSON loading (sweeps and Pareto fronts
// over any of them: <ychart/explore.hpp>).
#pragma once

#include "core.hpp"
#include "dse/resources.hpp"
#include "dse/application.hpp"
#include "dse/architecture.hpp"
#include "dse/mapping.hpp"
#include "dse/evaluate.hpp"
#include "dse/local_search.hpp"
#include "dse/mapping_model.hpp"
#include "dse/heterogeneous_application.hpp"
#include "dse/platform.hpp"
#include "dse/platform_evaluate.hpp"
#include "dse/platform_model.hpp"
#include "dse/platform_power_model.hpp"
#include "dse/platform_local_search.hpp"
#include "dse/relaxation.hpp"
#include "dse/power_model.hpp"
#include "dse/load.hpp"
