// One task of a loadable as the runtime's plan sees it before the run: its address list, the
// memories' images and their device addresses. The firmware (DLA1 tasks) and the emulator (EMU1
// tasks) read their descriptors through it; every reference is checked, and a bad one is an
// InputError naming the file, the task and the rule.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/errors.hpp"
#include "harness/loadable.hpp"
#include "harness/loadable_runner.hpp"

namespace dla::harness::loadable {

class TaskView {
 public:
  TaskView(const Loadable& l, std::size_t task, const Plan& plan, const std::vector<std::vector<uint8_t>>& images)
      : l_(l), task_(l.tasks[task]), plan_(plan), images_(images), where_(fmt::format("/task_list/{}", task)) {}

  [[noreturn]] void bad(const std::string& rule) const { throw InputError(l_.file, where_, rule); }
  [[nodiscard]] const std::string& where() const { return where_; }

  [[nodiscard]] const AddressEntry& address_entry(int index, std::string_view what) const {
    if (index < 0 || static_cast<std::size_t>(index) >= task_.address_list.size()) {
      bad(fmt::format("{} refers to address {} of the task, which has {} addresses", what, index, task_.address_list.size()));
    }
    return l_.addresses[task_.address_list[static_cast<std::size_t>(index)]];
  }

  // The device address of task address `index` + `offset`, in allocated system memory.
  [[nodiscard]] uint64_t address(int index, uint64_t offset, std::string_view what) const {
    const AddressEntry& a = address_entry(index, what);
    const MemoryEntry& m = l_.memories[a.mem_id];
    if ((m.flags & kMemAlloc) == 0) {
      bad(fmt::format("{} is in memory {}, which is not allocated (no ALLOC flag)", what, a.mem_id));
    }
    if (m.domain != 0) bad(fmt::format("{} is in memory {} of the SRAM domain: dlacosim models system memory only", what, a.mem_id));
    return plan_.memory_base[a.mem_id] + a.offset + offset;
  }

  // `bytes` bytes from task address `index` + `offset` lie inside its memory.
  void check_inside(int index, uint64_t offset, uint64_t bytes, std::string_view what) const {
    const AddressEntry& a = address_entry(index, what);
    const MemoryEntry& m = l_.memories[a.mem_id];
    const uint64_t at = a.offset + offset;
    if (at > m.size || bytes > m.size - at) {
      bad(fmt::format("{} ({} bytes at offset {} of memory {}) runs past the memory's {} bytes", what, bytes, at, a.mem_id,
                      m.size));
    }
  }

  // `bytes` bytes of task address `index` + `offset` as the memories hold them before the run.
  [[nodiscard]] std::vector<uint8_t> read(int index, uint64_t offset, std::size_t bytes, std::string_view what) const {
    check_inside(index, offset, bytes, what);
    const AddressEntry& a = address_entry(index, what);
    const auto& img = images_[a.mem_id];
    if (img.empty()) return std::vector<uint8_t>(bytes, 0);  // a memory nothing fills reads as zero
    const uint64_t at = a.offset + offset;
    return {img.begin() + static_cast<std::ptrdiff_t>(at), img.begin() + static_cast<std::ptrdiff_t>(at + bytes)};
  }

  // The first blob in the memory of task address 0 (the network descriptor's): its version is the
  // version of the task's descriptor interface.
  [[nodiscard]] const Blob& descriptor_blob(std::string_view what) const {
    const uint16_t mem = address_entry(0, what).mem_id;
    for (const auto& name : l_.memories[mem].contents) {
      if (const Blob* b = l_.blob(name)) return *b;
    }
    bad(fmt::format("{}'s memory holds no blob, so its interface version is unknown", what));
  }

 private:
  const Loadable& l_;
  const TaskEntry& task_;
  const Plan& plan_;
  const std::vector<std::vector<uint8_t>>& images_;
  std::string where_;
};

}  // namespace dla::harness::loadable
