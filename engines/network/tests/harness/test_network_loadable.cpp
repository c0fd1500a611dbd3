// `dlacosim compile NET.json --loadable` (engines/network/harness/network_loadable.cpp,
// docs/LOADABLES.md "Export"): bundled networks exported as NVDLA loadables, read back with the
// FlatBuffers verifier and the runtime's rules, planned by the firmware model (descriptors ->
// registers) and run on the golden model: every tensor equals what the JSON path computed. The
// descriptor encoders against NVIDIA's own loadables (decode, encode: the bytes NVIDIA wrote), the
// dependency graph by hand, and the refusals.
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/nvdla_sw.hpp"
#include "common/test_paths.hpp"
#include "engines/network/harness/network.hpp"
#include "golden/config.hpp"
#include "golden/layout.hpp"
#include "harness/cmod_device.hpp"
#include "harness/dla_descriptors.hpp"
#include "harness/engine.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/loadable.hpp"
#include "harness/loadable_runner.hpp"
#include "harness/program_runner.hpp"
#include "harness/random_layers.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;
namespace golden = dla::golden;

namespace {

fs::path network_file(const std::string& name) {
  return fs::path(DLA_SOURCE_DIR) / "testvectors/networks" / (name + ".json");
}

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("dlacosim-export-" + std::to_string(::getpid()) + "-" + name);
}

struct RoundTrip {
  engines::CompiledNetwork cn;
  loadable::Loadable back;
  loadable::Plan plan;
  RunResult result;
  std::map<std::string, std::vector<int64_t>> tensors;  // what the loadable run left in memory
};

// Exports a network, reads the file back, binds each input to the network's own input values
// (raw bytes at the tensor's layout) and runs the loadable's program on the golden model.
// `mutate`, when given, changes the exported loadable before it is written.
RoundTrip round_trip(const fs::path& file, const std::function<void(loadable::Loadable&)>& mutate = {}) {
  RoundTrip rt;
  const std::string name = file.stem().string();
  const LoadedLayer l = load_layer(file);
  rt.cn = engines::compile_network(l.header, l.root());
  loadable::Loadable exported = engines::export_loadable(rt.cn, l.header);
  if (mutate) mutate(exported);
  const std::vector<uint8_t> bytes = loadable::serialize_loadable(exported);
  rt.back = loadable::parse_loadable(bytes, name + ".nvdla");
  std::vector<loadable::InputBinding> inputs;
  std::vector<fs::path> files;
  for (const auto& [tensor, raw] : engines::loadable_inputs(rt.cn)) {
    files.push_back(temp_path(name + "-" + tensor + ".raw"));
    std::ofstream(files.back(), std::ios::binary).write(reinterpret_cast<const char*>(raw.data()),
                                                        static_cast<std::streamsize>(raw.size()));
    inputs.push_back({tensor, files.back()});
  }
  rt.plan = loadable::plan_loadable(rt.back, *l.header.config, inputs);
  for (const auto& f : files) fs::remove(f);
  const Program prog = loadable::plan_program(rt.back, rt.plan);
  GoldenDevice dev(*l.header.config);
  rt.result = run_program(prog, &dev, nullptr, ProgramRunOptions{});
  // Each produced tensor where the export put it: a bound memory, else the window (memory 0).
  for (const auto& t : rt.cn.tensors) {
    if (t.producer < 0 || t.elided || t.parent >= 0) continue;
    uint64_t base = rt.plan.memory_base[0] + (t.layout.base - rt.cn.memory_base);
    for (const auto& m : rt.back.memories) {
      if ((m.flags & loadable::kMemOutput) != 0 && rt.back.tensors[m.tensor_desc_id].name == t.name) {
        base = rt.plan.memory_base[m.id];
      }
    }
    golden::FeatureLayout at = t.layout;
    at.base = base;
    const auto cube = golden::load_cube(at, {t.n, t.c, t.h, t.w}, [&](uint64_t a) { return dev.memory().read(a); });
    rt.tensors[t.name] = {cube.data().begin(), cube.data().end()};
  }
  return rt;
}

