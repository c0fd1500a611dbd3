// libFuzzer target: NVDLA trace-test .cfg files through import_nvdla_cfg (nv_small) and program_to_json (docs/FUZZING.md).
#include "fuzz_inputs.hpp"

DLA_FUZZ_TARGET(dla::fuzz::Input::Cfg, "")
