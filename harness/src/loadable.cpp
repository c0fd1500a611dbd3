#include "harness/loadable.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "harness/errors.hpp"
#include "nvdla_loadable_generated.h"

namespace dla::harness::loadable {

namespace fb = dla::loadable::fb;

std::string Version::text() const { return fmt::format("{}.{}.{}", major, minor, sub_minor); }

int TensorDesc::bytes_per_element() const {
  switch (data_type) {
    case DataType::Int8: return 1;
    case DataType::Int16:
    case DataType::Half: return 2;
    case DataType::Float: return 4;
    default: return 0;
  }
}

const Blob* Loadable::blob(std::string_view name) const {
  for (const auto& b : blobs) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

std::optional<std::size_t> Loadable::bound_memory(uint16_t flag, uint16_t bind_id) const {
  for (std::size_t i = 0; i < memories.size(); ++i) {
    if ((memories[i].flags & flag) != 0 && memories[i].bind_id == bind_id) return i;
  }
  return std::nullopt;
}

bool is_loadable_path(const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  return file.extension() == ".nvdla" || (name.size() > 5 && name.ends_with("_fbuf"));
}

namespace {

template <typename T>
std::vector<T> copy_vector(const flatbuffers::Vector<T>* v) {
  if (v == nullptr) return {};
  return std::vector<T>(v->begin(), v->end());
}

Version version_of(const fb::Version* v) {
  if (v == nullptr) return {};
  return {v->major(), v->minor(), v->sub_minor()};
}

Interface interface_of(uint32_t v) { return static_cast<Interface>(v); }

// The runtime's own rules on top of the verifier (Runtime.cpp: load, loadMemory,
// fillTaskAddressList, submit): indices in range, blobs that exist and fit their memory.
void check_rules(const Loadable& l) {
  const auto bad = [&](const std::string& where, const std::string& rule) { throw InputError(l.file, where, rule); };
  if (l.version.major != 0 || l.version.minor != 7) {
    bad("/version", fmt::format("loadable format {} is not one dlacosim reads (0.7.x, the format of NVIDIA's "
                                "nvdla/sw compiler)",
                                l.version.text()));
  }
  if (l.submits.empty() || l.tasks.empty() || l.memories.empty()) {
    bad("", "a loadable needs at least one submit, one task and one memory (the runtime refuses it otherwise)");
  }
  // Entries are referred to by position: their ids must be their positions.
  const auto ids_in_order = [&](const char* list, const auto& v) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].id != i) {
        bad(fmt::format("/{}/{}/id", list, i),
            fmt::format("id {} at position {}: entries are referred to by position, so the ids must be 0, 1, 2, ...",
                        v[i].id, i));
      }
    }
  };
  ids_in_order("memory_list", l.memories);
  ids_in_order("address_list", l.addresses);
  ids_in_order("task_list", l.tasks);
  ids_in_order("event_list", l.events);
  ids_in_order("submit_list", l.submits);

  for (std::size_t i = 0; i < l.memories.size(); ++i) {
    const MemoryEntry& m = l.memories[i];
    const std::string at = fmt::format("/memory_list/{}", i);
    if (m.domain > 1) bad(at + "/domain", fmt::format("domain {} is neither SYSTEM (0) nor SRAM (1)", m.domain));
    if ((m.flags & ~uint16_t{0xf}) != 0) {
      bad(at + "/flags", fmt::format("flags {:#x} hold bits beyond ALLOC, SET, INPUT and OUTPUT", m.flags));
    }
    if ((m.flags & kMemSet) != 0) {
      if ((m.flags & kMemAlloc) == 0) bad(at + "/flags", "SET without ALLOC: there is no memory to fill");
      if (m.contents.size() != m.offsets.size()) {
        bad(at + "/offsets", fmt::format("{} content names but {} offsets (one offset per content blob)",
                                         m.contents.size(), m.offsets.size()));
      }
      for (std::size_t c = 0; c < m.contents.size(); ++c) {
        const Blob* b = l.blob(m.contents[c]);
        if (b == nullptr) {
          bad(fmt::format("{}/contents/{}", at, c), fmt::format("no blob is named \"{}\"", m.contents[c]));
        }
        if (b->data.size() < b->size) {
          bad(fmt::format("{}/contents/{}", at, c),
              fmt::format("blob \"{}\" declares {} bytes but holds {}", b->name, b->size, b->data.size()));
        }
        if (m.offsets[c] > m.size || b->size > m.size - m.offsets[c]) {
          bad(fmt::format("{}/offsets/{}", at, c),
              fmt::format("blob \"{}\" ({} bytes) at offset {} does not fit the memory's {} bytes", b->name, b->size,
                          m.offsets[c], m.size));
        }
      }
    }
    if (m.bindable() && m.tensor_desc_id >= l.tensors.size()) {
      bad(at + "/tensor_desc_id", fmt::format("tensor {} does not exist ({} tensor descriptions)", m.tensor_desc_id,
                                              l.tensors.size()));
    }
  }
  for (std::size_t i = 0; i < l.addresses.size(); ++i) {
    const AddressEntry& a = l.addresses[i];
    const std::string at = fmt::format("/address_list/{}", i);
    if (a.mem_id >= l.memories.size()) {
      bad(at + "/mem_id", fmt::format("memory {} does not exist ({} memories)", a.mem_id, l.memories.size()));
    }
    const MemoryEntry& m = l.memories[a.mem_id];
    if (a.offset > m.size || a.size > m.size - a.offset) {
      bad(at + "/offset", fmt::format("offset {} + size {} is outside memory {} ({} bytes)", a.offset, a.size,
                                      a.mem_id, m.size));
    }
  }
  for (std::size_t i = 0; i < l.tasks.size(); ++i) {
    const TaskEntry& t = l.tasks[i];
    const std::string at = fmt::format("/task_list/{}", i);
    if (t.interface != Interface::Dla1 && t.interface != Interface::Emu1) {
      bad(at + "/interface", fmt::format("interface {} is neither DLA1 nor EMU1", static_cast<uint32_t>(t.interface)));
    }
    for (std::size_t k = 0; k < t.address_list.size(); ++k) {
      if (t.address_list[k] >= l.addresses.size()) {
        bad(fmt::format("{}/address_list/{}", at, k),
            fmt::format("address {} does not exist ({} address list entries)", t.address_list[k], l.addresses.size()));
      }
    }
    for (const auto* list : {&t.pre_actions, &t.post_actions}) {
      for (std::size_t k = 0; k < list->size(); ++k) {
        if ((*list)[k] >= l.events.size()) {
          bad(fmt::format("{}/{}/{}", at, list == &t.pre_actions ? "pre_actions" : "post_actions", k),
              fmt::format("event {} does not exist ({} events)", (*list)[k], l.events.size()));
        }
      }
    }
  }
  for (std::size_t i = 0; i < l.submits.size(); ++i) {
    for (std::size_t k = 0; k < l.submits[i].task_ids.size(); ++k) {
      if (l.submits[i].task_ids[k] >= l.tasks.size()) {
        bad(fmt::format("/submit_list/{}/task_id/{}", i, k),
            fmt::format("task {} does not exist ({} tasks)", l.submits[i].task_ids[k], l.tasks.size()));
      }
    }
  }
  for (std::size_t i = 0; i < l.tensors.size(); ++i) {
    const TensorDesc& t = l.tensors[i];
    const std::string at = fmt::format("/tensor_desc_list/{}", i);
    if (t.mem_id >= l.memories.size()) {
      bad(at + "/mem_id", fmt::format("memory {} does not exist ({} memories)", t.mem_id, l.memories.size()));
    }
    const MemoryEntry& m = l.memories[t.mem_id];
    if (t.offset > m.size || t.size > m.size - t.offset) {
      bad(at + "/size", fmt::format("tensor \"{}\" ({} bytes at offset {}) does not fit memory {} ({} bytes)", t.name,
                                    t.size, t.offset, t.mem_id, m.size));
    }
    if (t.n < 0 || t.c < 0 || t.h < 0 || t.w < 0) {
      bad(at, fmt::format("tensor \"{}\" has a negative dimension ({} x {} x {} x {})", t.name, t.n, t.c, t.h, t.w));
    }
  }
  for (std::size_t i = 0; i < l.relocs.size(); ++i) {
    const RelocEntry& r = l.relocs[i];
    const std::string at = fmt::format("/reloc_list/{}", i);
    for (const auto& [key, id] : {std::pair{"address_id", r.address_id}, std::pair{"write_id", r.write_id}}) {
      if (id >= l.addresses.size()) {
        bad(fmt::format("{}/{}", at, key),
            fmt::format("address {} does not exist ({} address list entries)", id, l.addresses.size()));
      }
    }
  }
}

}  // namespace

