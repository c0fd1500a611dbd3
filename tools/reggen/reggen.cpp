// reggen: emits, from the project's one copy of NVDLA's register data
// (regs/nvdla-registers.json), so that no offset or field position is ever typed by hand:
//   golden/include/golden/nvdla_regs.hpp        offsets, reset values, masks, field positions
//   golden/include/golden/nvdla_reg_structs.hpp per grouped block, the fields of the D group and
//                                               of the single registers as C++ structs (D, S)
//   <dir>/<blk>_regs_pkg.sv                     per block the RTL decodes, in that RTL's folder
//                                               (engines/<engine>/rtl/, rtl/glb/): the same
//                                               constants, and per grouped block the packed
//                                               structs <blk>_reg2hw_d_t, <blk>_hw2reg_t,
//                                               <blk>_reg2hw_s_t (with <blk>_s_decode)
//   engines/<engine>/rtl/<blk>_reg_top.sv       per grouped block, the register block: a wrapper
//                                               of dla_group_regs with reg2hw / hw2reg ports;
//                                               per single-register engine block (BDMA), a
//                                               wrapper of dla_single_regs with reg2hw (stored
//                                               fields), trigger (write pulses), hw2reg ports
//
//   reggen --json regs/nvdla-registers.json --root SOURCE_DIR
//   reggen --json ... --root OUT_DIR --check SOURCE_DIR
//
// The files are written under --root at the paths above. With --check they are then compared with
// the committed files under SOURCE_DIR (and no other *_reg_top.sv or *_regs_pkg.sv may sit in
// SOURCE_DIR/engines/*/rtl, rtl/glb or rtl/common);
// any difference exits 1 naming the file and the first differing line.
//
// Struct members: one per field, named <reg>_<field> in lower case without the register's group
// prefix (D_, S_); a register with one field gives its member the register's name alone
// (D_LINE_STRIDE.LINE_STRIDE -> line_stride). reg2hw structs hold the software-writable fields,
// hw2reg the read-only fields of the D group (value <m> and write enable <m>_de).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Field {
  std::string name;
  int lsb = 0;
  int width = 0;
  std::string access;
};

struct Reg {
  std::string name;
  uint32_t offset = 0;
  uint32_t reset = 0;
  bool dual = false;
  std::vector<Field> fields;  // by lsb
};

struct Block {
  std::string name;
  uint32_t base_small = 0;
  bool has_full = false;
  uint32_t base_full = 0;
  bool grouped = false;
  uint32_t dual_start = 0;
  std::vector<Reg> regs;  // by offset
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string hex(uint32_t v, int digits = 0) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}

std::vector<Block> load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  const auto j = nlohmann::json::parse(in);
  const auto& full = j.at("nvdlav1_bases");
  std::vector<Block> blocks;
  for (const auto& [bname, b] : j.at("blocks").items()) {
    Block blk;
    blk.name = bname;
    blk.base_small = b.at("base").get<uint32_t>();
    if (full.contains(bname)) {
      blk.has_full = true;
      blk.base_full = full.at(bname).at("base").get<uint32_t>();
    }
    if (b.contains("dual_group_start_offset") && !b.at("dual_group_start_offset").is_null()) {
      blk.grouped = true;
      blk.dual_start = b.at("dual_group_start_offset").get<uint32_t>();
    }
    for (const auto& [rname, r] : b.at("registers").items()) {
      Reg reg;
      reg.name = rname;
      reg.offset = r.at("offset").get<uint32_t>();
      reg.reset = r.value("reset", 0u);
      reg.dual = r.value("group", std::string{}) == "dual";
      for (const auto& [fname, f] : r.at("fields").items()) {
        const int lsb = f.at("lsb").get<int>();
        const int msb = f.at("msb").get<int>();
        reg.fields.push_back({fname, lsb, msb - lsb + 1, f.value("access", "rw")});
      }
      std::sort(reg.fields.begin(), reg.fields.end(), [](const Field& x, const Field& y) { return x.lsb < y.lsb; });
      blk.regs.push_back(std::move(reg));
    }
    std::sort(blk.regs.begin(), blk.regs.end(), [](const Reg& x, const Reg& y) { return x.offset < y.offset; });
    blocks.push_back(std::move(blk));
  }
  std::sort(blocks.begin(), blocks.end(), [](const Block& x, const Block& y) { return x.name < y.name; });
  return blocks;
}

uint32_t mask_of(const Field& f) {
  return (f.width >= 32 ? 0xffffffffu : ((1u << f.width) - 1u)) << f.lsb;
}

uint32_t defined_mask(const Reg& r) {
  uint32_t m = 0;
  for (const auto& f : r.fields) m |= mask_of(f);
  return m;
}

uint32_t writable_mask(const Reg& r) {
  uint32_t m = 0;
  for (const auto& f : r.fields) {
    if (f.access.find('w') != std::string::npos) m |= mask_of(f);
  }
  return m;
}

constexpr const char* kBanner =
    "GENERATED by tools/reggen/reggen.cpp from regs/nvdla-registers.json -- do not edit.\n"
    "// Regenerate with: cmake --build BUILD --target regen";

// ---- register structs ---------------------------------------------------------------------------

bool writable(const Field& f) { return f.access.find('w') != std::string::npos; }

// Engine blocks whose registers are all single (no S_/D_ groups) and that get a register block,
// with what NVDLA's RDL does not say about them (../shared/reference/pdp-cdp-bdma-rubik.md §5,
// docs/BDMA.md "Decisions"): trigger registers (a write is a command: its fields are pulses of the
// write, nothing is stored, reads return 0) and fields the hardware keeps narrower than the RDL
// (REG.FIELD -> kept width; the constants keep the RDL's width, the block stores the kept bits).
struct SingleRegFacts {
  std::set<std::string> triggers;
  std::map<std::string, int> kept_width;
};
const std::map<std::string, SingleRegFacts>& single_reg_blocks() {
  static const std::map<std::string, SingleRegFacts> k = {
      {"BDMA",
       {{"CFG_OP", "CFG_LAUNCH0", "CFG_LAUNCH1"},
        // nvdlav1 reads back ADDR_HIGH[7:0] (40-bit addresses)
        {{"CFG_SRC_ADDR_HIGH.V8", 8}, {"CFG_DST_ADDR_HIGH.V8", 8}}}}};
  return k;
}
bool single_reg_block(const Block& b) { return !b.grouped && single_reg_blocks().count(b.name) != 0; }

