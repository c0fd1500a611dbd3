// The stream primitives of rtl/prim/ through their verilated models, cycle by cycle: random
// valid/ready back-pressure on every port (several seeds), +verilator+rand+reset 0/1/2, and an
// independent C++ model of each (a std::deque for the FIFO and the spill register, per-input
// sequences and grant counts for the arbiter, stage occupancy for the pipeline control).
#include <catch2/catch.hpp>
#include <array>
#include <cstdint>
#include <deque>
#include <numeric>
#include <string>
#include <vector>

#include "Vprim_arb3.h"
#include "Vprim_arb3_w.h"
#include "Vprim_arb4.h"
#include "Vprim_csb3.h"
#include "Vprim_fifo_d1.h"
#include "Vprim_fifo_d1_ft.h"
#include "Vprim_fifo_d3.h"
#include "Vprim_fifo_d3_ft.h"
#include "Vprim_fifo_d4.h"
#include "Vprim_pipe1.h"
#include "Vprim_pipe4.h"
#include "Vprim_spill.h"
#include "harness/rng.hpp"
#include "harness/sim.hpp"

using namespace dla::harness;

namespace {

constexpr std::array<uint64_t, 3> kSeeds = {7, 1234, 99991};
constexpr std::array<int, 3> kRandResets = {0, 1, 2};

SimOptions sim_options(uint64_t seed, int rand_reset) {
  SimOptions o;
  o.seed = seed;
  o.rand_reset = rand_reset;
  o.watchdog = 1000;
  return o;
}

// One input port: presents the next beat after a random number of idle cycles and keeps it
// up until taken.
class Source {
 public:
  Source(uint64_t seed, const std::string& port, double p, std::vector<uint16_t> beats)
      : stall_(seed, port, p), beats_(std::move(beats)) {}
  // Call once per cycle before settle(): whether a beat is presented, and which.
  bool valid() {
    if (!presenting_ && next_ < beats_.size() && !stall_.stall()) presenting_ = true;
    return presenting_;
  }
  [[nodiscard]] uint16_t data() const { return presenting_ ? beats_[next_] : 0; }
  void taken() {
    REQUIRE(presenting_);
    presenting_ = false;
    ++next_;
  }
  [[nodiscard]] bool done() const { return next_ == beats_.size(); }

