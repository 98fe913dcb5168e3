// One part of ychart's compiled part (YCHART_SEPARATE_COMPILATION), built
// once per program: the CMake target ychart::ychart compiles src/*.cpp, in
// ychart's own build and, from the installed copies, in a consumer's build.
#include <ychart/impl/src_pipeline.hpp>
