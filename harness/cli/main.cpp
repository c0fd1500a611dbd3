// dlacosim: run layers on the RTL and the golden model and compare every output element.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <thread>

#include <unistd.h>

#include "harness/errors.hpp"
#include "harness/files.hpp"
#include "harness/html_report.hpp"
#include "harness/interrupt.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/loadable_runner.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"
#include "harness/cmod_device.hpp"
#include "harness/random_layers.hpp"
#include "harness/regress.hpp"
#include "harness/report.hpp"
#include "harness/version.hpp"
#include "harness/engine.hpp"
#include "harness/bench.hpp"
#include "harness/stopwatch.hpp"

namespace po = boost::program_options;
using namespace dla::harness;

namespace {

constexpr const char* kUsage = R"(dlacosim - RTL against golden co-simulation for NVDLA-class units

usage: dlacosim <command> [options]
       dlacosim --version

commands:
  run LAYER...     run layer files (JSON) on the RTL and the golden model, compare
  run TEST.cfg     replay an NVDLA trace test (.cfg, or NVDLA v1's input.txn) as a register
                   program (configuration from --config or from the trace; --mode)
  run FILE.nvdla   run an NVDLA loadable (NVIDIA's compiled network; also *_fbuf) as NVIDIA's
                   runtime and firmware do (--config, --mode, --judge, --input, --mean,
                   --normalize, --dimg; docs/LOADABLES.md)
  import TEST.cfg  print an NVDLA trace test (.cfg or .txn) or a loadable as a register-program
                   layer (JSON)
  compile NET.json print a network's register program as a program layer (JSON; docs/NETWORKS.md)
  regress SUITE... run suites (or layer files), print a summary table, write JUnit/JSON/HTML
  validate FILE..  check layer, program and suite files without running them
  bench UNIT       measure simulation speed (dlacosim help bench lists the units)
  random UNIT      random-layer campaign, RTL vs golden (dlacosim help random lists the units)
  merge RESULTS..  merge the --json results of regress shards into one result and report
  report RESULTS.. write a self-contained HTML report of --json results (--html OUT)
  help COMMAND     options of one command

exit codes: 0 pass, 1 mismatch, 2 bad input, 3 timeout or internal error

examples (from the repository root; each runs as written):
  dlacosim run testvectors/layers/cmac/small_int8_random.json
  dlacosim run testvectors/layers/cmac/full_int16_random.json --seed 7 --stall 0.3 --rand-reset 2
  dlacosim run testvectors/layers/sdp/small_relu.json --wave /tmp/dlacosim-w.fst --wave-from 10 --wave-to 50
  dlacosim regress testvectors/suites/smoke.json -j 2 --junit /tmp/dlacosim-results.xml
  dlacosim regress testvectors/suites/smoke.json --shard 0/2 --json /tmp/dlacosim-s0.json
  dlacosim regress testvectors/suites/smoke.json --shard 1/2 --json /tmp/dlacosim-s1.json
  dlacosim merge /tmp/dlacosim-s0.json /tmp/dlacosim-s1.json --json /tmp/dlacosim-all.json
  dlacosim report /tmp/dlacosim-all.json --html /tmp/dlacosim-all.html
  dlacosim random conv --count 5 --seed 7 --config nv_small
  dlacosim validate testvectors/layers/cmac/*.json
  dlacosim bench cmac --ops 20000
  dlacosim run ../shared/nvdla-traces/nv_small/sdp_1x1x1_pass_through_int8/sdp_1x1x1_pass_through_int8.cfg \
      --config nv_small --mode golden
  dlacosim import ../shared/nvdla-traces/nv_small/sdp_1x1x8_pass_through_int8_0/sdp_1x1x8_pass_through_int8_0.cfg \
      --config nv_small > /tmp/dlacosim-test.json
  dlacosim run ../shared/nvdla-sw/loadables/PDP_L0_0_small_fbuf --dimg /tmp/dlacosim-pdp.dimg
)";

// NVIDIA's C model as a judge (docs/CMOD.md).
void add_cmod_options(po::options_description& d) {
  d.add_options()
    ("judge", po::value<std::string>(), "cmod: NVIDIA's C model judges every run beside golden and the RTL (a build configured with -DDLA_NVDLA_HW)")
    ("cmod-timeout", po::value<uint64_t>()->default_value(900), "seconds of wall time the C model may take per interrupt wait")
    ("cmod-quiet", po::value<uint64_t>()->default_value(60), "seconds of wall time the C model may wait without moving memory before it is stopped as hung")
    ("cmod-log", po::value<std::string>(), "write the C model's own log (SystemC reports) to this file");
}

// The memory model of RTL devices' DMA ports (docs/CLI.md "Memory model options").
void add_mem_options(po::options_description& d) {
  d.add_options()
    ("mem-latency", po::value<std::string>(), "DMA read latency MIN:MAX cycles, uniform and seeded, 1 <= MIN <= MAX <= 4096 (default 4:32)")
    ("mem-bandwidth", po::value<std::string>(), "DMA bandwidth in bytes per cycle shared by reads and writes, 0.001..65536, fractions allowed (default unlimited)");
}

po::options_description run_options() {
  po::options_description d("run options");
  d.add_options()
    ("mode", po::value<std::string>()->default_value("cross"), "cross (RTL vs golden), golden, rtl or cmod (NVIDIA's C model alone)")
    ("seed", po::value<uint64_t>(), "run seed (overrides the layer's); every random choice derives from it")
    ("stall", po::value<double>(), "back-pressure probability on every valid/ready port, 0..0.95")
    ("config", po::value<std::string>(), ("override the layer's configuration (" + dla::golden::config_names_text() + ")").c_str())
    ("rand-reset", po::value<int>()->default_value(0), "initial register values: 0 zero, 1 ones, 2 random (+verilator+rand+reset+N)")
    ("wave", po::value<std::string>(), "write an FST waveform to this file (.fst; its folder must exist)")
    ("wave-from", po::value<uint64_t>()->default_value(0), "first cycle dumped")
    ("wave-to", po::value<uint64_t>(), "last cycle dumped")
    ("wave-depth", po::value<int>()->default_value(99), "hierarchy levels traced")
    ("watchdog", po::value<uint64_t>()->default_value(20000), "quiet cycles (no handshake on a port or inside the convolution pipeline) before the run is ended, plus the memory model's allowance (docs/CLI.md \"Watchdog\")")
    ("json", po::value<std::string>(), "write the result as JSON to this file")
    ("dump-dir", po::value<std::string>(), "on mismatch, write gzip dumps of actual and expected cubes here")
    ("max-listed", po::value<std::size_t>()->default_value(10), "mismatches listed per compared region")
    ("flip-bit", po::value<std::string>(), "self-test: flip bit B of output element E of the RTL (E:B)")
    ("stop-after", po::value<std::string>(), "network files: run the program up to this layer's check (docs/NETWORKS.md)")
    ("wave-layer", po::value<std::string>(), "network files: dump --wave for this layer's cycles only")
    ("input", po::value<std::vector<std::string>>()->composing(), "loadables: TENSOR=FILE, an input tensor from a PGM, DIMG or raw file (repeatable; none: zero, as NVIDIA's runtime without an image)")
    ("dimg", po::value<std::string>(), "loadables: write the output tensor as NVIDIA's runtime writes o_000000.dimg")
    ("mean", po::value<std::string>(), "loadables: a PGM image into a half tensor is (pixel - MEAN) / NORMALIZE (default 0)")
    ("normalize", po::value<std::string>(), "loadables: the divisor of --mean's rule (default 1; LeNet was trained on 255)");
  add_mem_options(d);
  add_cmod_options(d);
  return d;
}

po::options_description regress_options() {
  po::options_description d("regress options");
  d.add_options()
    ("jobs,j", po::value<unsigned>()->default_value(std::max(1u, std::thread::hardware_concurrency())), "parallel runs")
    ("junit", po::value<std::string>(), "write a JUnit XML report to this file")
    ("json", po::value<std::string>(), "write all results as JSON to this file")
    ("html", po::value<std::string>(), "write a self-contained HTML report to this file")
    ("shard", po::value<std::string>(), "run only shard I of N (0-based), written I/N")
    ("mode", po::value<std::string>()->default_value("cross"), "cross, golden, rtl or cmod")
    ("config", po::value<std::string>(), ("run every layer, network and trace on this configuration instead of its own (" + dla::golden::config_names_text() + ")").c_str())
    ("watchdog", po::value<uint64_t>()->default_value(20000), "quiet cycles before a run is ended, plus the memory model's allowance (docs/CLI.md \"Watchdog\")")
    ("dump-dir", po::value<std::string>(), "on mismatch, write gzip dumps here")
    ("no-progress", po::bool_switch(), "no progress on stderr (a status line on a terminal, else a line per run)");
  add_mem_options(d);
  add_cmod_options(d);
  return d;
}

po::options_description bench_options() {
  po::options_description d("bench options");
  d.add_options()
    ("ops", po::value<uint64_t>()->default_value(0), "atomic operations per measurement (0: default)")
    ("seed", po::value<uint64_t>()->default_value(1), "data seed")
    ("json", po::bool_switch(), "print one JSON array of the cases on stdout instead of the tables")
    ("html", po::value<std::string>(), "also write a self-contained HTML page of the cases to this file")
    ("config", po::value<std::vector<std::string>>()->composing(),
     "measure the unit's cases on this configuration (repeatable; \"all\" for every one; conv, sdp, pdp, cdp, cmac)");
  add_mem_options(d);
  return d;
}

struct Parsed {
  po::variables_map vm;
  std::vector<std::string> positional;
};

Parsed parse(const std::vector<std::string>& args, const po::options_description& opts) {
  po::options_description all;
  all.add(opts).add_options()("args", po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add("args", -1);
  Parsed p;
  po::store(po::command_line_parser(args).options(all).positional(pos).run(), p.vm);
  po::notify(p.vm);
  if (p.vm.count("args")) p.positional = p.vm["args"].as<std::vector<std::string>>();
  return p;
}

void check_mode(const std::string& mode) {
  if (mode != "cross" && mode != "golden" && mode != "rtl" && mode != "cmod") {
    throw InputError("--mode", "", "\"" + mode + "\" is not one of cross, golden, rtl, cmod");
  }
}

// --cmod-timeout / --cmod-quiet / --cmod-log: how the C model runs when it is asked for.
CmodOptions cmod_limits_from(const po::variables_map& vm) {
  for (const char* name : {"cmod-timeout", "cmod-quiet"}) {
    const uint64_t t = vm[name].as<uint64_t>();
    if (t == 0 || t > 86400) throw InputError(std::string("--") + name, std::to_string(t), "must be 1..86400 seconds");
  }
  CmodOptions c;
  c.wait_limit = std::chrono::seconds(vm["cmod-timeout"].as<uint64_t>());
  c.quiet_limit = std::chrono::seconds(vm["cmod-quiet"].as<uint64_t>());
  if (vm.count("cmod-log")) c.log_file = vm["cmod-log"].as<std::string>();
  return c;
}

// --judge cmod: whether NVIDIA's C model judges beside the other devices.
bool judge_cmod_from(const po::variables_map& vm) {
  if (!vm.count("judge")) return false;
  const std::string j = vm["judge"].as<std::string>();
  if (j != "cmod") throw InputError("--judge", j, "the only third judge is cmod (NVIDIA's C model)");
  return true;
}

MemOptions mem_options_from(const po::variables_map& vm) {
  MemOptions m;
  if (vm.count("mem-latency")) {
    const std::string s = vm["mem-latency"].as<std::string>();
    const auto colon = s.find(':');
    const auto lo = colon == std::string::npos ? std::nullopt : parse_u64_text(s.substr(0, colon));
    const auto hi = colon == std::string::npos ? std::nullopt : parse_u64_text(s.substr(colon + 1));
    if (!lo || !hi || *lo < 1 || *lo > *hi || *hi > static_cast<uint64_t>(MemOptions::kLatencyLimit)) {
      throw InputError("--mem-latency", s,
                       fmt::format("expected MIN:MAX cycles with 1 <= MIN <= MAX <= {}", MemOptions::kLatencyLimit));
    }
    m.latency_min = static_cast<int>(*lo);
    m.latency_max = static_cast<int>(*hi);
  }
  if (vm.count("mem-bandwidth")) {
    const std::string s = vm["mem-bandwidth"].as<std::string>();
    double b = 0;
    std::size_t used = 0;
    try {
      b = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != s.size() || !(b >= MemOptions::kBandwidthMin && b <= MemOptions::kBandwidthMax)) {
      throw InputError("--mem-bandwidth", s,
                       fmt::format("expected bytes per cycle, a number in [{:g}, {:g}]", MemOptions::kBandwidthMin,
                                   MemOptions::kBandwidthMax));
    }
    m.bandwidth = b;
  }
  return m;
}

void apply_cmod_options(const po::variables_map& vm, RunOptions& o) {
  o.judge_cmod = judge_cmod_from(vm);
  if (o.judge_cmod && o.mode == "cmod") throw InputError("--judge", "cmod", "--mode cmod runs on the C model already");
  o.cmod = cmod_limits_from(vm);
}

RunOptions run_options_from(const po::variables_map& vm) {
  RunOptions o;
  o.mode = vm["mode"].as<std::string>();
  check_mode(o.mode);
  if (vm.count("seed")) o.seed = vm["seed"].as<uint64_t>();
  if (vm.count("stall")) {
    o.stall = vm["stall"].as<double>();
    if (!(*o.stall >= 0.0 && *o.stall <= 0.95)) throw InputError("--stall", "", "must be in [0, 0.95]");
  }
  if (vm.count("config")) o.config = vm["config"].as<std::string>();
  if (vm.count("rand-reset")) {
    o.sim.rand_reset = vm["rand-reset"].as<int>();
    if (o.sim.rand_reset < 0 || o.sim.rand_reset > 2) throw InputError("--rand-reset", "", "must be 0, 1 or 2");
  }
  if (vm.count("wave")) o.sim.wave = vm["wave"].as<std::string>();
  if (vm.count("wave-from")) o.sim.wave_from = vm["wave-from"].as<uint64_t>();
  if (vm.count("wave-to")) o.sim.wave_to = vm["wave-to"].as<uint64_t>();
  if (o.sim.wave_to < o.sim.wave_from) throw InputError("--wave-to", "", "must not be before --wave-from");
  if (vm.count("wave-depth")) o.sim.wave_depth = vm["wave-depth"].as<int>();
  o.sim.watchdog = vm["watchdog"].as<uint64_t>();
  if (o.sim.watchdog == 0) throw InputError("--watchdog", "", "must be at least 1 cycle");
  if (vm.count("dump-dir")) o.dump_dir = vm["dump-dir"].as<std::string>();
  if (vm.count("max-listed")) o.max_listed = vm["max-listed"].as<std::size_t>();
  if (vm.count("flip-bit")) {
    const std::string s = vm["flip-bit"].as<std::string>();
    const auto colon = s.find(':');
    const auto e = colon == std::string::npos ? std::nullopt : parse_u64_text(s.substr(0, colon));
    const auto b = colon == std::string::npos ? std::nullopt : parse_u64_text(s.substr(colon + 1));
    if (!e || !b || *b > 62) throw InputError("--flip-bit", s, "expected ELEMENT:BIT with BIT in 0..62");
    o.flip = FlipBit{static_cast<std::size_t>(*e), static_cast<int>(*b)};
  }
  o.mem = mem_options_from(vm);
  if (vm.count("stop-after")) o.stop_after = vm["stop-after"].as<std::string>();
  if (vm.count("wave-layer")) o.wave_layer = vm["wave-layer"].as<std::string>();
  apply_cmod_options(vm, o);
  return o;
}

po::options_description import_options() {
  po::options_description d("import options");
  d.add_options()("config", po::value<std::string>(),
                  ("configuration whose register map the names resolve in (" + dla::golden::config_names_text() +
                   "); default: the trace's own (docs/TRACES.md \"Configuration\")")
                      .c_str());
  return d;
}

po::options_description validate_options() {
  po::options_description d("validate options");
  d.add_options()("config", po::value<std::string>(),
                  "traces: the configuration to check them against (default: the trace's own)");
  return d;
}

const dla::golden::HwConfig& cfg_config(const std::string& n) {
  const auto* c = dla::golden::find_config(n);
  if (c == nullptr) throw InputError("--config", "", "unknown configuration \"" + n + "\" (" + dla::golden::config_names_text() + ")");
  return *c;
}

// The command line as given, for the results files.
std::string g_command_line;

// What kind of input a file is (docs/CLI.md "Files"): a trace by its extension, else by its JSON.
enum class FileKind { Layer, Network, Suite, Trace, Loadable, Results, Bench };

const char* kind_name(FileKind k) {
  switch (k) {
    case FileKind::Layer: return "a layer";
    case FileKind::Network: return "a network";
    case FileKind::Suite: return "a suite";
    case FileKind::Trace: return "an NVDLA trace";
    case FileKind::Loadable: return "an NVDLA loadable";
    case FileKind::Results: return "a results file";
    case FileKind::Bench: return "bench results";
  }
  return "?";
}

// A trace folder as NVIDIA lays them out (NAME/NAME.cfg, or NVDLA v1's NAME/input.txn) stands for
// its trace; any other folder is refused naming what to give instead.
void resolve_folders(std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  for (auto& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) continue;
    const fs::path dir = fs::path(path).lexically_normal();
    const std::string name = (dir.has_filename() ? dir : dir.parent_path()).filename().string();
    bool found = false;
    for (const fs::path& candidate : {dir / (name + ".cfg"), dir / "input.txn"}) {
      if (fs::is_regular_file(candidate, ec)) {
        path = candidate.string();
        found = true;
        break;
      }
    }
    if (!found) {
      throw InputError(path, "",
                       fmt::format("is a folder, not a file, and not a trace folder (no {}.cfg or input.txn in it): "
                                   "give a layer, network or suite file, a trace's .cfg / input.txn, or a loadable",
                                   name));
    }
  }
}

// Throws InputError for a missing file or malformed JSON (naming file and place).
FileKind file_kind(const std::string& path) {
  if (is_trace_file(path)) return FileKind::Trace;
  if (loadable::is_loadable_path(path)) return FileKind::Loadable;
  const auto doc = parse_json_file(path);
  const JsonNode root = JsonNode::root(doc);
  if (root.is_array()) {
    if (root.size() > 0 && root[0].is_object() && root[0].get("case")) return FileKind::Bench;
    if (root.size() > 0 && root[0].is_object() && root[0].get("status")) return FileKind::Results;
    return FileKind::Layer;  // load_layer says what is wrong
  }
  if (root.is_object() && root.get("results") && !root.get("unit")) return FileKind::Results;
  if (root.is_object() && root.get("status") && root.get("layer_file")) return FileKind::Results;
  if (root.is_object() && root.get("layers") && !root.get("unit")) return FileKind::Suite;
  if (root.is_object() && root.get("unit") && root.get("unit")->is_string() &&
      root.require("unit").as_string() == "network") {
    return FileKind::Network;
  }
  return FileKind::Layer;
}

// --wave: checked before anything runs (exit 2): FST only, into a folder that exists.
void check_wave(const SimOptions& sim) {
  if (sim.wave.empty()) return;
  const std::filesystem::path w = sim.wave;
  if (w.extension() != ".fst") {
    throw InputError("--wave", w.string(),
                     w.extension() == ".vcd"
                         ? "dlacosim writes FST waveforms only: name the file .fst (fst2vcd converts it to VCD)"
                         : "expected a .fst file name (dlacosim writes FST waveforms)");
  }
  const std::filesystem::path dir = w.has_parent_path() ? w.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw InputError("--wave", w.string(), fmt::format("folder {} does not exist", dir.string()));
  }
  if (access(dir.c_str(), W_OK) != 0) throw InputError("--wave", w.string(), fmt::format("folder {} is not writable", dir.string()));
}

// Where the waves of a run went, or why there are none (the run's summary line).
std::string wave_summary(const SimOptions& sim, const RunResult& r) {
  if (sim.wave.empty()) return "";
  if (std::filesystem::exists(sim.wave)) {
    const uint64_t last = r.cycles == 0 ? 0 : r.cycles - 1;
    return fmt::format("  waves: {} (cycles {}..{})\n", std::filesystem::absolute(sim.wave).string(), sim.wave_from,
                       std::min(sim.wave_to, last));
  }
  if (r.mode == "golden" || r.mode == "cmod") return fmt::format("  waves: none: --mode {} simulates no RTL\n", r.mode);
  if (r.cycles != 0 && sim.wave_from >= r.cycles) {
    return fmt::format("  waves: none written: the window starts at cycle {}, after the run's last cycle {}\n",
                       sim.wave_from, r.cycles - 1);
  }
  if (r.status == Status::BadInput) return "  waves: none: the run did not start\n";
  return "  waves: none: no RTL model of this unit dumped waves\n";
}

int cmd_import(const std::vector<std::string>& args) {
  Parsed p = parse(args, import_options());
  if (p.positional.size() != 1) throw InputError("import", "", "expected exactly one .cfg, .txn or loadable file");
  resolve_folders(p.positional);
  const std::optional<std::string> given =
      p.vm.count("config") ? std::optional<std::string>(p.vm["config"].as<std::string>()) : std::nullopt;
  if (loadable::is_loadable_path(p.positional[0])) {
    // A loadable: the firmware's register programs of its DLA tasks, with the memories they load.
    const loadable::Loadable l = loadable::read_loadable(p.positional[0]);
    const auto& config = cfg_config(given.value_or(loadable::default_config_for(p.positional[0])));
    const loadable::Plan plan = loadable::plan_loadable(l, config, {});
    const Program program = loadable::plan_program(l, plan);
    std::cout << program_to_json(program, "imported from the loadable " + p.positional[0] + " by dlacosim import")
                     .dump(1)
              << "\n";
    return 0;
  }
  if (!is_trace_file(p.positional[0])) {
    throw InputError(p.positional[0], "", "import reads NVDLA traces (.cfg, .txn) and loadables (.nvdla, *_fbuf); this is neither");
  }
  const TraceConfig t = trace_config(p.positional[0], given);
  if (!t.warning.empty()) std::cerr << "dlacosim: warning: " << t.warning << "\n";
  const Program program = import_trace(p.positional[0], t.config);
  std::cout << program_to_json(program, fmt::format("imported from {} by dlacosim import (configuration {}: {})",
                                                    p.positional[0], t.config, t.how))
                   .dump(1)
            << "\n";
  return 0;
}

// `compile NET.json`: the network's one register program, replayable with `dlacosim run`; with
// --loadable OUT, the network as an NVDLA loadable instead.
int cmd_compile(const std::vector<std::string>& args) {
  po::options_description opts("compile options");
  opts.add_options()("config", po::value<std::string>(),
                     ("compile for this configuration instead of the network's own (" +
                      dla::golden::config_names_text() + ")")
                         .c_str())(
      "loadable", po::value<std::string>(),
      "write the network as an NVDLA loadable (FILE.nvdla) instead of printing its register program");
  const Parsed p = parse(args, opts);
  if (p.positional.size() != 1) throw InputError("compile", "", "expected exactly one network file");
  LoadedLayer l = load_layer(p.positional[0]);
  const engines::Engine* e = engines::find_engine(l.header.unit);
  if (e == nullptr || e->compile_program == nullptr) {
    std::vector<std::string> units;
    for (const engines::Engine& c : engines::engines()) {
      if (c.compile_program != nullptr) units.push_back(fmt::format("{} files (\"unit\": \"{}\")", c.name, c.name));
    }
    throw InputError(p.positional[0], "/unit", "compile takes " + engines::join_and(units));
  }
  if (p.vm.count("config")) {
    l.header.config = &cfg_config(p.vm["config"].as<std::string>());  // the compiler checks it there
  }
  if (p.vm.count("loadable")) {
    const std::string out = p.vm["loadable"].as<std::string>();
    if (e->compile_loadable == nullptr) {
      throw InputError(p.positional[0], "/unit", fmt::format("{} files are not exported as loadables", l.header.unit));
    }
    // The loadable, and beside it each input as the network file has it (OUT.TENSOR.raw).
    const loadable::Exported ex = e->compile_loadable(l.header, l.root());
    const std::vector<uint8_t> bytes = loadable::serialize_loadable(ex.loadable);
    const auto as_text = [](const std::vector<uint8_t>& b) {
      return std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
    };
    std::string inputs;
    for (const auto& [name, raw] : ex.inputs) {
      const std::string file = fmt::format("{}.{}.raw", out, name);
      write_file_atomic(file, as_text(raw));
      inputs += fmt::format(" --input {}={}", name, file);
    }
    write_file_atomic(out, as_text(bytes));
    std::cout << fmt::format("{}: an NVDLA loadable of {} bytes for {}; run it with: dlacosim run {} --config {}{}\n", out,
                             bytes.size(), l.header.config->name, out, l.header.config->name, inputs);
    return 0;
  }
  const Program program = e->compile_program(l.header, l.root());
  std::cout << program_to_json(program, "compiled from " + p.positional[0] + " by dlacosim compile").dump(1) << "\n";
  return 0;
}

constexpr int kInterruptedExit = 130;  // 128 + SIGINT, as shells report an interrupted command

// One trace replayed (run TEST.cfg): its configuration from --config or from the trace.
RunResult run_trace(const std::string& path, const RunOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r;
  r.layer_file = path;
  r.name = std::filesystem::path(path).stem().string();
  r.unit = "program";
  r.mode = o.mode;
  std::string how;
  try {
    const TraceConfig t = trace_config(path, o.config);
    if (!t.warning.empty()) std::cerr << "dlacosim: warning: " << t.warning << "\n";
    how = t.how;
    r.config = t.config;
    const Program program = import_trace(path, t.config);
    r = run_program_in_mode(program, cfg_config(t.config), o);
  } catch (const InputError& e) {
    r.status = Status::BadInput;
    r.message = e.what();
  } catch (const SimInterrupted& e) {
    r.abandoned = true;
    r.status = Status::Error;
    r.cycles = e.cycle;
    r.message = fmt::format("interrupted by {} at cycle {} of {}", stop_signal_name(), e.cycle, e.unit);
  }
  r.layer_file = path;
  if (!how.empty() && how != "--config") {
    r.message = fmt::format("configuration {}: {}", r.config, how) + (r.message.empty() ? "" : "\n  " + r.message);
  }
  r.seconds = seconds_since(t0);
  return r;
}

// Results files of a command (--json, --junit, --html), written whatever the runs' status.
void write_results(const po::variables_map& vm, const std::vector<RunResult>& results, const ResultsInfo& info,
                   const std::string& title) {
  if (vm.count("junit")) write_file_atomic(vm["junit"].as<std::string>(), junit_xml(info.suite, results, info));
  if (vm.count("json")) write_file_atomic(vm["json"].as<std::string>(), results_json(results, info).dump(2) + "\n");
  if (vm.count("html")) {
    HtmlReportOptions h{title, info.command, info};
    write_file_atomic(vm["html"].as<std::string>(), html_report(results, h));
  }
}

int cmd_run(const std::vector<std::string>& args) {
  const auto started = std::chrono::steady_clock::now();
  enable_graceful_stop();
  Parsed p = parse(args, run_options());
  if (p.positional.empty()) throw InputError("run", "", "expected a layer, network, trace or loadable file (or several)");
  resolve_folders(p.positional);
  RunOptions o = run_options_from(p.vm);
  check_wave(o.sim);
  const bool several = p.positional.size() > 1;
  if (several && (!o.sim.wave.empty() || !o.stop_after.empty() || !o.wave_layer.empty() || p.vm.count("dimg") != 0)) {
    throw InputError(!o.sim.wave.empty()        ? "--wave"
                     : !o.stop_after.empty()    ? "--stop-after"
                     : !o.wave_layer.empty()    ? "--wave-layer"
                                                : "--dimg",
                     "", "applies to one run: give one file");
  }
  // Every file checked before anything runs: a wrong kind names the command that takes it.
  std::vector<FileKind> kinds;
  for (const auto& f : p.positional) {
    FileKind k = FileKind::Layer;
    try {
      k = file_kind(f);
    } catch (const InputError&) {  // missing or malformed: the run reports it as BAD-INPUT
    }
    if (k == FileKind::Suite) {
      throw InputError(f, "", fmt::format("this is a suite (\"layers\", no \"unit\"): run it with `dlacosim regress {}`", f));
    }
    if (k == FileKind::Results || k == FileKind::Bench) {
      throw InputError(f, "", fmt::format("this is {} of dlacosim: `dlacosim report {} --html F` shows it", kind_name(k), f));
    }
    if ((k == FileKind::Trace || k == FileKind::Loadable) && (!o.stop_after.empty() || !o.wave_layer.empty())) {
      throw InputError(o.stop_after.empty() ? "--wave-layer" : "--stop-after", "", "applies to network files");
    }
    for (const char* opt : {"input", "dimg", "mean", "normalize"}) {
      if (k != FileKind::Loadable && p.vm.count(opt) != 0) {
        throw InputError(fmt::format("--{}", opt), "", "applies to loadables (FILE.nvdla, *_fbuf)");
      }
    }
    kinds.push_back(k);
  }
  loadable::LoadableRunOptions lo;
  if (p.vm.count("input") != 0) {
    for (const auto& s : p.vm["input"].as<std::vector<std::string>>()) {
      const auto eq = s.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == s.size()) {
        throw InputError("--input", s, "expected TENSOR=FILE (the loadable's input tensor name and a file)");
      }
      lo.inputs.push_back({s.substr(0, eq), s.substr(eq + 1)});
    }
  }
  if (p.vm.count("dimg") != 0) lo.dimg = p.vm["dimg"].as<std::string>();
  for (const char* name : {"mean", "normalize"}) {
    if (p.vm.count(name) == 0) continue;
    const std::string text = p.vm[name].as<std::string>();
    float v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) ||
        (std::string_view(name) == "normalize" && v == 0.0f)) {
      throw InputError(fmt::format("--{}", name), text, std::string_view(name) == "normalize" ? "expected a finite non-zero number" : "expected a finite number");
    }
    (std::string_view(name) == "mean" ? lo.scaling.mean : lo.scaling.normalize) = v;
  }
  if (!o.sim.wave.empty()) std::filesystem::remove(o.sim.wave);  // never mistake an old file for this run's
  // On a terminal a long run shows its cycles and simulation rate, on one line erased at the end.
  const bool terminal = isatty(fileno(stderr)) != 0;
  bool drawn = false;
  if (terminal) {
    o.sim.heartbeat = [&](const std::string& unit, uint64_t cycle) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      fmt::print(stderr, "\r\x1b[K{}: cycle {}, {:.0f} cycles/s", unit, cycle, static_cast<double>(cycle) / s);
      std::fflush(stderr);
      drawn = true;
    };
  }
  std::vector<RunResult> results;
  bool interrupted = false;
  for (std::size_t i = 0; i < p.positional.size() && !stop_requested(); ++i) {
    RunResult r = kinds[i] == FileKind::Trace      ? run_trace(p.positional[i], o)
                  : kinds[i] == FileKind::Loadable ? loadable::run_loadable(p.positional[i], o, lo)
                                                   : run_layer(p.positional[i], o);
    if (drawn) fmt::print(stderr, "\r\x1b[K");
    drawn = false;
    if (!o.sim.wave.empty() && std::filesystem::exists(o.sim.wave)) r.wave = std::filesystem::absolute(o.sim.wave).string();
    if (r.abandoned) {
      interrupted = true;
      std::cout << fmt::format("INTERRUPTED {}: {}\n", r.name, r.message) << wave_summary(o.sim, r);
      break;
    }
    std::cout << format_run(r) << wave_summary(o.sim, r);
    results.push_back(std::move(r));
  }
  interrupted = interrupted || stop_requested();
  ResultsInfo info;
  info.command = g_command_line;
  info.planned = p.positional.size();
  info.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (interrupted) info.interrupted = stop_signal_name();
  if (several) std::cout << format_table(results);
  if (interrupted) {
    std::cout << fmt::format("interrupted by {}: {} of {} runs finished\n", info.interrupted, results.size(),
                             p.positional.size());
  }
  if (p.vm.count("json")) write_file_atomic(p.vm["json"].as<std::string>(), results_json(results, info).dump(2) + "\n");
  if (interrupted) return kInterruptedExit;
  return exit_code(results);
}

// The suite the files of `regress FILE...` make: suites' entries in order, a layer or network
// file one entry each; traces and results files are refused naming the command that takes them.
Suite regress_suite(const std::vector<std::string>& files) {
  Suite all;
  for (const auto& f : files) {
    const FileKind k = file_kind(f);
    switch (k) {
      case FileKind::Suite: {
        Suite s = load_suite(f);
        all.name += (all.name.empty() ? "" : "+") + s.name;
        all.entries.insert(all.entries.end(), s.entries.begin(), s.entries.end());
        break;
      }
      case FileKind::Layer:
      case FileKind::Network:
        all.name += (all.name.empty() ? "" : "+") + std::filesystem::path(f).stem().string();
        all.entries.push_back({f, {}, {}, 0});
        break;
      case FileKind::Trace:
        throw InputError(f, "", fmt::format("regress runs layers, networks and suites; replay a trace with `dlacosim run {}`", f));
      case FileKind::Loadable:
        throw InputError(f, "", fmt::format("regress runs layers, networks and suites; run a loadable with `dlacosim run {}`", f));
      case FileKind::Results:
      case FileKind::Bench:
        throw InputError(f, "", fmt::format("this is {} of dlacosim: `dlacosim report {} --html F` shows it", kind_name(k), f));
    }
  }
  return all;
}

// Every layer of a suite loaded and checked (values, files, counts) without running: each
// problem as "FILE: WHERE: RULE". Empty: all valid.
std::vector<std::string> suite_problems(const Suite& suite) {
  std::vector<std::string> problems;
  std::vector<std::filesystem::path> seen;
  for (const auto& e : suite.entries) {
    if (std::find(seen.begin(), seen.end(), e.layer) != seen.end()) continue;
    seen.push_back(e.layer);
    try {
      (void)load_layer(e.layer);
    } catch (const InputError& err) {
      problems.emplace_back(err.what());
    }
  }
  return problems;
}

int cmd_regress(const std::vector<std::string>& args) {
  const auto started = std::chrono::steady_clock::now();
  enable_graceful_stop();
  Parsed p = parse(args, regress_options());
  if (p.positional.empty()) throw InputError("regress", "", "expected a suite file (or layer files, or several suites)");
  resolve_folders(p.positional);
  RunOptions o;
  o.mode = p.vm["mode"].as<std::string>();
  check_mode(o.mode);
  o.sim.watchdog = p.vm["watchdog"].as<uint64_t>();
  if (o.sim.watchdog == 0) throw InputError("--watchdog", "", "must be at least 1 cycle");
  if (p.vm.count("config")) o.config = cfg_config(p.vm["config"].as<std::string>()).name;
  if (p.vm.count("dump-dir")) o.dump_dir = p.vm["dump-dir"].as<std::string>();
  o.mem = mem_options_from(p.vm);
  apply_cmod_options(p.vm, o);
  Shard shard;
  if (p.vm.count("shard")) {
    const std::string s = p.vm["shard"].as<std::string>();
    const auto slash = s.find('/');
    const auto i = slash == std::string::npos ? std::nullopt : parse_u64_text(s.substr(0, slash));
    const auto n = slash == std::string::npos ? std::nullopt : parse_u64_text(s.substr(slash + 1));
    if (!i || !n || *n == 0 || *i >= *n) throw InputError("--shard", s, "expected I/N with 0 <= I < N");
    shard = {static_cast<std::size_t>(*i), static_cast<std::size_t>(*n)};
  }
  const unsigned jobs = p.vm["jobs"].as<unsigned>();
  if (jobs == 0) throw InputError("--jobs", "", "must be at least 1");
  const Suite suite = regress_suite(p.positional);
  // Every layer validated up front: a malformed one stops the regression before anything runs.
  if (const auto problems = suite_problems(suite); !problems.empty()) {
    for (const auto& pr : problems) std::cerr << "dlacosim: " << pr << "\n";
    std::cerr << fmt::format("dlacosim: regress: {} malformed layer file(s) in {}; nothing ran\n", problems.size(),
                             suite.name);
    return static_cast<int>(ExitCode::BadInput);
  }
  std::size_t planned = 0;
  for (std::size_t i = 0; i < suite.entries.size(); ++i) planned += i % shard.count == shard.index ? 1 : 0;
  std::optional<Progress> progress;
  if (!p.vm["no-progress"].as<bool>()) progress.emplace(stderr, isatty(fileno(stderr)) != 0);
  const auto results = run_suite(suite, o, jobs, shard, [&](const RunResult& r, std::size_t done, std::size_t total) {
    if (progress) progress->update(r, done, total);
  });
  if (progress) progress->finish();
  ResultsInfo info;
  info.command = g_command_line;
  info.suite = suite.name;
  info.planned = planned;
  info.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (stop_requested()) info.interrupted = stop_signal_name();
  for (const auto& r : results) {
    if (r.status != Status::Pass) std::cout << format_run(r);
  }
  std::cout << fmt::format("suite {} (shard {}/{}, mode {})\n", suite.name, shard.index, shard.count, o.mode);
  std::cout << format_table(results);
  std::cout << fmt::format("elapsed {:.2f} s (the runs' own times add up to {:.2f} s with -j {})\n", *info.elapsed,
                           std::accumulate(results.begin(), results.end(), 0.0,
                                           [](double a, const RunResult& r) { return a + r.seconds; }),
                           jobs);
  if (!info.interrupted.empty()) {
    std::cout << fmt::format("interrupted by {}: {} of {} runs finished; the results files hold those\n",
                             info.interrupted, results.size(), planned);
  }
  write_results(p.vm, results, info, "dlacosim regress: " + suite.name);
  if (!info.interrupted.empty()) return kInterruptedExit;
  return exit_code(results);
}

// One suite checked completely: the suite file and every layer it names.
bool validate_suite(const std::string& f) {
  const Suite s = load_suite(f);
  const auto problems = suite_problems(s);
  std::size_t layers = 0;
  std::vector<std::filesystem::path> seen;
  for (const auto& e : s.entries) {
    if (std::find(seen.begin(), seen.end(), e.layer) == seen.end()) {
      seen.push_back(e.layer);
      ++layers;
    }
  }
  if (problems.empty()) {
    std::cout << fmt::format("ok   {} (suite, {} runs of {} layer files, every layer valid)\n", f, s.entries.size(), layers);
    return true;
  }
  std::cout << fmt::format("FAIL {}: {} of its {} layer files are malformed:\n", f, problems.size(), layers);
  for (const auto& pr : problems) std::cout << "FAIL " << pr << "\n";
  return false;
}

int cmd_validate(const std::vector<std::string>& args) {
  Parsed p = parse(args, validate_options());
  if (p.positional.empty()) throw InputError("validate", "", "expected at least one file");
  resolve_folders(p.positional);
  const std::optional<std::string> given =
      p.vm.count("config") ? std::optional<std::string>(p.vm["config"].as<std::string>()) : std::nullopt;
  int worst = 0;
  for (const auto& f : p.positional) {
    try {
      const FileKind k = file_kind(f);
      if (k == FileKind::Suite) {
        if (!validate_suite(f)) worst = static_cast<int>(ExitCode::BadInput);
      } else if (k == FileKind::Trace) {
        const TraceConfig t = trace_config(f, given);
        const Program prog = import_trace(f, t.config);
        std::cout << fmt::format("ok   {} (NVDLA trace, {} steps, on {}: {})\n", f, prog.steps.size(), t.config, t.how);
      } else if (k == FileKind::Results || k == FileKind::Bench) {
        throw InputError(f, "", fmt::format("this is {} of dlacosim, not an input file", kind_name(k)));
      } else {
        const LoadedLayer l = load_layer(f);
        std::cout << fmt::format("ok   {} ({} on {})\n", f, l.header.unit, l.header.config->name);
      }
    } catch (const InputError& e) {
      std::cout << "FAIL " << e.what() << "\n";
      worst = static_cast<int>(ExitCode::BadInput);
    }
  }
  return worst;
}

int cmd_bench(const std::vector<std::string>& args) {
  const Parsed p = parse(args, bench_options());
  if (p.positional.empty()) throw InputError("bench", "", "expected exactly one unit name");
  if (p.positional.size() > 1 && p.positional[0] != "network") {
    throw InputError("bench", p.positional[1], "expected exactly one unit name (only bench network takes files)");
  }
  engines::BenchOptions o;
  o.files.assign(p.positional.begin() + 1, p.positional.end());
  o.ops = p.vm["ops"].as<uint64_t>();
  o.seed = p.vm["seed"].as<uint64_t>();
  o.mem = mem_options_from(p.vm);
  o.mem_given = p.vm.count("mem-latency") + p.vm.count("mem-bandwidth") != 0;
  if (p.vm.count("config")) o.configs = p.vm["config"].as<std::vector<std::string>>();
  const std::vector<engines::BenchCase> cases = engines::run_bench(p.positional[0], o);
  if (p.vm.count("html")) {
    std::string source = "dlacosim bench " + p.positional[0];
    for (const char* k : {"mem-latency", "mem-bandwidth"}) {
      if (p.vm.count(k)) source += fmt::format(" --{} {}", k, p.vm[k].as<std::string>());
    }
    write_file_atomic(p.vm["html"].as<std::string>(),
                      html_bench_report(engines::bench_json(cases), {"dlacosim bench " + p.positional[0], source, {}}));
  }
  if (p.vm["json"].as<bool>()) {
    std::cout << engines::bench_json(cases).dump(1) << "\n";
  } else {
    std::cout << engines::format_bench(p.positional[0], cases);
  }
  return 0;
}

po::options_description merge_options() {
  po::options_description d("merge options");
  d.add_options()
    ("json", po::value<std::string>(), "write the merged results as JSON to this file")
    ("junit", po::value<std::string>(), "write a JUnit XML report of the merged results to this file")
    ("name", po::value<std::string>()->default_value("merged"), "suite name in the reports");
  return d;
}

// Shards of one suite (each `regress SUITE --shard I/N --json F`) back into one run, in suite order.
int cmd_merge(const std::vector<std::string>& args) {
  const Parsed p = parse(args, merge_options());
  if (p.positional.empty()) throw InputError("merge", "", "expected the --json result files of the shards");
  std::vector<ShardResults> shards;
  for (const auto& f : p.positional) {
    const auto doc = parse_json_file(f);
    ShardResults sh{f, {}, {}};
    sh.results = results_from_json(JsonNode::root(doc), sh.info);
    shards.push_back(std::move(sh));
  }
  const auto results = merge_shards(shards);
  const std::string name = p.vm["name"].as<std::string>();
  for (const auto& r : results) {
    if (r.status != Status::Pass) std::cout << format_run(r);
  }
  // The merged file: the shards' runs planned add up, their elapsed times too (the machine time
  // the shards took; they may have run at the same time), and an interrupted shard marks it.
  ResultsInfo info;
  info.command = g_command_line;
  info.suite = name;
  double elapsed = 0;
  bool all_timed = true;
  for (const auto& sh : shards) {
    info.planned += std::max(sh.info.planned, sh.results.size());
    if (sh.info.elapsed) elapsed += *sh.info.elapsed;
    all_timed = all_timed && sh.info.elapsed.has_value();
    if (!sh.info.interrupted.empty() && info.interrupted.empty()) info.interrupted = sh.info.interrupted;
  }
  if (all_timed) info.elapsed = elapsed;
  std::cout << fmt::format("suite {} (merged from {} result files)\n", name, shards.size());
  std::cout << format_table(results);
  if (!info.interrupted.empty()) {
    std::cout << fmt::format("a shard was interrupted ({}): {} of {} runs finished\n", info.interrupted,
                             results.size(), info.planned);
  }
  write_results(p.vm, results, info, "dlacosim merge: " + name);
  return exit_code(results);
}

// --focus's help: every unit's features (from the engines' random generators).
const std::string& focus_help() {
  static const std::string k = [] {
    std::string s = "every layer exercises this feature of the unit; its own layers (";
    bool first = true;
    for (const engines::Engine& e : engines::engines()) {
      if (!e.random || e.random->focus.empty()) continue;
      std::string names;
      for (const auto& f : e.random->focus) names += (names.empty() ? "" : ", ") + std::string(f.name);
      s += (first ? "" : "; ") + std::string(e.name) + ": " + names;
      first = false;
    }
    return s + ")";
  }();
  return k;
}

po::options_description random_options() {
  po::options_description d("random options");
  d.add_options()
    ("count", po::value<uint64_t>()->default_value(10), "layers to generate and run")
    ("first", po::value<uint64_t>()->default_value(0), "index of the first layer: layers FIRST .. FIRST + COUNT - 1 (a campaign goes on where it stopped)")
    ("seed", po::value<uint64_t>()->default_value(1), "campaign seed: layer i is a function of (unit, seed, config, i)")
    ("jobs,j", po::value<unsigned>()->default_value(std::max(1u, std::thread::hardware_concurrency())), "parallel runs")
    ("config", po::value<std::string>(), "only this configuration (default: layers alternate over every configuration)")
    ("out", po::value<std::string>(), "write each failing layer (JSON) and summary.json to this directory")
    ("all", po::bool_switch(), "with --out: write every generated layer, not only the failing ones")
    ("watchdog", po::value<uint64_t>()->default_value(20000), "quiet cycles before a run is ended, plus the memory model's allowance (docs/CLI.md \"Watchdog\")")
    ("focus", po::value<std::string>(), focus_help().c_str())
    ("quiet", po::bool_switch(), "no line per finished layer, only failures and the summary")
    ("list", po::bool_switch(), "generate the layers and print each one's name and features; run nothing");
  add_mem_options(d);
  add_cmod_options(d);
  return d;
}

// dlacosim random UNIT: docs/RANDOM.md.
int cmd_random(const std::vector<std::string>& args) {
  const Parsed p = parse(args, random_options());
  const std::vector<std::string> known = random_units();
  std::string units;
  for (const auto& u : known) units += (units.empty() ? "" : ", ") + u;
  if (p.positional.size() != 1) throw InputError("random", "", "expected exactly one unit (" + units + ")");
  RandomOptions o;
  o.unit = p.positional[0];
  if (std::find(known.begin(), known.end(), o.unit) == known.end()) {
    throw InputError("random", o.unit, "no random-layer generator for this unit (" + units + ")");
  }
  o.count = p.vm["count"].as<uint64_t>();
  if (o.count == 0 || o.count > 1000000) throw InputError("--count", "", "must be in [1, 1000000]");
  o.first = p.vm["first"].as<uint64_t>();
  if (o.first > 1000000000) throw InputError("--first", "", "must be in [0, 1000000000]");
  o.seed = p.vm["seed"].as<uint64_t>();
  o.jobs = p.vm["jobs"].as<unsigned>();
  if (o.jobs == 0) throw InputError("--jobs", "", "must be at least 1");
  o.watchdog = p.vm["watchdog"].as<uint64_t>();
  if (o.watchdog == 0) throw InputError("--watchdog", "", "must be at least 1 cycle");
  // Without --config the campaign alternates over the configurations that have the unit.
  if (p.vm.count("config")) o.configs.push_back(&cfg_config(p.vm["config"].as<std::string>()));
  if (p.vm.count("out")) o.out_dir = p.vm["out"].as<std::string>();
  o.save_all = p.vm["all"].as<bool>();
  if (o.save_all && o.out_dir.empty()) throw InputError("--all", "", "needs --out DIR");
  if (p.vm.count("focus")) o.focus = p.vm["focus"].as<std::string>();
  // The campaign's memory model for every layer (else each layer draws its own; docs/RANDOM.md).
  if (p.vm.count("mem-latency") || p.vm.count("mem-bandwidth")) o.mem = mem_options_from(p.vm);
  // A unit whose layers run through its layer handler (no register program) has no DMA memory
  // model: the memory options would be ignored, so they are refused.
  if (const engines::Engine* e = engines::find_engine(o.unit); o.mem && e != nullptr && e->random && e->random->compile == nullptr) {
    throw InputError(p.vm.count("mem-latency") != 0 ? "--mem-latency" : "--mem-bandwidth", "",
                     fmt::format("random {} runs its layers through the engine's own driver, which has no DMA memory "
                                 "model; the memory options apply to units run as register programs",
                                 o.unit));
  }
  if (judge_cmod_from(p.vm)) o.judge_cmod = cmod_limits_from(p.vm);
  if (o.judge_cmod) {
    // Refused up front, not layer by layer: a configuration whose C model this build lacks.
    for (const auto* cfg : campaign_configs(o)) {
      std::string why;
      if (cmod_server(*cfg, why).empty()) throw InputError("--judge", "cmod", why);
    }
  }
  if (p.vm["list"].as<bool>()) {
    const auto cfgs = campaign_configs(o);
    for (uint64_t i = o.first; i < o.first + o.count; ++i) {
      const RandomLayer L = generate_random_layer(o.unit, *cfgs[i % cfgs.size()], o.seed, i, o.focus);
      std::cout << fmt::format("{} {}{}\n", L.name, L.features,
                               L.resized > 0 ? fmt::format(" (shrunk {}x to fit CBUF)", L.resized) : "");
    }
    return 0;
  }
  const bool quiet = p.vm["quiet"].as<bool>();
  uint64_t done = 0;
  o.on_done = [&](const RandomRun& r) {
    ++done;
    if (quiet && r.status == RandomStatus::Pass) return;
    const std::string cmod =
        r.cross.cmod && o.judge_cmod ? fmt::format(" [cmod {}{}]", verdict_name(r.cross.cmod->state),
                                                   r.cross.cmod->adapted.empty() ? "" : ", D_WEIGHT_BYTES unpadded")
                                     : "";
    std::cout << fmt::format("[{}/{}] {:<8} {} ({:.2f} s, {} cycles){}{}\n", done, o.count,
                             random_status_name(r.status), r.layer.name, r.seconds, r.cross.cycles, cmod,
                             r.status == RandomStatus::Pass ? "" : ": " + r.message.substr(0, r.message.find('\n')))
              << std::flush;
  };
  const RandomCampaign c = run_random_campaign(o);
  std::cout << format_random_summary(c);
  return random_exit_code(c);
}

po::options_description report_options() {
  po::options_description d("report options");
  d.add_options()
    ("html", po::value<std::string>(), "write the self-contained HTML report to this file (required)")
    ("title", po::value<std::string>()->default_value("dlacosim results"), "the report's title");
  return d;
}

// Results written by `run --json` / `regress --json` / `merge --json`, in the order given, as HTML.
// Exit 0 when the report is written, whatever the runs' status (the report shows it).
int cmd_report(const std::vector<std::string>& args) {
  const Parsed p = parse(args, report_options());
  if (p.positional.empty()) throw InputError("report", "", "expected at least one --json result file");
  if (!p.vm.count("html")) throw InputError("--html", "", "required: the HTML file to write");
  std::vector<RunResult> results;
  std::string sources;
  // `bench --json` output (an array of cases, each with a "case" and "elements_per_cycle") makes a
  // benchmark page; run results make the run report. One kind per report.
  const auto is_bench = [](const JsonNode& root) {
    return root.is_array() && root.size() > 0 && root[0].is_object() && root[0].get("case") &&
           root[0].get("elements_per_cycle");
  };
  if (is_bench(JsonNode::root(parse_json_file(p.positional[0])))) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& f : p.positional) {
      const JsonNode root = JsonNode::root(parse_json_file(f));
      if (!is_bench(root)) root.fail("expected `dlacosim bench --json` output like the first file (one report holds one kind)");
      for (const JsonNode& c : root.items()) {
        for (const char* k : {"unit", "config", "case"}) (void)c.require(k).as_string();
        for (const char* k : {"cycles", "elements", "elements_per_cycle"}) (void)c.require(k).as_double(0, 1e300);
        cases.push_back(c.raw());
      }
      sources += " " + f;
    }
    const std::string out = p.vm["html"].as<std::string>();
    write_file_atomic(out, html_bench_report(cases, {p.vm["title"].as<std::string>(), "dlacosim report" + sources, {}}));
    std::cout << fmt::format("wrote {}: {} benchmark cases\n", out, cases.size());
    return 0;
  }
  ResultsInfo info;
  for (const auto& f : p.positional) {
    ResultsInfo fi;
    const auto more = results_from_json(JsonNode::root(parse_json_file(f)), fi);
    results.insert(results.end(), more.begin(), more.end());
    sources += " " + f;
    if (p.positional.size() == 1) info = fi;  // one file: its elapsed time, tool and interruption
    if (!fi.interrupted.empty() && info.interrupted.empty()) info.interrupted = fi.interrupted;
    info.planned += std::max(fi.planned, more.size());
  }
  const std::string out = p.vm["html"].as<std::string>();
  write_file_atomic(out, html_report(results, {p.vm["title"].as<std::string>(), "dlacosim report" + sources, info}));
  const auto passed = std::count_if(results.begin(), results.end(), [](const RunResult& r) { return r.status == Status::Pass; });
  std::cout << fmt::format("wrote {}: {} runs, {} passed, {} failed\n", out, results.size(), passed,
                           static_cast<long>(results.size()) - passed);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  g_command_line = "dlacosim";
  for (const auto& a : args) g_command_line += " " + a;
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::cout << tool_line() << "\n";
    return 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  const bool want_help = std::find(args.begin(), args.end(), "--help") != args.end();
  try {
    if (cmd == "help" || want_help) {
      const std::string which = cmd == "help" ? (args.empty() ? "" : args[0]) : cmd;
      if (which == "run") std::cout << "usage: dlacosim run LAYER|NET.json|TEST.cfg|FILE.nvdla... [options]\n" << run_options();
      else if (which == "regress") std::cout << "usage: dlacosim regress SUITE|LAYER... [options]\n" << regress_options();
      else if (which == "bench") {
        std::string list;
        for (const auto& u : engines::bench_units()) list += (list.empty() ? "" : ", ") + u;
        std::cout << "usage: dlacosim bench UNIT [options]\nunits: " << list << "\n" << bench_options();
      }
      else if (which == "random") {
        std::string units;
        for (const auto& u : random_units()) units += (units.empty() ? "" : ", ") + u;
        std::cout << "usage: dlacosim random UNIT [options]   (units: " << units << "; docs/RANDOM.md)\n" << random_options();
      }
      else if (which == "validate") {
        std::cout << "usage: dlacosim validate FILE... [options]\n"
                     "Checks files completely without simulating: layers and networks (every field, value,\n"
                     "data file and count, as run would), suites (the suite and every layer file it names)\n"
                     "and NVDLA traces (.cfg, .txn: every command, register and .dat file, on the trace's\n"
                     "configuration). Prints ok or FAIL with FILE: WHERE: RULE per file; exit 0 when all\n"
                     "are valid, 2 otherwise.\n"
                  << validate_options();
      }
      else if (which == "compile") {
        std::cout << "usage: dlacosim compile NET.json [--config NAME] [--loadable OUT.nvdla]\n"
                     "Prints a network file's one register program (docs/NETWORKS.md) as a JSON program\n"
                     "layer on stdout, the program `dlacosim run NET.json` replays; `dlacosim run` of the\n"
                     "printed file replays it without the network's per-layer compares. --config compiles\n"
                     "it for another configuration. --loadable writes the network as an NVDLA loadable\n"
                     "instead (docs/LOADABLES.md \"Export\"), runnable with `dlacosim run OUT.nvdla\n"
                     "--input TENSOR=FILE`; exit 0, or 2 naming file, JSON pointer and rule.\n";
      }
      else if (which == "import") std::cout << "usage: dlacosim import TEST.cfg|FILE.nvdla [options]\n" << import_options();
      else if (which == "merge") std::cout << "usage: dlacosim merge RESULTS.json... [options]\n" << merge_options();
      else if (which == "report") std::cout << "usage: dlacosim report RESULTS.json... --html OUT [options]\n" << report_options();
      else if (which.empty()) std::cout << kUsage;
      else {
        std::cerr << fmt::format("dlacosim: help: unknown command \"{}\"\n\n{}", which, kUsage);
        return static_cast<int>(ExitCode::BadInput);
      }
      return 0;
    }
    if (cmd == "run") return cmd_run(args);
    if (cmd == "regress") return cmd_regress(args);
    if (cmd == "validate") return cmd_validate(args);
    if (cmd == "import") return cmd_import(args);
    if (cmd == "compile") return cmd_compile(args);
    if (cmd == "bench") return cmd_bench(args);
    if (cmd == "random") return cmd_random(args);
    if (cmd == "merge") return cmd_merge(args);
    if (cmd == "report") return cmd_report(args);
    std::cerr << fmt::format("dlacosim: unknown command \"{}\"\n\n{}", cmd, kUsage);
    return static_cast<int>(ExitCode::BadInput);
  } catch (const InputError& e) {
    std::cerr << "dlacosim: " << e.what() << "\n";
    return static_cast<int>(ExitCode::BadInput);
  } catch (const po::error& e) {
    std::cerr << "dlacosim: " << cmd << ": " << e.what() << "\n";
    return static_cast<int>(ExitCode::BadInput);
  } catch (const SimTimeout& e) {
    std::cerr << "dlacosim: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Timeout);
  } catch (const std::exception& e) {
    std::cerr << "dlacosim: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Internal);
  }
}