// Compares each tensor the loadable run left in memory with the JSON path's; returns how many.
int compare_tensors(const RoundTrip& rt) {
  int compared = 0;
  for (const auto& t : rt.cn.tensors) {
    if (!rt.tensors.contains(t.name)) continue;
    INFO("tensor " << t.name);
    CHECK(rt.tensors.at(t.name) == t.values);
    ++compared;
  }
  return compared;
}

}  // namespace

TEST_CASE("loadable export: bundled networks run back through the firmware's path with the JSON path's tensors",
          "[network][loadable]") {
  for (const std::string name : {"resnet_block", "inception", "mlp_batch", "alexnet_lrn", "lrn_pair", "lenet5", "resnet18_stem",
                                 "lenet5_fused", "yolo_tiny", "dense_block", "decoder"}) {
    INFO(name);
    const RoundTrip rt = round_trip(network_file(name));
    CHECK(rt.result.status == Status::Pass);
    INFO(rt.result.message);
    CHECK(compare_tensors(rt) >= 2);
    // One op per pdp / sdp / cdp / bdma layer, two per convolution (its SDP fused) and three with
    // pooling on the fly (a fused pdp layer, or the conv's own "pool"), two per sub-convolution of a
    // deconvolution and its RUBIK op: as many as the firmware ran.
    std::size_t want = 0;
    int pooled = 0;
    const LoadedLayer file = load_layer(network_file(name));
    const auto& raw = file.root().raw()["layers"];
    for (const int li : rt.cn.order) {
      const auto& L = rt.cn.layers[static_cast<std::size_t>(li)];
      const bool pool = L.op == "conv" && (L.pool_from >= 0 || raw.at(static_cast<std::size_t>(li)).contains("pool"));
      pooled += pool ? 1 : 0;
      int sub_convs = 0;  // a deconvolution's: each its conv and SDP op, then one RUBIK op
      for (const auto& st : L.steps) {
        sub_convs += st.op == StepOp::RegWrite && st.reg != nullptr && st.reg->block == "CDMA" &&
                     st.reg->name == "D_OP_ENABLE" && (st.value & 1u) != 0;
      }
      want += L.op == "conv" ? (pool ? 3 : 2) : L.op == "deconv" ? 2 * static_cast<std::size_t>(sub_convs) + 1 : 1;
      if (L.op == "deconv") CHECK(sub_convs == 4);  // decoder's stride 2 x 2
    }
    CHECK(rt.plan.ops.size() == want);
    if (name == "lenet5_fused") CHECK(pooled == 2);
    if (name == "yolo_tiny") {  // conv1, conv2 and conv3 each carry their SDP EW LUT in the LUT list
      const auto* luts = rt.back.blob("task-0-lut_list");
      REQUIRE(luts != nullptr);
      CHECK(luts->data.size() == 3 * fw::kLutParamBytes);
    }
  }
}

TEST_CASE("loadable export: a conv pooled on the fly beside convs reusing its input runs back (group 1 enabled first)",
          "[network][loadable]") {
  // The firmware enables conv b0's fused chain (conv -> SDP -> PDP) downstream first, so b1's SDP
  // and CDMA (group 1) are enabled before b0's (group 0): the program must wait for group 0 first,
  // as the hardware runs it (before session 37 it waited for group 1, and never ended).
  const RoundTrip rt = round_trip(fs::path(DLA_SOURCE_DIR) / "tests/data/networks/fused_pool_reuse.json");
  REQUIRE(rt.result.status == Status::Pass);
  CHECK(compare_tensors(rt) == 3);  // pool_out, b1_out, b2_out (b0_out never reaches memory)
  CHECK(rt.plan.ops.size() == 7);  // conv, SDP, PDP for b0; conv, SDP for b1 and b2
}