// A single-register block as its register block implements it: kept widths applied.
Block as_implemented(const Block& b) {
  Block out = b;
  const auto& facts = single_reg_blocks().at(b.name);
  std::size_t applied = 0;
  for (auto& r : out.regs) {
    for (auto& f : r.fields) {
      const auto it = facts.kept_width.find(r.name + "." + f.name);
      if (it == facts.kept_width.end()) continue;
      if (it->second > f.width) throw std::runtime_error(b.name + ": kept width above the RDL's: " + it->first);
      f.width = it->second;
      ++applied;
    }
  }
  if (applied != facts.kept_width.size()) throw std::runtime_error(b.name + ": a kept-width field is not in the RDL");
  for (const auto& t : facts.triggers) {
    if (std::none_of(out.regs.begin(), out.regs.end(), [&](const Reg& r) { return r.name == t; })) {
      throw std::runtime_error(b.name + ": trigger register " + t + " is not in the RDL");
    }
  }
  return out;
}
bool is_trigger(const Block& b, const Reg& r) {
  const auto it = single_reg_blocks().find(b.name);
  return !b.grouped && it != single_reg_blocks().end() && it->second.triggers.count(r.name) != 0;
}

// SystemVerilog and C++ keywords a register or field name could spell.
const std::set<std::string>& keywords() {
  static const std::set<std::string> k = {
      "alias",    "always",    "and",       "assert",    "assign",     "assume",    "auto",      "before",
      "begin",    "bind",      "bins",      "bit",       "break",      "buf",       "byte",      "case",
      "cell",     "char",      "class",     "config",    "const",      "context",   "continue",  "cover",
      "default",  "delete",    "design",    "disable",   "dist",       "do",        "double",    "edge",
      "else",     "end",       "enum",      "event",     "expect",     "export",    "extends",   "extern",
      "final",    "float",     "for",       "force",     "foreach",    "forever",   "fork",      "friend",
      "function", "generate",  "genvar",    "global",    "goto",       "if",        "iff",       "import",
      "include",  "initial",   "inline",    "inout",     "input",      "inside",    "instance",  "int",
      "integer",  "interface", "join",      "large",     "let",        "library",   "local",     "localparam",
      "logic",    "long",      "matches",   "medium",    "module",     "namespace", "new",       "not",
      "null",     "operator",  "or",        "output",    "package",    "parameter", "posedge",   "negedge",
      "primitive", "priority", "private",   "program",   "property",   "protected", "public",    "pure",
      "rand",     "real",      "ref",       "reg",       "register",   "release",   "repeat",    "restrict",
      "return",   "sequence",  "short",     "signed",    "small",      "solve",     "static",    "string",
      "struct",   "super",     "switch",    "table",     "task",       "template",  "this",      "throw",
      "time",     "tran",      "try",       "type",      "typedef",    "union",     "unique",    "unsigned",
      "use",      "using",     "var",       "virtual",   "void",       "wait",      "weak",      "while",
      "wire",     "with",      "xor"};
  return k;
}

// The struct member of a field (see the file comment); a one-field register whose name is a
// keyword (D_RELEASE) keeps the <reg>_<field> form.
std::string member(const Reg& r, const Field& f) {
  std::string reg = lower(r.name);
  if (reg.rfind("d_", 0) == 0 || reg.rfind("s_", 0) == 0) reg = reg.substr(2);
  std::string m = r.fields.size() == 1 ? reg : reg + "_" + lower(f.name);
  if (keywords().count(m) != 0) m = reg + "_" + lower(f.name);
  if (keywords().count(m) != 0) throw std::runtime_error("struct member is a keyword: " + m);
  return m;
}

struct StructField {
  std::string member;
  const Reg* reg = nullptr;
  const Field* field = nullptr;
  uint32_t word = 0;  // index in the group's word array
};

// The fields of one kind, by offset and lsb; member names checked unique.
std::vector<StructField> struct_fields(const Block& b, bool dual, bool want_writable) {
  std::vector<StructField> out;
  std::set<std::string> seen;
  for (const auto& r : b.regs) {
    if (r.dual != dual) continue;
    if (!dual && (r.name == "S_STATUS" || r.name == "S_POINTER")) continue;
    for (const auto& f : r.fields) {
      if (writable(f) != want_writable) continue;
      StructField sf{member(r, f), &r, &f, (r.offset - (dual ? b.dual_start : 0)) / 4};
      if (!seen.insert(sf.member).second) throw std::runtime_error(b.name + ": struct member clash " + sf.member);
      out.push_back(sf);
    }
  }
  return out;
}

// A single-register block's fields of one kind (by offset and lsb; member names checked unique):
// stored (software-written, not a trigger), trigger (the trigger registers' fields) or hw (read-only).
enum class SingleKind { kStored, kTrigger, kHw };
std::vector<StructField> single_fields(const Block& b, SingleKind kind) {
  std::vector<StructField> out;
  std::set<std::string> seen;
  for (const auto& r : b.regs) {
    for (const auto& f : r.fields) {
      const SingleKind k = !writable(f) ? SingleKind::kHw : is_trigger(b, r) ? SingleKind::kTrigger : SingleKind::kStored;
      if (k != kind) continue;
      StructField sf{member(r, f), &r, &f, r.offset / 4};
      if (!seen.insert(sf.member).second) throw std::runtime_error(b.name + ": struct member clash " + sf.member);
      out.push_back(sf);
    }
  }
  return out;
}

uint32_t d_words(const Block& b) {
  uint32_t last = b.dual_start;
  for (const auto& r : b.regs) last = std::max(last, r.offset);
  return (last - b.dual_start) / 4 + 1;
}

