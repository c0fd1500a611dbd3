// The engine registry: one descriptor per engine, defined in that engine's own file
// harness/engines/<name>/<name>_engine.cpp as `Engine engine_<name>()`. Central code (layer loading, bench,
// random campaigns, the golden device's unit table, the choice of RTL top, the CLI's unit lists)
// iterates the registry; adding an engine edits none of it (docs/ARCHITECTURE.md "Adding an engine").
//
// Registration: harness/CMakeLists.txt lists harness/engines/*/*_engine.cpp at configure time and
// generates engine_list.cpp, which calls every engine_<name>() by name. The list is an explicit
// reference to each descriptor, so static linking of dla_harness keeps every engine (a
// self-registering static initializer in a static library is dropped by the linker unless
// something else references its object file), and a file whose function is missing fails at link
// time instead of silently leaving the engine out.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "golden/config.hpp"
#include "harness/device.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/loadable.hpp"
#include "harness/memory.hpp"
#include "harness/program.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"
#include "harness/bench.hpp"
#include "harness/rtl_factory.hpp"

namespace dla::harness::engines {

// `dlacosim bench <name>`.
struct BenchSupport {
  std::vector<BenchCase> (*run)(const BenchOptions&) = nullptr;
  std::string (*format)(const std::vector<BenchCase>&) = nullptr;
  // The bench runs through a DMA port, so --mem-latency / --mem-bandwidth apply (cmac and lut
  // stream data straight into the unit).
  bool memory_port = true;
  // The bench measures its cases on any configuration given with --config (BenchOptions::configs).
  bool per_config = false;
};

// A layer compiled for a random campaign: its register program and, for references that read the
// output back, where the compiler placed it.
struct RandomCompiled {
  Program program{};
  uint64_t out_base = 0;
  // The memory reference bound to what this compile built (null: RandomSupport::memory_reference),
  // so a reference that needs the compiled layer does not compile it again for each device.
  std::function<std::string(const Memory&)> memory_reference{};
};

// A feature `random <name> --focus NAME` makes every layer exercise, on the configurations whose
// HwConfig flag `has` is set (null: every configuration).
struct RandomFocus {
  std::string_view name;
  bool golden::HwConfig::*has = nullptr;
  std::string_view what;  // for help and errors
  // Its layers have no RTL yet (RandomLayer::golden_only): the campaign needs --judge cmod.
  bool golden_only = false;
};

// The references' verdict on fp16 layers: the int64 references compute no float (golden is
// judged by the RTL, and by NVIDIA's C model with --judge cmod; docs/FP16.md).
inline constexpr const char* kNoFloatReference =
    "n/a: fp16 (the int64 reference has no float; --judge cmod adds NVIDIA's C model)";

// `dlacosim random <name>` (docs/RANDOM.md).
struct RandomSupport {
  int order = 0;  // position in the unit lists of `random` (help, errors)
  RandomLayer (*generate)(const golden::HwConfig&, RandomLayer, Rng&) = nullptr;
  // Null: the unit has no register program; a layer runs through the engine's layer handler in
  // cross mode (its own RTL against golden, the handler's comparison; `linebuf`).
  RandomCompiled (*compile)(const LayerHeader&, const JsonNode&) = nullptr;
  // The independent reference's verdict on a device's memory after the layer: "" when it
  // agrees, else the first difference. Null when the unit has none of this kind.
  // Empty when the memory agrees, else the first difference; "n/a: why" when the reference does
  // not cover the layer (it then judges nothing).
  std::string (*memory_reference)(const JsonNode& root, const RandomLayer&, const Memory&) = nullptr;
  // Without an RTL of the unit in this build, a layer runs on golden alone judged by the memory
  // reference; this names the missing RTL in the verdict ("PDP"). Null: no golden-only runs.
  const char* golden_only_rtl = nullptr;
  // A reference that needs both devices (conv: output and CACC saturation count), setting the
  // run's reference, status and message; called when the cross run passed or mismatched.
  void (*device_reference)(const JsonNode& root, const RandomLayer&, const RandomCompiled&, Device& gold,
                           Device& rtl, RandomRun& out) = nullptr;
  // For a unit run through its layer handler (compile null): the independent reference's verdict
  // on the golden model's outputs of the layer ("" when they agree, else the first difference);
  // the cross run has shown the RTL equal to golden. Null: none.
  std::string (*layer_reference)(const LayerHeader&, const JsonNode& root) = nullptr;
  // The summary reports how often that reference agreed and how often it did not apply.
  bool reports_reference_counts = false;
  std::vector<RandomFocus> focus;  // what --focus accepts
  // The command a failing layer written to `path` is reproduced with, up to the run options
  // the campaign adds (--rand-reset, the memory); null: `dlacosim run PATH`.
  std::string (*reproduce)(const RandomLayer&, const std::string& path) = nullptr;
};

// An RTL top a program can run on (its verilated model and the harness device around it).
struct RtlTop {
  std::string_view name{};  // "nvdla_core"
  // Tops are tried in this order; the first whose blocks hold every block a program enables
  // runs it (a program that enables no block runs on the first).
  int order = 0;
  std::vector<std::string_view> engines{};  // the engines whose register blocks and interrupts it has
  std::unique_ptr<Device> (*make)(const std::vector<std::string>& blocks, const golden::HwConfig&,
                                  const RunOptions&) = nullptr;
};

struct Engine {
  std::string_view name{};  // the layer files' "unit", the bench and random unit name
  int order = 0;          // position in the unit lists (layer units, bench units)
  UnitHandler (*handler)() = nullptr;  // layer handler; null: the engine has no layer unit
  // What a run's rate is counted in (HTML reports): "elements/cycle", ...
  std::string_view rate_unit = "work/cycle";
  // --flip-bit reaches the layers' output vector (datapath units judged on a vector, not memory).
  bool flip_bit = false;
  // Register blocks the engine's layers program, and the GLB interrupt units it raises.
  std::vector<std::string_view> blocks{};
  std::vector<std::string_view> interrupts{};
  // The golden device's units for those blocks (GoldenDevice::units(), in engine order).
  std::vector<GoldenDevice::Unit> (*golden)() = nullptr;
  // Its device behaviour beyond the units (GoldenDevice::Hooks: registers that are more than
  // storage, state across layers, what passing time does).
  std::vector<GoldenDevice::Hooks> (*golden_hooks)() = nullptr;
  // RTL tops the engine brings (none: its blocks run on another engine's top).
  std::vector<RtlTop> rtl_tops{};
  std::optional<BenchSupport> bench{};
  std::optional<RandomSupport> random{};
  // `dlacosim compile FILE`: the layer file's one register program, replayable with `dlacosim run`
  // (null: the unit's layers are not compiled on their own).
  Program (*compile_program)(const LayerHeader&, const JsonNode&) = nullptr;
  // `dlacosim compile FILE --loadable OUT`: the layer file as an NVDLA loadable and its inputs'
  // bytes (null: not exported).
  loadable::Exported (*compile_loadable)(const LayerHeader&, const JsonNode&) = nullptr;
  // Configurations the engine exists on: those whose register map has this register (null: all),
  // and the rule a campaign on another configuration is refused with.
  const char* needs_register = nullptr;
  const char* absent_rule = nullptr;
};

// Every registered engine in `order`.
[[nodiscard]] const std::vector<Engine>& engines();
// The engine named `name`, or null.
[[nodiscard]] const Engine* find_engine(std::string_view name);
// Every RTL top of every engine, in RtlTop::order; the one named `name` (throws if unknown).
[[nodiscard]] const std::vector<const RtlTop*>& rtl_tops();
[[nodiscard]] const RtlTop& rtl_top(std::string_view name);
// The top a program enabling `blocks` runs on: the first whose blocks hold them all; null if none.
[[nodiscard]] const RtlTop* rtl_top_for(const std::vector<std::string>& blocks);
// The register blocks and interrupt units of a top (its engines' lists, in the top's order).
[[nodiscard]] std::vector<std::string> top_blocks(const RtlTop& top);
[[nodiscard]] std::vector<std::string> top_interrupts(const RtlTop& top);
// Whether `cfg` has the engine (its needs_register exists in the configuration's register map).
[[nodiscard]] bool engine_exists_on(const Engine& e, const golden::HwConfig& cfg);
// "a, b and c": the names of a list in an error message.
[[nodiscard]] std::string join_and(const std::vector<std::string>& items);
// Engines with a bench / a random generator, in their list order.
[[nodiscard]] std::vector<const Engine*> bench_engines();
[[nodiscard]] std::vector<const Engine*> random_engines();

// Defined by the generated engine_list.cpp: every engine_<name>() of harness/units/*_engine.cpp.
[[nodiscard]] std::vector<Engine> registered_engines();

}  // namespace dla::harness::engines

