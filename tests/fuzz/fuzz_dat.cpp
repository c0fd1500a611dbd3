// libFuzzer target: .dat memory images (both vendor formats) through read_dat_image (docs/FUZZING.md).
#include "fuzz_inputs.hpp"

DLA_FUZZ_TARGET(dla::fuzz::Input::Dat, "")