 private:
  StallInjector stall_;
  std::vector<uint16_t> beats_;
  size_t next_ = 0;
  bool presenting_ = false;
};

std::vector<uint16_t> random_beats(uint64_t seed, const std::string& name, size_t n) {
  Rng rng = Rng::derive(seed, name);
  std::vector<uint16_t> out(n);
  for (auto& b : out) b = static_cast<uint16_t>(rng.next());
  return out;
}

// ---------------------------------------------------------------- FIFO, spill register
// A registered FIFO of `depth` entries, a fall-through one, or the spill register (which must
// behave as a registered 2-entry FIFO, and whose outputs must not depend on this cycle's inputs).
template <class Model>
void fifo_run(const std::string& unit, unsigned depth, bool fall_through, uint64_t seed, int rand_reset, double p_in,
              double p_out) {
  INFO(unit << " depth " << depth << " fall-through " << fall_through << " seed " << seed << " rand-reset "
            << rand_reset << " stall in " << p_in << " out " << p_out);
  constexpr bool kHasLevel = requires(Model& m) { m.level_o; };
  Sim<Model> sim(sim_options(seed, rand_reset), unit);
  Model& m = sim.top();
  const auto beats = random_beats(seed, unit, 1500);
  Source src(seed, unit + ".in", p_in, beats);
  StallInjector out_stall(seed, unit + ".out", p_out);
  m.in_valid_i = 0;
  m.out_ready_i = 0;
  sim.reset();
  std::deque<uint16_t> model;  // beats held
  size_t received = 0;
  unsigned max_level = 0;
  while (received < beats.size()) {
    m.in_valid_i = src.valid();
    m.in_data_i = src.data();
    m.out_ready_i = !out_stall.stall();
    sim.settle();
    if constexpr (!kHasLevel) {
      // Both paths cut: no output depends on this cycle's in_valid_i, in_data_i or out_ready_i.
      const uint8_t in_ready = m.in_ready_o, out_valid = m.out_valid_o;
      const uint16_t out_data = m.out_data_o;
      for (int flip = 0; flip < 2; ++flip) {
        m.in_valid_i = !m.in_valid_i;
        m.in_data_i = static_cast<uint16_t>(~m.in_data_i);
        m.out_ready_i = !m.out_ready_i;
        sim.settle();
        REQUIRE(m.in_ready_o == in_ready);
        REQUIRE(m.out_valid_o == out_valid);
        REQUIRE(m.out_data_o == out_data);
      }
    } else {
      REQUIRE(m.level_o == model.size());
    }
    REQUIRE(m.in_ready_o == (model.size() < depth));
    const bool pass = fall_through && model.empty() && m.in_valid_i;  // beat handed through
    REQUIRE(m.out_valid_o == (!model.empty() || pass));
    if (m.out_valid_o) REQUIRE(m.out_data_o == (pass ? m.in_data_i : model.front()));
    const bool in_fire = m.in_valid_i && m.in_ready_o;
    const bool out_fire = m.out_valid_o && m.out_ready_i;
    if (in_fire) {
      model.push_back(m.in_data_i);
      src.taken();
    }
    if (out_fire) {
      REQUIRE(m.out_data_o == beats[received]);  // order, no loss, no duplication
      model.pop_front();
      ++received;
      sim.progress();
    }
    REQUIRE(model.size() <= depth);
    max_level = std::max<unsigned>(max_level, static_cast<unsigned>(model.size()));
    sim.tick();
  }
  CHECK(src.done());
  // nothing more comes out
  m.in_valid_i = 0;
  m.out_ready_i = 1;
  for (int i = 0; i < 3; ++i) {
    sim.settle();
    CHECK(m.out_valid_o == 0);
    if constexpr (kHasLevel) CHECK(m.level_o == 0);
    sim.tick();
  }
  // a slow reader fills it
  if (p_out > p_in) CHECK(max_level == depth);
}

template <class Model>
void fifo_matrix(const std::string& unit, unsigned depth, bool fall_through) {
  for (const uint64_t seed : kSeeds) {
    for (const int rr : kRandResets) {
      fifo_run<Model>(unit, depth, fall_through, seed, rr, 0.3, 0.3);
      fifo_run<Model>(unit, depth, fall_through, seed, rr, 0.1, 0.7);  // mostly full
      fifo_run<Model>(unit, depth, fall_through, seed, rr, 0.7, 0.1);  // mostly empty
    }
  }
}

// Unstalled throughput: cycles for n beats through the FIFO.
template <class Model>
uint64_t fifo_cycles(size_t n) {
  Sim<Model> sim(sim_options(1, 0), "dla_fifo");
  Model& m = sim.top();
  m.in_valid_i = 0;
  m.out_ready_i = 1;
  sim.reset();
  size_t sent = 0, received = 0;
  uint64_t cycles = 0;
  while (received < n) {
    m.in_valid_i = sent < n;
    m.in_data_i = static_cast<uint16_t>(sent);
    sim.settle();
    if (m.in_valid_i && m.in_ready_o) ++sent;
    if (m.out_valid_o) {
      REQUIRE(m.out_data_o == static_cast<uint16_t>(received));
      ++received;
    }
    sim.progress();
    sim.tick();
    ++cycles;
  }
  return cycles;
}

// ---------------------------------------------------------------- arbiter
struct ArbStats {
  std::vector<uint64_t> grants;
  uint64_t max_wait = 0;
};

// N inputs, each with its own beats (input number in the top bits, sequence below); checks
// every cycle against the protocol and returns grant counts. `full_load`: every input always
// has a beat up (no input stalls, endless beats).
template <class Model>
ArbStats arb_run(unsigned n, const std::vector<unsigned>& weights, uint64_t seed, int rand_reset, double p_in,
                 double p_out, bool full_load, size_t beats_per_input) {
  INFO("arbiter N=" << n << " seed " << seed << " rand-reset " << rand_reset << " stall in " << p_in << " out "
                    << p_out << " full load " << full_load);
  Sim<Model> sim(sim_options(seed, rand_reset), "dla_rr_arb");
  Model& m = sim.top();
  std::vector<Source> src;
  for (unsigned i = 0; i < n; ++i) {
    std::vector<uint16_t> beats(full_load ? 1u << 12 : beats_per_input);
    for (size_t k = 0; k < beats.size(); ++k) beats[k] = static_cast<uint16_t>((i << 12) | (k & 0xfff));
    src.emplace_back(seed, "arb.in" + std::to_string(i), full_load ? 0.0 : p_in, std::move(beats));
  }
  StallInjector out_stall(seed, "arb.out", p_out);
  m.in_valid_i = 0;
  m.out_ready_i = 0;
  sim.reset();
  // Bound on grants to others while an input waits: N-1 (round robin) or the others' weights.
  const unsigned total_w = std::accumulate(weights.begin(), weights.end(), 0u);
  ArbStats st;
  st.grants.assign(n, 0);
  std::vector<uint64_t> next_seq(n, 0), waited(n, 0);
  bool stalled_before = false;
  unsigned prev_idx = 0;
  uint16_t prev_data = 0;
  const uint64_t target = full_load ? 600 : n * beats_per_input;
  uint64_t total = 0;
  while (total < target) {
    unsigned valid = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (src[i].valid()) valid |= 1u << i;
      put_bits(m.in_data_i, 16 * i, 16, src[i].data());
    }
    m.in_valid_i = static_cast<uint8_t>(valid);
    m.out_ready_i = !out_stall.stall();
    sim.settle();
    const unsigned idx = m.out_idx_o;
    REQUIRE(idx < n);
    REQUIRE(m.out_valid_o == (valid != 0));  // work conserving
    if (m.out_valid_o) {
      REQUIRE(((valid >> idx) & 1u) == 1u);
      REQUIRE(m.out_data_o == src[idx].data());
    }
    if (stalled_before) {  // grant and payload held while the beat is stalled
      REQUIRE(idx == prev_idx);
      REQUIRE(m.out_data_o == prev_data);
    }
    for (unsigned i = 0; i < n; ++i) {
      const bool ready = (m.in_ready_o >> i) & 1u;
      if ((valid >> i) & 1u) REQUIRE(ready == (i == idx && m.out_ready_i));
    }
    if (m.out_valid_o && m.out_ready_i) {
      const uint16_t d = m.out_data_o;
      REQUIRE(d >> 12 == idx);
      REQUIRE((d & 0xfff) == (next_seq[idx] & 0xfff));  // each input's order, nothing lost
      ++next_seq[idx];
      ++st.grants[idx];
      src[idx].taken();
      for (unsigned i = 0; i < n; ++i) {
        if (i != idx && ((valid >> i) & 1u)) {
          ++waited[i];
          const uint64_t bound = total_w - weights[i];
          INFO("input " << i << " waited " << waited[i] << " grants, bound " << bound);
          REQUIRE(waited[i] <= bound);
          st.max_wait = std::max(st.max_wait, waited[i]);
        }
      }
      waited[idx] = 0;
      ++total;
      sim.progress();
    }
    stalled_before = m.out_valid_o && !m.out_ready_i;
    prev_idx = idx;
    prev_data = m.out_data_o;
    sim.tick();
  }
  if (!full_load) {
    for (unsigned i = 0; i < n; ++i) CHECK(src[i].done());
  }
  return st;
}

