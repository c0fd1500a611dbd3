// Running an NVDLA loadable as NVIDIA's runtime and KMD firmware run it (docs/LOADABLES.md):
// memories allocated and filled, each DLA1 task's descriptors turned into the register writes
// and interrupt waits the firmware's scheduler makes (one register program per task), and the
// output tensor written as the runtime's o_000000.dimg. The programs run on the same devices and
// compare engine as every other program (program_runner.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/layer.hpp"
#include "harness/loadable.hpp"
#include "harness/memory.hpp"
#include "harness/program.hpp"
#include "harness/report.hpp"

namespace dla::harness::loadable {

// `--input TENSOR=FILE`: a bound input tensor's content (PGM, DIMG or raw bytes).
struct InputBinding {
  std::string tensor;
  std::filesystem::path file;
  // Set: the tensor's memory content itself, as raw bytes (no file read, no format detection:
  // a random campaign's data may start with "P5"); `file` then only names it in messages.
  std::optional<std::vector<uint8_t>> raw = std::nullopt;
};

// How a grey image becomes a half tensor, as NVIDIA's runtime converts one (`--mean`,
// `--normalize`): half((pixel - mean) / normalize), rounded as its half library rounds.
struct ImageScaling {
  float mean = 0.0f;
  float normalize = 1.0f;
  [[nodiscard]] bool identity() const { return mean == 0.0f && normalize == 1.0f; }
};

// One hardware op as the firmware ran it.
struct OpRecord {
  std::size_t task = 0;
  int index = 0;  // in the task's dependency graph
  int type = 0;   // dla::OpType
  int group = 0;  // register group it was programmed into
  std::string summary;
  uint64_t out_addr = 0;  // its output region in memory (size 0: flies into the next op)
  uint64_t out_size = 0;
  std::vector<int> producers;  // ops of the same task it depends on (the dependency graph)
};

// A buffer of an EMU1 op (the runtime emulator's buffer descriptor), placed in device memory.
struct EmuBuffer {
  uint64_t addr = 0;
  uint32_t size = 0;
  uint16_t format = 0;
  uint16_t width = 0, height = 0, channel = 0;
  uint32_t line_stride = 0, surf_stride = 0;
};

// One op of an EMU1 task: the CPU work NVIDIA's runtime does itself (its emulator).
struct EmuOp {
  enum class Kind { Power, Softmax };
  Kind kind = Kind::Power;
  float power = 1, scale = 1, shift = 0;  // power: (shift + scale * x) ^ power
  EmuBuffer src, dst;
  std::string what;
};

struct PlanStep {
  std::size_t task = 0;
  bool emu = false;  // an EMU1 task (computed on the host); else a DLA1 task's program
  Program program;   // a DLA1 task's program (an EMU1 task's holds the memory loads, if first)
  std::vector<EmuOp> emu_ops;
};

struct Plan {
  std::vector<uint64_t> memory_base;  // device address of each memory (0: not allocated)
  std::vector<PlanStep> steps;        // in submit order; the first program loads the memories
  std::vector<OpRecord> ops;
  std::optional<std::size_t> output_tensor;  // the OUTPUT tensor (bind id 0)
  uint64_t output_addr = 0;
};

// Where the loadable's memories go in the devices' address space.
inline constexpr uint64_t kMemoryWindowBase = 0x1000'0000;
inline constexpr uint64_t kMemoryWindowBytes = 0x6000'0000;

// The firmware's programming of every DLA1 task. Throws InputError for what the firmware would
// refuse or dlacosim does not model (naming the task, the op and the rule).
[[nodiscard]] Plan plan_loadable(const Loadable& l, const golden::HwConfig& hw,
                                 const std::vector<InputBinding>& inputs, const ImageScaling& scaling = {});

// The DLA1 tasks' programs as one program (`dlacosim import`); InputError when an EMU1 task
// sits between them (its work is the host's, not a register program's).
[[nodiscard]] Program plan_program(const Loadable& l, const Plan& p);

// The output tensor as NVIDIA's runtime dumps it (NvDlaImage, "DIMG" version 0): `memory` is
// the tensor's memory from its start.
[[nodiscard]] std::vector<uint8_t> dimg_image(const TensorDesc& t, const std::vector<uint8_t>& memory);

// Raw bytes as the tensor's memory content (zero beyond them); InputError naming `name` when they
// do not fit.
[[nodiscard]] std::vector<uint8_t> raw_tensor_bytes(const TensorDesc& t, uint64_t memory_size, const std::vector<uint8_t>& raw,
                                                    const std::string& name);
// An input tensor's memory content from a file: NvDlaImage ("DIMG"), 8-bit PGM (P5) or raw bytes
// (anything else, laid out as the tensor's memory). InputError when it does not fit.
[[nodiscard]] std::vector<uint8_t> input_tensor_bytes(const TensorDesc& t, uint64_t memory_size,
                                                      const std::filesystem::path& file,
                                                      const ImageScaling& scaling = {});

// EMU1 tasks (loadable_emulator.cpp): a task's ops, checked against its memories (InputError
// naming the task, the op and the rule); one op computed on a device's memory as the runtime
// does (float arithmetic, stored as half).
[[nodiscard]] std::vector<EmuOp> decode_emu_task(const Loadable& l, std::size_t task, const Plan& plan,
                                                 const std::vector<std::vector<uint8_t>>& images);
void run_emu_op(const EmuOp& op, Memory& mem);
// The byte offset of element (x, y, c) of an fp16 buffer: 32-byte atoms of 16 channels.
[[nodiscard]] uint64_t emu_offset(const EmuBuffer& b, uint32_t x, uint32_t y, uint32_t c);
// float to half as the runtime's half library converts (round to nearest, ties away from zero).
[[nodiscard]] uint16_t runtime_float_to_half(float v);

struct LoadableRunOptions {
  std::vector<InputBinding> inputs;
  std::optional<std::filesystem::path> dimg;  // write the output tensor's image here
  ImageScaling scaling;                       // PGM images into half tensors
};

// Plans and runs a loadable in RunOptions::mode (golden, rtl, cross); the result's message names
// every op; with `dimg` the output image of the device under test is written (atomically).
[[nodiscard]] RunResult run_loadable(const std::filesystem::path& file, const RunOptions& opt,
                                     const LoadableRunOptions& lo);

// The configuration a loadable runs on by default: NVIDIA's regression names `*_small` (nv_small)
// and `*_large` (nv_large); everything else is nv_full.
[[nodiscard]] std::string default_config_for(const std::filesystem::path& file);

}  // namespace dla::harness::loadable
