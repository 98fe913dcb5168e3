// The compiled part of ychart, built once per program (YCHART_SEPARATE_COMPILATION):
// the CMake target ychart::ychart compiles this file, in ychart's own build
// and, from the installed copy, in a consumer's build.
#include <ychart/impl/src.hpp>
