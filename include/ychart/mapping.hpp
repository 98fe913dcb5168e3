// ychart/mapping.hpp
// The loop-nest mapping class: a layer's seven loops (workload.hpp), a
// memory hierarchy of storage levels with fan-outs (architecture.hpp), a
// mapping of tile factors, spatial factors and loop orders per level
// (mapping.hpp), its exact price (evaluate.hpp), and the mapper that
// proves its mapping optimal for energy, latency or energy-delay
// (search.hpp). The random and exhaustive mappers it is compared with are
// in <ychart/baselines/mappers.hpp>.
#pragma once

#include "mapping/workload.hpp"
#include "mapping/architecture.hpp"
#include "mapping/mapping.hpp"
#include "mapping/evaluate.hpp"
#include "mapping/objective.hpp"
#include "mapping/search.hpp"
