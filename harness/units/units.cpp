#include "units/units.hpp"

#include <fmt/format.h>

#include "harness/errors.hpp"

namespace dla::harness::units {

std::vector<UnitHandler> all_handlers() { return {cmac_handler(), lut_handler(), wino_handler(), sdp_handler(), conv_handler(), program_handler()}; }

std::vector<std::string> bench_units() { return {"cmac", "lut", "sdp", "conv"}; }

std::string run_bench(const std::string& unit, const BenchOptions& opt) {
  if (unit == "cmac") return bench_cmac(opt);
  if (unit == "lut") return bench_lut(opt);
  if (unit == "sdp") return bench_sdp(opt);
  if (unit == "conv") return bench_conv(opt);
  std::string list;
  for (const auto& u : bench_units()) list += (list.empty() ? "" : ", ") + u;
  throw InputError("bench", unit, fmt::format("no benchmark for unit \"{}\" (known: {})", unit, list));
}

}  // namespace dla::harness::units
