# Runs the mpi_sweep example serially and under mpirun with NP ranks, and
# checks that the two JSON outputs are identical, byte for byte.
# -DEXE=... -DMPIEXEC=... -DNPFLAG=... -DNP=... -DWORK=...
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${EXE} --json --svg-dir ${WORK}/svg OUTPUT_FILE ${WORK}/serial.json RESULT_VARIABLE serial_rc)
if(NOT serial_rc EQUAL 0)
  message(FATAL_ERROR "serial run failed (${serial_rc})")
endif()
execute_process(COMMAND ${MPIEXEC} ${NPFLAG} ${NP} ${EXE} --json --svg-dir ${WORK}/svg
  OUTPUT_FILE ${WORK}/np${NP}.json RESULT_VARIABLE mpi_rc)
if(NOT mpi_rc EQUAL 0)
  message(FATAL_ERROR "mpirun with ${NP} ranks failed (${mpi_rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/serial.json ${WORK}/np${NP}.json
  RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "the run on ${NP} ranks differs from the serial run: ${WORK}/serial.json, ${WORK}/np${NP}.json")
endif()
file(READ ${WORK}/serial.json text)
string(FIND "${text}" "\"optimal\"" found)
if(found EQUAL -1)
  message(FATAL_ERROR "no optimal point in ${WORK}/serial.json")
endif()
message(STATUS "${NP} ranks: identical to the serial run")
