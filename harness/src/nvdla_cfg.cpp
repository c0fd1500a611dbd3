#include "harness/nvdla_cfg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "harness/errors.hpp"
#include "harness/files.hpp"
#include "harness/json_reader.hpp"
#include "harness/regdb.hpp"

namespace dla::harness {

namespace {

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Removes a // comment (outside double quotes).
std::string strip_comment(const std::string& line) {
  bool quoted = false;
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    if (line[i] == '"') quoted = !quoted;
    if (!quoted && line[i] == '/' && line[i + 1] == '/') return line.substr(0, i);
  }
  return line;
}

// Splits "a, b, \"c, d\"" at top-level commas.
std::vector<std::string> split_args(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (const char ch : s) {
    if (ch == '"') quoted = !quoted;
    if (ch == ',' && !quoted) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

struct Parser {
  std::filesystem::path file;
  std::string config;
  Program program;
  std::map<std::string, uint32_t> events;  // intr_notify sync ids seen so far -> number
  std::size_t line_no = 0;

  [[nodiscard]] std::string where() const { return fmt::format("line {}", line_no); }
  [[noreturn]] void fail(const std::string& why) const { throw InputError(file.string(), where(), why); }

  uint64_t number(const std::string& text, const char* what, uint64_t max) const {
    const auto v = parse_u64_text(text);
    if (!v) fail(fmt::format("{} \"{}\" is not a number", what, text));
    if (*v > max) fail(fmt::format("{} {} is out of range (at most {:#x})", what, text, max));
    return *v;
  }

  void arity(const std::string& cmd, const std::vector<std::string>& args, std::size_t n) const {
    if (args.size() != n) fail(fmt::format("{} takes {} arguments, {} given", cmd, n, args.size()));
  }

  void memory_name(const std::string& m) const {
    // pri_mem (DBB) and sec_mem (CVSRAM) are one address space in this harness (docs/TRACES.md);
    // check_crc writes the primary memory as 1.
    if (m != "pri_mem" && m != "sec_mem" && m != "1" && m != "2") {
      fail(fmt::format("unknown memory \"{}\" (pri_mem or sec_mem)", m));
    }
  }

  std::filesystem::path quoted_file(const std::string& arg) const {
    if (arg.size() < 2 || arg.front() != '"' || arg.back() != '"') fail(fmt::format("expected a quoted file name, got {}", arg));
    const std::filesystem::path p = file.parent_path() / arg.substr(1, arg.size() - 2);
    if (!std::filesystem::exists(p)) fail(fmt::format("{}: file not found", p.string()));
    return p;
  }

  std::vector<uint8_t> load_dat(const std::filesystem::path& p) const {
    try {
      return read_dat_image(p);
    } catch (const InputError& e) {
      fail(fmt::format("cannot load {}", e.what()));
    }
  }

  const RegDef* reg(const std::string& name) const {
    const RegDef* r = RegDb::nvdla().find(name);
    if (r == nullptr) fail(fmt::format("unknown register \"{}\" (expected NVDLA_<BLOCK>.<REGISTER>_0)", name));
    if (!RegDb::nvdla().address(config, *r)) fail(fmt::format("block {} does not exist in {}", r->block, config));
    return r;
  }

  ProgramStep make(StepOp op) const {
    ProgramStep st;
    st.op = op;
    st.where = fmt::format("{}: {}", file.string(), where());
    return st;
  }

  void command(const std::string& cmd, const std::vector<std::string>& a) {
    if (cmd == "reg_write" || cmd == "reg_read_check" || cmd == "poll_reg_equal") {
      arity(cmd, a, 2);
      ProgramStep st = make(cmd == "reg_write" ? StepOp::RegWrite : StepOp::RegRead);
      st.reg = reg(a[0]);
      st.value = static_cast<uint32_t>(number(a[1], "value", 0xffffffffu));
      if (cmd == "poll_reg_equal") st.poll_reads = kPollReads;  // read until equal, as NVIDIA's trace player
      program.steps.push_back(std::move(st));
    } else if (cmd == "reg_read") {
      arity(cmd, a, 2);  // reg_read(REG, variable): read, nothing compared
      ProgramStep st = make(StepOp::RegRead);
      st.reg = reg(a[0]);
      st.mask = 0;
      program.steps.push_back(std::move(st));
    } else if (cmd == "mem_init") {
      arity(cmd, a, 4);
      memory_name(a[0]);
      ProgramStep st = make(StepOp::MemFill);
      st.addr = number(a[1], "address", UINT64_MAX);
      if (!a[2].empty() && a[2].front() == '"') fail("mem_init from a file is not supported (use mem_load)");
      st.size = number(a[2], "size", uint64_t{1} << 32);
      if (a[3] == "ALL_ZERO") {
        st.fill = 0;
      } else if (a[3] == "ALL_ONE" || a[3] == "ALL_ONES") {
        st.fill = 0xff;
      } else {
        fail(fmt::format("mem_init pattern {} is not supported (ALL_ZERO, ALL_ONES)", a[3]));
      }
      program.steps.push_back(std::move(st));
    } else if (cmd == "mem_load") {
      arity(cmd, a, 3);
      memory_name(a[0]);
      ProgramStep st = make(StepOp::MemLoad);
      st.addr = number(a[1], "address", UINT64_MAX);
      st.file = quoted_file(a[2]);
      st.bytes = load_dat(st.file);
      program.steps.push_back(std::move(st));
    } else if (cmd == "intr_notify") {
      if (a.size() == 1) fail("intr_notify without an interrupt name (intr_notify(UNIT_GROUP, sync_id)) is not supported");
      arity(cmd, a, 2);
      // NVDLA's trace generator also writes the names in lower case (cdma_dat_0).
      std::string name = a[0];
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
      if (!valid_interrupt_name(name)) {
        fail(fmt::format("\"{}\" is not an interrupt name (UNIT_GROUP, e.g. SDP_0, CDP_1, CACC_0)", a[0]));
      }
      ProgramStep st = make(StepOp::WaitIntr);
      st.intr = name;
      const auto [it, fresh] = events.emplace(a[1], static_cast<uint32_t>(events.size()));
      (void)fresh;
      st.sync_id = it->second;
      program.steps.push_back(std::move(st));
    } else if (cmd == "check_crc") {
      arity(cmd, a, 5);
      event(a[0], cmd);
      memory_name(a[1]);
      ProgramStep st = make(StepOp::Check);
      st.check = CheckKind::Crc32;
      st.addr = number(a[2], "address", UINT64_MAX);
      st.size = number(a[3], "size", uint64_t{1} << 32);
      if (st.size == 0) fail("check_crc over 0 bytes");
      st.crc = static_cast<uint32_t>(number(a[4], "crc", 0xffffffffu));
      program.steps.push_back(std::move(st));
    } else if (cmd == "check_file") {
      // check_file(sync_id, mem, base, [size,] "file"): compare memory with a .dat image.
      if (a.size() != 4 && a.size() != 5) fail(fmt::format("check_file takes 4 or 5 arguments, {} given", a.size()));
      event(a[0], cmd);
      memory_name(a[1]);
      ProgramStep st = make(StepOp::Check);
      st.check = CheckKind::File;
      st.addr = number(a[2], "address", UINT64_MAX);
      st.file = quoted_file(a.back());
      st.bytes = load_dat(st.file);
      if (a.size() == 5) st.bytes.resize(number(a[3], "size", uint64_t{1} << 32), 0);
      st.size = st.bytes.size();
      if (st.size == 0) fail("check_file over 0 bytes");
      program.steps.push_back(std::move(st));
    } else if (cmd == "check_nothing") {
      arity(cmd, a, 1);
      event(a[0], cmd);
    } else if (cmd == "sync_notify" || cmd == "sync_wait" || cmd == "mem_reserve" || cmd == "mem_release") {
      // Ordering and allocation hints between trace threads: a sequential replay needs none.
    } else {
      fail(fmt::format("unknown command \"{}\"", cmd));
    }
  }

  void event(const std::string& id, const std::string& cmd) const {
    if (events.find(id) == events.end()) {
      fail(fmt::format("{} waits for event \"{}\", which no earlier intr_notify raises", cmd, id));
    }
  }

  void parse(const std::string& text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
      const std::size_t nl = text.find('\n', pos);
      const std::string raw = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      pos = nl == std::string::npos ? text.size() : nl + 1;
      ++line_no;
      const std::string line = trim(strip_comment(raw));
      if (line.empty()) continue;
      // NAME ( ARGS ) ; with ARGS up to the last ')'. Scanned by hand: libstdc++'s std::regex recurses
      // once per character it matches and overflowed the stack on a 100 KB line.
      std::size_t name_end = 0;
      while (name_end < line.size() && (std::isalpha(static_cast<unsigned char>(line[name_end])) || line[name_end] == '_' ||
                                        (name_end > 0 && std::isdigit(static_cast<unsigned char>(line[name_end]))))) {
        ++name_end;
      }
      std::size_t open = name_end;
      while (open < line.size() && std::isspace(static_cast<unsigned char>(line[open]))) ++open;
      const bool named_call = name_end > 0 && open < line.size() && line[open] == '(';
      std::size_t close = line.size();
      if (named_call && line.back() == ';') {
        close = line.size() - 1;
        while (close > open + 1 && std::isspace(static_cast<unsigned char>(line[close - 1]))) --close;
        close = close > open + 1 && line[close - 1] == ')' ? close - 1 : line.size();
      }
      if (close == line.size()) {
        if (named_call) {
          if (line.find(')') == std::string::npos) fail("truncated command: missing ')' and ';'");
          if (line.back() != ';') fail("truncated command: missing ';' after ')'");
        }
        fail(fmt::format("expected a command NAME(ARGS); got \"{}\"", line.size() > 60 ? line.substr(0, 60) + "..." : line));
      }
      command(line.substr(0, name_end), split_args(line.substr(open + 1, close - open - 1)));
    }
  }
};

std::string hex(uint64_t v) { return fmt::format("{:#x}", v); }

}  // namespace

Program import_nvdla_cfg(const std::filesystem::path& cfg, const std::string& config) {
  Parser p;
  p.file = cfg;
  p.config = config;
  p.program.name = cfg.stem().string();
  p.program.config = config;
  p.parse(read_text_file(cfg));
  if (p.program.steps.empty()) throw InputError(cfg.string(), "", "the file holds no commands");
  return p.program;
}

nlohmann::json program_to_json(const Program& program, const std::string& description) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& st : program.steps) {
    nlohmann::json j;
    switch (st.op) {
      case StepOp::MemLoad:
        j = {{"op", "mem_load"}, {"addr", hex(st.addr)}};
        if (!st.file.empty() && st.file.extension() == ".dat") {
          j["file"] = std::filesystem::absolute(st.file).lexically_normal().string();
        } else {
          j["bytes"] = st.bytes;
        }
        break;
      case StepOp::MemFill:
        j = {{"op", "mem_fill"}, {"addr", hex(st.addr)}, {"size", hex(st.size)}, {"value", st.fill}};
        break;
      case StepOp::RegWrite:
        j = {{"op", "reg_write"}, {"reg", st.reg->block + "." + st.reg->name}, {"value", hex(st.value)}};
        break;
      case StepOp::RegRead:
        if (st.poll_reads != 0) {
          j = {{"op", "poll"},        {"reg", st.reg->block + "." + st.reg->name}, {"value", hex(st.value)},
               {"mask", hex(st.mask)}, {"until", st.poll_not_equal ? "not_equal" : "equal"},
               {"max_reads", st.poll_reads}};
          break;
        }
        j = {{"op", "reg_read"}, {"reg", st.reg->block + "." + st.reg->name}, {"expect", hex(st.value)}};
        if (st.mask != 0xffffffffu) j["mask"] = hex(st.mask);
        break;
      case StepOp::WaitIntr:
        j = {{"op", "wait_intr"}, {"intr", st.intr}, {"id", st.sync_id}};
        break;
      case StepOp::WaitAny:
        j = {{"op", "wait_any"}};
        break;
      case StepOp::Check:
        if (st.check == CheckKind::Crc32) {
          j = {{"op", "check"}, {"kind", "crc32"}, {"addr", hex(st.addr)}, {"size", hex(st.size)}, {"crc", hex(st.crc)}};
        } else if (st.check == CheckKind::Golden) {
          j = {{"op", "check"}, {"kind", "golden"}, {"addr", hex(st.addr)}, {"size", hex(st.size)}};
        } else {
          j = {{"op", "check"}, {"kind", "file"}, {"addr", hex(st.addr)},
               {"file", std::filesystem::absolute(st.file).lexically_normal().string()}};
        }
        break;
    }
    steps.push_back(std::move(j));
  }
  return {{"unit", "program"},
          {"name", program.name},
          {"description", description},
          {"config", program.config},
          {"steps", std::move(steps)}};
}

}  // namespace dla::harness