TEST_CASE("loadable export: an fp16 network runs back with the firmware's fp17 reciprocals in its average pool",
          "[network][loadable]") {
  // fp16 convolutions with a bias from memory, BN PReLU, a max pool on the fly, an average pool
  // with a pad value, an EW sum and an int16 classifier. The firmware programs 1/k from its fp16
  // table (pdp.c recip_kernel_size): before session 37 the firmware model wrote the integer one.
  const RoundTrip rt = round_trip(fs::path(DLA_SOURCE_DIR) / "tests/data/networks/fp16_export.json");
  REQUIRE(rt.result.status == Status::Pass);
  CHECK(compare_tensors(rt) == 5);  // p1, c2, p2, sum, logits
  CHECK(rt.plan.ops.size() == 9);   // conv + SDP + PDP, conv + SDP, PDP, SDP, conv + SDP
}

TEST_CASE("loadable export: a network's RUBIK contract runs back", "[network][loadable]") {
  const RoundTrip rt = round_trip(fs::path(DLA_SOURCE_DIR) / "tests/data/networks/contract.json");
  REQUIRE(rt.result.status == Status::Pass);
  CHECK(compare_tensors(rt) == 2);  // the convolution's output and the contracted one
  CHECK(rt.plan.ops.size() == 3);   // conv + SDP, RUBIK
}

TEST_CASE("C model rules read the register group each enable runs as the firmware programs them", "[network][loadable]") {
  // The firmware model programs alexnet_lrn's conv2 (group 1) before conv1 (group 0) is enabled:
  // at conv1's enable the registers last written are conv2's. The weight-ring rule must see each
  // group's own values (before session 37 it saw conv2's at conv1's enable, missed the rule, and
  // the C model hung for its quiet limit).
  const RoundTrip rt = round_trip(network_file("alexnet_lrn"));
  REQUIRE(rt.result.status == Status::Pass);
  const Program prog = loadable::plan_program(rt.back, rt.plan);
  CHECK_THAT(cmod_cannot_judge(prog, golden::nv_small()),
             Catch::Contains("other CBUF banks") && Catch::Contains("fills 160 entries while its weights take 150"));
  // The JSON path's program of the same network (one group at a time) gives the same verdict.
  CHECK_THAT(cmod_cannot_judge(rt.cn.program, golden::nv_small()), Catch::Contains("fills 160 entries while its weights take 150"));
}

TEST_CASE("loadable export: a changed weight in the loadable changes the run (the round trip can fail)",
          "[network][loadable]") {
  // The first constant blob is conv1's weights: one byte changed, conv1's output differs.
  const RoundTrip rt = round_trip(network_file("alexnet_lrn"), [](loadable::Loadable& l) {
    for (auto& b : l.blobs) {
      if (b.name == "tb-0") b.data.at(0) ^= 0x11;
    }
  });
  REQUIRE(rt.result.status == Status::Pass);
  int differ = 0;
  for (const auto& t : rt.cn.tensors) {
    if (rt.tensors.contains(t.name) && rt.tensors.at(t.name) != t.values) ++differ;
  }
  CHECK(differ >= 1);
}

