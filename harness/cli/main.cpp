// dlacosim: run layers on the RTL and the golden model and compare every output element.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include <unistd.h>

#include "harness/errors.hpp"
#include "harness/files.hpp"
#include "harness/html_report.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/loadable_runner.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"
#include "harness/cmod_device.hpp"
#include "harness/random_layers.hpp"
#include "harness/regress.hpp"
#include "harness/report.hpp"
#include "units/network.hpp"
#include "units/units.hpp"

namespace po = boost::program_options;
using namespace dla::harness;

namespace {

constexpr const char* kUsage = R"(dlacosim - RTL against golden co-simulation for NVDLA-class units

usage: dlacosim <command> [options]

commands:
  run LAYER        run one layer file (JSON) on the RTL and the golden model, compare
  run TEST.cfg     replay an NVDLA trace test (.cfg, or NVDLA v1's input.txn) as a register
                   program (--config, --mode)
  run FILE.nvdla   run an NVDLA loadable (NVIDIA's compiled network; also *_fbuf) as NVIDIA's
                   runtime and firmware do (--config, --mode, --input, --dimg; docs/LOADABLES.md)
  import TEST.cfg  print an NVDLA trace test (.cfg or .txn) or a loadable as a register-program
                   layer (JSON)
  compile NET.json print a network's register program as a program layer (JSON; docs/NETWORKS.md)
  regress SUITE    run a suite of layers, print a summary table, write JUnit/JSON
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
    ("config", po::value<std::string>(), "override the layer's configuration (nv_small, nv_large, nv_full)")
    ("rand-reset", po::value<int>()->default_value(0), "initial register values: 0 zero, 1 ones, 2 random (+verilator+rand+reset+N)")
    ("wave", po::value<std::string>(), "write an FST waveform to this file")
    ("wave-from", po::value<uint64_t>()->default_value(0), "first cycle dumped")
    ("wave-to", po::value<uint64_t>(), "last cycle dumped")
    ("wave-depth", po::value<int>()->default_value(99), "hierarchy levels traced")
    ("watchdog", po::value<uint64_t>()->default_value(20000), "cycles without progress before the run is ended")
    ("json", po::value<std::string>(), "write the result as JSON to this file")
    ("dump-dir", po::value<std::string>(), "on mismatch, write gzip dumps of actual and expected cubes here")
    ("max-listed", po::value<std::size_t>()->default_value(10), "mismatches listed per compared region")
    ("flip-bit", po::value<std::string>(), "self-test: flip bit B of output element E of the RTL (E:B)")
    ("stop-after", po::value<std::string>(), "network files: run the program up to this layer's check (docs/NETWORKS.md)")
    ("wave-layer", po::value<std::string>(), "network files: dump --wave for this layer's cycles only")
    ("input", po::value<std::vector<std::string>>()->composing(), "loadables: TENSOR=FILE, an input tensor from a PGM, DIMG or raw file (repeatable; none: zero, as NVIDIA's runtime without an image)")
    ("dimg", po::value<std::string>(), "loadables: write the output tensor as NVIDIA's runtime writes o_000000.dimg");
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
    ("watchdog", po::value<uint64_t>()->default_value(20000), "cycles without progress before a run is ended")
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
    ("html", po::value<std::string>(), "also write a self-contained HTML page of the cases to this file");
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
  d.add_options()("config", po::value<std::string>()->default_value("nv_small"),
                  "configuration whose register map the names resolve in (nv_small, nv_large, nv_full)");
  return d;
}

const dla::golden::HwConfig& cfg_config(const std::optional<std::string>& name) {
  const std::string n = name.value_or("nv_small");
  const auto* c = dla::golden::find_config(n);
  if (c == nullptr) throw InputError("--config", "", "unknown configuration \"" + n + "\" (nv_small, nv_large, nv_full)");
  return *c;
}

// An NVDLA trace: a trace test (.cfg) or an NVDLA v1 trace-player test (.txn).
bool is_trace(const std::string& path) {
  const auto ext = std::filesystem::path(path).extension();
  return ext == ".cfg" || ext == ".txn";
}

Program import_trace(const std::string& path, const std::string& config) {
  return std::filesystem::path(path).extension() == ".txn" ? import_nvdla_txn(path, config)
                                                           : import_nvdla_cfg(path, config);
}

int cmd_import(const std::vector<std::string>& args) {
  const Parsed p = parse(args, import_options());
  if (p.positional.size() != 1) throw InputError("import", "", "expected exactly one .cfg, .txn or loadable file");
  if (loadable::is_loadable_path(p.positional[0])) {
    // A loadable: the firmware's register programs of its DLA tasks, with the memories they load.
    const loadable::Loadable l = loadable::read_loadable(p.positional[0]);
    const auto& config = cfg_config(p.vm["config"].defaulted() ? loadable::default_config_for(p.positional[0])
                                                               : p.vm["config"].as<std::string>());
    const loadable::Plan plan = loadable::plan_loadable(l, config, {});
    const Program program = loadable::plan_program(l, plan);
    std::cout << program_to_json(program, "imported from the loadable " + p.positional[0] + " by dlacosim import")
                     .dump(1)
              << "\n";
    return 0;
  }
  const auto& config = cfg_config(p.vm["config"].as<std::string>());
  const Program program = import_trace(p.positional[0], config.name);
  std::cout << program_to_json(program, "imported from " + p.positional[0] + " by dlacosim import").dump(1) << "\n";
  return 0;
}

// `compile NET.json`: the network's one register program, replayable with `dlacosim run`.
int cmd_compile(const std::vector<std::string>& args) {
  const Parsed p = parse(args, po::options_description("compile options"));
  if (p.positional.size() != 1) throw InputError("compile", "", "expected exactly one network file");
  const LoadedLayer l = load_layer(p.positional[0]);
  if (l.header.unit != "network") {
    throw InputError(p.positional[0], "/unit", "compile takes network files (\"unit\": \"network\")");
  }
  const units::CompiledNetwork n = units::compile_network(l.header, l.root());
  std::cout << program_to_json(n.program, "compiled from " + p.positional[0] + " by dlacosim compile").dump(1) << "\n";
  return 0;
}

int cmd_run(const std::vector<std::string>& args) {
  const Parsed p = parse(args, run_options());
  if (p.positional.size() != 1) throw InputError("run", "", "expected exactly one layer file");
  RunOptions o = run_options_from(p.vm);
  // On a terminal a long run shows its cycles and simulation rate, on one line erased at the end.
  const bool terminal = isatty(fileno(stderr)) != 0;
  const auto started = std::chrono::steady_clock::now();
  bool drawn = false;
  if (terminal) {
    o.sim.heartbeat = [&](const std::string& unit, uint64_t cycle) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      fmt::print(stderr, "\r\x1b[K{}: cycle {}, {:.0f} cycles/s", unit, cycle, static_cast<double>(cycle) / s);
      std::fflush(stderr);
      drawn = true;
    };
  }
  RunResult r;
  const bool is_loadable = loadable::is_loadable_path(p.positional[0]);
  if (!is_loadable && (p.vm.count("input") != 0 || p.vm.count("dimg") != 0)) {
    throw InputError(p.vm.count("input") != 0 ? "--input" : "--dimg", "", "applies to loadables (FILE.nvdla, *_fbuf)");
  }
  if (is_loadable) {
    if (!o.stop_after.empty() || !o.wave_layer.empty()) {
      throw InputError(o.stop_after.empty() ? "--wave-layer" : "--stop-after", "", "applies to network files");
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
    r = loadable::run_loadable(p.positional[0], o, lo);
  } else if (is_trace(p.positional[0])) {
    // An NVDLA trace: imported (InputError on malformed input) and replayed as a program.
    if (!o.stop_after.empty() || !o.wave_layer.empty()) {
      throw InputError(o.stop_after.empty() ? "--wave-layer" : "--stop-after", "", "applies to network files");
    }
    const auto& config = cfg_config(o.config);
    const Program program = import_trace(p.positional[0], config.name);
    r = run_program_in_mode(program, config, o);
    r.layer_file = p.positional[0];
  } else {
    r = run_layer(p.positional[0], o);
  }
  if (drawn) fmt::print(stderr, "\r\x1b[K");
  if (!o.sim.wave.empty() && std::filesystem::exists(o.sim.wave)) r.wave = std::filesystem::absolute(o.sim.wave).string();
  std::cout << format_run(r);
  if (p.vm.count("json")) write_file_atomic(p.vm["json"].as<std::string>(), to_json(r).dump(2) + "\n");
  return exit_code(r.status);
}

int cmd_regress(const std::vector<std::string>& args) {
  const Parsed p = parse(args, regress_options());
  if (p.positional.size() != 1) throw InputError("regress", "", "expected exactly one suite file");
  RunOptions o;
  o.mode = p.vm["mode"].as<std::string>();
  check_mode(o.mode);
  o.sim.watchdog = p.vm["watchdog"].as<uint64_t>();
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
  const Suite suite = load_suite(p.positional[0]);
  std::optional<Progress> progress;
  if (!p.vm["no-progress"].as<bool>()) progress.emplace(stderr, isatty(fileno(stderr)) != 0);
  const auto results = run_suite(suite, o, jobs, shard, [&](const RunResult& r, std::size_t done, std::size_t total) {
    if (progress) progress->update(r, done, total);
  });
  if (progress) progress->finish();
  for (const auto& r : results) {
    if (r.status != Status::Pass) std::cout << format_run(r);
  }
  std::cout << fmt::format("suite {} (shard {}/{}, mode {})\n", suite.name, shard.index, shard.count, o.mode);
  std::cout << format_table(results);
  if (p.vm.count("junit")) write_file_atomic(p.vm["junit"].as<std::string>(), junit_xml(suite.name, results));
  if (p.vm.count("json")) write_file_atomic(p.vm["json"].as<std::string>(), to_json(results).dump(2) + "\n");
  if (p.vm.count("html")) {
    write_file_atomic(p.vm["html"].as<std::string>(),
                      html_report(results, {"dlacosim regress: " + suite.name,
                                            fmt::format("dlacosim regress {} --mode {} --shard {}/{}",
                                                        p.positional[0], o.mode, shard.index, shard.count)}));
  }
  return exit_code(results);
}

int cmd_validate(const std::vector<std::string>& args) {
  const Parsed p = parse(args, po::options_description("validate options"));
  if (p.positional.empty()) throw InputError("validate", "", "expected at least one file");
  int worst = 0;
  for (const auto& f : p.positional) {
    try {
      const auto doc = parse_json_file(f);
      if (doc->root.is_object() && doc->root.contains("layers") && !doc->root.contains("unit")) {  // a network has "unit"
        const Suite s = load_suite(f);
        std::cout << fmt::format("ok   {} (suite, {} runs)\n", f, s.entries.size());
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
  units::BenchOptions o;
  o.files.assign(p.positional.begin() + 1, p.positional.end());
  o.ops = p.vm["ops"].as<uint64_t>();
  o.seed = p.vm["seed"].as<uint64_t>();
  o.mem = mem_options_from(p.vm);
  o.mem_given = p.vm.count("mem-latency") + p.vm.count("mem-bandwidth") != 0;
  const std::vector<units::BenchCase> cases = units::run_bench(p.positional[0], o);
  if (p.vm.count("html")) {
    std::string source = "dlacosim bench " + p.positional[0];
    for (const char* k : {"mem-latency", "mem-bandwidth"}) {
      if (p.vm.count(k)) source += fmt::format(" --{} {}", k, p.vm[k].as<std::string>());
    }
    write_file_atomic(p.vm["html"].as<std::string>(),
                      html_bench_report(units::bench_json(cases), {"dlacosim bench " + p.positional[0], source}));
  }
  if (p.vm["json"].as<bool>()) {
    std::cout << units::bench_json(cases).dump(1) << "\n";
  } else {
    std::cout << units::format_bench(p.positional[0], cases);
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
    shards.push_back({f, results_from_json(JsonNode::root(doc))});
  }
  const auto results = merge_shards(shards);
  const std::string name = p.vm["name"].as<std::string>();
  for (const auto& r : results) {
    if (r.status != Status::Pass) std::cout << format_run(r);
  }
  std::cout << fmt::format("suite {} (merged from {} result files)\n", name, shards.size());
  std::cout << format_table(results);
  if (p.vm.count("junit")) write_file_atomic(p.vm["junit"].as<std::string>(), junit_xml(name, results));
  if (p.vm.count("json")) write_file_atomic(p.vm["json"].as<std::string>(), to_json(results).dump(2) + "\n");
  return exit_code(results);
}

po::options_description random_options() {
  po::options_description d("random options");
  d.add_options()
    ("count", po::value<uint64_t>()->default_value(10), "layers to generate and run")
    ("seed", po::value<uint64_t>()->default_value(1), "campaign seed: layer i is a function of (unit, seed, config, i)")
    ("jobs,j", po::value<unsigned>()->default_value(std::max(1u, std::thread::hardware_concurrency())), "parallel runs")
    ("config", po::value<std::string>(), "only this configuration (default: layers alternate over every configuration)")
    ("out", po::value<std::string>(), "write each failing layer (JSON) and summary.json to this directory")
    ("all", po::bool_switch(), "with --out: write every generated layer, not only the failing ones")
    ("watchdog", po::value<uint64_t>()->default_value(20000), "cycles without progress before a run is ended")
    ("focus", po::value<std::string>(), "every layer exercises this feature of the unit (conv: wfold); its own layers")
    ("quiet", po::bool_switch(), "no line per finished layer, only failures and the summary")
    ("list", po::bool_switch(), "generate the layers and print each one's name and features; run nothing");
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
    for (uint64_t i = 0; i < o.count; ++i) {
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
        r.cross.cmod && o.judge_cmod ? fmt::format(" [cmod {}]", verdict_name(r.cross.cmod->state)) : "";
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
    write_file_atomic(out, html_bench_report(cases, {p.vm["title"].as<std::string>(), "dlacosim report" + sources}));
    std::cout << fmt::format("wrote {}: {} benchmark cases\n", out, cases.size());
    return 0;
  }
  for (const auto& f : p.positional) {
    const auto more = results_from_json(JsonNode::root(parse_json_file(f)));
    results.insert(results.end(), more.begin(), more.end());
    sources += " " + f;
  }
  const std::string out = p.vm["html"].as<std::string>();
  write_file_atomic(out, html_report(results, {p.vm["title"].as<std::string>(), "dlacosim report" + sources}));
  const auto passed = std::count_if(results.begin(), results.end(), [](const RunResult& r) { return r.status == Status::Pass; });
  std::cout << fmt::format("wrote {}: {} runs, {} passed, {} failed\n", out, results.size(), passed,
                           static_cast<long>(results.size()) - passed);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  const bool want_help = std::find(args.begin(), args.end(), "--help") != args.end();
  try {
    if (cmd == "help" || want_help) {
      const std::string which = cmd == "help" ? (args.empty() ? "" : args[0]) : cmd;
      if (which == "run") std::cout << "usage: dlacosim run LAYER|TEST.cfg|FILE.nvdla [options]\n" << run_options();
      else if (which == "regress") std::cout << "usage: dlacosim regress SUITE [options]\n" << regress_options();
      else if (which == "bench") {
        std::string list;
        for (const auto& u : units::bench_units()) list += (list.empty() ? "" : ", ") + u;
        std::cout << "usage: dlacosim bench UNIT [options]\nunits: " << list << "\n" << bench_options();
      }
      else if (which == "random") {
        std::string units;
        for (const auto& u : random_units()) units += (units.empty() ? "" : ", ") + u;
        std::cout << "usage: dlacosim random UNIT [options]   (units: " << units << "; docs/RANDOM.md)\n" << random_options();
      }
      else if (which == "validate") std::cout << "usage: dlacosim validate FILE...\n";
      else if (which == "compile") std::cout << "usage: dlacosim compile NET.json\n";
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
