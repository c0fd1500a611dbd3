#include "harness/program.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <optional>
#include <string_view>

#include "harness/errors.hpp"
#include "harness/files.hpp"

namespace dla::harness {

bool valid_interrupt_name(const std::string& name) {
  static const std::array<std::string_view, 8> kUnits = {"SDP", "CDP", "PDP", "BDMA", "RUBIK", "CDMA_DAT", "CDMA_WT",
                                                         "CACC"};
  for (const auto u : kUnits) {
    if (name == std::string(u) + "_0" || name == std::string(u) + "_1") return true;
  }
  return false;
}

namespace {

// NVDLA v1 trace-player images: optional header lines (`Key = value`, `dumped memory,...`,
// `memory type:...`, `=====`, `dump done`), then lines of space-separated `0xNN` bytes in address
// order from the load (or dump) address.
std::vector<DatChunk> read_txn_dat(const std::filesystem::path& file, const std::string& text) {
  DatChunk c;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    ++line_no;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const std::string_view l = std::string_view(line).substr(first);
    if (l.starts_with("#")) continue;  // `# dumped @ ...`, `#2D data dump, uncompressed`
    const bool header = l.find('=') != std::string_view::npos || l.starts_with("dumped memory") ||
                        l.starts_with("memory type") || l.starts_with("dump done");
    if (header) {
      if (!c.bytes.empty() && !l.starts_with("=") && !l.starts_with("dump done")) {
        throw InputError(file.string(), fmt::format("line {}", line_no), "a header line after the data");
      }
      continue;
    }
    std::size_t p = 0;
    while (p < l.size()) {
      while (p < l.size() && (l[p] == ' ' || l[p] == '\t' || l[p] == '\r')) ++p;
      if (p >= l.size()) break;
      std::size_t e = p;
      while (e < l.size() && l[e] != ' ' && l[e] != '\t' && l[e] != '\r') ++e;
      const std::string tok(l.substr(p, e - p));
      const auto b = tok.starts_with("0x") ? parse_u64_text(tok) : std::nullopt;
      if (!b || *b > 0xff) {
        throw InputError(file.string(), fmt::format("line {}", line_no),
                         fmt::format("\"{}\" is not a byte value 0xNN", tok));
      }
      c.bytes.push_back(static_cast<uint8_t>(*b));
      p = e;
    }
  }
  if (c.bytes.empty()) throw InputError(file.string(), "", "the image holds no bytes");
  return {std::move(c)};
}

// The text of one trace-test record `{offset:A, size:N, payload:B B ...}` (optionally followed by a
// comma); nullopt when the line is not one. Scanned by hand: libstdc++'s std::regex recurses once
// per character it matches, and a 100 KB payload line overflowed the stack.
struct DatRecordText {
  std::string offset, size, payload;
};

std::optional<DatRecordText> split_dat_record(std::string_view line) {
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
  };
  auto literal = [&](std::string_view s) {
    skip_space();
    if (line.substr(i, s.size()) != s) return false;
    i += s.size();
    return true;
  };
  auto word = [&] {
    skip_space();
    const std::size_t b = i;
    while (i < line.size() && std::isalnum(static_cast<unsigned char>(line[i]))) ++i;
    return std::string(line.substr(b, i - b));
  };
  DatRecordText r;
  if (!literal("{") || !literal("offset") || !literal(":")) return std::nullopt;
  r.offset = word();
  if (r.offset.empty() || !literal(",") || !literal("size") || !literal(":")) return std::nullopt;
  r.size = word();
  if (r.size.empty() || !literal(",") || !literal("payload") || !literal(":")) return std::nullopt;
  const std::size_t close = line.find('}', i);
  if (close == std::string_view::npos) return std::nullopt;
  r.payload = std::string(line.substr(i, close - i));
  i = close + 1;
  (void)literal(",");
  skip_space();
  if (i != line.size()) return std::nullopt;
  return r;
}

}  // namespace

std::vector<uint8_t> read_dat_image(const std::filesystem::path& file) {
  std::vector<uint8_t> out;
  for (const auto& c : read_dat_file(file)) {
    if (c.offset > kMaxDatImageBytes || c.bytes.size() > kMaxDatImageBytes - c.offset) {
      throw InputError(file.string(), "",
                       fmt::format("a record at offset {:#x} ends past the {} MiB an image may span from its load address",
                                   c.offset, kMaxDatImageBytes >> 20));
    }
    if (out.size() < c.offset + c.bytes.size()) out.resize(c.offset + c.bytes.size(), 0);
    std::copy(c.bytes.begin(), c.bytes.end(), out.begin() + static_cast<std::ptrdiff_t>(c.offset));
  }
  return out;
}

