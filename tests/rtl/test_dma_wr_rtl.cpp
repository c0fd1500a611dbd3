// The DMA write engine (rtl/dma/dla_dma_wr.sv, docs/DMA.md) through its verilated models, cycle by
// cycle, against expectations written from its contract (not from the RTL): a client that issues
// random (address, data, mask) writes with random gaps, a memory that takes them with random
// back-pressure, +verilator+rand+reset 0/1/2. Checked every cycle, exactly, for the three buffers
// (pipe: Fifo = 0; FIFO: Fifo = 1; falling through: Fifo = 1, FallThrough = 1):
//   * req_ready_o == (pending < Depth || mem_req_ready_i) (pipe), (pending < Depth) (FIFO, falling
//     through);
//   * mem_req_valid_o == (a write is pending and the oldest was accepted >= Depth cycles ago)
//     (pipe: a request reaches memory Depth cycles after it is accepted, the oldest never waits
//     behind an empty stage), (a write is pending) (FIFO: one cycle after), (a write is pending or
//     the client requests) (falling through: an empty buffer hands the request over at once);
//   * while mem_req_valid_o, the address, data and mask are the oldest pending write's, or the
//     client's request when none is pending (order, nothing lost, nothing duplicated);
//   * pending_o == writes accepted in earlier cycles and not yet taken, idle_o == (none).
// Rate: N writes with nothing stalled leave in exactly N + Depth cycles (pipe), N + 1 (FIFO),
// N (falling through): one per cycle.
#include <catch2/catch.hpp>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Vdma_wr_d1.h"
#include "Vdma_wr_d3.h"
#include "Vdma_wr_d2_w256.h"
#include "Vdma_wr_f4.h"
#include "Vdma_wr_ft2_w256.h"
#include "harness/rng.hpp"
#include "harness/sim.hpp"

using namespace dla::harness;

namespace {

constexpr std::array<uint64_t, 3> kSeeds = {5, 4321, 77777};
constexpr std::array<int, 3> kRandResets = {0, 1, 2};

struct Write {
  uint64_t addr = 0;
  std::vector<uint64_t> data;  // 64-bit words, low first
  uint64_t mask = 0;
  uint64_t accepted = 0;  // cycle of the client handshake
};

enum class Buffer { kPipe, kFifo, kFallThrough };

struct Profile {
  const char* name;
  double p_req;      // client: idle cycles before each request
  double p_mem_req;  // memory: ready dropped
  size_t writes;
};

template <class Port>
bool words_are(const Port& port, unsigned bits, const std::vector<uint64_t>& words) {
  for (unsigned i = 0; i * 64 < bits; ++i) {
    if (get_bits(port, 64 * i, std::min(64u, bits - 64 * i)) != words[i]) return false;
  }
  return true;
}

// Returns the cycles from reset to the last write taken by memory.
template <class Model>
uint64_t wr_run(const std::string& unit, Buffer buf, unsigned depth, unsigned bits, const Profile& pf, uint64_t seed,
                int rand_reset) {
  INFO(unit << " profile " << pf.name << " seed " << seed << " rand-reset " << rand_reset);
  const unsigned mask_bits = bits / 8;
  SimOptions o;
  o.seed = seed;
  o.rand_reset = rand_reset;
  o.watchdog = 2000;
  Sim<Model> sim(o, unit);
  Model& m = sim.top();
  StallInjector req_gap(seed, "client.req", pf.p_req), mem_stall(seed, "mem.req", pf.p_mem_req);
  Rng gen = Rng::derive(seed, "client.write");
  m.req_valid_i = 0;
  m.mem_req_ready_i = 0;
  sim.reset();

  std::deque<Write> pending;  // accepted, not yet taken by memory, in order
  size_t issued = 0, written = 0;
  bool presenting = false;
  Write cur;
  cur.data.assign((bits + 63) / 64, 0);
  uint64_t last = 0;
  while (written < pf.writes) {
    const uint64_t cycle = sim.cycle();
    if (!presenting && issued < pf.writes && !req_gap.stall()) {
      presenting = true;
      cur.addr = gen.next() & ~uint64_t{bits / 8 - 1};
      cur.data.clear();
      for (unsigned i = 0; i * 64 < bits; ++i) {
        const unsigned w = std::min(64u, bits - 64 * i);
        cur.data.push_back(w >= 64 ? gen.next() : gen.next() & ((uint64_t{1} << w) - 1));
      }
      cur.mask = mask_bits >= 64 ? gen.next() : gen.next() & ((uint64_t{1} << mask_bits) - 1);
    }
    m.req_valid_i = presenting;
    m.req_addr_i = cur.addr;
    for (unsigned i = 0; i * 64 < bits; ++i) put_bits(m.req_data_i, 64 * i, std::min(64u, bits - 64 * i), cur.data[i]);
    put_bits(m.req_mask_i, 0, mask_bits, cur.mask);
    m.mem_req_ready_i = !mem_stall.stall();
    sim.settle();

    const size_t n = pending.size();
    const bool bypass = buf == Buffer::kFallThrough && n == 0 && presenting;  // the request goes straight on
    switch (buf) {
      case Buffer::kPipe:
        REQUIRE(m.req_ready_o == (n < depth || m.mem_req_ready_i));
        REQUIRE(m.mem_req_valid_o == (n > 0 && cycle - pending.front().accepted >= depth));
        break;
      case Buffer::kFifo:
        REQUIRE(m.req_ready_o == (n < depth));
        REQUIRE(m.mem_req_valid_o == (n > 0));
        break;
      case Buffer::kFallThrough:
        REQUIRE(m.req_ready_o == (n < depth));
        REQUIRE(m.mem_req_valid_o == (n > 0 || bypass));
        break;
    }
    REQUIRE(m.pending_o == n);
    REQUIRE(m.idle_o == (n == 0));
    if (m.mem_req_valid_o) {
      const Write& w = bypass ? cur : pending.front();
      INFO("write " << written << " address 0x" << std::hex << w.addr);
      REQUIRE(m.mem_req_addr_o == w.addr);
      REQUIRE(words_are(m.mem_req_data_o, bits, w.data));
      REQUIRE(static_cast<uint64_t>(m.mem_req_mask_o) == w.mask);
    }
    const bool taken = m.mem_req_valid_o && m.mem_req_ready_i;
    if (taken) {
      if (!bypass) pending.pop_front();
      ++written;
      last = cycle;
      sim.progress();
    }
    if (m.req_valid_i && m.req_ready_o) {
      cur.accepted = cycle;
      if (!(bypass && taken)) pending.push_back(cur);
      presenting = false;
      ++issued;
    }
    sim.tick();
  }
  // nothing more goes to memory
  m.req_valid_i = 0;
  m.mem_req_ready_i = 1;
  for (int i = 0; i < 3; ++i) {
    sim.settle();
    CHECK(m.mem_req_valid_o == 0);
    CHECK(m.idle_o == 1);
    sim.tick();
  }
  return last;
}

const std::array<Profile, 4> kProfiles = {{
    {"balanced", 0.3, 0.3, 600},
    {"slow memory", 0.05, 0.85, 300},  // fills the buffer
    {"no stalls", 0.0, 0.0, 600},
    {"slow client", 0.8, 0.1, 200},
}};

template <class Model>
void wr_matrix(const std::string& unit, Buffer buf, unsigned depth, unsigned bits) {
  for (const Profile& pf : kProfiles) {
    for (const uint64_t seed : kSeeds) {
      for (const int rr : kRandResets) wr_run<Model>(unit, buf, depth, bits, pf, seed, rr);
    }
  }
}

}  // namespace

