// An int64 reference for `pdp` layers, independent of the golden model: the layer read from its
// JSON (docs/LAYER_FORMAT.md, "`pdp` layers") and its expected output computed with plain integer
// loops as ../shared/reference/pdp-cdp-bdma-rubik.md §2 states the arithmetic: max / min over the
// window's input elements; average = the window's sum with every padded position counting the pad
// value, times floor(2^16 / kernel width) / 2^16 rounded half away from zero, then times
// floor(2^16 / kernel height) / 2^16 rounded the same way. Every lane of the last surface is
// computed (lanes beyond C hold 0 in the input image). Nothing from golden/ and nothing of the
// layer compiler is used; input values are the JSON's "values", or the harness's value generator
// (resolve_values) for "random" / "file", so they are the values the layer runs with.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "harness/json_reader.hpp"
#include "harness/memory.hpp"

namespace dla::harness::pdp_ref {

struct Layer {
  std::string name, config;
  int W = 1, H = 1, C = 1;
  bool int16 = false;
  std::string method;  // "average", "max", "min"
  int kw = 1, kh = 1, sw = 1, sh = 1;
  int pl = 0, pr = 0, pt = 0, pb = 0;
  int64_t pad_value = 0;
  int splits = 1;  // explicit "split" / "max_width" only: what the layer asks for (0: automatic)
  std::vector<int64_t> in;  // C*H*W, c-major
  // Output layout (bytes): packed unless the JSON gives strides.
  uint64_t out_base = 0, out_line_stride = 0, out_surface_stride = 0;
  int atom = 8;

  [[nodiscard]] int bpe() const { return int16 ? 2 : 1; }
  [[nodiscard]] int lanes() const {
    const int ca = atom / bpe();
    return (C + ca - 1) / ca * ca;
  }
  [[nodiscard]] int ow() const { return (W + pl + pr - kw) / sw + 1; }
  [[nodiscard]] int oh() const { return (H + pt + pb - kh) / sh + 1; }
  // Byte address of output lane c at (y, x).
  [[nodiscard]] uint64_t out_address(int c, int y, int x) const;
};

[[nodiscard]] Layer read_layer(const JsonNode& root, const std::string& name, uint64_t seed);
[[nodiscard]] Layer read_layer(const std::filesystem::path& file, uint64_t seed);

// v / 2^s rounded half away from zero (s >= 0).
[[nodiscard]] int64_t rhaz(int64_t v, int s);

// Expected output, lanes x oh x ow, c-major (lane-major).
[[nodiscard]] std::vector<int64_t> reference(const Layer& L);

// Reads lanes x h x w little-endian elements of `bpe` bytes from `mem`, lane-major, each at
// address(c, y, x), sign-extended (shared by the pdp and cdp references).
[[nodiscard]] std::vector<int64_t> read_elements(const Memory& mem, int lanes, int h, int w, int bpe,
                                                 const std::function<uint64_t(int c, int y, int x)>& address);

// Reads the output lanes from `mem` at the layer's output layout (sign-extended elements).
[[nodiscard]] std::vector<int64_t> read_output(const Layer& L, const Memory& mem);

// Empty when `actual` equals reference(L), else the first differing element and the count.
[[nodiscard]] std::string compare(const Layer& L, const std::vector<int64_t>& actual);

}  // namespace dla::harness::pdp_ref
