// ychart/mapping.hpp
// The loop-nest mapping class: a layer's seven loops (workload.hpp), a
// memory hierarchy of storage levels with fan-outs (architecture.hpp), a
// mapping of tile factors, spatial factors and loop orders per level
// (mapping.hpp), its exact price (evaluate.hpp), and the mapper that
// proves its mapping optimal for energy, latency or energy-delay
// (search.hpp), a network at a time (network.hpp) and the exact
// energy-latency front of a layer (pareto.hpp). The random and exhaustive
// mappers it is compared with are in <ychart/baselines/mappers.hpp>; the
// YAML loader, <ychart/mapping/load.hpp>, is not included here: it needs
// yaml-cpp, which programs that read no YAML need not link.
#pragma once

#include "mapping/workload.hpp"
#include "mapping/architecture.hpp"
#include "mapping/mapping.hpp"
#include "mapping/evaluate.hpp"
#include "mapping/objective.hpp"
#include "mapping/search.hpp"
#include "mapping/network.hpp"
#include "mapping/pareto.hpp"
