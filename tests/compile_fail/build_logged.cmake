# Builds TARGET in BUILD_DIR and writes what the compiler said to LOG. The
# build is expected to fail (compile-fail cases); it passes as a test when
# the compiler ran and produced errors, which check.py then attributes.
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(WRITE ${LOG} "${out}\n${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "the compile-fail group compiled without an error: every case is meant to fail")
endif()
if(NOT "${out}${err}" MATCHES "error:")
  message(FATAL_ERROR "the build failed without a compiler error:\n${out}\n${err}")
endif()
message(STATUS "compile-fail group: the compiler's output is in ${LOG}")
