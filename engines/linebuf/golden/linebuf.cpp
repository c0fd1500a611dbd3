// docs/LINEBUF.md §1 (arithmetic) and §3 (refusals).
#include "engines/linebuf/golden/linebuf.hpp"

#include <algorithm>
#include <sstream>
#include <string_view>
#include <stdexcept>

#include "golden/arith.hpp"

namespace dla::golden {

namespace {

// "{}" in `text` replaced by the arguments in turn (the golden library does not link fmt).
template <class... Args>
[[nodiscard]] std::string fmt_text(std::string_view text, const Args&... args) {
  std::ostringstream os;
  std::size_t pos = 0;
  auto one = [&](const auto& a) {
    const std::size_t at = text.find("{}", pos);
    os << text.substr(pos, at - pos) << a;
    pos = at + 2;
  };
  (one(args), ...);
  os << text.substr(pos);
  return os.str();
}

[[nodiscard]] int ceil_div(int a, int b) { return (a + b - 1) / b; }

[[nodiscard]] std::optional<std::string> out_stage_refusal(const LinebufOutStage& s) {
  if (s.out_shift < 0 || s.out_shift > 63) return fmt_text("out_shift {} is outside [0, 63]", s.out_shift);
  if (s.act == LinebufAct::Leaky) {
    if (s.leaky_slope < 0 || s.leaky_slope > 65535) {
      return fmt_text("leaky_slope {} is outside [0, 65535]", s.leaky_slope);
    }
    if (s.leaky_shift < 0 || s.leaky_shift > 31) {
      return fmt_text("leaky_shift {} is outside [0, 31]", s.leaky_shift);
    }
    if (int64_t{s.leaky_slope} > (int64_t{1} << s.leaky_shift)) {
      return fmt_text("leaky_slope {} is above 2^leaky_shift = {} (a slope above 1 is refused)", s.leaky_slope,
                         int64_t{1} << s.leaky_shift);
    }
  }
  return std::nullopt;
}

}  // namespace

LinebufShape linebuf_out_shape(const LinebufLayer& layer, int c, int h, int w) {
  (void)c;
  if (layer.kind == LinebufKind::Fc) return {layer.outputs, 1, 1};
  const int ho = h + 2 * layer.pad - 2;
  const int wo = w + 2 * layer.pad - 2;
  return layer.pool ? LinebufShape{layer.outputs, ho / 2, wo / 2} : LinebufShape{layer.outputs, ho, wo};
}

std::optional<std::string> linebuf_refusal(const LinebufLayer& layer, int c, int h, int w, const LinebufLimits& lim) {
  if (c < 1 || h < 1 || w < 1) return fmt_text("the input {}x{}x{} (CxHxW) is empty", c, h, w);
  if (layer.outputs < 1 || layer.outputs > lim.max_kernels) {
    return fmt_text("{} outputs: the engine holds 1 to {} kernels (MaxK)", layer.outputs, lim.max_kernels);
  }
  if (auto r = out_stage_refusal(layer.out)) return r;
  if (layer.out_chip) {
    const LinebufShape o = linebuf_out_shape(layer, c, h, w);
    if (int64_t{o.c} * o.h * o.w > lim.map_words) {
      return fmt_text("the output map {}x{}x{} (CxHxW) does not fit the on-chip map store of {} values (MapWords)",
                      o.c, o.h, o.w, lim.map_words);
    }
  }
  if (layer.in_chip) {
    // As the engine reads it: an FC layer's input as its 3 x 3 x ceil(N/9) map.
    const int64_t chw = int64_t{c} * h * w;
    const int64_t n = layer.kind == LinebufKind::Fc ? (chw + 8) / 9 * 9 : chw;
    if (n > lim.map_words) {
      return fmt_text("the input map {}x{}x{} (CxHxW, {} values as the engine reads it) does not fit the on-chip map "
                      "store of {} values (MapWords)",
                      c, h, w, n, lim.map_words);
    }
  }
  if (layer.kind == LinebufKind::Fc) {
    const int64_t n = int64_t{c} * h * w;
    if (n > int64_t{9} * lim.max_channels) {
      return fmt_text("a fully connected layer of {} inputs needs ceil({}/9) = {} channels of a 3x3 map; the line "
                         "buffer holds {} (MaxC)",
                         n, n, (n + 8) / 9, lim.max_channels);
    }
    if (layer.pool || layer.pad != 0 || layer.weights_once) {
      return std::string("a fully connected layer has no pad, no pool and no dataflow choice");
    }
    return std::nullopt;
  }
  if (layer.pad != 0 && layer.pad != 1) return fmt_text("pad {} is not 0 or 1", layer.pad);
  if (w > lim.line_depth) return fmt_text("W {} is above the line depth {} (LineDepth)", w, lim.line_depth);
  if (c > lim.max_channels) return fmt_text("C {} is above the {} channels a line holds (MaxC)", c, lim.max_channels);
  if (layer.pad == 0 && (w < 3 || h < 3)) {
    return fmt_text("a {}x{} (HxW) input without padding is smaller than the 3x3 kernel", h, w);
  }
  if (layer.weights_once && (h + 2 * layer.pad > lim.map_rows || w + 2 * layer.pad > lim.map_rows)) {
    return fmt_text("the weights-once dataflow keeps the whole padded map on chip: {}x{} (HxW, padded) is above {}x{} "
                    "(MapRows)",
                    h + 2 * layer.pad, w + 2 * layer.pad, lim.map_rows, lim.map_rows);
  }
  const int ho = h + 2 * layer.pad - 2;
  const int wo = w + 2 * layer.pad - 2;
  if (layer.pool && (ho < 2 || wo < 2)) {
    return fmt_text("2x2 pooling of a {}x{} convolution output has no complete window", ho, wo);
  }
  return std::nullopt;
}

std::optional<std::string> linebuf_value_refusal(const LinebufLayer& layer, const LinebufMap& in, Precision p) {
  const int bits = bits_per_element(p);
  const auto out_of_range = [&](const std::vector<int64_t>& v) {
    return std::find_if(v.begin(), v.end(), [&](int64_t x) { return saturates(x, bits); });
  };
  if (auto it = out_of_range(in.data); it != in.data.end()) {
    return fmt_text("input value {} is outside the {}-bit range", *it, bits);
  }
  if (auto it = out_of_range(layer.weights); it != layer.weights.end()) {
    return fmt_text("weight {} is outside the {}-bit range", *it, bits);
  }
  for (const int64_t b : layer.bias) {
    if (saturates(b, 32)) return fmt_text("bias {} is outside the 32-bit range", b);
  }
  const std::size_t per_out = layer.kind == LinebufKind::Fc ? in.data.size() : static_cast<std::size_t>(in.c) * 9;
  if (layer.weights.size() != per_out * static_cast<std::size_t>(layer.outputs)) {
    return fmt_text("{} weights given, the layer has {}", layer.weights.size(), per_out * layer.outputs);
  }
  if (layer.bias.size() != static_cast<std::size_t>(layer.outputs)) {
    return fmt_text("{} biases given, the layer has {} outputs", layer.bias.size(), layer.outputs);
  }
  return std::nullopt;
}

int64_t linebuf_output_stage(int64_t acc, const LinebufOutStage& s, Precision p) {
  Wide v = acc;
  if (s.act == LinebufAct::Relu && v < 0) v = 0;
  if (s.act == LinebufAct::Leaky && v < 0) v = rhaz_shift(v * s.leaky_slope, s.leaky_shift);
  return signed_shift_sat(v, s.out_shift, bits_per_element(p));
}

LinebufMap linebuf_layer(const LinebufMap& in, const LinebufLayer& layer, Precision p, const LinebufLimits& lim) {
  if (auto r = linebuf_refusal(layer, in.c, in.h, in.w, lim)) throw std::invalid_argument(*r);
  if (auto r = linebuf_value_refusal(layer, in, p)) throw std::invalid_argument(*r);
  const LinebufShape shape = linebuf_out_shape(layer, in.c, in.h, in.w);
  LinebufMap out{shape.c, shape.h, shape.w, {}};
  if (layer.kind == LinebufKind::Fc) {
    const std::size_t n = in.data.size();
    for (int m = 0; m < layer.outputs; ++m) {
      int64_t acc = layer.bias[static_cast<std::size_t>(m)];
      for (std::size_t i = 0; i < n; ++i) acc += in.data[i] * layer.weights[static_cast<std::size_t>(m) * n + i];
      out.data.push_back(linebuf_output_stage(acc, layer.out, p));
    }
    return out;
  }
  const int ho = in.h + 2 * layer.pad - 2;
  const int wo = in.w + 2 * layer.pad - 2;
  std::vector<int64_t> conv(static_cast<std::size_t>(layer.outputs) * ho * wo);
  for (int k = 0; k < layer.outputs; ++k) {
    for (int y = 0; y < ho; ++y) {
      for (int x = 0; x < wo; ++x) {
        int64_t acc = layer.bias[static_cast<std::size_t>(k)];
        for (int c = 0; c < in.c; ++c) {
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              const int yy = y + i - layer.pad;
              const int xx = x + j - layer.pad;
              if (yy < 0 || yy >= in.h || xx < 0 || xx >= in.w) continue;
              acc += in.at(c, yy, xx) * layer.weights[((static_cast<std::size_t>(k) * in.c + c) * 3 + i) * 3 + j];
            }
          }
        }
        conv[(static_cast<std::size_t>(k) * ho + y) * wo + x] = linebuf_output_stage(acc, layer.out, p);
      }
    }
  }
  if (!layer.pool) {
    out.data = std::move(conv);
    return out;
  }
  for (int k = 0; k < out.c; ++k) {
    for (int y = 0; y < out.h; ++y) {
      for (int x = 0; x < out.w; ++x) {
        int64_t m = conv[(static_cast<std::size_t>(k) * ho + 2 * y) * wo + 2 * x];
        for (int i = 0; i < 2; ++i) {
          for (int j = 0; j < 2; ++j) m = std::max(m, conv[(static_cast<std::size_t>(k) * ho + 2 * y + i) * wo + 2 * x + j]);
        }
        out.data.push_back(m);
      }
    }
  }
  return out;
}

