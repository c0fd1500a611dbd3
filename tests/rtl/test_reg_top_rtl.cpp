// A generated register block on its own (sdp_reg_top, verilated as Vregs_sdp) against a C++
// model of NVDLA's two register groups written here from the register data
// (regs/nvdla-registers.json through RegDb) and the group rules of conv-pipeline.md §1: CSB writes
// land in the S_POINTER.PRODUCER group and are dropped while its OP_EN is set, the datapath sees
// the CONSUMER group, done clears that group's OP_EN and toggles CONSUMER, the hardware writes its
// read-only fields into the consumer group (a CSB write of the same word wins). Random CSB traffic,
// done pulses and hardware writes every cycle, so writes into the group that becomes the consumer
// land in the cycle of done too. After every cycle the model's reg2hw_o must hold the consumer
// group's writable fields (a register updated by the block, not re-extracted from the words),
// consumer_o / armed_o the group state, and rdata_o what a CSB read of the cycle before returns.
#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "Vregs_sdp.h"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/sim.hpp"

using namespace dla::harness;

namespace {

struct FieldPos {
  uint32_t word = 0;  // index in the group
  int lsb = 0;
  int width = 0;
  unsigned pos = 0;   // lsb in the packed struct
};

// The D group of a block as the register data gives it, and where each field sits in the packed
// structs: reg2hw (the writable fields by offset and lsb, the first at the most significant end)
// and hw2reg (the read-only fields' enables first, then their values, 32-bit values last).
struct Group {
  uint32_t start = 0;
  uint32_t words = 0;
  std::vector<uint32_t> reset, writable;
  std::vector<FieldPos> sw, hw;
  std::vector<unsigned> hw_de;  // enable bit of hw[k]
};

Group group_of(const RegBlock& b) {
  std::vector<const RegDef*> regs;
  for (const auto& [name, r] : b.regs) {
    if (r.dual) regs.push_back(&r);
  }
  std::sort(regs.begin(), regs.end(), [](const RegDef* x, const RegDef* y) { return x->offset < y->offset; });
  Group g;
  g.start = regs.front()->offset;
  g.words = (regs.back()->offset - g.start) / 4 + 1;
  g.reset.assign(g.words, 0);
  g.writable.assign(g.words, 0);
  for (const RegDef* r : regs) {
    const uint32_t w = (r->offset - g.start) / 4;
    g.reset[w] = r->reset;
    g.writable[w] = r->writable_mask();
    std::vector<RegField> fields = r->fields;
    std::sort(fields.begin(), fields.end(), [](const RegField& x, const RegField& y) { return x.lsb < y.lsb; });
    for (const RegField& f : fields) {
      FieldPos p{w, f.lsb, f.msb - f.lsb + 1, 0};
      (f.access.find('w') != std::string::npos ? g.sw : g.hw).push_back(p);
    }
  }
  unsigned total = 0;
  for (const auto& f : g.sw) total += static_cast<unsigned>(f.width);
  for (auto& f : g.sw) f.pos = total -= static_cast<unsigned>(f.width);
  unsigned hw_total = static_cast<unsigned>(g.hw.size());
  for (const auto& f : g.hw) hw_total += static_cast<unsigned>(f.width);
  for (std::size_t k = 0; k < g.hw.size(); ++k) g.hw_de.push_back(hw_total - 1 - static_cast<unsigned>(k));
  unsigned next = hw_total - static_cast<unsigned>(g.hw.size());
  for (const bool whole : {false, true}) {
    for (auto& f : g.hw) {
      if ((f.width == 32) != whole) continue;
      f.pos = next -= static_cast<unsigned>(f.width);
    }
  }
  return g;
}

uint32_t field_mask(const FieldPos& f) {
  return (f.width >= 32 ? 0xffffffffu : ((1u << f.width) - 1u)) << f.lsb;
}

// The two groups as conv-pipeline.md §1 describes them.
struct Groups {
  std::array<std::vector<uint32_t>, 2> words;
  std::array<bool, 2> op_en{};
  int producer = 0;
  int consumer = 0;
};

struct Inputs {
  bool req = false;
  uint32_t addr = 0;
  bool write = false;
  uint32_t wdata = 0;
  bool done = false;
  std::vector<bool> hw_de;
  std::vector<uint32_t> hw_value;
};

constexpr uint32_t kBase = 0x9000;  // sdp_reg_top's default Base (SDP on nv_small)

// One clock edge of the model: the next state, and the read data the request returns.
Groups step(const Group& g, const Groups& s, const Inputs& in, uint32_t& rdata) {
  const bool hit = in.req && (in.addr >> 12) == (kBase >> 12);
  const uint32_t off = in.addr & 0xfff;
  const bool is_d = off >= g.start && off < g.start + 4 * g.words;
  const uint32_t idx = is_d ? (off - g.start) / 4 : 0;
  rdata = 0;
  if (hit && !in.write) {
    auto status = [&](int grp) { return !s.op_en[grp] ? 0u : s.consumer == grp ? 1u : 2u; };
    if (off == 0) rdata = status(1) << 16 | status(0);
    else if (off == 4) rdata = static_cast<uint32_t>(s.consumer) << 16 | static_cast<uint32_t>(s.producer);
    else if (is_d) rdata = s.words[s.producer][idx];
  }
  Groups n = s;
  const bool d_we = hit && in.write && is_d && !s.op_en[s.producer];
  if (hit && in.write && off == 4) n.producer = static_cast<int>(in.wdata & 1);
  if (d_we && idx == 0) n.op_en[s.producer] = (in.wdata & 1) != 0;
  for (std::size_t k = 0; k < g.hw.size(); ++k) {
    if (!in.hw_de[k]) continue;
    const FieldPos& f = g.hw[k];
    uint32_t& w = n.words[s.consumer][f.word];
    w = (w & ~field_mask(f)) | ((in.hw_value[k] << f.lsb) & field_mask(f));
  }
  if (d_we) n.words[s.producer][idx] = in.wdata & g.writable[idx];
  if (in.done) {
    n.words[s.consumer][0] &= ~1u;
    n.op_en[s.consumer] = false;
    n.consumer = 1 - s.consumer;
  }
  return n;
}

void run(uint64_t seed, int rand_reset, int cycles) {
  const RegBlock* b = RegDb::nvdla().block("SDP");
  REQUIRE(b != nullptr);
  const Group g = group_of(*b);
  REQUIRE(!g.hw.empty());

  SimOptions opt;
  opt.seed = seed;
  opt.rand_reset = rand_reset;
  Sim<Vregs_sdp> sim(opt, "sdp_reg_top");
  auto& m = sim.top();
  m.req_valid_i = 0;
  m.req_addr_i = 0;
  m.req_write_i = 0;
  m.req_wdata_i = 0;
  m.s_rdata_i = 0;
  m.done_i = 0;
  clear_bits(m.hw2reg_i);
  sim.reset();

  Groups s;
  s.words = {g.reset, g.reset};
  Rng rng = Rng::derive(seed, "reg_top");
  int writes_at_done = 0;
  for (int c = 0; c < cycles; ++c) {
    Inputs in;
    in.req = rng.chance(0.7);
    const int64_t kind = rng.range(0, 9);
    uint32_t off = g.start + 4 * static_cast<uint32_t>(rng.range(0, g.words - 1));
    if (kind == 0) off = 0;
    if (kind == 1) off = 4;
    if (kind == 2) off = g.start + 4 * g.words + 4 * static_cast<uint32_t>(rng.range(0, 3));  // past the group
    in.addr = (kind == 3 ? kBase + 0x1000 : kBase) + off;
    in.write = rng.chance(0.6);
    in.wdata = static_cast<uint32_t>(rng.next());
    if (off == 4 || (off == g.start && rng.chance(0.5))) in.wdata &= 1;  // S_POINTER, D_OP_ENABLE
    in.done = rng.chance(0.08);
    for (std::size_t k = 0; k < g.hw.size(); ++k) {
      in.hw_de.push_back(rng.chance(0.15));
      in.hw_value.push_back(static_cast<uint32_t>(rng.next()));
    }
    if (in.req && in.write && in.done && off >= g.start && s.producer != s.consumer && !s.op_en[s.producer]) {
      ++writes_at_done;
    }

    m.req_valid_i = in.req;
    m.req_addr_i = in.addr;
    m.req_write_i = in.write;
    m.req_wdata_i = in.wdata;
    m.done_i = in.done;
    clear_bits(m.hw2reg_i);
    for (std::size_t k = 0; k < g.hw.size(); ++k) {
      put_bits(m.hw2reg_i, g.hw_de[k], 1, in.hw_de[k] ? 1 : 0);
      put_bits(m.hw2reg_i, g.hw[k].pos, static_cast<unsigned>(g.hw[k].width), in.hw_value[k]);
    }
    sim.tick();
    uint32_t rdata = 0;
    s = step(g, s, in, rdata);

    INFO("seed " << seed << " rand-reset " << rand_reset << " cycle " << c);
    REQUIRE(m.rdata_o == rdata);
    REQUIRE(static_cast<int>(m.consumer_o) == s.consumer);
    REQUIRE(static_cast<bool>(m.armed_o) == s.op_en[s.consumer]);
    for (const FieldPos& f : g.sw) {
      INFO("reg2hw field at word " << f.word << " bit " << f.lsb);
      REQUIRE(get_bits(m.reg2hw_o, f.pos, static_cast<unsigned>(f.width)) ==
              (s.words[s.consumer][f.word] & field_mask(f)) >> f.lsb);
    }
  }
  CHECK(writes_at_done > 20);  // the case the reg2hw register must get right
}

}  // namespace

TEST_CASE("RTL register block: reg2hw holds the consumer group's fields every cycle under random CSB writes and done",
          "[rtl][regs]") {
  for (const uint64_t seed : {3ull, 77ull, 4242ull}) {
    for (const int rand_reset : {0, 1, 2}) run(seed, rand_reset, 4000);
  }
}