uint32_t s_words(const Block& b) {
  uint32_t last = 0;
  for (const auto& r : b.regs) {
    if (!r.dual) last = std::max(last, r.offset);
  }
  if (b.grouped && last >= b.dual_start) throw std::runtime_error(b.name + ": a single register after the D group");
  return last / 4 + 1;
}

std::string pad(std::string s, std::size_t n) {
  if (s.size() < n) s.append(n - s.size(), ' ');
  return s;
}

std::string sv_type(int width) { return pad(width == 1 ? "logic" : "logic [" + std::to_string(width - 1) + ":0]", 12); }

std::string field_comment(const StructField& sf) {
  return sf.reg->name + "." + sf.field->name + " [" + std::to_string(sf.field->lsb + sf.field->width - 1) + ":" +
         std::to_string(sf.field->lsb) + "]";
}

void emit_sv_struct(std::ostringstream& o, const std::string& type, const std::vector<StructField>& fields,
                    bool with_de, const std::string& what) {
  o << "  // " << what << "\n  typedef struct packed {\n";
  if (!with_de) {
    for (const auto& sf : fields) {
      o << "    " << sv_type(sf.field->width) << " " << pad(sf.member + ";", 40) << "  // " << field_comment(sf) << "\n";
    }
  } else {
    // The enables first, then the values, the 32-bit ones last: they then sit on 32-bit boundaries
    // of the packed struct (its first member is the most significant), which keeps its assembly
    // in the model whole-word moves.
    for (const auto& sf : fields) o << "    logic        " << sf.member << "_de;\n";
    for (const bool whole : {false, true}) {
      for (const auto& sf : fields) {
        if ((sf.field->width == 32) != whole) continue;
        o << "    " << sv_type(sf.field->width) << " " << pad(sf.member + ";", 40) << "  // " << field_comment(sf)
          << "\n";
      }
    }
  }
  o << "  } " << type << ";\n";
}

// <blk>_s_decode: the <blk>_reg2hw_s_t fields from the S words.
void emit_sv_s_decode(std::ostringstream& o, const Block& b, const std::vector<StructField>& fields,
                      const std::string& comment) {
  const std::string lb = lower(b.name);
  o << "  // " << comment << "\n"
    << "  function automatic " << lb << "_reg2hw_s_t " << lb << "_s_decode(input logic [32*" << b.name
    << "_S_WORDS-1:0] words);\n"
    << "    " << lb << "_reg2hw_s_t s;\n";
  for (const auto& sf : fields) {
    o << "    s." << sf.member << " = words[" << (32 * sf.word + static_cast<uint32_t>(sf.field->lsb)) << " +: "
      << sf.field->width << "];\n";
  }
  o << "    " << lb << "_s_decode = s;  // (Yosys 0.55 takes no return statement)\n  endfunction\n";
}

// The struct part of a grouped block's <blk>_regs_pkg (inside the package).
void emit_sv_structs(std::ostringstream& o, const Block& b) {
  const std::string lb = lower(b.name);
  const auto d = struct_fields(b, true, true);
  const auto hw = struct_fields(b, true, false);
  const auto s = struct_fields(b, false, true);
  o << "\n  // ---- " << b.name << " register structs (" << lb << "_reg_top)\n";
  emit_sv_struct(o, lb + "_reg2hw_d_t", d, false, "the consumer group's software-written D fields");
  if (!hw.empty()) {
    emit_sv_struct(o, lb + "_hw2reg_t", hw, true,
                   "hardware-written D fields, written into the consumer group where <field>_de is set");
  }
  if (!s.empty()) {
    emit_sv_struct(o, lb + "_reg2hw_s_t", s, false, "the single registers' software-written fields");
    o << "  localparam int " << b.name << "_S_WORDS = " << s_words(b) << ";\n";
    emit_sv_s_decode(o, b, s, "The single fields from the S words (word i = offset 4i).");
  }
}

std::string msb_lsb(const Field& f) {
  const int msb = f.lsb + f.width - 1;
  return "[" + std::to_string(msb) + (f.width > 1 ? ":" + std::to_string(f.lsb) : "") + "]";
}

// The struct part of a single-register block's <blk>_regs_pkg (b as implemented).
void emit_sv_single_structs(std::ostringstream& o, const Block& b) {
  const std::string lb = lower(b.name);
  const auto stored = single_fields(b, SingleKind::kStored);
  o << "\n  // ---- " << b.name << " register structs (" << lb << "_reg_top; single registers only)\n";
  emit_sv_struct(o, lb + "_reg2hw_s_t", stored, false, "the stored software-written fields");
  emit_sv_struct(o, lb + "_trigger_t", single_fields(b, SingleKind::kTrigger), false,
                 "the trigger registers' fields: the value of this cycle's CSB write of the register, else 0");
  emit_sv_struct(o, lb + "_hw2reg_t", single_fields(b, SingleKind::kHw), false,
                 "the read-only fields: a read returns the hardware's value");
  emit_sv_s_decode(o, b, stored, "The stored fields from the words (word i = offset 4i).");
}

// A reg_top's banner, description and module head up to its CSB ports (with req_ready_i for a
// single-register block, whose engine may hold a write).
void emit_reg_top_head(std::ostringstream& o, const Block& b, const std::string& description, bool with_ready) {
  char base[32];
  std::snprintf(base, sizeof base, "32'h%08x", b.base_small);
  o << "// " << kBanner << "\n"
    << "//\n"
    << "// " << description << "\n"
    << "module " << lower(b.name) << "_reg_top #(\n"
    << "  parameter logic [31:0] Base = " << base << "\n"
    << ") (\n"
    << "  input  logic        clk_i,\n"
    << "  input  logic        rst_ni,\n"
    << (with_ready ? "  // CSB request (byte address); a write is stored when req_ready_i\n"
                   : "  // CSB request (byte address)\n")
    << "  input  logic        req_valid_i,\n"
    << (with_ready ? "  input  logic        req_ready_i,\n" : "")
    << "  input  logic [31:0] req_addr_i,\n"
    << "  input  logic        req_write_i,\n"
    << "  input  logic [31:0] req_wdata_i,\n"
    << "  output logic        hit_o,\n"
    << "  output logic [31:0] rdata_o,\n";
}

