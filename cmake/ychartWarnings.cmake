# Warnings for ychart's own targets (tests, examples, benchmarks, header
# tests): -Wall -Wextra -Wpedantic, as errors unless
# YCHART_WARNINGS_AS_ERRORS is OFF. Dependencies' headers come in through
# imported targets, which CMake includes as system headers: their warnings
# do not count.
option(YCHART_WARNINGS_AS_ERRORS "Treat warnings in ychart's own targets as errors" ${PROJECT_IS_TOP_LEVEL})

function(ychart_strict_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
    # GCC 12 warns falsely on `"x" + std::to_string(i)` at -O2 and above (GCC bug 105651).
    $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>
    $<$<BOOL:${YCHART_WARNINGS_AS_ERRORS}>:-Werror>)
endfunction()
