// ychart/ychart.hpp
// The whole library: the modelling core (<ychart/core.hpp>), the problem
// classes (<ychart/pipeline.hpp>, <ychart/partition.hpp>, <ychart/loopnest.hpp>,
// <ychart/synthesis.hpp>), exploration over any of them (<ychart/explore.hpp>),
// the studies' baselines (<ychart/baselines.hpp>) and input and output
// (<ychart/io.hpp>).
// Header-only, it also brings the solver engine (<ychart/engine.hpp>), as it
// always has; with YCHART_SEPARATE_COMPILATION the engine is compiled once
// and a program includes <ychart/engine.hpp> only to use it directly.
#pragma once

#include "config.hpp"
#include "core.hpp"
#if YCHART_HEADER_ONLY
#include "engine.hpp"
#endif
#include "explore.hpp"
#include "pipeline.hpp"
#include "io.hpp"
#include "partition.hpp"
#include "loopnest.hpp"
#include "mapping.hpp"
#include "synthesis.hpp"
#include "baselines.hpp"
