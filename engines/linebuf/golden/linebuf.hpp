// The line-buffer 3x3 engine of seed 003 (docs/LINEBUF.md): 3x3 stride-1 convolution with
// pad 0/1, activation (none / ReLU / leaky ReLU), requantize, optional fused 2x2 max pool;
// fully connected layers; stacks. Written from docs/LINEBUF.md §1 and §3; every rounding and
// saturation goes through golden/arith.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "golden/config.hpp"

namespace dla::golden {

// The engine's sizes (docs/LINEBUF.md §2); the defaults are the verilated model's.
struct LinebufLimits {
  int num_pe = 4;
  int line_depth = 64;
  int max_channels = 64;
  int max_kernels = 64;
  int map_rows = 16;  // MapRows: the weights-once dataflow holds a padded map up to map_rows square
  int map_words = 4096;  // MapWords: the on-chip map store holds a map of up to map_words values
};

enum class LinebufAct { None, Relu, Leaky };

struct LinebufOutStage {
  LinebufAct act = LinebufAct::None;
  int leaky_slope = 0;  // leaky: negatives times leaky_slope / 2^leaky_shift
  int leaky_shift = 0;
  int out_shift = 0;    // requantize: sat(rhaz(v / 2^out_shift))
};

// A map [c][y][x].
struct LinebufMap {
  int c = 0, h = 0, w = 0;
  std::vector<int64_t> data;
  [[nodiscard]] int64_t at(int ci, int y, int x) const {
    return data[(static_cast<std::size_t>(ci) * h + y) * w + x];
  }
};

enum class LinebufKind { Conv, Fc };

// One layer: conv (K = outputs kernels, weights [k][c][i][j]) or FC (M = outputs, weights
// [m][n] over the input flattened [c][y][x]). bias: one per output channel.
struct LinebufLayer {
  LinebufKind kind = LinebufKind::Conv;
  int outputs = 1;
  int pad = 0;        // conv only: 0 or 1
  bool pool = false;  // conv only
  // conv only: the engine's "weights load once" dataflow (docs/LINEBUF.md §2); the same values,
  // refused on a padded map above map_rows x map_rows.
  bool weights_once = false;
  // Maps on chip (docs/LINEBUF.md §2): the input is the previous layer's output kept in the
  // on-chip map store, and / or the output stays there for the next layer. The same values;
  // refused when the map is above map_words, and in a stack unless the two ends meet.
  bool in_chip = false;
  bool out_chip = false;
  LinebufOutStage out;
  std::vector<int64_t> weights;
  std::vector<int64_t> bias;
};

// Why the engine refuses `layer` on an input of c x h x w (docs/LINEBUF.md §3), or nullopt.
// Checks the sizes and fields, not the values (linebuf_value_refusal does).
[[nodiscard]] std::optional<std::string> linebuf_refusal(const LinebufLayer& layer, int c, int h, int w,
                                                         const LinebufLimits& lim);
// Why the layer's weights, bias or the input values are out of range, or nullopt.
[[nodiscard]] std::optional<std::string> linebuf_value_refusal(const LinebufLayer& layer, const LinebufMap& in,
                                                               Precision p);
// The output map's size.
struct LinebufShape {
  int c, h, w;
};
[[nodiscard]] LinebufShape linebuf_out_shape(const LinebufLayer& layer, int c, int h, int w);

// The output stage of §1 steps 1-2 on an exact accumulator.
[[nodiscard]] int64_t linebuf_output_stage(int64_t acc, const LinebufOutStage& s, Precision p);

// One layer; throws std::invalid_argument with the refusal's reason.
[[nodiscard]] LinebufMap linebuf_layer(const LinebufMap& in, const LinebufLayer& layer, Precision p,
                                       const LinebufLimits& lim = {});
// A stack: the outputs of every layer (back() is the stack's result).
[[nodiscard]] std::vector<LinebufMap> linebuf_stack(const LinebufMap& in, const std::vector<LinebufLayer>& layers,
                                                    Precision p, const LinebufLimits& lim = {});

// An FC layer as the engine runs it (§1): the equivalent 3x3 convolution layer without padding
// and its 3 x 3 x ceil(N/9) input map.
[[nodiscard]] LinebufLayer linebuf_fc_as_conv(const LinebufLayer& fc, int n_inputs);
[[nodiscard]] LinebufMap linebuf_fc_input_as_map(const LinebufMap& in);

}  // namespace dla::golden
