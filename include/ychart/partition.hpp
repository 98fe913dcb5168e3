// ychart/partition.hpp
// Study 004's class: a sequential graph split between a CPU and an FPGA, the
// exact partition and FINN folding models, enumeration, FINN's layer
// estimates, the JSON format of a partition problem, and the export of a
// proven folding as FINN's folding configuration.
#pragma once

#include "core.hpp"
#include "finn/estimates.hpp"
#include "partition/sequential_graph.hpp"
#include "partition/evaluate.hpp"
#include "partition/enumerate.hpp"
#include "partition/partition_model.hpp"
#include "partition/folding_model.hpp"
#include "partition/finn_folding.hpp"
#include "partition/load.hpp"