Loadable parse_loadable(std::span<const uint8_t> bytes, const std::string& name) {
  if (bytes.size() < 8) {
    throw InputError(name, "", fmt::format("{} bytes is too short for a loadable (a FlatBuffers file)", bytes.size()));
  }
  if (bytes.size() > kMaxLoadableFileBytes) {
    throw InputError(name, "", fmt::format("{} bytes is beyond the {} bytes dlacosim reads as a loadable",
                                           bytes.size(), kMaxLoadableFileBytes));
  }
  // The verifier needs the buffer aligned as FlatBuffers lays it out: a vector's storage is.
  const std::vector<uint8_t> buf(bytes.begin(), bytes.end());
  flatbuffers::Verifier::Options vo;
  vo.max_depth = 16;
  vo.check_alignment = false;
  flatbuffers::Verifier v(buf.data(), buf.size(), vo);
  if (!fb::VerifyLoadableBuffer(v)) {
    throw InputError(name, "",
                     "the FlatBuffers verifier rejects it: not a loadable, or a truncated or corrupted one (an offset "
                     "or a length points outside the file, or the root table lacks its version)");
  }
  const fb::Loadable* root = fb::GetLoadable(buf.data());
  Loadable l;
  l.file = name;
  l.version = version_of(root->version());
  if (const auto* ts = root->task_list()) {
    for (const auto* t : *ts) {
      TaskEntry e;
      e.id = t->id();
      e.interface = interface_of(static_cast<uint32_t>(t->interface()));
      e.instance = t->instance();
      e.address_list = copy_vector(t->address_list());
      e.pre_actions = copy_vector(t->pre_actions());
      e.post_actions = copy_vector(t->post_actions());
      l.tasks.push_back(std::move(e));
    }
  }
  if (const auto* ms = root->memory_list()) {
    for (const auto* m : *ms) {
      MemoryEntry e;
      e.id = m->id();
      e.domain = static_cast<uint8_t>(m->domain());
      e.flags = m->flags();
      e.size = m->size();
      e.alignment = m->alignment();
      if (const auto* cs = m->contents()) {
        for (const auto* s : *cs) e.contents.push_back(s == nullptr ? std::string() : s->str());
      }
      e.offsets = copy_vector(m->offsets());
      e.bind_id = m->bind_id();
      e.tensor_desc_id = m->tensor_desc_id();
      l.memories.push_back(std::move(e));
    }
  }
  if (const auto* as = root->address_list()) {
    for (const auto* a : *as) l.addresses.push_back({a->id(), a->mem_id(), a->offset(), a->size()});
  }
  if (const auto* es = root->event_list()) {
    for (const auto* e : *es) {
      l.events.push_back({e->id(), static_cast<uint8_t>(e->type()), e->target(), e->val(), static_cast<uint8_t>(e->op())});
    }
  }
  if (const auto* bs = root->blobs()) {
    for (const auto* b : *bs) {
      Blob e;
      e.name = b->name() == nullptr ? std::string() : b->name()->str();
      e.size = b->size();
      e.interface = interface_of(static_cast<uint32_t>(b->interface()));
      e.sub_interface = b->sub_interface();
      e.version = version_of(b->version());
      e.data = copy_vector(b->data());
      l.blobs.push_back(std::move(e));
    }
  }
  if (const auto* ts = root->tensor_desc_list()) {
    for (const auto* t : *ts) {
      TensorDesc e;
      e.name = t->name() == nullptr ? std::string() : t->name()->str();
      e.id = t->id();
      e.mem_id = t->mem_id();
      e.size = t->size();
      e.offset = t->offset();
      e.data_format = t->data_format();
      e.data_type = static_cast<DataType>(t->data_type());
      e.data_category = static_cast<uint8_t>(t->data_category());
      e.pixel_format = t->pixel_format();
      e.pixel_mapping = static_cast<uint8_t>(t->pixel_mapping());
      e.n = t->n();
      e.c = t->c();
      e.h = t->h();
      e.w = t->w();
      e.stride = {t->stride_0(), t->stride_1(), t->stride_2(), t->stride_3(),
                  t->stride_4(), t->stride_5(), t->stride_6(), t->stride_7()};
      l.tensors.push_back(std::move(e));
    }
  }
  if (const auto* rs = root->reloc_list()) {
    for (const auto* r : *rs) {
      l.relocs.push_back({r->address_id(), r->write_id(), r->offset(), r->interface(), r->sub_interface(), r->reloc_type()});
    }
  }
  if (const auto* ss = root->submit_list()) {
    for (const auto* s : *ss) l.submits.push_back({s->id(), copy_vector(s->task_id())});
  }
  check_rules(l);
  return l;
}

