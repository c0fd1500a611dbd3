# dla_verilate(TARGET t PREFIX p TOP m SOURCES ... [PARAMS Name=Value ...])
# Verilates one unit top for one configuration into the library target `t`. Each call needs a
# unique PREFIX (Verilator's rule); models are built with FST tracing so --wave works on every
# run, and with --x-assign/--x-initial unique so +verilator+rand+reset+N takes effect.
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)

function(dla_verilate)
  cmake_parse_arguments(A "" "TARGET;PREFIX;TOP" "SOURCES;PARAMS" ${ARGN})
  set(params)
  foreach(p ${A_PARAMS})
    list(APPEND params "-G${p}")
  endforeach()
  verilate(${A_TARGET}
    PREFIX ${A_PREFIX}
    TOP_MODULE ${A_TOP}
    SOURCES ${A_SOURCES}
    TRACE_FST
    OPT_FAST -O2
    OPT_SLOW -O1
    OPT_GLOBAL -O1
    VERILATOR_ARGS -Wall --x-assign unique --x-initial unique ${params})
endfunction()
