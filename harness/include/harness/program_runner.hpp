// Replays a register program (program.hpp) on a Device: memory loads and fills, register writes
// and read checks, interrupt waits, and checks (crc32 of a region, the golden model's memory,
// a file). On a failing check the runner decodes the output region as a cube from the layer
// the golden model ran there and reports element mismatches with coordinates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/device.hpp"
#include "harness/golden_device.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/report.hpp"

namespace dla::harness {

struct ProgramRunOptions {
  std::string mode = "golden";       // golden | cross | rtl | cmod (reported)
  std::size_t max_listed = 10;       // mismatches listed per compared region
  uint64_t wait_timeout = 10'000'000;  // cycles an RTL device may take to raise an interrupt
  CmodAdaptation cmod_adaptation;      // what the judging C model runs otherwise (cmod_judge_plan)
};

// Replays `program`. `golden` is the reference model (and the device under test when `rtl` is
// null); `rtl`, when given, is the device under test and every step is applied to both. At least
// one must be non-null. Never throws for run-time failures: a failed reg_read or check makes the
// status Mismatch, an interrupt that is never raised Timeout (naming the step and the reason),
// a register the configuration lacks BadInput.
// `cmod`, when given, is NVIDIA's C model: with another device it judges beside it (every check
// is also made on it; its verdict lands in RunResult::cmod, a difference fails the run, and its
// refusal or hang ends its part only), alone it is the device under test (--mode cmod).
[[nodiscard]] RunResult run_program(const Program& program, GoldenDevice* golden, Device* rtl,
                                    const ProgramRunOptions& opt, Device* cmod = nullptr);

// Runs a program in a mode: golden builds a GoldenDevice for `config`; cross and rtl need RTL
// models of the units the program enables and throw InputError naming them while the build has
// none; cmod runs it on NVIDIA's C model alone. RunOptions::judge_cmod adds the C model as a judge
// (InputError when this build has no model of `config`).
[[nodiscard]] RunResult run_program_in_mode(const Program& program, const golden::HwConfig& config,
                                            const RunOptions& opt);

// Register blocks whose D_OP_ENABLE (BDMA: CFG_LAUNCH0/1) the program writes with 1 (the units it
// runs), in order of first use.
[[nodiscard]] std::vector<std::string> enabled_blocks(const Program& program);

}  // namespace dla::harness
