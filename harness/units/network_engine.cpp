// `network` layers (harness/units/network.cpp, docs/NETWORKS.md): a layer graph compiled into one
// register program; it runs on the RTL top its enabled blocks choose. Registry entry.
#include "units/engine.hpp"
#include "units/network.hpp"

namespace dla::harness::units {

Engine engine_network() {
  return {.name = "network",
          .order = 950,
          .handler = &network_handler,
          .rate_unit = "elements/cycle",
          .bench = BenchSupport{.run = &bench_network, .format = &format_bench_network}};
}

}  // namespace dla::harness::units
