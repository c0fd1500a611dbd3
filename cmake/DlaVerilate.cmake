# dla_verilate(TARGET t PREFIX p TOP m SOURCES ... [PARAMS Name=Value ...])
# Verilates one unit top for one configuration into the library target `t`. Each call needs a
# unique PREFIX (Verilator's rule); models are built with FST tracing so --wave works on every
# run, and with --x-assign/--x-initial unique so +verilator+rand+reset+N takes effect.
#
# Build time: the code Verilator marks slow (construction, initial settling, the trace
# declarations and full dumps) runs once per run, so it is compiled at -O0; at -O1 the
# single-function trace declarations of a large model took GCC up to a minute each. Parameters
# are not traced (--no-trace-params): the register-map package alone declared about 4000 of them
# in every model. The per-cycle code stays at -O2.
#
# -DDLA_COVERAGE=ON (scripts/coverage.sh, in its own build directory) adds Verilator's line,
# toggle and user (cover property) coverage to every model; the harness then collects it per run
# (harness/coverage.hpp). Off by default: coverage counters slow every cycle.
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)
option(DLA_COVERAGE "Build every verilated model with line, toggle and cover-point coverage" OFF)

function(dla_verilate)
  if(DLA_RTL_CHECKS_ONLY)
    return()  # a tree of the lint and synthesis checks only (scripts/test.sh)
  endif()
  cmake_parse_arguments(A "" "TARGET;PREFIX;TOP" "SOURCES;PARAMS" ${ARGN})
  set(params)
  if(DLA_COVERAGE)
    list(APPEND params --coverage-line --coverage-toggle --coverage-user)
  endif()
  foreach(p ${A_PARAMS})
    list(APPEND params "-G${p}")
  endforeach()
  # Verilator writes the source paths it is given into the C++ it generates (VL_FATAL_MT
  # messages): given relative to this folder (Verilator runs here), the generated C++ is the same
  # in every clone, so ccache (CCACHE_BASEDIR, cmake/DlaCompiler.cmake) serves a second clone.
  set(sources)
  foreach(s ${A_SOURCES})
    file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${s})
    list(APPEND sources ${rel})
  endforeach()
  verilate(${A_TARGET}
    PREFIX ${A_PREFIX}
    TOP_MODULE ${A_TOP}
    SOURCES ${sources}
    TRACE_FST
    OPT_FAST -O2
    OPT_SLOW -O0
    OPT_GLOBAL -O1
    VERILATOR_ARGS -Wall --no-trace-params --x-assign unique --x-initial unique ${params})
endfunction()