TEST_CASE("loadable export: the dependency graph follows NVIDIA's compiler", "[network][loadable]") {
  // alexnet_lrn: conv1 (+ its SDP), lrn1, pool1, conv2 (+ SDP), lrn2, pool2 are ops 0..7:
  // conv 0, sdp 1, cdp 2, pdp 3, conv 4, sdp 5, cdp 6, pdp 7.
  const RoundTrip rt = round_trip(network_file("alexnet_lrn"));
  const auto& l = rt.back;
  const auto& task = l.tasks.at(0);
  const auto mem_of = [&](int index) { return l.addresses.at(task.address_list.at(static_cast<std::size_t>(index))).mem_id; };
  const auto image = [&](uint16_t mem) {
    std::vector<uint8_t> img(l.memories[mem].size, 0);
    for (std::size_t c = 0; c < l.memories[mem].contents.size(); ++c) {
      const auto* b = l.blob(l.memories[mem].contents[c]);
      std::copy(b->data.begin(), b->data.end(), img.begin() + static_cast<std::ptrdiff_t>(l.memories[mem].offsets[c]));
    }
    return img;
  };
  const auto nd = fw::decode_network(fw::Bytes(image(mem_of(0)), "x", "network"));
  CHECK(nd.op_head[1] == 0);  // conv
  CHECK(nd.op_head[2] == 1);  // sdp
  CHECK(nd.op_head[4] == 2);  // cdp
  CHECK(nd.op_head[3] == 3);  // pdp
  CHECK(nd.op_head[0] == -1);
  CHECK(nd.num_rois == 1);
  CHECK(nd.num_operations == 8);
  CHECK(nd.num_luts == 2);  // each CDP op its own table
  const auto deps = image(mem_of(nd.dependency_graph_index));
  const auto op = [&](int i) {
    return fw::decode_common(fw::Bytes(std::span(deps).subspan(static_cast<std::size_t>(i) * fw::kCommonOpDescBytes,
                                                                fw::kCommonOpDescBytes),
                                       "x", "op"));
  };
  const auto consumer = [&](int i, int type, int index, uint8_t event) {
    INFO("op " << i << " consumer of type " << type);
    CHECK(op(i).consumers[static_cast<std::size_t>(type)].index == index);
    if (index >= 0) CHECK(op(i).consumers[static_cast<std::size_t>(type)].event == event);
  };
  constexpr int kConv = 1, kSdp = 2, kPdp = 3, kCdp = 4;
  // conv 0: its SDP and the next conv wait for it to be programmed; it waits for its SDP enabled.
  consumer(0, kSdp, 1, fw::kEventProgrammed);
  consumer(0, kConv, 4, fw::kEventProgrammed);
  CHECK(op(0).dependency_count == 1);
  // SDP 1: fused into conv 0; lrn1 reads its output; the next SDP waits for it programmed.
  CHECK(op(1).fused_parent.index == 0);
  CHECK(op(1).fused_parent.event == fw::kEventEnabled);
  consumer(1, kCdp, 2, fw::kEventCompleted);
  consumer(1, kSdp, 5, fw::kEventProgrammed);
  consumer(1, kConv, -1, 0);
  CHECK(op(1).dependency_count == 1);
  consumer(2, kPdp, 3, fw::kEventCompleted);
  consumer(2, kCdp, 6, fw::kEventProgrammed);
  CHECK(op(2).dependency_count == 1);
  consumer(3, kConv, 4, fw::kEventCompleted);
  consumer(3, kPdp, 7, fw::kEventProgrammed);
  CHECK(op(3).dependency_count == 1);
  CHECK(op(4).dependency_count == 3);  // conv 0 programmed, pool1 completed, its SDP enabled
  CHECK(op(5).dependency_count == 2);  // SDP 1 programmed, conv 4 programmed
  CHECK(op(6).dependency_count == 2);  // lrn1 programmed, SDP 5 completed
  CHECK(op(7).dependency_count == 2);  // pool1 programmed, lrn2 completed
  for (int i = 0; i < 8; ++i) CHECK(op(i).index == i);
}

TEST_CASE("loadable export: what a loadable cannot express is refused with the layer and the rule",
          "[network][loadable]") {
  const auto refusal = [](const std::string& name) {
    const LoadedLayer l = load_layer(network_file(name));
    const engines::CompiledNetwork cn = engines::compile_network(l.header, l.root());
    try {
      (void)engines::export_loadable(cn, l.header);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("exported");
  };
  CHECK_THAT(refusal("fp16/lenet_lrn_fp16"), Catch::Contains("an fp16 CDP: NVIDIA's firmware refuses an fp16 LUT"));
  // A pooling stride NVDLA takes (its fields reach 16) but NVIDIA's firmware refuses (beyond 8).
  const std::filesystem::path file = std::filesystem::temp_directory_path() / fmt::format("stride12-{}.json", ::getpid());
  std::ofstream(file) << R"({"unit": "network", "name": "stride12", "config": "nv_small",
    "tensors": [{"name": "x", "w": 25, "h": 2, "c": 8, "precision": "int8", "data": {"random": {}}},
                {"name": "y", "w": 3, "h": 2, "c": 8, "precision": "int8"}],
    "layers": [{"name": "pool", "op": "pdp", "input": "x", "output": "y",
                "pool": {"method": "max", "kernel": {"w": 1, "h": 1}, "stride": {"w": 12, "h": 1}}}]})";
  const LoadedLayer l = load_layer(file);
  std::filesystem::remove(file);
  const engines::CompiledNetwork cn = engines::compile_network(l.header, l.root());
  CHECK_THROWS_WITH(engines::export_loadable(cn, l.header),
                    Catch::Contains("layer \"pool\"") && Catch::Contains("pooling strides 12 x 1: NVIDIA's firmware takes 1..8"));
}

