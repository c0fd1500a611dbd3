# dla_rtl from another, already built tree (-DDLA_RTL_FROM=<build dir>): the verilated models of
# that build's rtl/libdla_rtl.a, their generated headers and Verilator's runtime, without
# verilating or compiling them again. The sanitizer build (scripts/test.sh --sanitize) uses it:
# the project's own C++ is instrumented, the generated RTL code is not (it is Verilator's, and
# instrumenting it would only make every run slower). The RTL lint and synthesis checks belong to
# the other build and are not registered here.
if(NOT EXISTS "${DLA_RTL_FROM}/rtl/libdla_rtl.a")
  message(FATAL_ERROR "DLA_RTL_FROM=${DLA_RTL_FROM}: no rtl/libdla_rtl.a there; build that tree first "
                      "(scripts/build.sh builds build/)")
endif()
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
file(GLOB _dla_model_dirs LIST_DIRECTORIES true "${DLA_RTL_FROM}/rtl/CMakeFiles/dla_rtl.dir/V*.dir")
add_library(dla_rtl STATIC IMPORTED GLOBAL)
set_target_properties(dla_rtl PROPERTIES
  IMPORTED_LOCATION "${DLA_RTL_FROM}/rtl/libdla_rtl.a"
  INTERFACE_INCLUDE_DIRECTORIES "${_dla_model_dirs};${VERILATOR_ROOT}/include;${VERILATOR_ROOT}/include/vltstd"
  INTERFACE_LINK_LIBRARIES "ZLIB::ZLIB;Threads::Threads;atomic")
