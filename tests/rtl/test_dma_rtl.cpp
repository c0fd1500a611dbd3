// The DMA read engine (rtl/dma/dla_dma_rd.sv, docs/DMA.md) through its verilated models, cycle by
// cycle, against a C++ model written from its contract: a client that issues random addresses
// with random gaps and takes responses with random back-pressure, a memory that takes requests
// with random back-pressure and answers in order after a random latency (gaps on its response
// port too), +verilator+rand+reset 0/1/2. Checked every cycle: the request passes through only
// while fewer than MaxInFlight responses are reserved (exact, so a credit off by one either way
// fails), the memory is never back-pressured, responses come back in request order with the
// memory's data for their address, rsp_valid_o is up exactly while a response is buffered, and
// the rate: one atom per cycle at latency L with MaxInFlight >= L + 2, MaxInFlight / (L + 2)
// below.
#include <catch2/catch.hpp>
#include <array>
#include <cstdint>
#include <deque>
#include <string>

#include "Vdma_rd_m1.h"
#include "Vdma_rd_m3.h"
#include "Vdma_rd_m34_w256.h"
#include "harness/rng.hpp"
#include "harness/sim.hpp"

using namespace dla::harness;

namespace {

constexpr std::array<uint64_t, 3> kSeeds = {7, 1234, 99991};
constexpr std::array<int, 3> kRandResets = {0, 1, 2};

// The memory's content: word i (64 bits) of the atom at `addr`.
uint64_t mem_word(uint64_t addr, unsigned i) {
  Rng r = Rng::derive(addr * 8 + i, "dma.mem");
  return r.next();
}

template <class Port>
void put_atom(Port& port, unsigned bits, uint64_t addr) {
  for (unsigned i = 0; i * 64 < bits; ++i) put_bits(port, 64 * i, std::min(64u, bits - 64 * i), mem_word(addr, i));
}

template <class Port>
bool atom_is(const Port& port, unsigned bits, uint64_t addr) {
  for (unsigned i = 0; i * 64 < bits; ++i) {
    const unsigned w = std::min(64u, bits - 64 * i);
    const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    if (get_bits(port, 64 * i, w) != (mem_word(addr, i) & mask)) return false;
  }
  return true;
}

struct Profile {
  const char* name;
  double p_req;      // client: idle cycles before each request
  double p_rsp;      // client: ready dropped
  double p_mem_req;  // memory: request ready dropped
  double p_mem_rsp;  // memory: response held back
  int lat_min, lat_max;
  size_t requests;
};

struct RunStats {
  uint64_t cycles = 0;
  unsigned max_reserved = 0;
};

template <class Model>
RunStats dma_run(const std::string& unit, unsigned slots, unsigned bits, const Profile& pf, uint64_t seed,
                 int rand_reset) {
  INFO(unit << " profile " << pf.name << " seed " << seed << " rand-reset " << rand_reset);
  SimOptions o;
  o.seed = seed;
  o.rand_reset = rand_reset;
  o.watchdog = 2000;
  Sim<Model> sim(o, unit);
  Model& m = sim.top();
  StallInjector req_gap(seed, "client.req", pf.p_req), rsp_stall(seed, "client.rsp", pf.p_rsp),
      mem_req_stall(seed, "mem.req", pf.p_mem_req), mem_rsp_stall(seed, "mem.rsp", pf.p_mem_rsp);
  Rng addr_rng = Rng::derive(seed, "client.addr");
  Rng lat = Rng::derive(seed, "mem.latency");
  m.req_valid_i = 0;
  m.rsp_ready_i = 0;
  m.mem_req_ready_i = 0;
  m.mem_rsp_valid_i = 0;
  sim.reset();

  struct Pending {
    uint64_t ready, addr;
  };
  std::deque<Pending> mem_q;    // requests the memory holds, in order
  std::deque<uint64_t> expect;  // addresses the client waits for, in order
  size_t issued = 0, received = 0;
  unsigned reserved = 0, buffered = 0;  // responses reserved / held by the engine
  bool presenting = false, mem_presenting = false;
  uint64_t cur_addr = 0, last_ready = 0;
  RunStats st;
  while (received < pf.requests) {
    const uint64_t cycle = sim.cycle();
    // client request: a beat stays up until taken
    if (!presenting && issued < pf.requests && !req_gap.stall()) {
      presenting = true;
      cur_addr = addr_rng.range(0, 15) == 0 ? cur_addr : (addr_rng.next() & ~uint64_t{7});  // repeats too
    }
    m.req_valid_i = presenting;
    m.req_addr_i = cur_addr;
    m.rsp_ready_i = !rsp_stall.stall();
    m.mem_req_ready_i = !mem_req_stall.stall();
    if (!mem_presenting && !mem_q.empty() && mem_q.front().ready <= cycle && !mem_rsp_stall.stall()) {
      mem_presenting = true;
      put_atom(m.mem_rsp_data_i, bits, mem_q.front().addr);
    }
    m.mem_rsp_valid_i = mem_presenting;
    sim.settle();

    // the request passes through exactly while a slot is free
    const bool credit = reserved < slots;
    REQUIRE(m.mem_req_valid_o == (presenting && credit));
    REQUIRE(m.req_ready_o == (m.mem_req_ready_i && credit));
    if (m.mem_req_valid_o) REQUIRE(m.mem_req_addr_o == cur_addr);
    REQUIRE(m.mem_rsp_ready_o == 1);  // never back-pressures the memory
    REQUIRE(m.rsp_valid_o == (buffered > 0));

    const bool req_fire = m.req_valid_i && m.req_ready_o;
    REQUIRE(req_fire == (m.mem_req_valid_o && m.mem_req_ready_i));
    const bool rsp_fire = m.rsp_valid_o && m.rsp_ready_i;
    if (rsp_fire) {
      REQUIRE(!expect.empty());
      INFO("response " << received << " address 0x" << std::hex << expect.front());
      REQUIRE(atom_is(m.rsp_data_o, bits, expect.front()));  // order, data, nothing lost
      expect.pop_front();
      ++received;
      --reserved;
      --buffered;
      sim.progress();
    }
    if (mem_presenting) {  // taken (ready is 1): in the buffer after the edge
      mem_q.pop_front();
      mem_presenting = false;
      ++buffered;
    }
    if (req_fire) {
      const uint64_t ready = std::max(last_ready, cycle + static_cast<uint64_t>(lat.range(pf.lat_min, pf.lat_max)));
      last_ready = ready;
      mem_q.push_back({ready, cur_addr});
      expect.push_back(cur_addr);
      presenting = false;
      ++issued;
      ++reserved;
    }
    REQUIRE(reserved <= slots);
    st.max_reserved = std::max(st.max_reserved, reserved);
    sim.tick();
    ++st.cycles;
  }
  // nothing more comes out, nothing more goes to memory
  m.req_valid_i = 0;
  m.rsp_ready_i = 1;
  m.mem_rsp_valid_i = 0;
  for (int i = 0; i < 3; ++i) {
    sim.settle();
    CHECK(m.rsp_valid_o == 0);
    CHECK(m.mem_req_valid_o == 0);
    sim.tick();
  }
  return st;
}

const std::array<Profile, 4> kProfiles = {{
    {"balanced", 0.3, 0.3, 0.3, 0.3, 4, 32, 600},
    {"slow client", 0.05, 0.85, 0.1, 0.1, 1, 8, 400},  // fills the buffer
    {"fast, short latency", 0.0, 0.0, 0.0, 0.0, 1, 3, 600},
    {"long latency", 0.1, 0.2, 0.2, 0.2, 64, 256, 200},
}};

template <class Model>
void dma_matrix(const std::string& unit, unsigned slots, unsigned bits) {
  for (const Profile& pf : kProfiles) {
    unsigned max_reserved = 0;
    for (const uint64_t seed : kSeeds) {
      for (const int rr : kRandResets) {
        max_reserved = std::max(max_reserved, dma_run<Model>(unit, slots, bits, pf, seed, rr).max_reserved);
      }
    }
    INFO(unit << " profile " << pf.name);
    if (pf.lat_min >= 8 || pf.p_rsp > 0.5) CHECK(max_reserved == slots);  // every slot was used
  }
}

// Cycles for n requests, nothing stalled, a fixed latency.
template <class Model>
uint64_t dma_cycles(unsigned slots, unsigned bits, int latency, size_t n) {
  const Profile pf{"rate", 0.0, 0.0, 0.0, 0.0, latency, latency, n};
  return dma_run<Model>("dla_dma_rd rate", slots, bits, pf, 1, 0).cycles;
}

}  // namespace

