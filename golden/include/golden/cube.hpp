// Typed feature cubes in logical (n, c, h, w) coordinates. Memory layout lives in layout.hpp;
// a Cube knows nothing about addresses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace dla::golden {

struct CubeShape {
  int n = 1;
  int c = 1;
  int h = 1;
  int w = 1;
  [[nodiscard]] std::size_t elements() const {
    return static_cast<std::size_t>(n) * c * h * w;
  }
  bool operator==(const CubeShape&) const = default;
};

struct CubeCoord {
  int n = 0;
  int c = 0;
  int h = 0;
  int w = 0;
  bool operator==(const CubeCoord&) const = default;
};

template <class T>
class Cube {
 public:
  Cube() = default;
  explicit Cube(CubeShape shape, T fill = T{}) : shape_(shape), data_(shape.elements(), fill) {}

  [[nodiscard]] const CubeShape& shape() const { return shape_; }
  [[nodiscard]] std::size_t size() const { return data_.size(); }

  // Flat index: w fastest, then h, then c, then n.
  [[nodiscard]] std::size_t index(int n, int c, int h, int w) const {
    return ((static_cast<std::size_t>(n) * shape_.c + c) * shape_.h + h) * shape_.w + w;
  }
  [[nodiscard]] CubeCoord coord(std::size_t index) const {
    CubeCoord k;
    k.w = static_cast<int>(index % shape_.w);
    index /= shape_.w;
    k.h = static_cast<int>(index % shape_.h);
    index /= shape_.h;
    k.c = static_cast<int>(index % shape_.c);
    k.n = static_cast<int>(index / shape_.c);
    return k;
  }

  T& at(int n, int c, int h, int w) { return data_.at(index(n, c, h, w)); }
  const T& at(int n, int c, int h, int w) const { return data_.at(index(n, c, h, w)); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

  [[nodiscard]] std::vector<T>& data() { return data_; }
  [[nodiscard]] const std::vector<T>& data() const { return data_; }

 private:
  CubeShape shape_{};
  std::vector<T> data_{};
};

}  // namespace dla::golden
