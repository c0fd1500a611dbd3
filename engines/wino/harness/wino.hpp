// The Winograd PRA and POA engine: what it registers (its _engine.cpp).
#pragma once

#include "harness/bench.hpp"
#include "harness/layer.hpp"

namespace dla::harness::engines {

// Winograd PRA and POA (docs/WINOGRAD.md)
[[nodiscard]] UnitHandler wino_handler();

}  // namespace dla::harness::engines
