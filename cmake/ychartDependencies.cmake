# Finds ychart's dependencies; used both by the build tree and by the
# installed package (ychartConfig.cmake includes this file).
include(CMakeFindDependencyMacro)
find_dependency(Boost 1.66)          # Boost::headers (Hana)
find_dependency(Eigen3 3.3 NO_MODULE)
find_dependency(range-v3)
find_dependency(nlohmann_json 3.10)  # io/json.hpp parses and writes through it
find_package(PkgConfig REQUIRED)

# Ipopt ships a pkg-config file (coinor-libipopt-dev).
if(NOT TARGET ychart::deps::ipopt)
  pkg_check_modules(YCHART_IPOPT REQUIRED IMPORTED_TARGET GLOBAL ipopt)
  add_library(ychart::deps::ipopt INTERFACE IMPORTED GLOBAL)
  target_link_libraries(ychart::deps::ipopt INTERFACE PkgConfig::YCHART_IPOPT)
endif()

# CBC, the second MILP back end, ships a pkg-config file (coinor-libcbc-dev).
if(NOT TARGET ychart::deps::cbc)
  pkg_check_modules(YCHART_CBC REQUIRED IMPORTED_TARGET GLOBAL cbc)
  add_library(ychart::deps::cbc INTERFACE IMPORTED GLOBAL)
  target_link_libraries(ychart::deps::cbc INTERFACE PkgConfig::YCHART_CBC)
endif()

# Debian ships no pkg-config file for GLPK: find header and library directly.
if(NOT TARGET ychart::deps::glpk)
  find_path(YCHART_GLPK_INCLUDE_DIR glpk.h REQUIRED)
  find_library(YCHART_GLPK_LIBRARY glpk REQUIRED)
  add_library(ychart::deps::glpk UNKNOWN IMPORTED GLOBAL)
  set_target_properties(ychart::deps::glpk PROPERTIES
    IMPORTED_LOCATION "${YCHART_GLPK_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${YCHART_GLPK_INCLUDE_DIR}")
endif()
