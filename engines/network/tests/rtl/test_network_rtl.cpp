// `network` layers on the RTL (docs/NETWORKS.md): every bundled network in cross mode under the
// stress matrix (tests/rtl/cross_stress.hpp), every layer's output compared golden against RTL as
// its interrupts arrive; LeNet-5 in the sequential schedule too; the cycles ping-pong programming saves, measured; and a
// corrupted RTL output reported at its layer with the element's coordinates. The golden model
// against the int64 reference: tests/harness/test_network.cpp.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cross_stress.hpp"
#include "harness/layer.hpp"
#include "harness/program_runner.hpp"
#include "harness/rtl_factory.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/network/harness/network.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

const fs::path kLenet = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/lenet5.json";

// LeNet with "schedule" set, in a file of this process.
fs::path lenet_with_schedule(const std::string& schedule) {
  std::ifstream in(kLenet);
  nlohmann::json j = nlohmann::json::parse(in);
  j["schedule"] = schedule;
  const fs::path f = fs::temp_directory_path() / (std::to_string(::getpid()) + "-dla_lenet_" + schedule + ".json");
  std::ofstream(f) << j.dump();
  return f;
}

void check_every_layer_compared(const RunResult& r) {  // LeNet-5: 7 layers
  int layers = 0;
  for (const auto& c : r.compares) {
    if (c.region.rfind("golden memory", 0) != 0) continue;
    ++layers;
    CHECK(c.elements > 0);
    CHECK(c.mismatches == 0);
  }
  CHECK(layers == 7);
}

// The RTL device of a run, with one byte of its memory flipped after interrupt `after` was raised.
class Corrupting : public Device {
 public:
  Corrupting(std::unique_ptr<Device> d, std::string after, uint64_t addr)
      : d_(std::move(d)), after_(std::move(after)), addr_(addr) {}
  [[nodiscard]] std::string_view kind() const override { return d_->kind(); }
  [[nodiscard]] const std::string& config() const override { return d_->config(); }
  void reg_write(uint32_t a, uint32_t v) override { d_->reg_write(a, v); }
  [[nodiscard]] uint32_t reg_read(uint32_t a) override { return d_->reg_read(a); }
  [[nodiscard]] bool interrupt_pending(std::string_view i) override { return d_->interrupt_pending(i); }
  [[nodiscard]] WaitResult wait_interrupt(std::string_view i, uint64_t t) override {
    const WaitResult w = d_->wait_interrupt(i, t);
    if (i == after_ && !done_) {
      d_->memory().write(addr_, static_cast<uint8_t>(d_->memory().read(addr_) ^ 0x10));
      done_ = true;
    }
    return w;
  }
  [[nodiscard]] WaitResult wait_any_interrupt(uint64_t t) override { return d_->wait_any_interrupt(t); }
  [[nodiscard]] Memory& memory() override { return d_->memory(); }
  [[nodiscard]] uint64_t cycles() const override { return d_->cycles(); }

 private:
  std::unique_ptr<Device> d_;
  std::string after_;
  uint64_t addr_;
  bool done_ = false;
};

// The stress legs a bundled network runs under in CI: the whole matrix, except for the nv_full
// networks added in session 14, whose legs cost 0.3 s (decoder) to 5 s (resnet18_stem) of CPU
// each: they run the slow-memory leg, which combines every stress (stall 0.3, rand-reset 2,
// 64..256-cycle latency at 4 B/cycle), and decoder also stall seed 11 with rand-reset 2. The
// "[.long]" test below runs them under all ten.
std::vector<RunOptions> legs_of(const fs::path& f, bool all) {
  const std::vector<RunOptions> legs = cross_stress::options();
  if (all) return legs;
  if (f.stem() == "resnet18_stem") return {legs.back()};
  if (f.stem() == "decoder") return {legs[2], legs.back()};
  if (f.stem() == "mlp_batch" || f.stem() == "dense_block") {
    return cross_stress::legs_for(3);  // the slow-memory leg, seed 11 rand-reset 0 and 1
  }
  return legs;
}