TEST_CASE("loadable descriptors: decoding and encoding NVIDIA's op and surface containers give back its bytes",
          "[loadable]") {
  if (!dla::test::kmd_present()) return;
  std::vector<std::string> tests = dla::test::kmd_int_tests();
  tests.push_back("NN_L0_0");
  int containers = 0;
  for (const std::string& test : tests) {
    INFO(test);
    const loadable::Loadable l = loadable::read_loadable(dla::test::kmd_loadable(test));
    for (const auto& task : l.tasks) {
      if (task.interface != loadable::Interface::Dla1) continue;
      const auto slice = [&](int index, std::size_t off, std::size_t n) {
        const auto& a = l.addresses.at(task.address_list.at(static_cast<std::size_t>(index)));
        const auto& m = l.memories.at(a.mem_id);
        std::vector<uint8_t> img(m.size, 0);
        for (std::size_t c = 0; c < m.contents.size(); ++c) {
          const auto* b = l.blob(m.contents[c]);
          std::copy(b->data.begin(), b->data.end(), img.begin() + static_cast<std::ptrdiff_t>(m.offsets[c]));
        }
        return std::vector<uint8_t>(img.begin() + static_cast<std::ptrdiff_t>(a.offset + off),
                                    img.begin() + static_cast<std::ptrdiff_t>(a.offset + off + n));
      };
      const auto nd_bytes = slice(0, 0, fw::kNetworkDescBytes);
      const auto nd = fw::decode_network(fw::Bytes(nd_bytes, test, "network"));
      CHECK(fw::encode_network(nd) == nd_bytes);
      // The blob's version decides the cube layout.
      const auto& nd_mem = l.memories.at(l.addresses.at(task.address_list.at(0)).mem_id);
      const fw::Layout layout{l.blob(nd_mem.contents.at(0))->version};
      for (int i = 0; i < nd.num_operations; ++i) {
        const auto dep = slice(nd.dependency_graph_index, static_cast<std::size_t>(i) * fw::kCommonOpDescBytes, fw::kCommonOpDescBytes);
        const auto common = fw::decode_common(fw::Bytes(dep, test, "dep"));
        CHECK(fw::encode_common(common) == dep);
        const auto op = slice(nd.operation_desc_index, static_cast<std::size_t>(i) * fw::kOpContainerBytes, fw::kOpContainerBytes);
        const auto surf = slice(nd.surface_desc_index, static_cast<std::size_t>(i) * fw::kSurfaceContainerBytes,
                                fw::kSurfaceContainerBytes);
        const fw::Bytes ob(op, test, "op"), sb(surf, test, "surface");
        switch (static_cast<fw::OpType>(common.op_type)) {
          case fw::OpType::Conv:
            CHECK(fw::encode_conv_op(fw::decode_conv_op(ob)) == op);
            CHECK(fw::encode_conv_surface(fw::decode_conv_surface(sb, layout), layout) == surf);
            break;
          case fw::OpType::Sdp:
            CHECK(fw::encode_sdp_op(fw::decode_sdp_op(ob)) == op);
            CHECK(fw::encode_sdp_surface(fw::decode_sdp_surface(sb, layout), layout) == surf);
            break;
          case fw::OpType::Pdp:
            CHECK(fw::encode_pdp_op(fw::decode_pdp_op(ob)) == op);
            CHECK(fw::encode_in_out_surface(fw::decode_in_out_surface(sb, layout), layout) == surf);
            break;
          case fw::OpType::Cdp:
            CHECK(fw::encode_cdp_op(fw::decode_cdp_op(ob)) == op);
            CHECK(fw::encode_in_out_surface(fw::decode_in_out_surface(sb, layout), layout) == surf);
            break;
          case fw::OpType::Rubik:
            CHECK(fw::encode_rubik_op(fw::decode_rubik_op(ob)) == op);
            CHECK(fw::encode_in_out_surface(fw::decode_in_out_surface(sb, layout), layout) == surf);
            break;
          case fw::OpType::Bdma:
            CHECK(fw::encode_bdma_op(fw::decode_bdma_op(ob)) == op);
            CHECK(fw::encode_bdma_surface(fw::decode_bdma_surface(sb)) == surf);
            break;
          default:
            continue;
        }
        ++containers;
      }
      if (nd.lut_data_index >= 0) {
        for (int k = 0; k < nd.num_luts; ++k) {
          const auto lut = slice(nd.lut_data_index, static_cast<std::size_t>(k) * fw::kLutParamBytes, fw::kLutParamBytes);
          CHECK(fw::encode_lut(fw::decode_lut(fw::Bytes(lut, test, "lut"))) == lut);
        }
      }
    }
  }
  CHECK(containers >= 20);
}