// The register block of a single-register block (b as implemented): dla_single_regs with the
// block's words, triggers from its write strobes, read-only words from hw2reg.
std::string emit_single_reg_top(const Block& b) {
  const std::string lb = lower(b.name);
  const std::string pkg = lb + "_regs_pkg::";
  std::ostringstream o;
  emit_reg_top_head(o, b,
                    b.name + "'s register block (single registers only): dla_single_regs with " + b.name +
                        "'s words (reset values\n"
                        "// and stored bits from " + lb + "_regs_pkg); the stored fields leave as reg2hw_o, the trigger registers'\n"
                        "// fields as trigger_o (this cycle's CSB write, whether or not the engine takes it yet: the engine\n"
                        "// drives req_ready_i), and reads of the read-only fields return hw2reg_i.",
                    true);
  o << "  // engine\n"
    << "  output " << pkg << lb << "_reg2hw_s_t reg2hw_o,\n"
    << "  output " << pkg << lb << "_trigger_t trigger_o,\n"
    << "  input  " << pkg << lb << "_hw2reg_t hw2reg_i\n"
    << ");\n"
    << "  localparam int unsigned Words = " << pkg << b.name << "_S_WORDS;\n\n"
    << "  logic [Words-1:0][31:0] q, hw;\n"
    << "  logic [Words-1:0]       we;\n"
    << "  logic [31:0]            wdata;\n\n"
    << "  dla_single_regs #(\n"
    << "    .Base    (Base),\n"
    << "    .Words   (Words),\n"
    << "    .Reset   (" << pkg << b.name << "_S_RESET),\n"
    << "    .Writable(" << pkg << b.name << "_S_WRITABLE)\n"
    << "  ) u_regs (\n"
    << "    .clk_i      (clk_i),\n"
    << "    .rst_ni     (rst_ni),\n"
    << "    .req_valid_i(req_valid_i),\n"
    << "    .req_ready_i(req_ready_i),\n"
    << "    .req_addr_i (req_addr_i),\n"
    << "    .req_write_i(req_write_i),\n"
    << "    .req_wdata_i(req_wdata_i),\n"
    << "    .hit_o      (hit_o),\n"
    << "    .rdata_o    (rdata_o),\n"
    << "    .q_o        (q),\n"
    << "    .we_o       (we),\n"
    << "    .wdata_o    (wdata),\n"
    << "    .hw_i       (hw)\n"
    << "  );\n\n"
    << "  assign reg2hw_o = " << pkg << lb << "_s_decode(q);\n\n"
    << "  always_comb begin\n";
  for (const auto& sf : single_fields(b, SingleKind::kTrigger)) {
    o << "    trigger_o." << pad(sf.member, 28) << " = ";
    if (sf.field->width == 1) o << "we[" << sf.word << "] && wdata" << msb_lsb(*sf.field) << ";\n";
    else o << "we[" << sf.word << "] ? wdata" << msb_lsb(*sf.field) << " : '0;\n";
  }
  o << "  end\n\n"
    << "  always_comb begin\n"
    << "    hw = '0;\n";
  for (const auto& sf : single_fields(b, SingleKind::kHw)) {
    o << "    hw[" << sf.word << "]" << msb_lsb(*sf.field) << " = hw2reg_i." << sf.member << ";\n";
  }
  o << "  end\n\n"
    << "  // The write strobes and data bits of stored registers are dla_single_regs' own.\n"
    << "  logic unused;\n  assign unused = (^we) ^ (^wdata);\n"
    << "endmodule\n";
  return o.str();
}

// The hardware-written words of a grouped block's D group: each word with its fields (by lsb).
struct HwWord {
  uint32_t word = 0;
  std::vector<StructField> fields;
};
std::vector<HwWord> hw_words(const std::vector<StructField>& hw) {
  std::vector<HwWord> out;
  for (const auto& sf : hw) {
    if (out.empty() || out.back().word != sf.word) out.push_back({sf.word, {}});
    out.back().fields.push_back(sf);
  }
  return out;
}

