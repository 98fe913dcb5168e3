# Configures ychart, installs it into a scratch prefix, then configures, builds
# and runs tests/consumer against that prefix, and checks the pkg-config file.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib -DCMAKE_INSTALL_PREFIX=${prefix}
    -DYCHART_BUILD_TESTS=OFF -DYCHART_BUILD_EXAMPLES=OFF -DYCHART_BUILD_BENCHMARKS=OFF)
run(${CMAKE_COMMAND} --install ${WORK_DIR}/lib)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/app -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/app)
run(${WORK_DIR}/app/consumer)
run(${WORK_DIR}/app/consumer_header_only)
# pkg-config: the installed ychart.pc must give flags that build the same program.
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${prefix}/share/pkgconfig)
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs ychart OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not find ychart.pc")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run(c++ ${SOURCE_DIR}/tests/consumer/main.cpp -o ${WORK_DIR}/pc_consumer ${flags})
run(${WORK_DIR}/pc_consumer)
message(STATUS "installed package and pkg-config file work")