template <class Model>
void arb_matrix(unsigned n, const std::vector<unsigned>& weights) {
  for (const uint64_t seed : kSeeds) {
    for (const int rr : kRandResets) {
      arb_run<Model>(n, weights, seed, rr, 0.3, 0.3, false, 400);
      arb_run<Model>(n, weights, seed, rr, 0.05, 0.6, false, 400);  // contended
      arb_run<Model>(n, weights, seed, rr, 0.8, 0.1, false, 200);   // sparse
    }
  }
}

// ---------------------------------------------------------------- pipeline control
template <class Model>
void pipe_run(unsigned stages, uint64_t seed, int rand_reset, double p_in, double p_out) {
  INFO("stages " << stages << " seed " << seed << " rand-reset " << rand_reset << " stall in " << p_in << " out "
                 << p_out);
  Sim<Model> sim(sim_options(seed, rand_reset), "dla_pipe_ctrl");
  Model& m = sim.top();
  const auto beats = random_beats(seed, "pipe", 1200);
  Source src(seed, "pipe.in", p_in, beats);
  StallInjector out_stall(seed, "pipe.out", p_out);
  m.in_valid_i = 0;
  m.out_ready_i = 0;
  sim.reset();
  // The caller's data registers, moved by ld_o; occupancy kept by the model.
  std::vector<uint16_t> data(stages, 0);
  std::vector<bool> occ(stages, false);
  std::vector<uint64_t> accepted_at(stages, 0);
  size_t received = 0;
  while (received < beats.size()) {
    m.in_valid_i = src.valid();
    m.out_ready_i = !out_stall.stall();
    sim.settle();
    bool all_full = true;
    for (unsigned k = 0; k < stages; ++k) {
      REQUIRE(((m.valid_o >> k) & 1u) == occ[k]);
      all_full = all_full && occ[k];
    }
    REQUIRE(m.out_valid_o == occ[stages - 1]);
    // bubbles collapse: the input is taken unless every stage is full and the output stalls
    REQUIRE(m.in_ready_o == (!all_full || m.out_ready_i));
    const bool out_fire = m.out_valid_o && m.out_ready_i;
    if (out_fire) {
      REQUIRE(data[stages - 1] == beats[received]);
      if (p_in == 0 && p_out == 0) REQUIRE(sim.cycle() - accepted_at[stages - 1] == stages);
      ++received;
      sim.progress();
    }
    // Stage k loads when it is empty or its beat moves on (computed from the model only).
    std::vector<bool> moves(stages, false);
    bool next_moves = out_fire;
    for (int k = static_cast<int>(stages) - 1; k >= 0; --k) {
      moves[k] = occ[k] && next_moves;
      const bool prev = k == 0 ? m.in_valid_i != 0 : static_cast<bool>(occ[k - 1]);
      const bool free = !occ[k] || moves[k];
      const bool ld = free && prev;
      REQUIRE(((m.ld_o >> k) & 1u) == ld);
      next_moves = ld;  // stage k-1's beat moves iff stage k loads
    }
    for (int k = static_cast<int>(stages) - 1; k >= 0; --k) {
      if ((m.ld_o >> k) & 1u) {
        data[k] = k == 0 ? src.data() : data[k - 1];
        accepted_at[k] = k == 0 ? sim.cycle() : accepted_at[k - 1];
        occ[k] = true;
      } else if (moves[k]) {
        occ[k] = false;
      }
    }
    if (m.in_valid_i && m.in_ready_o) src.taken();
    sim.tick();
  }
  CHECK(src.done());
}

}  // namespace