std::vector<DatChunk> read_dat_file(const std::filesystem::path& file) {
  const std::string text = read_text_file(file);
  // Two vendor formats: trace-test images start with `{` (records), trace-player images do not.
  if (const auto f = text.find_first_not_of(" \t\r\n"); f == std::string::npos || text[f] != '{') {
    return read_txn_dat(file, text);
  }
  std::vector<DatChunk> chunks;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  bool opened = false, closed = false, bare = false;
  while (pos <= text.size()) {
    const std::size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    line = line.substr(first);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const std::string where = fmt::format("line {}", line_no);
    if (line == "{" && !opened && !bare) {
      opened = true;
      continue;
    }
    if (line == "}" && opened && !closed) {
      closed = true;
      continue;
    }
    // [nvdla-traces] Older trace .dat files (e.g. sdp_8x8x32_bypass_int8_0/SDP_0_input.dat) hold
    // the records without the wrapping { ... }: accepted when the first line is already a record.
    if (!opened && !bare && chunks.empty() && line.front() == '{' && line.size() > 1) bare = true;
    if ((!opened && !bare) || closed) throw InputError(file.string(), where, "expected the file to be wrapped in { ... }");
    const auto record = split_dat_record(line);
    if (!record) throw InputError(file.string(), where, "expected {offset:0x..., size:N, payload:0x.. 0x.. ...},");
    auto all = [](std::string_view t, int (*pred)(int)) {
      return !t.empty() && std::all_of(t.begin(), t.end(), [&](char ch) { return pred(static_cast<unsigned char>(ch)) != 0; });
    };
    const std::string_view off_text = record->offset;
    const auto offset = parse_u64_text(off_text);
    const auto size_given = parse_u64_text(record->size);
    if (!offset || !(all(off_text, isdigit) || (off_text.starts_with("0x") && all(off_text.substr(2), isxdigit)))) {
      throw InputError(file.string(), where, fmt::format("offset \"{}\" is not a 64-bit number (0x... or decimal)", off_text));
    }
    if (!size_given || !all(record->size, isdigit)) {
      throw InputError(file.string(), where, fmt::format("size \"{}\" is not a decimal 64-bit number", record->size));
    }
    DatChunk c;
    c.offset = *offset;
    const uint64_t size = *size_given;
    const std::string& payload = record->payload;
    std::size_t p = 0;
    while (p < payload.size()) {
      while (p < payload.size() && (payload[p] == ' ' || payload[p] == '\t')) ++p;
      if (p >= payload.size()) break;
      std::size_t e = p;
      while (e < payload.size() && payload[e] != ' ' && payload[e] != '\t') ++e;
      const auto b = parse_u64_text(payload.substr(p, e - p));
      if (!b || *b > 0xff) {
        throw InputError(file.string(), where, fmt::format("\"{}\" is not a byte value", payload.substr(p, e - p)));
      }
      c.bytes.push_back(static_cast<uint8_t>(*b));
      p = e;
    }
    if (c.bytes.size() != size) {
      throw InputError(file.string(), where, fmt::format("size says {} bytes, payload has {}", size, c.bytes.size()));
    }
    chunks.push_back(std::move(c));
  }
  if (!closed && !bare) throw InputError(file.string(), fmt::format("line {}", line_no), "missing the closing }");
  return chunks;
}