void run_bundled_networks(bool all_legs) {
  // lenet5 (nv_small: conv, pdp), lenet5_fused (conv -> SDP -> PDP on the fly), resnet_block (nv_full: conv, the residual add on SDP, ReLU on SDP),
  // lrn_pair (nv_small: two CDP layers on the CDP top), inception (four branches concatenated by
  // placement), yolo_tiny (leaky ReLU through the SDP LUT), resnet18_stem (nv_full: 7x7/2 W-fold
  // stem, max-pool, two basic blocks), decoder (nv_full: a stride-2 deconvolution, four
  // convolutions and RUBIK CONTRACT on nvdla_core and the RUBIK top over one memory), alexnet_lrn
  // (nv_small: convolutions and poolings on nvdla_core, LRN on nvdla_cdp_top, one memory), mlp_batch
  // (nv_full: three fully connected layers over 16 batches, every batch compared), dense_block
  // (nv_full: convolutions on nvdla_core, a BDMA copy on the BDMA top, one memory).
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors/networks")) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 11);
  for (const fs::path& f : files) {
    const LoadedLayer l = load_layer(f);
    const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
    for (const RunOptions& o : legs_of(f, all_legs)) {
      const RunResult r = run_layer(f, o);
      INFO(f.filename().string() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n" << format_run(r));
      REQUIRE(r.status == Status::Pass);
      // Every hardware layer compared at least once (a deconvolution checks each sub-convolution's
      // part too; a concat runs nothing), and nothing differs.
      std::set<std::string> compared;
      for (const auto& c : r.compares) {
        if (c.region.rfind("golden memory", 0) != 0) continue;
        CHECK(c.elements > 0);
        CHECK(c.mismatches == 0);
        const auto at = c.region.find(": layer ");
        REQUIRE(at != std::string::npos);
        const std::string layer = c.region.substr(at + 8, c.region.find(" (", at) - at - 8);
        compared.insert(layer);
        if (f.stem() == "mlp_batch") {  // each layer's check covers all 16 batches of its 1x1 tensor
          for (const engines::NetLayer& L : n.layers) {
            if (L.name != layer) continue;
            const engines::NetTensor& t = n.tensors[static_cast<std::size_t>(L.output)];
            CHECK(t.n == 16);
            CHECK(c.elements == 16 * t.layout.batch_stride);
          }
        }
      }
      std::set<std::string> hardware;
      for (const int li : n.order) hardware.insert(n.layers[static_cast<std::size_t>(li)].name);
      CHECK(compared == hardware);
    }
  }
}

}  // namespace

TEST_CASE("every bundled network: RTL equals golden after every layer under the stress matrix", "[network][rtl]") {
  run_bundled_networks(false);
}

TEST_CASE("every bundled network under every stress leg", "[network][rtl][.long]") { run_bundled_networks(true); }

TEST_CASE("network rubik op: a convolution then RUBIK CONTRACT on nvdla_core and the RUBIK top", "[network][rtl]") {
  const fs::path f = fs::path(DLA_SOURCE_DIR) / "tests/data/networks/contract.json";
  const std::vector<RunOptions> legs = cross_stress::options();
  for (const RunOptions& o : {legs[5], legs.back()}) {
    const RunResult r = run_layer(f, o);
    INFO(format_run(r));
    REQUIRE(r.status == Status::Pass);
    std::size_t compared = 0;
    for (const auto& c : r.compares) {
      if (c.region.rfind("golden memory", 0) != 0) continue;
      ++compared;
      CHECK(c.elements > 0);
      CHECK(c.mismatches == 0);
    }
    CHECK(compared == 2);  // expand, d2s
  }
}

