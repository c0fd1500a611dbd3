# Compiler launcher, warnings and sanitizers for the project's own C++ (not for verilated code).
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
endif()

add_library(dla_warnings INTERFACE)
target_compile_options(dla_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                              -Wno-sign-conversion -Wno-pedantic)

# Every undefined-behaviour report stops the program (so a test fails), as AddressSanitizer does.
# rtl/ clears these options for the verilated code (rtl/CMakeLists.txt).
if(DLA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