TEST_CASE("prim dla_fifo keeps order without loss under back-pressure, Depth 1 3 4, registered", "[rtl][prim]") {
  fifo_matrix<Vprim_fifo_d1>("dla_fifo", 1, false);
  fifo_matrix<Vprim_fifo_d3>("dla_fifo", 3, false);
  fifo_matrix<Vprim_fifo_d4>("dla_fifo", 4, false);
}

TEST_CASE("prim dla_fifo fall-through passes a beat through an empty FIFO, Depth 1 and 3", "[rtl][prim]") {
  fifo_matrix<Vprim_fifo_d1_ft>("dla_fifo", 1, true);
  fifo_matrix<Vprim_fifo_d3_ft>("dla_fifo", 3, true);
}

TEST_CASE("prim dla_fifo throughput unstalled", "[rtl][prim]") {
  // Depth >= 2 (or fall-through): one beat per cycle after the first cycle of latency. Depth 1
  // registered: in_ready is !full, so a beat every other cycle.
  CHECK(fifo_cycles<Vprim_fifo_d3>(1000) == 1001);
  CHECK(fifo_cycles<Vprim_fifo_d4>(1000) == 1001);
  CHECK(fifo_cycles<Vprim_fifo_d3_ft>(1000) == 1000);
  CHECK(fifo_cycles<Vprim_fifo_d1_ft>(1000) == 1000);
  CHECK(fifo_cycles<Vprim_fifo_d1>(1000) == 2000);
}

TEST_CASE("prim dla_spill_reg keeps order, cuts valid and ready paths", "[rtl][prim]") {
  fifo_matrix<Vprim_spill>("dla_spill_reg", 2, false);
}

