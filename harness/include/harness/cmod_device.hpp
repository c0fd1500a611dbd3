// NVIDIA's NVDLA C model as a device (docs/CMOD.md): the third judge beside the golden model and
// the RTL. The model runs in a server process of its own (cmod/server/cmod_server.cpp, built when
// CMake is given an nvdla/hw checkout), one per device; this side mirrors its memory, forwards
// register accesses and waits, and turns the model's assertions, crashes and hangs into a failure
// naming what happened instead of a crash or a hang of dlacosim.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "golden/config.hpp"
#include "harness/device.hpp"
#include "harness/program.hpp"

namespace dla::harness {

// The C model stopped judging: it refused the program (an assertion of its own, a crash), did not
// finish in time, or went idle without raising what was waited for.
class CmodFailure : public std::runtime_error {
 public:
  enum class Kind { Refused, Timeout, Idle, Broken };
  CmodFailure(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  [[nodiscard]] Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

struct CmodOptions {
  // Wall-clock limit of one wait for an interrupt (and of the server's start-up).
  std::chrono::seconds wait_limit{900};
  // Wall-clock time the model may spend in a wait without moving a byte of memory before it is
  // stopped as stuck (it spins through delta cycles where it hangs).
  std::chrono::seconds quiet_limit{60};
  // The model's own log (SystemC reports and its printouts) is written here when not empty.
  std::filesystem::path log_file;
};

// The C model build a configuration maps to (regs/hw_configs.json "cmod"; "" when none), and the
// server executable for it: DLACOSIM_CMOD_DIR, else <dir of this executable>/../cmod. Empty path,
// with `why` naming what is missing and how to get it, when there is none.
[[nodiscard]] std::string cmod_tag(const golden::HwConfig& cfg);
[[nodiscard]] std::filesystem::path cmod_server(const golden::HwConfig& cfg, std::string& why);

// The reason the C model cannot judge `program` on `cfg` (a feature NVDLA lacks, or a documented
// deviation of the model, docs/CMOD.md "Where the model is not a judge"), or "" when it can.
[[nodiscard]] std::string cmod_cannot_judge(const Program& program, const golden::HwConfig& cfg);

// How the C model is to judge `program` on `cfg`: not at all (`cannot`, as cmod_cannot_judge), on
// the program as written, or on the program with `adaptation`'s register values. The one
// adaptation: where the only obstacle is the weight-ring deviation (consecutive conv layers
// whose D_WEIGHT_BYTES is padded past the entries their weights take), the model runs those
// writes with the entries the weights take. NVDLA computes the same outputs from either value
// (the padding is never read into a MAC; NVIDIA's RTL CSC steps its ring by D_WEIGHT_BYTES like
// its CDMA), so every output is still judged; the verdict says it (docs/CMOD.md).
struct CmodJudgePlan {
  std::string cannot;
  CmodAdaptation adaptation;
};
[[nodiscard]] CmodJudgePlan cmod_judge_plan(const Program& program, const golden::HwConfig& cfg);

// Registers whose read-back the C model counts otherwise than NVDLA documents (docs/CMOD.md
// "Counters"): a program's read of one, where the C model's value differs from the expected one
// in the way its counting does, is not compared on the cmod device. "" when compared, else the
// reason. `program`: the program the read belongs to (some rules hold for image input only).
[[nodiscard]] std::string cmod_uncompared_read(const Program& program, const RegDef& reg, uint32_t cmod_value,
                                               uint32_t expected);

// A device on the C model of `cfg`; throws InputError when this build has no model for it.
[[nodiscard]] std::unique_ptr<Device> make_cmod_device(const golden::HwConfig& cfg, const CmodOptions& opt);

}  // namespace dla::harness
