# RTL quality checks as CTest tests.
#
#   dla_rtl_checks(NAME name TOP module SOURCES file.sv ...
#                  [PARAMS Name=Value ...] [DEFINES NAME[=VAL] ...] [INCLUDE_DIRS dir ...]
#                  [LINT_ARGS arg ...] [NO_LINT] [NO_SYNTH] [SYNTH_FULL_ONLY] [FLATTEN])
#
# registers, for one unit top in one configuration:
#   lint:<name>   verilator --lint-only -Wall --top-module <module> -G<Name=Value>... <files>
#                 (label `lint`; any Verilator warning fails it; LINT_ARGS are added as they
#                 are, e.g. -Wno-DECLFILENAME: Verilator 5.006 rejects an unknown -Wno-<code>)
#   synth:<name>  node scripts/synth/synth.mjs --top <module> --param Name=Value ... <files>
#                 (Yosys 0.55 via @yowasp/yosys; fails on a Yosys error or an inferred latch;
#                 label `synth`, TIMEOUT 2700 s; writes ${CMAKE_BINARY_DIR}/synth/<name>.json
#                 with {top, params, cells, latches, ok, ...} and the full Yosys log <name>.log;
#                 FLATTEN adds synth -flatten; SYNTH_FULL_ONLY adds the label `synth_full`:
#                 a further configuration of modules that another synth check already covers,
#                 left out of the CI run (`ctest -LE synth_full`) and run by `ctest -L synth`;
#                 CI runs `elab:<name>` for it instead (synth.mjs --elaborate: Yosys' front end,
#                 hierarchy and latch check, no mapping; label `elab`))
# Relative SOURCES / INCLUDE_DIRS are taken from the calling CMakeLists' directory; give the
# SystemVerilog packages first (both tools read the files in order). NAME must be unique.
# `node scripts/synth/report.mjs <build dir>` (or the `synth_report` target) turns the JSON
# summaries into a markdown table of cell counts.
#
# The first call installs the synthesis tool (scripts/synth/install.sh: npm ci, needs node >= 18
# and the npm registry) at configure time when scripts/synth/node_modules is missing; a failed
# install stops the configure. -DDLA_RTL_SYNTH=OFF skips the synth tests (and the install),
# -DDLA_RTL_LINT=OFF the lint tests.
# Testing must be enabled (enable_testing() / include(CTest)) in the calling directory before
# it is added, or CMake silently drops its tests; a warning says so.

include_guard(GLOBAL)

option(DLA_RTL_LINT "Register lint:<name> tests (verilator --lint-only) in dla_rtl_checks" ON)
option(DLA_RTL_SYNTH "Register synth:<name> tests (Yosys 0.55 via node) in dla_rtl_checks" ON)
# A hang guard, in wall seconds: the checks run at nice 10 beside the build (scripts/test.sh), so
# on a slow 2-core machine the costliest one (sdp_default, about 130 CPU-s) is starved for most of
# the build: 950 s of wall on 2026-11-28's VM in a quiet cold run, over 1200 s beside another job.
set(DLA_RTL_SYNTH_TIMEOUT 2700 CACHE STRING "TIMEOUT in seconds of each synth:<name> test")

get_filename_component(_dla_synth_dir "${CMAKE_CURRENT_LIST_DIR}/../scripts/synth" ABSOLUTE)
set(_DLA_SYNTH_DIR "${_dla_synth_dir}" CACHE INTERNAL "scripts/synth of dlacosim")