std::string emit_reg_top(const Block& b) {
  const std::string lb = lower(b.name);
  const auto d = struct_fields(b, true, true);
  const auto hw = struct_fields(b, true, false);
  const auto hww = hw_words(hw);
  const std::string pkg = lb + "_regs_pkg::";
  std::ostringstream o;
  emit_reg_top_head(o, b,
                    b.name + "'s register block: dla_group_regs with " + b.name +
                        "'s D group (offsets, reset values and writable\n"
                        "// masks from " + lb + "_regs_pkg); the consumer group's software-written fields leave as reg2hw_o,\n"
                        "// " +
                        (hw.empty() ? "the block has no hardware-written fields."
                                    : "hw2reg_i's fields are written into the consumer group where their _de is set.") +
                        "\n// Other S_ registers are the engine's (s_*), as in dla_group_regs.",
                    false);
  o << "  // other S_ registers\n"
    << "  output logic        s_we_o,\n"
    << "  output logic        s_re_o,\n"
    << "  output logic [11:0] s_offset_o,\n"
    << "  output logic [31:0] s_wdata_o,\n"
    << "  input  logic [31:0] s_rdata_i,\n"
    << "  // datapath\n"
    << "  output " << pkg << lb << "_reg2hw_d_t reg2hw_o,\n";
  if (!hw.empty()) o << "  input  " << pkg << lb << "_hw2reg_t hw2reg_i,\n";
  o << "  output logic        consumer_o,\n"
    << "  output logic        armed_o,\n"
    << "  input  logic        done_i\n"
    << ");\n"
    << "  localparam int unsigned DWords = " << pkg << b.name << "_D_WORDS;\n"
    << "  localparam int unsigned IdxW   = $clog2(DWords > 1 ? DWords : 2);\n";
  if (!hww.empty()) o << "  localparam int unsigned HwWords = " << hww.size() << ";\n";
  o << "\n"
    << "  logic [DWords-1:0][31:0] g0, g1;\n"
    << "  logic                    wr_next;\n"
    << "  logic [IdxW-1:0]         wr_idx;\n"
    << "  logic [31:0]             wr_data;\n";
  if (hww.empty()) {
    o << "  logic                    hw_we;\n"
      << "  logic [31:0]             hw_wdata;\n\n";
  } else {
    o << "  logic [HwWords-1:0]       hw_we;\n"
      << "  logic [HwWords-1:0][31:0] hw_wdata;\n\n";
  }
  o << "  dla_group_regs #(\n"
    << "    .Base     (Base),\n"
    << "    .DFirst   (32'(" << pkg << b.name << "_DUAL_GROUP_START)),\n"
    << "    .DWords   (DWords),\n"
    << "    .DReset   (" << pkg << b.name << "_D_RESET),\n"
    << "    .DWritable(" << pkg << b.name << "_D_WRITABLE)";
  if (!hww.empty()) {
    o << ",\n    .HwWords  (HwWords),\n    .HwIdx    ({";
    for (std::size_t k = hww.size(); k-- > 0;) o << "16'd" << hww[k].word << (k == 0 ? "})" : ", ");
  }
  o << "\n"
    << "  ) u_regs (\n"
    << "    .clk_i       (clk_i),\n"
    << "    .rst_ni      (rst_ni),\n"
    << "    .req_valid_i (req_valid_i),\n"
    << "    .req_addr_i  (req_addr_i),\n"
    << "    .req_write_i (req_write_i),\n"
    << "    .req_wdata_i (req_wdata_i),\n"
    << "    .hit_o       (hit_o),\n"
    << "    .rdata_o     (rdata_o),\n"
    << "    .s_we_o      (s_we_o),\n"
    << "    .s_re_o      (s_re_o),\n"
    << "    .s_offset_o  (s_offset_o),\n"
    << "    .s_wdata_o   (s_wdata_o),\n"
    << "    .s_rdata_i   (s_rdata_i),\n"
    << "    .d_g0_o      (g0),\n"
    << "    .d_g1_o      (g1),\n"
    << "    .wr_next_o   (wr_next),\n"
    << "    .wr_idx_o    (wr_idx),\n"
    << "    .wr_data_o   (wr_data),\n"
    << "    .consumer_o  (consumer_o),\n"
    << "    .armed_o     (armed_o),\n"
    << "    .done_i      (done_i),\n"
    << "    .hw_we_i     (hw_we),\n"
    << "    .hw_wdata_i  (hw_wdata)\n"
    << "  );\n\n";
  // reg2hw: registers updated with the consumer group's words (dla_group_regs' next-consumer
  // words), so the fields are not re-extracted from the words every cycle.
  std::map<uint32_t, std::vector<StructField>> by_word;
  for (const auto& sf : d) by_word[sf.word].push_back(sf);
  o << "  // The consumer group's software-written fields as registers that change with its words: at\n"
    << "  // done from the other group's words (it becomes the consumer), and where a CSB write lands in\n"
    << "  // the next consumer group\n"
    << "  // (the fields are writable bits, so the written value's bits are the stored ones). Equal to\n"
    << "  // the fields of d at every cycle; the model then does not extract them every cycle.\n"
    << "  " << pkg << lb << "_reg2hw_d_t reg2hw_q;\n"
    << "  always_ff @(posedge clk_i or negedge rst_ni) begin\n"
    << "    if (!rst_ni) begin\n";
  for (const auto& sf : d) {
    const uint32_t v = (sf.reg->reset & mask_of(*sf.field)) >> sf.field->lsb;
    o << "      reg2hw_q." << pad(sf.member, 36) << " <= " << sf.field->width << "'h" << std::hex << v << std::dec
      << ";\n";
  }
  o << "    end else begin\n"
    << "      if (done_i) begin\n";
  for (const char* g : {"g0", "g1"}) {
    o << (g[1] == '0' ? "        if (consumer_o) begin\n" : "        end else begin\n");
    for (const auto& sf : d) {
      o << "          reg2hw_q." << pad(sf.member, 36) << " <= " << g << "[" << sf.word << "]" << msb_lsb(*sf.field)
        << ";\n";
    }
  }
  o << "        end\n"
    << "      end\n"
    << "      if (wr_next) begin\n"
    << "        unique case (wr_idx)\n";
  for (const auto& [w, fs] : by_word) {
    o << "          IdxW'(" << w << "): begin\n";
    for (const auto& sf : fs) {
      o << "            reg2hw_q." << pad(sf.member, 36) << " <= wr_data" << msb_lsb(*sf.field) << ";\n";
    }
    o << "          end\n";
  }
  o << "          default: ;\n"
    << "        endcase\n"
    << "      end\n"
    << "    end\n"
    << "  end\n"
    << "  assign reg2hw_o = reg2hw_q;\n\n";
  if (hww.empty()) {
    o << "  assign hw_we    = 1'b0;\n  assign hw_wdata = '0;\n";
  } else {
    o << "  // The hardware-written words (HwIdx); a hardware write keeps the word's other bits.\n"
      << "  always_comb begin\n";
    for (std::size_t k = 0; k < hww.size(); ++k) {
      const auto& fs = hww[k].fields;
      const bool whole = fs.size() == 1 && fs[0].field->lsb == 0 && fs[0].field->width == 32;
      if (whole) {
        o << "    hw_we[" << k << "]    = hw2reg_i." << fs[0].member << "_de;\n"
          << "    hw_wdata[" << k << "] = hw2reg_i." << fs[0].member << ";\n";
        continue;
      }
      o << "    hw_we[" << k << "]    = 1'b0;\n"
        << "    hw_wdata[" << k << "] = consumer_o ? g1[" << hww[k].word << "] : g0[" << hww[k].word << "];\n";
      for (const auto& sf : fs) {
        o << "    hw_we[" << k << "]    = hw_we[" << k << "] | hw2reg_i." << sf.member << "_de;\n"
          << "    if (hw2reg_i." << sf.member << "_de) hw_wdata[" << k << "]" << msb_lsb(*sf.field) << " = hw2reg_i."
          << sf.member << ";\n";
      }
    }
    o << "  end\n";
  }
  o << "\n  // The words are read here only at done and for the hardware-written words' other bits, the\n"
    << "  // written value only in its fields' bits.\n"
    << "  logic unused_d;\n  assign unused_d = ^{g0, g1, wr_data};\n"
    << "endmodule\n";
  return o.str();
}