std::vector<uint8_t> serialize_loadable(const Loadable& l) {
  flatbuffers::FlatBufferBuilder b;
  const auto ver = [](const Version& v) { return fb::Version(v.major, v.minor, v.sub_minor); };
  std::vector<flatbuffers::Offset<fb::TaskListEntry>> tasks;
  for (const auto& t : l.tasks) {
    tasks.push_back(fb::CreateTaskListEntryDirect(b, t.id, static_cast<fb::Interface>(t.interface), t.instance,
                                                  &t.address_list, &t.pre_actions, &t.post_actions));
  }
  std::vector<flatbuffers::Offset<fb::MemoryListEntry>> mems;
  for (const auto& m : l.memories) {
    std::vector<flatbuffers::Offset<flatbuffers::String>> names;
    for (const auto& n : m.contents) names.push_back(b.CreateString(n));
    mems.push_back(fb::CreateMemoryListEntryDirect(b, m.id, static_cast<fb::MemoryDomain>(m.domain), m.flags, m.size,
                                                   m.alignment, &names, &m.offsets, m.bind_id, m.tensor_desc_id));
  }
  std::vector<flatbuffers::Offset<fb::AddressListEntry>> addrs;
  for (const auto& a : l.addresses) addrs.push_back(fb::CreateAddressListEntry(b, a.id, a.mem_id, a.offset, a.size));
  std::vector<flatbuffers::Offset<fb::EventListEntry>> events;
  for (const auto& e : l.events) {
    events.push_back(fb::CreateEventListEntry(b, e.id, static_cast<fb::EventType>(e.type), e.target, e.val,
                                              static_cast<fb::EventOp>(e.op)));
  }
  std::vector<flatbuffers::Offset<fb::Blob>> blobs;
  for (const auto& bl : l.blobs) {
    const fb::Version v = ver(bl.version);
    blobs.push_back(fb::CreateBlobDirect(b, bl.name.c_str(), bl.size, static_cast<fb::Interface>(bl.interface),
                                         bl.sub_interface, &v, &bl.data));
  }
  std::vector<flatbuffers::Offset<fb::TensorDescListEntry>> tensors;
  for (const auto& t : l.tensors) {
    tensors.push_back(fb::CreateTensorDescListEntryDirect(
        b, t.name.c_str(), t.id, t.mem_id, t.size, t.offset, t.data_format, static_cast<fb::DataType>(t.data_type),
        static_cast<fb::DataCategory>(t.data_category), t.pixel_format, static_cast<fb::PixelMapping>(t.pixel_mapping),
        t.n, t.c, t.h, t.w, t.stride[0], t.stride[1], t.stride[2], t.stride[3], t.stride[4], t.stride[5], t.stride[6],
        t.stride[7]));
  }
  std::vector<flatbuffers::Offset<fb::RelocListEntry>> relocs;
  for (const auto& r : l.relocs) {
    relocs.push_back(fb::CreateRelocListEntry(b, r.address_id, r.write_id, r.offset, r.interface, r.sub_interface,
                                              r.reloc_type));
  }
  std::vector<flatbuffers::Offset<fb::SubmitListEntry>> submits;
  for (const auto& s : l.submits) submits.push_back(fb::CreateSubmitListEntryDirect(b, s.id, &s.task_ids));
  const fb::Version v = ver(l.version);
  b.Finish(fb::CreateLoadableDirect(b, &v, &tasks, &mems, &addrs, &events, &blobs, &tensors, &relocs, &submits));
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

Loadable read_loadable(const std::filesystem::path& file) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) throw InputError(file.string(), "", "cannot read the file: " + ec.message());
  if (size > kMaxLoadableFileBytes) {
    throw InputError(file.string(), "", fmt::format("{} bytes is beyond the {} bytes dlacosim reads as a loadable",
                                                    size, kMaxLoadableFileBytes));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "", "cannot open the file");
  std::vector<uint8_t> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw InputError(file.string(), "", "cannot read the file");
  return parse_loadable(bytes, file.string());
}

}  // namespace dla::harness::loadable