TEST_CASE("dla_dma_rd: one slot, random latency and back-pressure, rand-reset", "[rtl][dma]") {
  dma_matrix<Vdma_rd_m1>("dla_dma_rd m1", 1, 64);
}

TEST_CASE("dla_dma_rd: three slots, random latency and back-pressure, rand-reset", "[rtl][dma]") {
  dma_matrix<Vdma_rd_m3>("dla_dma_rd m3", 3, 64);
}

TEST_CASE("dla_dma_rd: 256-bit atoms, 34 slots, random latency and back-pressure, rand-reset", "[rtl][dma]") {
  dma_matrix<Vdma_rd_m34_w256>("dla_dma_rd m34_w256", 34, 256);
}

TEST_CASE("dla_dma_rd: rate, one atom per cycle at latency 32 with 34 slots, 34 per L+2 cycles beyond", "[rtl][dma]") {
  constexpr size_t kN = 2000;
  // a slot is held latency + 2 cycles: 34 slots cover latency 32 at one request per cycle
  const uint64_t at32 = dma_cycles<Vdma_rd_m34_w256>(34, 256, 32, kN);
  INFO("latency 32: " << at32 << " cycles for " << kN << " atoms");
  CHECK(at32 <= kN + 32 + 3);
  // latency 66: 34 atoms every 68 cycles
  const uint64_t at66 = dma_cycles<Vdma_rd_m34_w256>(34, 256, 66, kN);
  INFO("latency 66: " << at66 << " cycles");
  CHECK(at66 >= kN * 68 / 34);
  CHECK(at66 <= kN * 68 / 34 + 68 + 3);
  // one slot: a round trip of latency + 2 per atom
  const uint64_t m1 = dma_cycles<Vdma_rd_m1>(1, 64, 10, 200);
  INFO("one slot, latency 10: " << m1 << " cycles");
  CHECK(m1 >= 200 * 12 - 2);
  CHECK(m1 <= 200 * 12 + 2);
}
