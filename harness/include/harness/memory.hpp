// Sparse byte-addressed memory model: 64-bit addresses, never-written bytes read as 0.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace dla::harness {

class Memory {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  [[nodiscard]] uint8_t read(uint64_t addr) const;
  void write(uint64_t addr, uint8_t value);
  void write(uint64_t addr, std::span<const uint8_t> bytes);
  [[nodiscard]] std::vector<uint8_t> read(uint64_t addr, uint64_t size) const;
  void fill(uint64_t addr, uint64_t size, uint8_t value);
  // zlib crc32 of [addr, addr+size), unwritten bytes counted as 0.
  [[nodiscard]] uint32_t crc32(uint64_t addr, uint64_t size) const;
  [[nodiscard]] std::size_t pages() const { return pages_.size(); }

  // Write tracking, for a device whose model keeps a memory of its own (the cmod device mirrors
  // this one into its server): while on, every page written through write / fill is remembered
  // until taken. Pages are numbered by address / kPageBytes.
  void track_writes(bool on) { tracking_ = on; }
  [[nodiscard]] std::vector<uint64_t> take_written_pages();
  // A page's bytes (kPageBytes of them; zeros where never written), and a whole page set without
  // being tracked (what the device's model wrote).
  [[nodiscard]] std::array<uint8_t, kPageBytes> page(uint64_t index) const;
  void set_page(uint64_t index, std::span<const uint8_t, kPageBytes> bytes);

 private:
  using Page = std::array<uint8_t, kPageBytes>;
  Page& page_for_write(uint64_t index);
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  bool tracking_ = false;
  std::vector<uint64_t> written_;  // pages written while tracking (unordered, may repeat)
};

}  // namespace dla::harness