TEST_CASE("network lenet5 with automatic fusion: conv -> SDP -> PDP on the fly passes on the RTL", "[network][rtl]") {
  std::ifstream in(kLenet);
  nlohmann::json j = nlohmann::json::parse(in);
  j["fusion"] = "auto";
  const fs::path f = fs::temp_directory_path() / (std::to_string(::getpid()) + "-dla_lenet_auto_fusion.json");
  std::ofstream(f) << j.dump();
  for (const RunOptions& o : cross_stress::legs_for(1)) {
    const RunResult r = run_layer(f, o);
    INFO("seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n" << format_run(r));
    REQUIRE(r.status == Status::Pass);
    int checks = 0;  // the five hardware layers' tensors: conv1 and conv2 write the pooled maps
    for (const auto& c : r.compares) checks += c.region.rfind("golden memory", 0) == 0 ? 1 : 0;
    CHECK(checks == 5);
  }
  fs::remove(f);
}

TEST_CASE("network lenet5 on nv_small: the sequential schedule passes too, and ping-pong saves cycles",
          "[network][rtl]") {
  const fs::path seq = lenet_with_schedule("sequential");
  const fs::path pp = lenet_with_schedule("pingpong");
  for (const RunOptions& o : cross_stress::legs_for(0)) {
    const RunResult r = run_layer(seq, o);
    INFO("seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n" << format_run(r));
    REQUIRE(r.status == Status::Pass);
    check_every_layer_compared(r);
  }
  // Without back-pressure and at a fixed memory latency the two schedules differ only in when the
  // registers are written: while the previous layer runs, or after it.
  RunOptions o;
  o.mode = "cross";
  o.stall = 0.0;
  o.mem.latency_min = o.mem.latency_max = 8;
  const RunResult a = run_layer(seq, o);
  const RunResult b = run_layer(pp, o);
  REQUIRE(a.status == Status::Pass);
  REQUIRE(b.status == Status::Pass);
  INFO("sequential " << a.cycles << " cycles, ping-pong " << b.cycles << " cycles");
  CHECK(b.cycles < a.cycles);
  fs::remove(seq);
  fs::remove(pp);
}

TEST_CASE("network lenet5: a corrupted RTL output is reported at its layer with the element's coordinates",
          "[network][rtl]") {
  const LoadedLayer l = load_layer(kLenet);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  // conv2's output c2 (8 x 8 x 16, two 8-channel surfaces): element (c 11, h 2, w 5) lies in
  // surface 1, lane 3.
  const engines::NetTensor& c2 = n.tensors.at(3);
  REQUIRE(c2.name == "c2");
  const uint64_t addr = c2.layout.base + c2.layout.surface_stride + 2 * c2.layout.line_stride + 5 * 8 + 3;
  RunOptions o;
  o.mode = "cross";
  std::string why;
  auto rtl = make_rtl_device(enabled_blocks(n.program), *l.header.config, o, why);
  REQUIRE(rtl != nullptr);
  Corrupting dut(std::move(rtl), "SDP_1", addr);  // conv2 is the conv pipeline's second layer: group 1
  GoldenDevice gold(*l.header.config);
  ProgramRunOptions po;
  po.mode = "cross";
  const RunResult r = run_program(n.program, &gold, &dut, po);
  INFO(format_run(r));
  CHECK(r.status == Status::Mismatch);
  CHECK(r.message.find("layer conv2 (conv)") != std::string::npos);
  bool found = false;
  for (const auto& c : r.compares) {
    if (c.mismatches == 0 || c.region.rfind("golden memory", 0) == 0) continue;
    // conv2's output cube (the layers it feeds may differ too, by the data)
    if (c.region.find(fmt::format("at {:#x}", c2.layout.base)) == std::string::npos) continue;
    // The element-level diagnosis of the failed check: exactly the flipped element.
    CHECK(c.mismatches == 1);
    REQUIRE_FALSE(c.first.empty());
    CHECK(c.first[0].coord.c == 11);
    CHECK(c.first[0].coord.h == 2);
    CHECK(c.first[0].coord.w == 5);
    CHECK((c.first[0].actual ^ c.first[0].expected) == 0x10);
    found = true;
  }
  CHECK(found);
  // Only conv2's check fails: the layers after it read the corrupted byte on the RTL only if it
  // feeds them (pool2 does), so the first mismatch is conv2's and the report names it first.
  CHECK(r.message.find("layer conv2 (conv)") < r.message.find("layer pool2"));
}