TEST_CASE("prim dla_spill_reg sustains one beat per cycle unstalled", "[rtl][prim]") {
  CHECK(fifo_cycles<Vprim_spill>(1000) == 1001);  // one cycle of latency
  Sim<Vprim_spill> sim(sim_options(1, 2), "dla_spill_reg");
  Vprim_spill& m = sim.top();
  m.in_valid_i = 0;
  m.out_ready_i = 1;
  sim.reset();
  // After a stall of the output, the stream resumes at full rate: with in_valid always high and
  // the output stalled every 4th cycle, the input waits exactly one cycle after each stall (the
  // spilled beat moves out first); the last stall's wait falls after the window.
  unsigned stalls = 0, in_waits = 0;
  for (unsigned c = 0; c < 400; ++c) {
    m.in_valid_i = 1;
    m.out_ready_i = (c % 4) != 3;
    sim.settle();
    stalls += !m.out_ready_i;
    in_waits += !m.in_ready_o;
    sim.progress();
    sim.tick();
  }
  CHECK(stalls == 100);
  CHECK(in_waits == stalls - 1);
}

TEST_CASE("prim dla_rr_arb round robin: order per input, fairness, grant held while stalled", "[rtl][prim]") {
  arb_matrix<Vprim_arb3>(3, {1, 1, 1});
  arb_matrix<Vprim_arb4>(4, {1, 1, 1, 1});
}

TEST_CASE("prim dla_rr_arb weighted 2 1 3: order per input and bounded wait", "[rtl][prim]") {
  arb_matrix<Vprim_arb3_w>(3, {2, 1, 3});
}

TEST_CASE("prim dla_rr_arb grant ratios under full load follow the weights", "[rtl][prim]") {
  // 600 grants = 100 rounds of 6 (weighted 2 + 1 + 3) / 200 rounds of 3 / 150 of 4: each input
  // gets exactly its share, whatever the output stalls.
  for (const uint64_t seed : kSeeds) {
    for (const double p_out : {0.0, 0.4}) {
      const ArbStats w = arb_run<Vprim_arb3_w>(3, {2, 1, 3}, seed, 2, 0.0, p_out, true, 0);
      CHECK(w.grants == std::vector<uint64_t>{200, 100, 300});
      CHECK(w.max_wait == 5);  // grants 0 0 1 2 2 2 0 0 1 ...: input 1 waits for 2 + 3
      const ArbStats r3 = arb_run<Vprim_arb3>(3, {1, 1, 1}, seed, 1, 0.0, p_out, true, 0);
      CHECK(r3.grants == std::vector<uint64_t>{200, 200, 200});
      CHECK(r3.max_wait == 2);
      const ArbStats r4 = arb_run<Vprim_arb4>(4, {1, 1, 1, 1}, seed, 0, 0.0, p_out, true, 0);
      CHECK(r4.grants == std::vector<uint64_t>{150, 150, 150, 150});
      CHECK(r4.max_wait == 3);
    }
  }
}

TEST_CASE("prim dla_pipe_ctrl moves beats in order and collapses bubbles, 1 and 4 stages", "[rtl][prim]") {
  for (const uint64_t seed : kSeeds) {
    for (const int rr : kRandResets) {
      for (const auto& [p_in, p_out] : {std::pair{0.3, 0.3}, std::pair{0.05, 0.6}, std::pair{0.6, 0.05},
                                        std::pair{0.0, 0.0}}) {
        pipe_run<Vprim_pipe4>(4, seed, rr, p_in, p_out);
        pipe_run<Vprim_pipe1>(1, seed, rr, p_in, p_out);
      }
    }
  }
}

TEST_CASE("prim dla_csb_merge ANDs ready and ORs response valid and data", "[rtl][prim]") {
  VerilatedContext ctx;
  Vprim_csb3 m(&ctx, "top");
  Rng rng(42);
  for (int i = 0; i < 2000; ++i) {
    const auto ready = static_cast<unsigned>(rng.range(0, 7));
    const auto valid = static_cast<unsigned>(rng.range(0, 7));
    std::array<uint32_t, 3> data{};
    for (auto& d : data) d = static_cast<uint32_t>(rng.next()) & (rng.chance(0.5) ? 0xffffffffu : 0u);
    m.req_ready_i = static_cast<uint8_t>(ready);
    m.rsp_valid_i = static_cast<uint8_t>(valid);
    for (unsigned b = 0; b < 3; ++b) put_bits(m.rsp_rdata_i, 32 * b, 32, data[b]);
    m.eval();
    CHECK(m.req_ready_o == (ready == 7u));
    CHECK(m.rsp_valid_o == (valid != 0u));
    CHECK(m.rsp_rdata_o == (data[0] | data[1] | data[2]));
  }
  m.final();
}
