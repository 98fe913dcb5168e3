// ychart/impl/src_classes.hpp
// One part of the compiled part of ychart (see impl/src.hpp): the non-template functions of the problem classes (finn/,
// partition/, loopnest/, mapping/, synthesis/) and of baselines/: their models, evaluators and loaders.
// The CMake target compiles each part in a source of its own, so that a
// parallel build compiles them side by side.
#pragma once

#include "../config.hpp"

#if YCHART_HEADER_ONLY
#error "ychart/impl/src_classes.hpp is for YCHART_SEPARATE_COMPILATION builds; header-only programs do not include it"
#endif

// In dependency order: an implementation file comes after those of the
// headers its header includes.
#include "../finn/impl/estimates.ipp"
#include "../loopnest/impl/platform.ipp"
#include "../loopnest/impl/refine.ipp"
#include "../loopnest/impl/evaluate.ipp"
#include "../loopnest/impl/cnn.ipp"
#include "../loopnest/impl/binding_model.ipp"
#include "../loopnest/impl/design_model.ipp"
#include "../loopnest/impl/load.ipp"
#include "../mapping/impl/workload.ipp"
#include "../mapping/impl/architecture.ipp"
#include "../mapping/impl/mapping.ipp"
#include "../mapping/impl/evaluate.ipp"
#include "../baselines/impl/mappers.ipp"
#include "../mapping/impl/search.ipp"
#include "../mapping/impl/network.ipp"
#include "../mapping/impl/pareto.ipp"
#include "../partition/impl/evaluate.ipp"
#include "../partition/impl/enumerate.ipp"
#include "../partition/impl/partition_model.ipp"
#include "../partition/impl/folding_model.ipp"
#include "../partition/impl/finn_folding.ipp"
#include "../partition/impl/load.ipp"
#include "../synthesis/impl/application.ipp"
#include "../synthesis/impl/architecture.ipp"
#include "../synthesis/impl/specification.ipp"
#include "../synthesis/impl/implementation.ipp"
#include "../baselines/impl/evolutionary.ipp"
#include "../baselines/impl/shan2021.ipp"
#include "../synthesis/impl/load.ipp"
#include "../synthesis/impl/synthesis_model.ipp"
#include "../synthesis/impl/pareto.ipp"
