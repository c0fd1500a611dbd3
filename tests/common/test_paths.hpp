// The folders the tests read: this checkout's source tree, ../shared beside it, the build tree.
// They come from one generated object (tests/CMakeLists.txt, test_paths.cpp.in): as compile
// definitions they would differ between two clones and make every test object miss the compiler
// cache.
#pragma once

namespace dla::test {
const char* source_dir();
const char* shared_dir();
const char* binary_dir();
}  // namespace dla::test

#define DLA_SOURCE_DIR (::dla::test::source_dir())
#define DLA_SHARED_DIR (::dla::test::shared_dir())
#define DLA_BINARY_DIR (::dla::test::binary_dir())