std::string emit_structs_hpp(const std::vector<Block>& blocks) {
  std::ostringstream o;
  o << "// " << kBanner << "\n"
    << "//\n"
    << "// Per grouped block, the fields of the D group (struct D, word 0 = D_OP_ENABLE) and of the\n"
    << "// single registers (struct S, word i = offset 4i) that software writes, decoded from the register\n"
    << "// words: the C++ side of the RTL packages' <blk>_reg2hw_d_t / <blk>_reg2hw_s_t (<blk>_regs_pkg), with\n"
    << "// the same member names.\n"
    << "//\n"
    << "//   const auto d = regs::cdma::D::decode(words);   // words: the D group, D_OP_ENABLE first\n"
    << "//   const auto s = regs::sdp::S::read([&](uint32_t offset) { return word_at(offset); });\n"
    << "#pragma once\n\n#include <cstdint>\n#include <span>\n#include <stdexcept>\n\n"
    << "#include \"golden/nvdla_regs.hpp\"\n\n"
    << "namespace dla::golden::regs {\n";
  auto emit = [&](const Block& b, const std::vector<StructField>& fields, const char* name, uint32_t words,
                  uint32_t first, const char* what) {
    o << "// " << b.name << ": " << what << "\n";
    o << "struct " << name << " {\n";
    o << "  static constexpr uint32_t words = " << words << ";\n";
    o << "  static constexpr uint32_t first_offset = " << hex(first, 3) << ";\n";
    for (const auto& sf : fields) {
      o << "  uint32_t " << pad(sf.member + " = 0;", 40) << "  // " << field_comment(sf) << "\n";
    }
    o << "  // word_at(offset): the register word at a block-relative byte offset.\n"
      << "  template <class WordAt>\n"
      << "  [[nodiscard]] static constexpr " << name << " read(WordAt&& word_at) {\n"
      << "    " << name << " x;\n";
    for (const auto& sf : fields) {
      o << "    x." << sf.member << " = field(word_at(" << sf.reg->name << "::offset), " << sf.reg->name
        << "::" << sf.field->name << "{});\n";
    }
    o << "    return x;\n  }\n"
      << "  // words[i]: the word at first_offset + 4i; at least `words` of them.\n"
      << "  [[nodiscard]] static constexpr " << name << " decode(std::span<const uint32_t> w) {\n"
      << "    if (w.size() < words) throw std::invalid_argument(\"" << lower(b.name) << "::" << name
      << "::decode: too few register words\");\n"
      << "    return read([w](uint32_t offset) { return w[(offset - first_offset) / 4]; });\n  }\n"
      << "};\n";
  };
  for (const auto& b : blocks) {
    if (!b.grouped) continue;
    o << "\nnamespace " << lower(b.name) << " {\n";
    emit(b, struct_fields(b, true, true), "D", d_words(b), b.dual_start, "the D group's software-written fields");
    const auto s = struct_fields(b, false, true);
    if (!s.empty()) emit(b, s, "S", s_words(b), 0, "the single registers' software-written fields");
    o << "}  // namespace " << lower(b.name) << "\n";
  }
  o << "\n}  // namespace dla::golden::regs\n";
  return o.str();
}

std::string emit_hpp(const std::vector<Block>& blocks) {
  std::ostringstream o;
  o << "// " << kBanner << "\n"
    << "//\n"
    << "// NVDLA register map (master RDL): block-relative byte offsets, reset values and field\n"
    << "// positions, for the golden model's own register decoders. Offsets inside a block are the same\n"
    << "// in the nv_small family and nv_full; only the block bases differ (base_small / base_full).\n"
    << "//\n"
    << "//   regs::sdp::D_DP_BS_CFG::offset                 0x58\n"
    << "//   regs::sdp::D_DP_BS_CFG::BS_BYPASS::lsb / width  0 / 1\n"
    << "//   regs::field(value, regs::sdp::D_DP_BS_CFG::BS_BYPASS{})\n"
    << "#pragma once\n\n#include <cstdint>\n\nnamespace dla::golden::regs {\n\n"
    << "// A field position, usable at run time.\n"
    << "struct Field {\n  uint32_t lsb = 0;\n  uint32_t width = 0;\n"
    << "  [[nodiscard]] constexpr uint32_t mask() const {\n"
    << "    return (width >= 32 ? 0xffffffffu : ((1u << width) - 1u)) << lsb;\n  }\n};\n\n"
    << "// One generated field: a type whose static members give the position; converts to Field.\n"
    << "template <uint32_t Lsb, uint32_t Width>\nstruct FieldDef {\n"
    << "  static constexpr uint32_t lsb = Lsb;\n  static constexpr uint32_t width = Width;\n"
    << "  static constexpr uint32_t mask = (Width >= 32 ? 0xffffffffu : ((1u << Width) - 1u)) << Lsb;\n"
    << "  constexpr operator Field() const { return Field{Lsb, Width}; }  // NOLINT(google-explicit-constructor)\n"
    << "};\n\n"
    << "// The field's value (zero-extended) taken from a register value.\n"
    << "[[nodiscard]] constexpr uint32_t field(uint32_t reg_value, Field f) {\n"
    << "  return f.width >= 32 ? reg_value : (reg_value >> f.lsb) & ((1u << f.width) - 1u);\n}\n\n"
    << "// The register value bits of a field value (truncated to the field).\n"
    << "[[nodiscard]] constexpr uint32_t place(uint32_t field_value, Field f) {\n"
    << "  return (field_value << f.lsb) & f.mask();\n}\n\n";
  for (const auto& b : blocks) {
    o << "namespace " << lower(b.name) << " {\n";
    o << "inline constexpr uint32_t base_small = " << hex(b.base_small, 5) << ";\n";
    if (b.has_full) o << "inline constexpr uint32_t base_full = " << hex(b.base_full, 5) << ";\n";
    o << "inline constexpr bool grouped = " << (b.grouped ? "true" : "false") << ";\n";
    if (b.grouped) o << "inline constexpr uint32_t dual_group_start = " << hex(b.dual_start, 3) << ";\n";
    for (const auto& r : b.regs) {
      o << "namespace " << r.name << " {\n";
      o << "inline constexpr uint32_t offset = " << hex(r.offset, 3) << ";\n";
      o << "inline constexpr uint32_t reset = " << hex(r.reset) << ";\n";
      o << "inline constexpr bool dual = " << (r.dual ? "true" : "false") << ";\n";
      o << "inline constexpr uint32_t defined_mask = " << hex(defined_mask(r)) << ";\n";
      o << "inline constexpr uint32_t writable_mask = " << hex(writable_mask(r)) << ";\n";
      for (const auto& f : r.fields) {
        o << "using " << f.name << " = FieldDef<" << f.lsb << ", " << f.width << ">;  // [" << (f.lsb + f.width - 1)
          << ":" << f.lsb << "] " << f.access << "\n";
      }
      o << "}  // namespace " << r.name << "\n";
    }
    o << "}  // namespace " << lower(b.name) << "\n\n";
  }
  o << "}  // namespace dla::golden::regs\n";
  return o.str();
}

