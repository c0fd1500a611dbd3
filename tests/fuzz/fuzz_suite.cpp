// libFuzzer target: suite files (JSON) through load_suite (docs/FUZZING.md).
#include "fuzz_inputs.hpp"

DLA_FUZZ_TARGET(dla::fuzz::Input::Suite, "")
