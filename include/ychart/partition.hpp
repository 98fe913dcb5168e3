// ychart/partition.hpp
// Study 004's class: a sequential graph split between a CPU and an FPGA, the
// exact partition and FINN folding models, enumeration, FINN's layer
// estimates, and the JSON format of a partition problem.
#pragma once

#include "core.hpp"
#include "finn/estimates.hpp"
#include "partition/sequential_graph.hpp"
#include "partition/evaluate.hpp"
#include "partition/enumerate.hpp"
#include "partition/partition_model.hpp"
#include "partition/folding_model.hpp"
#include "partition/load.hpp"