namespace {

std::vector<uint8_t> load_image(const JsonNode& f) {
  const std::filesystem::path p = f.file().parent_path() / f.as_string();
  try {
    if (p.extension() == ".dat") return read_dat_image(p);
    return read_gzip_file(p);
  } catch (const InputError& e) {
    f.fail(e.what());
  }
}

ProgramStep parse_step(const JsonNode& s, const std::string& config) {
  ProgramStep st;
  st.where = fmt::format("{}: {}", s.file().string(), s.where());
  const std::string op =
      s.require("op").as_choice({"mem_load", "mem_fill", "reg_write", "reg_read", "poll", "wait_intr", "wait_any", "check"});
  auto reg_of = [&](const JsonNode& n) {
    const std::string name = n.as_string();
    const RegDef* r = RegDb::nvdla().find(name);
    if (r == nullptr) n.fail(fmt::format("unknown register \"{}\" (write BLOCK.REGISTER, e.g. SDP.D_OP_ENABLE)", name));
    if (!RegDb::nvdla().address(config, *r)) n.fail(fmt::format("block {} does not exist in {}", r->block, config));
    return r;
  };
  if (op == "mem_load") {
    s.allow_keys({"op", "addr", "file", "bytes"});
    st.op = StepOp::MemLoad;
    st.addr = s.require("addr").as_u64();
    if (s.get("file") && s.get("bytes")) s.fail("give either \"file\" or \"bytes\", not both");
    if (const auto f = s.get("file")) {
      st.bytes = load_image(*f);
      st.file = s.file().parent_path() / f->as_string();
    } else {
      for (const auto& b : s.require("bytes").items()) st.bytes.push_back(static_cast<uint8_t>(b.as_int(0, 255)));
    }
  } else if (op == "mem_fill") {
    s.allow_keys({"op", "addr", "size", "value"});
    st.op = StepOp::MemFill;
    st.addr = s.require("addr").as_u64();
    st.size = s.require("size").as_u64(uint64_t{1} << 32);
    st.fill = s.get("value") ? static_cast<uint8_t>(s.require("value").as_int(0, 255)) : 0;
  } else if (op == "reg_write" || op == "reg_read") {
    s.allow_keys({"op", "reg", "value", "expect", "mask"});
    st.reg = reg_of(s.require("reg"));
    if (op == "reg_write") {
      st.op = StepOp::RegWrite;
      st.value = static_cast<uint32_t>(s.require("value").as_u64(0xffffffffu));
    } else {
      st.op = StepOp::RegRead;
      st.value = static_cast<uint32_t>(s.require("expect").as_u64(0xffffffffu));
      if (const auto m = s.get("mask")) st.mask = static_cast<uint32_t>(m->as_u64(0xffffffffu));
    }
  } else if (op == "poll") {
    s.allow_keys({"op", "reg", "value", "mask", "until", "max_reads"});
    st.op = StepOp::RegRead;
    st.reg = reg_of(s.require("reg"));
    st.value = static_cast<uint32_t>(s.require("value").as_u64(0xffffffffu));
    if (const auto m = s.get("mask")) st.mask = static_cast<uint32_t>(m->as_u64(0xffffffffu));
    st.poll_not_equal = s.require("until").as_choice({"equal", "not_equal"}) == "not_equal";
    st.poll_reads = static_cast<uint32_t>(s.get("max_reads") ? s.require("max_reads").as_int(1, 100'000'000) : kPollReads);
  } else if (op == "wait_any") {
    s.allow_keys({"op"});
    st.op = StepOp::WaitAny;
  } else if (op == "wait_intr") {
    s.allow_keys({"op", "intr", "id"});
    st.op = StepOp::WaitIntr;
    const JsonNode in = s.require("intr");
    st.intr = in.as_string();
    if (!valid_interrupt_name(st.intr)) {
      in.fail(fmt::format("\"{}\" is not an interrupt name (UNIT_GROUP, e.g. SDP_0, CDP_1, CACC_0)", st.intr));
    }
    if (const auto id = s.get("id")) st.sync_id = static_cast<uint32_t>(id->as_u64(0xffffffffu));
  } else {
    s.allow_keys({"op", "kind", "addr", "size", "crc", "file"});
    st.op = StepOp::Check;
    const std::string kind = s.require("kind").as_choice({"golden", "crc32", "file"});
    st.addr = s.require("addr").as_u64();
    if (kind == "golden") {
      st.check = CheckKind::Golden;
      st.size = s.require("size").as_u64(uint64_t{1} << 32);
    } else if (kind == "crc32") {
      st.check = CheckKind::Crc32;
      st.size = s.require("size").as_u64(uint64_t{1} << 32);
      st.crc = static_cast<uint32_t>(s.require("crc").as_u64(0xffffffffu));
    } else {
      st.check = CheckKind::File;
      const JsonNode f = s.require("file");
      st.file = s.file().parent_path() / f.as_string();
      st.bytes = load_image(f);
      st.size = st.bytes.size();
    }
    if (st.size == 0) s.fail("a check must cover at least one byte");
  }
  return st;
}

}  // namespace

Program parse_program(const JsonNode& root, const std::string& name, const std::string& config) {
  Program p;
  p.name = name;
  p.config = config;
  const JsonNode steps = root.require("steps");
  if (steps.size() == 0) steps.fail("a program needs at least one step");
  for (const auto& s : steps.items()) p.steps.push_back(parse_step(s, config));
  return p;
}

}  // namespace dla::harness
