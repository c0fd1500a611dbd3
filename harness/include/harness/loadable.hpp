// NVDLA loadables: the FlatBuffers container NVIDIA's compiler writes for its runtime
// (docs/LOADABLES.md). read_loadable() checks a file with the FlatBuffers verifier and the
// runtime's own rules and returns it as plain values; every refusal is an InputError naming the
// file, the list and index, and the rule.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace dla::harness::loadable {

enum class Interface : uint32_t { None = 0, Dla1 = 1, Emu1 = 2 };

struct Version {
  uint8_t major = 0, minor = 0, sub_minor = 0;
  [[nodiscard]] std::string text() const;
};

struct Blob {
  std::string name;
  uint64_t size = 0;
  Interface interface = Interface::None;
  uint32_t sub_interface = 0;
  Version version;
  std::vector<uint8_t> data;
};

// Memory flags (a bit set).
inline constexpr uint16_t kMemAlloc = 1, kMemSet = 2, kMemInput = 4, kMemOutput = 8;

struct MemoryEntry {
  uint16_t id = 0;
  uint8_t domain = 0;  // 0 system memory, 1 SRAM
  uint16_t flags = 0;
  uint64_t size = 0;
  uint32_t alignment = 0;
  std::vector<std::string> contents;
  std::vector<uint64_t> offsets;
  uint16_t bind_id = 0;
  uint16_t tensor_desc_id = 0;
  [[nodiscard]] bool bindable() const { return (flags & (kMemInput | kMemOutput)) != 0; }
};

struct AddressEntry {
  uint16_t id = 0;
  uint16_t mem_id = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct EventEntry {
  uint16_t id = 0;
  uint8_t type = 0;
  uint16_t target = 0;
  uint32_t val = 0;
  uint8_t op = 0;  // 0 wait, 1 signal
};

struct TaskEntry {
  uint16_t id = 0;
  Interface interface = Interface::None;
  int16_t instance = -1;
  std::vector<uint16_t> address_list;
  std::vector<uint16_t> pre_actions;
  std::vector<uint16_t> post_actions;
};

struct SubmitEntry {
  uint16_t id = 0;
  std::vector<uint16_t> task_ids;
};

// The runtime's data types.
enum class DataType : uint8_t { Unknown = 0, Float = 1, Half = 2, Int16 = 3, Int8 = 4 };

struct TensorDesc {
  std::string name;
  uint16_t id = 0;
  uint16_t mem_id = 0;
  uint64_t size = 0;
  uint64_t offset = 0;
  uint8_t data_format = 0;
  DataType data_type = DataType::Unknown;
  uint8_t data_category = 0;
  uint8_t pixel_format = 0;
  uint8_t pixel_mapping = 0;
  int32_t n = 0, c = 0, h = 0, w = 0;
  std::array<uint32_t, 8> stride{};  // [0] element, [1] line, [2] surface (bytes)
  [[nodiscard]] int bytes_per_element() const;
};

struct RelocEntry {
  uint16_t address_id = 0;
  uint16_t write_id = 0;
  uint64_t offset = 0;
  uint32_t interface = 0;
  uint32_t sub_interface = 0;
  uint8_t reloc_type = 0;
};

struct Loadable {
  std::string file;  // for messages
  Version version;
  std::vector<TaskEntry> tasks;
  std::vector<MemoryEntry> memories;
  std::vector<AddressEntry> addresses;
  std::vector<EventEntry> events;
  std::vector<Blob> blobs;
  std::vector<TensorDesc> tensors;
  std::vector<RelocEntry> relocs;
  std::vector<SubmitEntry> submits;

  [[nodiscard]] const Blob* blob(std::string_view name) const;
  // The bound memory of the INPUT (or OUTPUT) tensor with this bind id, nullopt when none.
  [[nodiscard]] std::optional<std::size_t> bound_memory(uint16_t flag, uint16_t bind_id) const;
};

// Loadables are bounded so that a hostile size field cannot make the tool allocate without end.
inline constexpr uint64_t kMaxLoadableFileBytes = uint64_t{1} << 30;

[[nodiscard]] Loadable read_loadable(const std::filesystem::path& file);
// The same from bytes already in memory (`name` names them in messages).
[[nodiscard]] Loadable parse_loadable(std::span<const uint8_t> bytes, const std::string& name);

// The loadable as a FlatBuffers file (the format read_loadable reads; tests build hostile files
// from real ones with it).
[[nodiscard]] std::vector<uint8_t> serialize_loadable(const Loadable& l);

// A loadable written by dlacosim (`compile --loadable`) and the bytes of each bound input, as
// `run --input TENSOR=FILE` takes them (raw: the tensor's memory).
struct Exported {
  Loadable loadable;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> inputs;
};

// Whether a path names a loadable by its name: `*.nvdla`, or NVIDIA's regression naming `*_fbuf`.
[[nodiscard]] bool is_loadable_path(const std::filesystem::path& file);

}  // namespace dla::harness::loadable