std::vector<LinebufMap> linebuf_stack(const LinebufMap& in, const std::vector<LinebufLayer>& layers, Precision p,
                                      const LinebufLimits& lim) {
  std::vector<LinebufMap> outs;
  const LinebufMap* cur = &in;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    // An on-chip output is the next layer's input, and an on-chip input the previous layer's output.
    const bool prev_out = i > 0 && layers[i - 1].out_chip;
    const bool next_in = i + 1 < layers.size() && layers[i + 1].in_chip;
    if (layers[i].in_chip && !prev_out) {
      throw std::invalid_argument(fmt_text("layer {}: an on-chip input needs the previous layer's output on chip", i));
    }
    if (layers[i].out_chip && !next_in) {
      throw std::invalid_argument(fmt_text("layer {}: an on-chip output must be the next layer's on-chip input", i));
    }
    try {
      outs.push_back(linebuf_layer(*cur, layers[i], p, lim));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt_text("layer {}: {}", i, e.what()));
    }
    cur = &outs.back();
  }
  return outs;
}

LinebufLayer linebuf_fc_as_conv(const LinebufLayer& fc, int n_inputs) {
  const int ch = ceil_div(n_inputs, 9);
  LinebufLayer conv = fc;
  conv.kind = LinebufKind::Conv;
  conv.pad = 0;
  conv.pool = false;
  conv.weights.assign(static_cast<std::size_t>(fc.outputs) * ch * 9, 0);
  for (int m = 0; m < fc.outputs; ++m) {
    for (int n = 0; n < n_inputs; ++n) {
      conv.weights[static_cast<std::size_t>(m) * ch * 9 + static_cast<std::size_t>(n)] =
          fc.weights[static_cast<std::size_t>(m) * n_inputs + n];
    }
  }
  return conv;
}

LinebufMap linebuf_fc_input_as_map(const LinebufMap& in) {
  const int n = static_cast<int>(in.data.size());
  LinebufMap m{ceil_div(n, 9), 3, 3, {}};
  m.data.assign(static_cast<std::size_t>(m.c) * 9, 0);
  std::copy(in.data.begin(), in.data.end(), m.data.begin());
  return m;
}

}  // namespace dla::golden