function(_dla_rtl_synth_setup)
  get_property(done GLOBAL PROPERTY _DLA_RTL_SYNTH_READY)
  if(done)
    return()
  endif()
  find_program(DLA_NODE_EXECUTABLE NAMES node nodejs DOC "Node.js, runs scripts/synth/synth.mjs")
  if(NOT DLA_NODE_EXECUTABLE)
    message(FATAL_ERROR
      "dla_rtl_checks: node (Node.js >= 18) not found; the synth:<name> tests run Yosys through "
      "it. Install it (Debian: apt-get install nodejs npm) or configure with -DDLA_RTL_SYNTH=OFF.")
  endif()
  if(NOT EXISTS "${_DLA_SYNTH_DIR}/node_modules/@yowasp/yosys/package.json")
    message(STATUS "dla_rtl_checks: installing @yowasp/yosys (${_DLA_SYNTH_DIR}/install.sh)")
    execute_process(
      COMMAND bash "${_DLA_SYNTH_DIR}/install.sh"
      WORKING_DIRECTORY "${_DLA_SYNTH_DIR}"
      RESULT_VARIABLE rc
      OUTPUT_VARIABLE out
      ERROR_VARIABLE out)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${_DLA_SYNTH_DIR}/node_modules/@yowasp/yosys/package.json")
      message(FATAL_ERROR
        "dla_rtl_checks: installing the synthesis tool failed (${_DLA_SYNTH_DIR}/install.sh, "
        "exit ${rc}):\n${out}\nFix the install (node >= 18, npm, the npm registry) and rerun "
        "cmake, or configure with -DDLA_RTL_SYNTH=OFF to skip the synth:<name> tests.")
    endif()
    message(STATUS "dla_rtl_checks: ${out}")
  endif()
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/synth")
  if(NOT TARGET synth_report)
    add_custom_target(synth_report
      COMMAND "${DLA_NODE_EXECUTABLE}" "${_DLA_SYNTH_DIR}/report.mjs" "${CMAKE_BINARY_DIR}"
      COMMENT "Synthesis cell counts (run `ctest -L synth` first)"
      VERBATIM)
  endif()
  set_property(GLOBAL PROPERTY _DLA_RTL_SYNTH_READY TRUE)
endfunction()

