# Compiler launcher, warnings and sanitizers for the project's own C++ (not for verilated code).
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  # The sloppiness lets ccache cache objects built with a precompiled header (dla_pch below).
  # The base directory makes the checkout's absolute paths relative in what ccache hashes, so a
  # second clone of the project in another folder reuses its objects, the verilated models' too
  # (cmake/DlaVerilate.cmake gives Verilator relative source paths).
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros
      CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} ${CCACHE_PROGRAM})
endif()

# Precompiled headers for the project's C++ targets: the large third-party and standard headers
# every translation unit parses again otherwise (about 1.5 s each). dla_pch(target [EXTRA ...]).
function(dla_pch target)
  target_precompile_headers(${target} PRIVATE <algorithm> <cstdint> <functional> <map> <memory>
                            <optional> <string> <string_view> <vector> ${ARGN})
endfunction()

add_library(dla_warnings INTERFACE)
target_compile_options(dla_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                              -Wno-sign-conversion -Wno-pedantic)

# Every undefined-behaviour report stops the program (so a test fails), as AddressSanitizer does.
# rtl/ clears these options for the verilated code (rtl/CMakeLists.txt): it is Verilator's, and
# instrumenting it would only make every simulation slower.
# With clang the same objects also carry libFuzzer's coverage instrumentation, so one build makes
# the sanitized tests and the fuzz targets of tests/fuzz (docs/FUZZING.md); the instrumentation's
# callbacks are no-ops outside a fuzz target.
set(DLA_FUZZ_TARGETS OFF)
if(DLA_SANITIZE)
  set(_dla_sanitizers address,undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(DLA_FUZZ_TARGETS ON)
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
  add_compile_options(-fsanitize=${_dla_sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${_dla_sanitizers} -fno-sanitize-recover=all)
endif()
