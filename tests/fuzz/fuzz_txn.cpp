// libFuzzer target: NVDLA v1 trace-player input.txn files through import_nvdla_txn (nv_full) and program_to_json (docs/FUZZING.md).
#include "fuzz_inputs.hpp"

DLA_FUZZ_TARGET(dla::fuzz::Input::Txn, "")