// One block's package, <blk>_regs_pkg: its constants and, for a block with a register block, the
// structs its <blk>_reg_top and engine use. One package per block, in the folder of the RTL that
// decodes it (block_rtl_dir), so an engine compiles only its own blocks' packages.
std::string emit_sv_pkg(const Block& b) {
  std::ostringstream o;
  std::set<std::string> names;
  auto param = [&](const std::string& name, const std::string& type, const std::string& value,
                   const std::string& comment = "") {
    if (!names.insert(name).second) throw std::runtime_error("generated SystemVerilog name clash: " + name);
    o << "  localparam " << type << " " << name << " = " << value << ";" << (comment.empty() ? "" : "  // " + comment)
      << "\n";
  };
  auto sv_hex = [](uint32_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "32'h%08x", v);
    return std::string(buf);
  };
  const std::string pkg = lower(b.name) + "_regs_pkg";
  o << "// " << kBanner << "\n"
    << "//\n"
    << "// NVDLA's " << b.name << " registers (master RDL) for the RTL: block-relative byte offsets, reset values\n"
    << "// and field lsb/width. Refer to names as " << pkg << "::" << b.name << "_<REG>_OFFSET,\n"
    << "// " << pkg << "::" << b.name << "_<REG>_<FIELD>_LSB / _WIDTH (Yosys does not accept import pkg::*).\n"
    << "/* verilator lint_off UNUSEDPARAM */\n"
    << "package " << pkg << ";\n\n";
  param(b.name + "_BASE_SMALL", "logic [31:0]", sv_hex(b.base_small));
  if (b.has_full) param(b.name + "_BASE_FULL", "logic [31:0]", sv_hex(b.base_full));
  if (b.grouped) param(b.name + "_DUAL_GROUP_START", "logic [11:0]", "12'h" + hex(b.dual_start, 3).substr(2));
  for (const auto& r : b.regs) {
    const std::string p = b.name + "_" + r.name;
    param(p + "_OFFSET", "logic [11:0]", "12'h" + hex(r.offset, 3).substr(2), r.dual ? "dual (per group)" : "single");
    param(p + "_RESET", "logic [31:0]", sv_hex(r.reset));
    param(p + "_WRITABLE_MASK", "logic [31:0]", sv_hex(writable_mask(r)));
    for (const auto& f : r.fields) {
      param(p + "_" + f.name + "_LSB", "int", std::to_string(f.lsb));
      param(p + "_" + f.name + "_WIDTH", "int", std::to_string(f.width), f.access);
    }
  }
  if (single_reg_block(b)) {
    // The words as dla_single_regs stores them (word i = offset 4i): reset values and stored bits
    // (the trigger registers and read-only fields store none; kept widths applied).
    const Block impl = as_implemented(b);
    const uint32_t words = s_words(impl);
    std::vector<uint32_t> reset(words, 0), stored(words, 0);
    for (const auto& r : impl.regs) {
      reset[r.offset / 4] = r.reset;
      if (!is_trigger(impl, r)) stored[r.offset / 4] = writable_mask(r);
    }
    std::string rv = "{", sv = "{";
    for (uint32_t i = words; i-- > 0;) {
      rv += sv_hex(reset[i]) + (i == 0 ? "}" : ", ");
      sv += sv_hex(stored[i]) + (i == 0 ? "}" : ", ");
    }
    param(b.name + "_S_WORDS", "int", std::to_string(words));
    param(b.name + "_S_RESET", "logic [" + std::to_string(32 * words) + "-1:0]", rv);
    param(b.name + "_S_WRITABLE", "logic [" + std::to_string(32 * words) + "-1:0]", sv);
  }
  if (b.grouped) {
    // The D_ region as word vectors for dla_group_regs: reset values and writable bits per word
    // (0 for offsets without a register), word 0 = D_OP_ENABLE.
    uint32_t last = b.dual_start;
    for (const auto& r : b.regs) last = std::max(last, r.offset);
    const uint32_t words = (last - b.dual_start) / 4 + 1;
    std::vector<uint32_t> reset(words, 0), writable(words, 0);
    for (const auto& r : b.regs) {
      if (r.offset < b.dual_start) continue;
      reset[(r.offset - b.dual_start) / 4] = r.reset;
      writable[(r.offset - b.dual_start) / 4] = writable_mask(r);
    }
    auto vec = [&](const std::vector<uint32_t>& v) {
      std::string t = "{";
      for (uint32_t i = words; i-- > 0;) t += sv_hex(v[i]) + (i == 0 ? "}" : ", ");
      return t;
    };
    param(b.name + "_D_WORDS", "int", std::to_string(words));
    // Flat vectors (word i at [32*i +: 32]): Yosys rejects multi-dimensional packed localparams.
    param(b.name + "_D_RESET", "logic [" + std::to_string(32 * words) + "-1:0]", vec(reset));
    param(b.name + "_D_WRITABLE", "logic [" + std::to_string(32 * words) + "-1:0]", vec(writable));
  }
  if (b.grouped || single_reg_block(b)) {
    o << "\n  // ---------------------------------------------------------------- register structs\n"
      << "  /* verilator lint_off UNUSEDSIGNAL */\n";
    if (b.grouped) emit_sv_structs(o, b);
    if (single_reg_block(b)) emit_sv_single_structs(o, as_implemented(b));
    o << "  /* verilator lint_on UNUSEDSIGNAL */\n";
  }
  o << "\nendpackage\n/* verilator lint_on UNUSEDPARAM */\n";
  return o.str();
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

