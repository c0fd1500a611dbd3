// libFuzzer target: NVDLA loadables through read_loadable (the FlatBuffers verifier and the
// runtime's rules), the firmware's programming (plan_loadable on nv_full) and program_to_json, as
// `dlacosim import` does (docs/FUZZING.md, docs/LOADABLES.md).
#include "fuzz_inputs.hpp"

DLA_FUZZ_TARGET(dla::fuzz::Input::Loadable, "")
