// libFuzzer target: result files (run/regress --json) through results_from_json and html_report (docs/FUZZING.md).
#include "fuzz_inputs.hpp"

DLA_FUZZ_TARGET(dla::fuzz::Input::Results, "")