TEST_CASE("random loadable: generated networks exported and run back agree with the int64 reference at the loadable's addresses",
          "[network][loadable][random]") {
  // `dlacosim random loadable` layers (seed 1, PDP and CDP ops among them) through the engine's own
  // compile and reference on the golden model; a byte flipped in each bound output memory (where
  // the loadable, not the network file, puts the tensor) is caught.
  const engines::Engine* e = engines::find_engine("loadable");
  REQUIRE(e != nullptr);
  REQUIRE(e->random);
  int outputs = 0, pdp_ops = 0, cdp_ops = 0;
  for (const std::string cfg : {"nv_small", "nv_large", "nv_full"}) {
    const golden::HwConfig& hw = *golden::find_config(cfg);
    for (uint64_t i = 0; i < 5; ++i) {
      const RandomLayer g = generate_random_layer("loadable", hw, 1, i);
      INFO(g.name << ": " << g.features);
      CHECK(g.doc["unit"] == "network");
      const auto jd = parse_json_text(g.name + ".json", g.doc.dump());
      const JsonNode root = JsonNode::root(jd);
      const LayerHeader h = layer_header(g, jd->file);
      const engines::RandomCompiled c = e->random->compile(h, root);
      GoldenDevice gold(hw);
      REQUIRE(run_program(c.program, &gold, nullptr, {}).status == Status::Pass);
      CHECK(e->random->memory_reference(root, g, gold.memory()) == "");
      REQUIRE(c.memory_reference);  // the campaign's reference, bound to this compile
      CHECK(c.memory_reference(gold.memory()) == "");
      for (const auto& l : g.doc["layers"]) {
        pdp_ops += l["op"] == "pdp" ? 1 : 0;
        cdp_ops += l["op"] == "cdp" ? 1 : 0;
      }
      // The bound outputs, planned as the campaign plans them.
      const engines::CompiledNetwork cn = engines::compile_network(h, root);
      const loadable::Loadable back =
          loadable::parse_loadable(loadable::serialize_loadable(engines::export_loadable(cn, h)), g.name + ".nvdla");
      std::vector<loadable::InputBinding> inputs;
      for (auto& [tensor, raw] : engines::loadable_inputs(cn)) inputs.push_back({tensor, tensor, std::move(raw)});
      const loadable::Plan plan = loadable::plan_loadable(back, hw, inputs);
      for (const auto& m : back.memories) {
        if ((m.flags & loadable::kMemOutput) == 0) continue;
        GoldenDevice flipped(hw);
        REQUIRE(run_program(c.program, &flipped, nullptr, {}).status == Status::Pass);
        const uint64_t at = plan.memory_base[m.id];
        flipped.memory().write(at, static_cast<uint8_t>(flipped.memory().read(at) ^ 0x08));
        CHECK_THAT(e->random->memory_reference(root, g, flipped.memory()), Catch::Contains(": 1 of"));
        CHECK_THAT(c.memory_reference(flipped.memory()), Catch::Contains(": 1 of"));
        ++outputs;
      }
    }
  }
  CHECK(outputs >= 15);
  CHECK(pdp_ops >= 1);  // pooling and LRN layers as PDP and CDP ops of the loadable
  CHECK(cdp_ops >= 1);
}
