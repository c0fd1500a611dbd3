# The fuzz build (-DDLA_FUZZ=ON; scripts/fuzz.sh, docs/FUZZING.md): the golden model and the
# harness compiled by clang with libFuzzer's coverage instrumentation, AddressSanitizer and
# UndefinedBehaviorSanitizer, and the libFuzzer targets of tests/fuzz. Nothing is verilated: the
# harness links the verilated models of an already built tree (-DDLA_RTL_FROM, as the sanitizer
# build does), which the parsers never run.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "DLA_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++-14")
endif()
if(NOT DLA_RTL_FROM)
  message(FATAL_ERROR "DLA_FUZZ=ON links the verilated models of a built tree: give -DDLA_RTL_FROM=<build dir>")
endif()
set(DLA_BUILD_TESTS OFF)  # the Catch2 tests belong to the other build
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
