#include "harness/memory.hpp"

#include <zlib.h>

#include <algorithm>

namespace dla::harness {

uint8_t Memory::read(uint64_t addr) const {
  const auto it = pages_.find(addr / kPageBytes);
  return it == pages_.end() ? 0 : (*it->second)[addr % kPageBytes];
}

void Memory::write(uint64_t addr, uint8_t value) {
  auto& page = pages_[addr / kPageBytes];
  if (!page) page = std::make_unique<Page>(Page{});
  (*page)[addr % kPageBytes] = value;
}

void Memory::write(uint64_t addr, std::span<const uint8_t> bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i) write(addr + i, bytes[i]);
}

std::vector<uint8_t> Memory::read(uint64_t addr, uint64_t size) const {
  std::vector<uint8_t> out(size, 0);
  uint64_t done = 0;
  while (done < size) {
    const uint64_t a = addr + done;
    const uint64_t off = a % kPageBytes;
    const uint64_t n = std::min(kPageBytes - off, size - done);
    const auto it = pages_.find(a / kPageBytes);
    if (it != pages_.end()) std::copy_n(it->second->begin() + off, n, out.begin() + done);
    done += n;
  }
  return out;
}

void Memory::fill(uint64_t addr, uint64_t size, uint8_t value) {
  for (uint64_t i = 0; i < size; ++i) write(addr + i, value);
}

uint32_t Memory::crc32(uint64_t addr, uint64_t size) const {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  static const Page kZeros{};
  uint64_t done = 0;
  while (done < size) {
    const uint64_t a = addr + done;
    const uint64_t off = a % kPageBytes;
    const uint64_t n = std::min(kPageBytes - off, size - done);
    const auto it = pages_.find(a / kPageBytes);
    const uint8_t* src = it != pages_.end() ? it->second->data() + off : kZeros.data();
    crc = ::crc32(crc, src, static_cast<uInt>(n));
    done += n;
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace dla::harness
