// NVDLA v1 trace-player tests (input.txn + .dat images) as register programs. Format:
// ../shared/nvdla-traces/README.md, "The nvdlav1 traceplayer format"; decisions: docs/TRACES.md.
#include <fmt/format.h>

#include <sstream>

#include "harness/errors.hpp"
#include "harness/files.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/regdb.hpp"

namespace dla::harness {

namespace {

struct TxnParser {
  std::filesystem::path file;
  std::string config;
  Program program;
  std::size_t line_no = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(file.string(), fmt::format("line {}", line_no), why);
  }
  [[nodiscard]] uint64_t number(const std::string& text, const char* what, uint64_t max) const {
    const auto v = parse_u64_text(text);
    if (!v) fail(fmt::format("{} \"{}\" is not a number", what, text));
    if (*v > max) fail(fmt::format("{} {} is out of range (at most {:#x})", what, text, max));
    return *v;
  }
  void arity(const std::string& cmd, const std::vector<std::string>& a, std::size_t n) const {
    if (a.size() != n) fail(fmt::format("{} takes {} arguments, {} given", cmd, n, a.size()));
  }
  [[nodiscard]] ProgramStep make(StepOp op) const {
    ProgramStep st;
    st.op = op;
    st.where = fmt::format("{}: line {}", file.string(), line_no);
    return st;
  }
  // 0xffffWWWW: a CSB word address in the nvdlav1 map.
  [[nodiscard]] const RegDef* reg(const std::string& text) const {
    const uint64_t v = number(text, "register address", 0xffffffffu);
    if ((v >> 16) != 0xffff) fail(fmt::format("register address {} is not of the form 0xffffWWWW (a CSB word address)", text));
    const auto byte_addr = static_cast<uint32_t>((v & 0xffffu) * 4);
    const RegDef* r = RegDb::nvdla().at_address(config, byte_addr);
    if (r == nullptr) {
      fail(fmt::format("no register at word {:#06x} (byte {:#x}) in the {} register map", v & 0xffffu, byte_addr, config));
    }
    return r;
  }
  [[nodiscard]] std::vector<uint8_t> image(const std::string& name, uint64_t size) const {
    const std::filesystem::path p = file.parent_path() / name;
    if (!std::filesystem::exists(p)) fail(fmt::format("{}: file not found", p.string()));
    std::vector<uint8_t> out;
    try {
      out = read_dat_image(p);
    } catch (const InputError& e) {
      fail(fmt::format("cannot load {}", e.what()));
    }
    // The region is SIZE bytes: an image may hold more (conv_8x8_fc_int16's input image is 0x4000
    // bytes for a 0x1000-byte cube); what lies past the region is not the test's to load.
    if (out.size() > size) out.resize(size);
    return out;
  }

  void command(const std::vector<std::string>& t) {
    const std::string& cmd = t[0];
    const std::vector<std::string> a(t.begin() + 1, t.end());
    if (cmd == "write_reg") {
      arity(cmd, a, 2);
      ProgramStep st = make(StepOp::RegWrite);
      st.reg = reg(a[0]);
      st.value = static_cast<uint32_t>(number(a[1], "value", 0xffffffffu));
      program.steps.push_back(std::move(st));
    } else if (cmd == "read_reg") {
      arity(cmd, a, 3);
      ProgramStep st = make(StepOp::RegRead);
      st.reg = reg(a[0]);
      st.mask = static_cast<uint32_t>(number(a[1], "mask", 0xffffffffu));
      st.value = static_cast<uint32_t>(number(a[2], "expected value", 0xffffffffu));
      program.steps.push_back(std::move(st));
    } else if (cmd == "wait") {
      arity(cmd, a, 0);
      program.steps.push_back(make(StepOp::WaitAny));
    } else if (cmd == "load_mem") {
      arity(cmd, a, 3);
      ProgramStep st = make(StepOp::MemLoad);
      st.addr = number(a[0], "address", UINT64_MAX);
      const uint64_t size = number(a[1], "size", uint64_t{1} << 32);
      st.file = file.parent_path() / a[2];
      st.bytes = image(a[2], size);
      program.steps.push_back(std::move(st));
    } else if (cmd == "dump_mem") {
      arity(cmd, a, 3);
      ProgramStep st = make(StepOp::Check);
      st.check = CheckKind::File;
      st.addr = number(a[0], "address", UINT64_MAX);
      st.size = number(a[1], "size", uint64_t{1} << 32);
      if (st.size == 0) fail("dump_mem over 0 bytes");
      st.file = file.parent_path() / a[2];
      st.bytes = image(a[2], st.size);
      if (st.bytes.size() != st.size) {
        fail(fmt::format("dump_mem: {} holds {} bytes, not the {} bytes dumped", st.file.string(), st.bytes.size(),
                         st.size));
      }
      program.steps.push_back(std::move(st));
    } else {
      fail(fmt::format("unknown command \"{}\" (load_mem, write_reg, read_reg, wait, dump_mem)", cmd));
    }
  }

  void parse(const std::string& text) {
    std::istringstream in(text);
    std::string raw;
    while (std::getline(in, raw)) {
      ++line_no;
      const std::string line = raw.substr(0, raw.find('#'));
      std::istringstream words(line);
      std::vector<std::string> t;
      for (std::string w; words >> w;) t.push_back(w);
      if (!t.empty()) command(t);
    }
  }
};

}  // namespace

Program import_nvdla_txn(const std::filesystem::path& txn, const std::string& config) {
  TxnParser p;
  p.file = txn;
  p.config = config;
  // The test is its folder (every traceplayer test's file is input.txn).
  p.program.name = txn.parent_path().filename().string();
  if (p.program.name.empty()) p.program.name = txn.stem().string();
  p.program.config = config;
  p.parse(read_text_file(txn));
  if (p.program.steps.empty()) throw InputError(txn.string(), "", "the file holds no commands");
  return p.program;
}

}  // namespace dla::harness