function(dla_rtl_checks)
  cmake_parse_arguments(PARSE_ARGV 0 A "NO_LINT;NO_SYNTH;SYNTH_FULL_ONLY;FLATTEN" "NAME;TOP"
                        "SOURCES;PARAMS;DEFINES;INCLUDE_DIRS;LINT_ARGS")
  if(A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "dla_rtl_checks: unexpected arguments: ${A_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT A_NAME OR NOT A_TOP OR NOT A_SOURCES)
    message(FATAL_ERROR "dla_rtl_checks: NAME, TOP and SOURCES are required")
  endif()
  list(REMOVE_DUPLICATES A_SOURCES)  # each file once, at its first place (as dla_verilate)
  if(NOT A_NAME MATCHES "^[A-Za-z0-9_.+-]+$")
    message(FATAL_ERROR "dla_rtl_checks: NAME '${A_NAME}' may use only letters, digits and _.+-")
  endif()
  get_property(names GLOBAL PROPERTY _DLA_RTL_CHECK_NAMES)
  if("${A_NAME}" IN_LIST names)
    message(FATAL_ERROR "dla_rtl_checks: NAME '${A_NAME}' is already used")
  endif()
  set_property(GLOBAL APPEND PROPERTY _DLA_RTL_CHECK_NAMES "${A_NAME}")
  get_property(warned DIRECTORY PROPERTY _DLA_RTL_CHECKS_WARNED)
  if(NOT CMAKE_TESTING_ENABLED AND NOT warned)
    set_property(DIRECTORY PROPERTY _DLA_RTL_CHECKS_WARNED TRUE)
    message(WARNING "dla_rtl_checks(${A_NAME}): testing is not enabled in "
      "${CMAKE_CURRENT_SOURCE_DIR}, so CMake drops its lint:/synth: tests; call enable_testing() "
      "(or include(CTest)) before add_subdirectory() of this directory.")
  endif()

  set(srcs)
  foreach(f IN LISTS A_SOURCES)
    get_filename_component(abs "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${abs}")
      message(FATAL_ERROR "dla_rtl_checks(${A_NAME}): source file not found: ${abs}")
    endif()
    list(APPEND srcs "${abs}")
  endforeach()
  set(incs)
  foreach(d IN LISTS A_INCLUDE_DIRS)
    get_filename_component(abs "${d}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND incs "${abs}")
  endforeach()
  foreach(p IN LISTS A_PARAMS)
    if(NOT p MATCHES "^[A-Za-z_][A-Za-z0-9_]*=.+$")
      message(FATAL_ERROR "dla_rtl_checks(${A_NAME}): PARAMS entries are Name=Value, got '${p}'")
    endif()
  endforeach()

  if(DLA_RTL_LINT AND NOT A_NO_LINT)
    find_program(DLA_VERILATOR_EXECUTABLE NAMES verilator
                 HINTS "${VERILATOR_ROOT}/bin" "$ENV{VERILATOR_ROOT}/bin"
                 DOC "verilator (the wrapper script), used by the lint:<name> tests")
    if(NOT DLA_VERILATOR_EXECUTABLE)
      message(FATAL_ERROR "dla_rtl_checks: verilator not found (or configure with -DDLA_RTL_LINT=OFF)")
    endif()
    set(args --lint-only -Wall --top-module "${A_TOP}")
    foreach(p IN LISTS A_PARAMS)
      list(APPEND args "-G${p}")
    endforeach()
    foreach(d IN LISTS A_DEFINES)
      list(APPEND args "+define+${d}")
    endforeach()
    foreach(d IN LISTS incs)
      list(APPEND args "-I${d}")
    endforeach()
    add_test(NAME "lint:${A_NAME}"
             COMMAND "${DLA_VERILATOR_EXECUTABLE}" ${args} ${A_LINT_ARGS} ${srcs})
    set_tests_properties("lint:${A_NAME}" PROPERTIES LABELS lint TIMEOUT 300)
  endif()

  if(DLA_RTL_SYNTH AND NOT A_NO_SYNTH)
    _dla_rtl_synth_setup()
    set(args --top "${A_TOP}")
    foreach(p IN LISTS A_PARAMS)
      list(APPEND args --param "${p}")
    endforeach()
    foreach(d IN LISTS A_DEFINES)
      list(APPEND args --define "${d}")
    endforeach()
    foreach(d IN LISTS incs)
      list(APPEND args --incdir "${d}")
    endforeach()
    if(A_FLATTEN)
      list(APPEND args --flatten)
    endif()
    list(APPEND args --json "${CMAKE_BINARY_DIR}/synth/${A_NAME}.json"
                     --log "${CMAKE_BINARY_DIR}/synth/${A_NAME}.log")
    add_test(NAME "synth:${A_NAME}"
             COMMAND "${DLA_NODE_EXECUTABLE}" "${_DLA_SYNTH_DIR}/synth.mjs" ${args} ${srcs})
    if(A_SYNTH_FULL_ONLY)
      # What CI keeps of a full-only configuration: Yosys' front end, hierarchy and latch check.
      list(TRANSFORM args REPLACE "/synth/${A_NAME}\\.(json|log)$" "/synth/elab-${A_NAME}.\\1")
      add_test(NAME "elab:${A_NAME}"
               COMMAND "${DLA_NODE_EXECUTABLE}" "${_DLA_SYNTH_DIR}/synth.mjs" --elaborate ${args} ${srcs})
      set_tests_properties("elab:${A_NAME}" PROPERTIES LABELS elab TIMEOUT ${DLA_RTL_SYNTH_TIMEOUT})
    endif()
    set(labels synth)
    if(A_SYNTH_FULL_ONLY)
      list(APPEND labels synth_full)
    endif()
    # COST: ctest -j starts the costliest tests first; a fresh clone has no timing history, and
    # a synthesis (up to minutes) started last would be the run's tail.
    set_tests_properties("synth:${A_NAME}" PROPERTIES
      LABELS "${labels}" TIMEOUT ${DLA_RTL_SYNTH_TIMEOUT} COST 1000)
  endif()
endfunction()
