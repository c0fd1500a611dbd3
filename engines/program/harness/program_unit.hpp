// The register programs engine: what it registers (its _engine.cpp).
#pragma once

#include "harness/bench.hpp"
#include "harness/layer.hpp"

namespace dla::harness::engines {

// Register programs (validated here; executed by units with a CSB port).
[[nodiscard]] UnitHandler program_handler();

}  // namespace dla::harness::engines
