// Drawing helpers of the random generators and the random SDP post-op stages (BS / BN / EW, the
// output block) that both `random sdp` and `random conv` put on their layers.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness::engines::sdp_draw {

using ojson = nlohmann::ordered_json;

// Adds random BS / BN / EW stages to `doc` for an SDP input of magnitude 2^m (log2 of the
// standard deviation); returns the magnitude after them. `lut_ok` / `eql_ok`: what this layer
// may use.
struct PostOps {
  bool lut = false, eql = false;
  bool ops16 = false;  // an int16 datapath: memory operands are two bytes (NVDLA's DATA_SIZE rule)
};

// log2 of the standard deviation of a uniform integer range [lo, hi] (at least 0).
[[nodiscard]] double lg_sd(int64_t lo, int64_t hi);
[[nodiscard]] int iround(double v);
// A value range inside [vmin, vmax]: half the time the full range, else a random sub-range
// around zero (sometimes one-sided).
[[nodiscard]] std::pair<int64_t, int64_t> value_range(Draw& d, int64_t vmin, int64_t vmax);
[[nodiscard]] ojson random_values(int64_t lo, int64_t hi, int64_t vmin, int64_t vmax);
[[nodiscard]] double x_stage(Draw& d, ojson& st, double m, std::string& feat, const char* name, bool ops16);
// BS with probability p_bs, then BN with p_bn, into `doc`; returns the magnitude after them.
[[nodiscard]] double x_stages(Draw& d, ojson& doc, double m, std::string& feat, double p_bs, double p_bn, bool ops16);
[[nodiscard]] double y_stage(Draw& d, ojson& st, double m, const PostOps& ok, std::string& feat, bool& lut, bool& eql);
// Output precision and converter for an SDP output of magnitude 2^m: the converter brings it a
// few bits below the precision's range, sometimes above it (saturation). Returns whether the
// output gets explicit strides (the caller sets them: they depend on the final shape).
[[nodiscard]] bool output_block(Draw& d, ojson& doc, bool out16, double m, bool force_prec);
// Output strides with gaps for a W x H output.
void output_strides(ojson& out, int atom, int w, int h, int gap_line, int gap_surf);

// fp16 (docs/FP16.md): data in one of five regimes -- exact small integers (no rounding
// anywhere), around 1, the whole finite range (sums saturate in SDP), tiny magnitudes
// (denormals), and around 1 with 2 % specials.
void draw_fp16_data(Draw& d, ojson& node);
// SDP's BS or BN (`name`) in fp16: ALU (sum, max, min) and MUL (or PReLU) with a register operand
// (any fp16, NaN and infinities included) or fp16 operands from memory, per channel or per
// element; ReLU.
void draw_fp16_x_stage(Draw& d, const char* name, ojson& doc, std::string& feat);
// SDP's EW stage in fp16, from a stream of its own derived from `seed` (the layers drawn before it
// stay as they were): MUL or PReLU and ALU (sum, max, min) with fp32 register operands (NaN, the
// largest fp32, -0 and tiny values included) or fp16 operands from memory, and the float LUT
// holding sigmoid, tanh or exp at a random placement of both tables (exponent or linear LE) and
// random priorities; with probability p_ew.
void draw_fp16_ew(uint64_t seed, ojson& doc, std::string& feat, double p_ew = 0.4);

}  // namespace dla::harness::engines::sdp_draw
