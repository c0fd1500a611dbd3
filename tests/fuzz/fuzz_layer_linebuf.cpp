// libFuzzer target: linebuf layer files (JSON) through load_layer (docs/FUZZING.md).
#include "fuzz_inputs.hpp"

DLA_FUZZ_TARGET(dla::fuzz::Input::Layer, "linebuf")
