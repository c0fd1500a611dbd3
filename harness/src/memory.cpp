#include "harness/memory.hpp"

#include <zlib.h>

#include <algorithm>

namespace dla::harness {

uint8_t Memory::read(uint64_t addr) const {
  const auto it = pages_.find(addr / kPageBytes);
  return it == pages_.end() ? 0 : (*it->second)[addr % kPageBytes];
}

Memory::Page& Memory::page_for_write(uint64_t index) {
  auto& page = pages_[index];
  if (!page) page = std::make_unique<Page>(Page{});
  if (tracking_ && (written_.empty() || written_.back() != index)) written_.push_back(index);
  return *page;
}

void Memory::write(uint64_t addr, uint8_t value) { page_for_write(addr / kPageBytes)[addr % kPageBytes] = value; }

void Memory::write(uint64_t addr, std::span<const uint8_t> bytes) {
  uint64_t done = 0;
  while (done < bytes.size()) {
    const uint64_t a = addr + done;
    const uint64_t off = a % kPageBytes;
    const uint64_t n = std::min<uint64_t>(kPageBytes - off, bytes.size() - done);
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(done), n,
                page_for_write(a / kPageBytes).begin() + static_cast<std::ptrdiff_t>(off));
    done += n;
  }
}

std::vector<uint64_t> Memory::take_written_pages() {
  std::vector<uint64_t> out = std::move(written_);
  written_.clear();
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::array<uint8_t, Memory::kPageBytes> Memory::page(uint64_t index) const {
  const auto it = pages_.find(index);
  return it == pages_.end() ? Page{} : *it->second;
}

void Memory::set_page(uint64_t index, std::span<const uint8_t, kPageBytes> bytes) {
  auto& page = pages_[index];
  if (!page) page = std::make_unique<Page>(Page{});
  std::copy(bytes.begin(), bytes.end(), page->begin());
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
  uint64_t done = 0;
  while (done < size) {
    const uint64_t a = addr + done;
    const uint64_t off = a % kPageBytes;
    const uint64_t n = std::min(kPageBytes - off, size - done);
    std::fill_n(page_for_write(a / kPageBytes).begin() + static_cast<std::ptrdiff_t>(off), n, value);
    done += n;
  }
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