TEST_CASE("dla_dma_wr: depth 1, random back-pressure, rand-reset", "[rtl][dma]") {
  wr_matrix<Vdma_wr_d1>("dla_dma_wr d1", Buffer::kPipe, 1, 64);
}

TEST_CASE("dla_dma_wr: depth 3, random back-pressure, rand-reset", "[rtl][dma]") {
  wr_matrix<Vdma_wr_d3>("dla_dma_wr d3", Buffer::kPipe, 3, 64);
}

TEST_CASE("dla_dma_wr: 256-bit atoms, depth 2, random back-pressure, rand-reset", "[rtl][dma]") {
  wr_matrix<Vdma_wr_d2_w256>("dla_dma_wr d2_w256", Buffer::kPipe, 2, 256);
}

TEST_CASE("dla_dma_wr: FIFO buffer, depth 4, random back-pressure, rand-reset", "[rtl][dma]") {
  wr_matrix<Vdma_wr_f4>("dla_dma_wr f4", Buffer::kFifo, 4, 64);
}

TEST_CASE("dla_dma_wr: falling-through FIFO, 256-bit atoms, depth 2, random back-pressure, rand-reset", "[rtl][dma]") {
  wr_matrix<Vdma_wr_ft2_w256>("dla_dma_wr ft2_w256", Buffer::kFallThrough, 2, 256);
}

TEST_CASE("dla_dma_wr: rate, N writes leave in N + Depth, N + 1 or N cycles with nothing stalled", "[rtl][dma]") {
  constexpr size_t kN = 500;
  constexpr uint64_t kFirst = 4;  // Sim::reset's cycles: the first request is accepted in cycle 4
  const Profile pf{"rate", 0.0, 0.0, kN};
  // write i is accepted in cycle kFirst + i and taken Depth cycles later (pipe), one cycle later
  // (FIFO), in the same cycle (falling through)
  CHECK(wr_run<Vdma_wr_d1>("dla_dma_wr rate d1", Buffer::kPipe, 1, 64, pf, 1, 0) == kFirst + kN - 1 + 1);
  CHECK(wr_run<Vdma_wr_d3>("dla_dma_wr rate d3", Buffer::kPipe, 3, 64, pf, 1, 0) == kFirst + kN - 1 + 3);
  CHECK(wr_run<Vdma_wr_d2_w256>("dla_dma_wr rate d2_w256", Buffer::kPipe, 2, 256, pf, 1, 0) == kFirst + kN - 1 + 2);
  CHECK(wr_run<Vdma_wr_f4>("dla_dma_wr rate f4", Buffer::kFifo, 4, 64, pf, 1, 0) == kFirst + kN - 1 + 1);
  CHECK(wr_run<Vdma_wr_ft2_w256>("dla_dma_wr rate ft2_w256", Buffer::kFallThrough, 2, 256, pf, 1, 0) ==
        kFirst + kN - 1);
}