// Empty when equal, else "first difference at line N".
std::string diff(const std::string& committed_path, const std::string& generated) {
  std::ifstream in(committed_path, std::ios::binary);
  if (!in) return "cannot read " + committed_path;
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string committed = ss.str();
  if (committed == generated) return "";
  std::istringstream a(committed), b(generated);
  std::string la, lb;
  int line = 0;
  while (true) {
    ++line;
    const bool ea = !std::getline(a, la);
    const bool eb = !std::getline(b, lb);
    if (ea || eb || la != lb) {
      return "differs from the generated text at line " + std::to_string(line) + "\n  committed: " + (ea ? "<end>" : la) +
             "\n  generated: " + (eb ? "<end>" : lb);
    }
  }
}

// The folder of the RTL that decodes a block's registers: its engine's engines/<engine>/rtl/, GLB's
// rtl/glb/; empty for a block no RTL decodes (CFGROM, CVIF, GEC, MCIF: golden's headers only).
std::string block_rtl_dir(const std::string& block) {
  static const std::map<std::string, std::string> kDir = {
      {"bdma", "engines/bdma/rtl"},     {"cacc", "engines/conv/rtl"},   {"cdma", "engines/conv/rtl"},
      {"cmac_a", "engines/conv/rtl"},   {"cmac_b", "engines/conv/rtl"}, {"csc", "engines/conv/rtl"},
      {"cdp", "engines/cdp/rtl"},       {"cdp_rdma", "engines/cdp/rtl"}, {"pdp", "engines/pdp/rtl"},
      {"pdp_rdma", "engines/pdp/rtl"},  {"rbk", "engines/rubik/rtl"},  {"sdp", "engines/sdp/rtl"},
      {"sdp_rdma", "engines/sdp/rtl"},  {"glb", "rtl/glb"},
      {"cfgrom", ""},                   {"cvif", ""},                  {"gec", ""},
      {"mcif", ""}};
  const auto it = kDir.find(block);
  if (it == kDir.end()) throw std::runtime_error("block " + block + " is not in reggen's block -> RTL folder table (block_rtl_dir)");
  return it->second;
}

// A register block (<blk>_reg_top) lives in its engine's folder.
std::string reg_top_path(const std::string& block) {
  const std::string dir = block_rtl_dir(block);
  if (!dir.starts_with("engines/")) throw std::runtime_error("block " + block + " has a register block but no engine folder");
  return dir + "/" + block + "_reg_top.sv";
}

// Every generated file: path relative to the source root, text.
std::vector<std::pair<std::string, std::string>> generate(const std::vector<Block>& blocks) {
  std::vector<std::pair<std::string, std::string>> files = {
      {"golden/include/golden/nvdla_regs.hpp", emit_hpp(blocks)},
      {"golden/include/golden/nvdla_reg_structs.hpp", emit_structs_hpp(blocks)}};
  for (const auto& b : blocks) {
    const std::string dir = block_rtl_dir(lower(b.name));
    if (!dir.empty()) files.emplace_back(dir + "/" + lower(b.name) + "_regs_pkg.sv", emit_sv_pkg(b));
    if (b.grouped) files.emplace_back(reg_top_path(lower(b.name)), emit_reg_top(b));
    if (single_reg_block(b)) {
      files.emplace_back(reg_top_path(lower(b.name)), emit_single_reg_top(as_implemented(b)));
    }
  }
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json, root, check;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) {
      std::cerr << "reggen: " << a << " needs a value\n";
      return 2;
    }
    if (a == "--json") json = argv[++i];
    else if (a == "--root") root = argv[++i];
    else if (a == "--check") check = argv[++i];
    else {
      std::cerr << "reggen: unknown argument " << a << "\n";
      return 2;
    }
  }
  if (json.empty() || root.empty()) {
    std::cerr << "usage: reggen --json REGS.json --root OUT_DIR [--check SOURCE_DIR]\n";
    return 2;
  }
  try {
    const auto files = generate(load(json));
    for (const auto& [rel, text] : files) write(std::filesystem::path(root) / rel, text);
    if (check.empty()) return 0;
    int bad = 0;
    std::set<std::string> expected;
    for (const auto& [rel, text] : files) {
      expected.insert(rel);
      const std::string committed = (std::filesystem::path(check) / rel).string();
      const std::string d = diff(committed, text);
      if (!d.empty()) {
        std::cerr << "reggen: " << committed << " is out of date: " << d << "\n";
        bad = 1;
      }
    }
    // A generated-looking file that reggen no longer writes is stale (a renamed or removed block).
    std::vector<std::string> dirs = {"rtl/common", "rtl/glb"};
    for (const auto& engine : std::filesystem::directory_iterator(std::filesystem::path(check) / "engines")) {
      dirs.push_back("engines/" + engine.path().filename().string() + "/rtl");
    }
    for (const auto& rel_dir : dirs) {
      const auto dir = std::filesystem::path(check) / rel_dir;
      if (!std::filesystem::is_directory(dir)) continue;
      for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (!name.ends_with("_reg_top.sv") && !name.ends_with("_regs_pkg.sv")) continue;
        if (expected.count(rel_dir + "/" + name) == 0) {
          std::cerr << "reggen: " << e.path().string() << " is not generated (stale?)\n";
          bad = 1;
        }
      }
    }
    if (bad != 0) {
      std::cerr << "  regenerate with: cmake --build BUILD --target regen\n";
      return 1;
    }
    std::cout << "reggen: generated register files are up to date\n";
  } catch (const std::exception& e) {
    std::cerr << "reggen: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
