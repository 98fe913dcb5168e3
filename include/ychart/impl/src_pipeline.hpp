// ychart/impl/src_pipeline.hpp
// One part of the compiled part of ychart (see impl/src.hpp): the sweeps' thread
// pool, and the pipeline/ templates instantiated for the records ychart ships, FpgaResources and the
// FPGA-and-GPU platform. The headers declare these instances extern when
// ychart is compiled once, so a program's files do not instantiate them.
#pragma once

#include "../config.hpp"

#if YCHART_HEADER_ONLY
#error "ychart/impl/src_pipeline.hpp is for YCHART_SEPARATE_COMPILATION builds; header-only programs do not include it"
#endif

#include "../pipeline.hpp"

namespace ychart::pipeline {

YCHART_DSE_EVALUATE_INSTANCES(, FpgaResources)
YCHART_DSE_LOAD_INSTANCES(, FpgaResources)
YCHART_DSE_LOCAL_SEARCH_INSTANCES(, FpgaResources)
YCHART_DSE_MAPPING_MODEL_INSTANCES(, FpgaResources)
YCHART_DSE_POWER_MODEL_INSTANCES(, FpgaResources)
YCHART_DSE_RELAXATION_INSTANCES(, FpgaResources)
YCHART_DSE_EVALUATE_INSTANCES(, FpgaResources, GpuResources)
YCHART_DSE_LOCAL_SEARCH_INSTANCES(, FpgaResources, GpuResources)
YCHART_DSE_MAPPING_MODEL_INSTANCES(, FpgaResources, GpuResources)
YCHART_DSE_GROUPS_POWER_MODEL_INSTANCES(, FpgaResources, GpuResources)

}  // namespace ychart::pipeline
