// Random-layer campaigns (docs/RANDOM.md): the campaign runner. Each engine brings its generator
// and references through the registry (include/harness/engine.hpp, RandomSupport), in
// harness/engines/<name>/<name>_random.cpp.
//
// A generator draws a layer from the whole legal parameter space of its unit with a Rng derived
// from (campaign seed, unit, configuration, index), renders it as the JSON document a user would
// write (values as "random" ranges, which the layer's own seed expands), and asks the unit's layer
// compiler whether it accepts it. A layer CBUF cannot hold runs as Split-H bands (tagged
// "split-h N"); what even a band cannot hold (weights, a band's rows) the generator shrinks, and
// counts; any other refusal is a generator bug, reported as status REFUSED. The runner compiles each layer, runs it in cross mode (golden and RTL, every output
// byte and status register compared) and judges `conv` outputs of both devices against the int64
// reference (harness/conv_reference.hpp).
#include "harness/random_layers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "harness/cmod_device.hpp"
#include "harness/errors.hpp"
#include "harness/files.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/engine.hpp"
#include "harness/rtl_factory.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness {

namespace {

using ojson = nlohmann::ordered_json;
using golden::HwConfig;

RandomStatus from_status(Status s, const std::string& message) {
  switch (s) {
    case Status::Pass: return RandomStatus::Pass;
    case Status::Mismatch: return RandomStatus::Mismatch;
    case Status::Timeout: return RandomStatus::Timeout;
    case Status::BadInput: return RandomStatus::Refused;
    default: return message.find("watchdog") != std::string::npos ? RandomStatus::Timeout : RandomStatus::Error;
  }
}


}  // namespace

LayerHeader layer_header(const RandomLayer& L, const std::filesystem::path& file) {
  LayerHeader h;
  h.file = file;
  h.unit = L.unit;
  h.name = L.name;
  h.config = L.config;
  h.seed = L.seed;
  h.stall = L.stall;
  return h;
}

ojson random_layer_doc(const RandomLayer& L, int w, int h, int c) {
  ojson doc = ojson::object();
  doc["unit"] = L.unit;
  doc["config"] = L.config->name;
  doc["name"] = L.name;
  doc["seed"] = L.seed;
  doc["stall"] = L.stall;
  doc["cube"] = ojson{{"w", w}, {"h", h}, {"c", c}};
  return doc;
}

bool random_layer_compiles(const RandomLayer& L, const ojson& doc, Program (*compile)(const LayerHeader&, const JsonNode&)) {
  try {
    const auto jd = parse_json_text(L.name + ".json", doc.dump());
    (void)compile(layer_header(L, jd->file), JsonNode::root(jd));
    return true;
  } catch (const InputError&) {
    return false;
  }
}

namespace {

// --focus: a feature the unit's generator knows, on a configuration that has it.
void check_focus(const engines::RandomSupport& g, const std::string& unit, const std::string& focus, const HwConfig& cfg) {
  std::string known;
  for (const engines::RandomFocus& f : g.focus) {
    if (f.name == focus) {
      if (f.has != nullptr && !(cfg.*f.has))
        throw InputError("--focus", focus, fmt::format("configuration {} has no {} (choose one with --config)", cfg.name, focus));
      return;
    }
    known += fmt::format("{}{} ({})", known.empty() ? "" : ", ", f.name, f.what);
  }
  throw InputError("--focus", focus, fmt::format("random {} knows no such feature ({})", unit, known.empty() ? "it has none" : known));
}

}  // namespace

std::vector<std::string> random_units() {
  std::vector<std::string> out;
  for (const engines::Engine* e : engines::random_engines()) out.emplace_back(e->name);
  return out;
}

std::string_view random_status_name(RandomStatus s) {
  switch (s) {
    case RandomStatus::Pass: return "PASS";
    case RandomStatus::Mismatch: return "MISMATCH";
    case RandomStatus::Timeout: return "TIMEOUT";
    case RandomStatus::Error: return "ERROR";
    case RandomStatus::Refused: return "REFUSED";
  }
  return "?";
}

RandomLayer generate_random_layer(const std::string& unit, const HwConfig& config, uint64_t seed, uint64_t index,
                                  const std::string& focus) {
  const engines::RandomSupport* g = nullptr;
  std::string list;
  for (const engines::Engine* e : engines::random_engines()) {
    if (unit == e->name) g = &*e->random;
    list += (list.empty() ? "" : ", ") + std::string(e->name);
  }
  if (g == nullptr) throw InputError("random", "UNIT", fmt::format("no random-layer generator for \"{}\" (units: {})", unit, list));
  if (!focus.empty()) check_focus(*g, unit, focus, config);
  // A focused campaign draws its own layers: "random/conv/nv_full/7/wfold" is not layer 7 of
  // the unfocused campaign, so no one mistakes the one for the other.
  Rng rng = Rng::derive(seed, fmt::format("random/{}/{}/{}{}", unit, config.name, index, focus.empty() ? "" : "/" + focus));
  Draw d{rng};
  RandomLayer L;
  L.focus = focus;
  L.unit = unit;
  L.config = &config;
  L.index = index;
  L.seed = d.rng.next() >> 33;  // below 2^31: readable, and any JSON reader keeps it exact
  L.stall = d.chance(0.25) ? 0.0 : static_cast<double>(d.i(5, 50)) / 100.0;
  L.rand_reset = d.i(0, 2);
  // The memory: 30 % other read latencies (up to a few hundred cycles), 20 % a bandwidth limit.
  if (d.chance(0.3)) {
    L.mem.latency_min = d.log_i(1, 64);
    L.mem.latency_max = L.mem.latency_min + d.log_i(1, 400);
  }
  if (d.chance(0.2)) L.mem.bandwidth = static_cast<double>(d.log_i(1, 256)) / 8.0;
  L.name = fmt::format("random_{}_{}_s{}_{:05}", unit, config.name, seed, index);
  RandomLayer out = g->generate(config, std::move(L), rng);
  const MemOptions def;
  if (out.mem.latency_min != def.latency_min || out.mem.latency_max != def.latency_max)
    out.features += fmt::format(" latency {}:{}", out.mem.latency_min, out.mem.latency_max);
  if (!out.mem.unlimited()) out.features += fmt::format(" bandwidth {}", out.mem.bandwidth);
  return out;
}

std::string RandomRun::command() const {
  const std::string path = file.empty() ? "DIR/" + layer.name + ".json" : file.string();
  const engines::Engine* e = engines::find_engine(layer.unit);
  std::string cmd = e != nullptr && e->random && e->random->reproduce != nullptr ? e->random->reproduce(layer, path)
                                                                                  : "dlacosim run " + path;
  cmd += fmt::format(" --rand-reset {}", layer.rand_reset);
  const MemOptions def;
  if (layer.mem.latency_min != def.latency_min || layer.mem.latency_max != def.latency_max)
    cmd += fmt::format(" --mem-latency {}:{}", layer.mem.latency_min, layer.mem.latency_max);
  if (!layer.mem.unlimited()) cmd += fmt::format(" --mem-bandwidth {}", layer.mem.bandwidth);
  if (watchdog > 20000) cmd += fmt::format(" --watchdog {}", watchdog);
  if (cross.cmod && cross.cmod->state != CmodVerdict::State::NotJudged) cmd += " --judge cmod";
  return cmd;
}

namespace {

// The cross-mode run options of a layer: its seed, stall, randomized reset, memory and watchdog.
RunOptions cross_run_options(const RandomLayer& layer, uint64_t watchdog) {
  RunOptions o;
  o.mode = "cross";
  o.seed = layer.seed;
  o.stall = layer.stall;
  o.sim.seed = layer.seed;
  o.sim.rand_reset = layer.rand_reset;
  o.sim.watchdog = std::max(watchdog, layer.watchdog);
  o.mem = layer.mem;
  return o;
}

// The cross run's result `r` as the layer's verdict.
void take_cross_result(RunResult r, const RandomLayer& layer, RandomRun& out) {
  r.name = layer.name;
  r.unit = layer.unit;
  r.seed = layer.seed;
  r.stall = layer.stall;
  r.rand_reset = layer.rand_reset;
  out.status = from_status(r.status, r.message);
  if (out.status != RandomStatus::Pass) out.message = r.message;
  out.cross = std::move(r);
}

// A unit without a register program (RandomSupport::compile null): its layer handler runs the layer
// in cross mode (the unit's RTL against golden, the handler's comparison). Throws as the handler does.
void done_via_handler(const engines::Engine& engine, const LayerHeader& h, const JsonNode& root, const RandomLayer& layer,
                      uint64_t watchdog, RandomRun& out) {
  if (engine.handler == nullptr) throw std::logic_error("no layer handler for " + layer.unit);
  const UnitHandler uh = engine.handler();
  try {
    uh.validate(h, root);
  } catch (const InputError& e) {
    out.status = RandomStatus::Refused;
    out.message = fmt::format("the layer parser refused the generated layer (a generator bug): {}", e.what());
    return;
  }
  const RunOptions o = cross_run_options(layer, watchdog);
  out.watchdog = o.sim.watchdog;
  take_cross_result(uh.run(h, root, o), layer, out);
  const engines::RandomSupport& support = *engine.random;
  if (support.layer_reference != nullptr &&
      (out.status == RandomStatus::Pass || out.status == RandomStatus::Mismatch)) {
    const std::string g = support.layer_reference(h, root);
    out.reference = g.empty() ? "agrees" : "golden differs from the reference: " + g;
    if (!g.empty()) {
      out.status = RandomStatus::Mismatch;
      if (out.message.empty()) out.message = "golden differs from the int64 reference";
    }
  }
}

// The program on the golden model alone (and the C model when given), as the layer's verdict.
void run_golden_alone(const Program& program, const RandomLayer& layer, GoldenDevice& gold, Device* cmod,
                      const std::optional<CmodVerdict>& cmod_not_judged, const CmodAdaptation& adaptation,
                      RandomRun& out) {
  ProgramRunOptions po;
  po.mode = "golden";
  po.cmod_adaptation = adaptation;
  RunResult r = run_program(program, &gold, nullptr, po, cmod);
  if (cmod_not_judged) r.cmod = cmod_not_judged;
  take_cross_result(std::move(r), layer, out);
}

}  // namespace

RandomRun run_random_layer(const RandomLayer& layer, uint64_t watchdog, const std::optional<CmodOptions>& judge_cmod) {
  const auto t0 = std::chrono::steady_clock::now();
  RandomRun out;
  out.layer = layer;
  const auto done = [&] {
    out.seconds = seconds_since(t0);
    return out;
  };
  try {
    const auto jd = parse_json_text(layer.name + ".json", layer.doc.dump(1));
    const JsonNode root = JsonNode::root(jd);
    const LayerHeader h = layer_header(layer, jd->file);
    const engines::Engine* engine = engines::find_engine(layer.unit);
    if (engine == nullptr || !engine->random) throw std::logic_error("no random-layer support for " + layer.unit);
    const engines::RandomSupport& support = *engine->random;
    if (support.compile == nullptr) {
      done_via_handler(*engine, h, root, layer, watchdog, out);
      if (judge_cmod) {
        out.cross.cmod = CmodVerdict{CmodVerdict::State::NotJudged,
                                     fmt::format("a {} layer runs on an engine NVDLA does not have", layer.unit)};
      }
      return done();
    }
    engines::RandomCompiled compiled;
    try {
      compiled = support.compile(h, root);
    } catch (const InputError& e) {
      out.status = RandomStatus::Refused;
      out.message = fmt::format("the layer compiler refused the generated layer (a generator bug): {}", e.what());
      return done();
    }
    const RunOptions o = cross_run_options(layer, watchdog);
    out.watchdog = o.sim.watchdog;
    std::string why;
    const Program& program = compiled.program;
    const auto memory_reference = [&](const Memory& mem) {
      return compiled.memory_reference ? compiled.memory_reference(mem) : support.memory_reference(root, layer, mem);
    };
    // NVIDIA's C model, where it can judge the program.
    std::unique_ptr<Device> cmod;
    std::optional<CmodVerdict> cmod_not_judged;
    CmodAdaptation cmod_adaptation;
    if (judge_cmod) {
      if (CmodJudgePlan plan = cmod_judge_plan(program, *layer.config); !plan.cannot.empty()) {
        cmod_not_judged = CmodVerdict{CmodVerdict::State::NotJudged, std::move(plan.cannot)};
      } else {
        cmod_adaptation = std::move(plan.adaptation);
        cmod = make_cmod_device(*layer.config, *judge_cmod);
      }
    }
    if (!layer.golden_only.empty()) {
      // No RTL for this layer (fp16 so far): golden, judged by NVIDIA's C model alone. A layer the
      // C model cannot judge, or a run without it, has no judge: an error, never a pass.
      GoldenDevice gold(*layer.config);
      run_golden_alone(program, layer, gold, cmod.get(), cmod_not_judged, cmod_adaptation, out);
      out.reference = fmt::format("n/a: golden only ({}), judged by NVIDIA's C model", layer.golden_only);
      const std::optional<CmodVerdict>& v = out.cross.cmod;
      if (out.status == RandomStatus::Pass && (!v || v->state != CmodVerdict::State::Agrees)) {
        out.status = RandomStatus::Error;
        out.message = fmt::format("no judge: {}; NVIDIA's C model {}", layer.golden_only,
                                  v ? "did not judge it: " + v->detail : "was not asked (--judge cmod)");
      }
      return done();
    }
    std::unique_ptr<Device> rtl = make_rtl_device(enabled_blocks(program), *layer.config, o, why);
    const bool has_reference = support.memory_reference != nullptr || compiled.memory_reference != nullptr;
    if (rtl == nullptr && has_reference && support.golden_only_rtl != nullptr) {
      // No RTL of the unit in this build: the golden model alone, judged by the int64 reference.
      GoldenDevice gold(*layer.config);
      run_golden_alone(program, layer, gold, cmod.get(), cmod_not_judged, cmod_adaptation, out);
      if (out.status == RandomStatus::Pass) {
        const std::string g = memory_reference(gold.memory());
        out.reference = g.empty() ? fmt::format("agrees (golden only: no {} RTL)", support.golden_only_rtl)
                                  : "golden differs from the reference: " + g;
        if (!g.empty()) {
          out.status = RandomStatus::Mismatch;
          out.message = "golden differs from the int64 reference";
        }
      }
      return done();
    }
    if (rtl == nullptr) {
      out.status = RandomStatus::Error;
      out.message = "no RTL device: " + why;
      return done();
    }
    GoldenDevice gold(*layer.config);
    ProgramRunOptions po;
    po.mode = "cross";
    po.cmod_adaptation = std::move(cmod_adaptation);
    RunResult r = run_program(program, &gold, rtl.get(), po, cmod.get());
    if (cmod_not_judged) r.cmod = cmod_not_judged;
    r.cycles = rtl->cycles();
    take_cross_result(std::move(r), layer, out);
    if (has_reference && (out.status == RandomStatus::Pass || out.status == RandomStatus::Mismatch)) {
      const std::string g = memory_reference(gold.memory());
      const std::string t = memory_reference(rtl->memory());
      if (g.empty() && t.empty()) {
        out.reference = "agrees";
      } else if (g.starts_with("n/a") && t == g) {
        out.reference = g;  // the reference does not cover this layer (it says why)
      } else {
        out.reference = (g.empty() ? std::string("golden agrees with the reference") : "golden differs: " + g) +
                        (t.empty() ? std::string("; RTL agrees with the reference") : "; RTL differs: " + t);
        out.status = RandomStatus::Mismatch;
        if (out.message.empty()) out.message = "RTL and golden agree but differ from the int64 reference";
      }
    }
    if (support.device_reference != nullptr &&
        (out.status == RandomStatus::Pass || out.status == RandomStatus::Mismatch)) {
      support.device_reference(root, layer, compiled, gold, *rtl, out);
    }
    if (out.status == RandomStatus::Pass) rtl->finish();
  } catch (const InputError& e) {
    out.status = RandomStatus::Refused;
    out.message = e.what();
  } catch (const SimTimeout& e) {
    out.status = RandomStatus::Timeout;
    out.message = e.what();
    out.cross.cycles = e.cycle();
  } catch (const std::exception& e) {
    out.status = RandomStatus::Error;
    out.message = std::string("internal error: ") + e.what();
  }
  return done();
}

std::vector<const HwConfig*> campaign_configs(const RandomOptions& o) {
  std::vector<const HwConfig*> cfgs = o.configs;
  const engines::Engine* engine = engines::find_engine(o.unit);
  if (cfgs.empty()) {
    // Without --config: every configuration that has the unit (RUBIK and BDMA exist on nv_full
    // only, as in NVDLA).
    for (const auto& n : golden::config_names()) {
      const HwConfig* cfg = golden::find_config(n);
      if (engine == nullptr || engines::engine_exists_on(*engine, *cfg)) cfgs.push_back(cfg);
    }
  }
  for (const HwConfig* cfg : cfgs) {
    if (engine != nullptr && !engines::engine_exists_on(*engine, *cfg)) {
      throw InputError("--config", cfg->name, engine->absent_rule);
    }
  }
  if (!o.focus.empty() && engine != nullptr && engine->random) {
    // Without --config, a focused campaign runs on the configurations that have the feature.
    if (o.configs.empty()) {
      std::erase_if(cfgs, [&](const HwConfig* cfg) {
        for (const engines::RandomFocus& f : engine->random->focus)
          if (f.name == o.focus) return f.has != nullptr && !(cfg->*f.has);
        return false;
      });
      if (cfgs.empty()) throw InputError("--focus", o.focus, "no configuration has this feature");
    }
    for (const HwConfig* cfg : cfgs) check_focus(*engine->random, o.unit, o.focus, *cfg);
    for (const engines::RandomFocus& f : engine->random->focus) {
      if (f.name == o.focus && f.golden_only && !o.judge_cmod) {
        throw InputError("--focus", o.focus,
                         "these layers have no RTL yet, so only NVIDIA's C model can judge them: add --judge cmod "
                         "(a build configured with -DDLA_NVDLA_HW)");
      }
    }
  }
  return cfgs;
}

RandomCampaign run_random_campaign(const RandomOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  RandomCampaign c;
  c.options = options;
  c.options.configs = campaign_configs(options);
  const RandomOptions& opt = c.options;
  c.runs.resize(opt.count);
  if (!opt.out_dir.empty()) std::filesystem::create_directories(opt.out_dir);
  std::atomic<uint64_t> next{0};
  std::mutex mu;
  auto worker = [&] {
    for (uint64_t slot = next++; slot < opt.count; slot = next++) {
      const uint64_t i = opt.first + slot;
      const HwConfig& cfg = *opt.configs[i % opt.configs.size()];
      RandomRun run;
      try {
        RandomLayer layer = generate_random_layer(opt.unit, cfg, opt.seed, i, opt.focus);
        if (opt.mem) layer.mem = *opt.mem;  // --mem-latency / --mem-bandwidth: the campaign's memory
        run = run_random_layer(layer, opt.watchdog, opt.judge_cmod);
      } catch (const std::exception& e) {
        run.layer.name = fmt::format("random_{}_{}_s{}_{:05}", opt.unit, cfg.name, opt.seed, i);
        run.layer.config = &cfg;
        run.layer.index = i;
        run.status = RandomStatus::Error;
        run.message = std::string("generator: ") + e.what();
      }
      // A layer the C model refused or did not finish is kept like a failing one: it is a finding.
      const bool cmod_stopped = run.cross.cmod && (run.cross.cmod->state == CmodVerdict::State::Refused ||
                                                   run.cross.cmod->state == CmodVerdict::State::Timeout);
      if ((run.status != RandomStatus::Pass || cmod_stopped || opt.save_all) && !opt.out_dir.empty() &&
          !run.layer.doc.empty()) {
        ojson doc = run.layer.doc;
        run.file = opt.out_dir / (run.layer.name + ".json");
        doc["description"] = fmt::format("dlacosim random {} --seed {}{} layer {} ({}): {}{}. Reproduce: {}",
                                         opt.unit, opt.seed, opt.focus.empty() ? "" : " --focus " + opt.focus, i,
                                         run.layer.features,
                                         random_status_name(run.status),
                                         run.reference.empty() ? "" : "; int64 reference: " + run.reference,
                                         run.command());
        // "description" after "name": rebuild in reading order.
        ojson ordered = ojson::object();
        for (const auto& [k, v] : doc.items()) {
          if (k == "description") continue;
          ordered[k] = v;
          if (k == "name") ordered["description"] = doc["description"];
        }
        write_file_atomic(run.file, ordered.dump(2) + "\n");
      }
      std::lock_guard<std::mutex> lock(mu);
      c.runs[slot] = std::move(run);
      if (opt.on_done) opt.on_done(c.runs[slot]);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < std::max(1u, opt.jobs); ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  c.seconds = seconds_since(t0);
  if (!opt.out_dir.empty()) write_file_atomic(opt.out_dir / "summary.json", random_summary_json(c).dump(2) + "\n");
  return c;
}

namespace {

constexpr RandomStatus kStatuses[] = {RandomStatus::Pass, RandomStatus::Mismatch, RandomStatus::Timeout,
                                      RandomStatus::Error, RandomStatus::Refused};

bool reports_reference_counts(const std::string& unit) {
  const engines::Engine* e = engines::find_engine(unit);
  return e != nullptr && e->random && e->random->reports_reference_counts;
}

}  // namespace

std::string format_random_summary(const RandomCampaign& c) {
  std::string s;
  const auto& o = c.options;
  std::map<std::string, std::map<RandomStatus, int>> per_config;
  int ref_agrees = 0, ref_na = 0, resized = 0;
  double cpu = 0;
  uint64_t cycles = 0;
  std::map<std::string, std::map<CmodVerdict::State, int>> verdicts;  // per configuration
  std::map<std::string, int> adapted;  // judged with D_WEIGHT_BYTES unpadded (cmod_judge_plan)
  for (const RandomRun& r : c.runs) {
    per_config[r.layer.config != nullptr ? r.layer.config->name : "?"][r.status]++;
    if (r.cross.cmod) verdicts[r.layer.config != nullptr ? r.layer.config->name : "?"][r.cross.cmod->state]++;
    if (r.cross.cmod && !r.cross.cmod->adapted.empty()) adapted[r.layer.config != nullptr ? r.layer.config->name : "?"]++;
    ref_agrees += r.reference == "agrees";
    ref_na += r.reference.rfind("n/a", 0) == 0;
    resized += r.layer.resized > 0;
    cpu += r.seconds;
    cycles += r.cross.cycles;
  }
  for (const RandomRun& r : c.runs) {
    if (r.status == RandomStatus::Pass) continue;
    s += fmt::format("{} {} ({}; seed {}, stall {}, rand-reset {}; {})\n  {}\n", random_status_name(r.status),
                     r.layer.name, r.layer.config != nullptr ? r.layer.config->name : "?", r.layer.seed, r.layer.stall,
                     r.layer.rand_reset, r.layer.features, r.message);
    if (!r.reference.empty()) s += fmt::format("  int64 reference: {}\n", r.reference);
    if (r.cross.cmod) {
      s += fmt::format("  NVIDIA C model: {}: {}\n", verdict_name(r.cross.cmod->state), r.cross.cmod->detail);
    }
    s += r.file.empty() ? fmt::format("  reproduce: the layer file was not written (no --out): rerun the campaign with "
                                      "--out DIR (the same layers), then: {}\n",
                                      r.command())
                        : fmt::format("  reproduce: {}\n", r.command());
  }
  // Layers the C model refused or did not finish while the others passed: listed, never counted as
  // judged (docs/CMOD.md).
  for (const RandomRun& r : c.runs) {
    if (r.status != RandomStatus::Pass || !r.cross.cmod) continue;
    const auto st = r.cross.cmod->state;
    if (st != CmodVerdict::State::Refused && st != CmodVerdict::State::Timeout) continue;
    s += fmt::format("CMOD-{} {} ({}; {})\n  {}\n  reproduce: {}\n",
                     st == CmodVerdict::State::Refused ? "REFUSED" : "TIMEOUT", r.layer.name,
                     r.layer.config != nullptr ? r.layer.config->name : "?", r.layer.features, r.cross.cmod->detail,
                     r.command());
  }
  s += fmt::format("random {} --seed {} --count {}{} -j {}: {} layers in {:.1f} s ({:.1f} s of runs, {} RTL cycles)\n",
                   o.unit, o.seed, o.count, o.first != 0 ? fmt::format(" --first {}", o.first) : "", o.jobs,
                   c.runs.size(), c.seconds, cpu, cycles);
  // The first column as wide as the longest configuration name (nv_medium_1024_full).
  std::size_t width = 10;
  for (const auto& [cfg, counts] : per_config) width = std::max(width, cfg.size());
  s += fmt::format("{:<{}}", "config", width);
  for (const RandomStatus st : kStatuses) s += fmt::format(" {:>9}", random_status_name(st));
  s += "\n";
  std::map<RandomStatus, int> total;
  for (const auto& [cfg, counts] : per_config) {
    s += fmt::format("{:<{}}", cfg, width);
    for (const RandomStatus st : kStatuses) {
      const auto it = counts.find(st);
      const int n = it == counts.end() ? 0 : it->second;
      total[st] += n;
      s += fmt::format(" {:>9}", n);
    }
    s += "\n";
  }
  s += fmt::format("{:<{}}", "total", width);
  for (const RandomStatus st : kStatuses) s += fmt::format(" {:>9}", total[st]);
  s += "\n";
  if (reports_reference_counts(o.unit)) {
    s += fmt::format("int64 reference: agrees on {} layers, not applicable on {}{}\n", ref_agrees, ref_na,
                     ref_na != 0 ? " (EW LUT, EQL, inexact Winograd, fp16)" : "");
  }
  if (o.judge_cmod) {
    s += "NVIDIA C model (--judge cmod):\n";
    for (const auto& [cfg, counts] : verdicts) {
      std::string v;
      for (const auto& [state, n] : counts) v += fmt::format("{}{} {}", v.empty() ? "" : ", ", n, verdict_name(state));
      if (const auto a = adapted.find(cfg); a != adapted.end()) {
        v += fmt::format(" ({} judged with D_WEIGHT_BYTES unpadded: docs/CMOD.md)", a->second);
      }
      s += fmt::format("  {:<{}} {}\n", cfg, width, v);
    }
  }
  s += fmt::format("layers shrunk to fit CBUF: {}\n", resized);
  std::string seeds;
  for (const RandomRun& r : c.runs) {
    if (r.status != RandomStatus::Pass) seeds += fmt::format("{}{}", seeds.empty() ? "" : " ", r.layer.index);
  }
  s += fmt::format("failing layers (index): {}\n", seeds.empty() ? "none" : seeds);
  if (!o.out_dir.empty()) {
    s += fmt::format("{} layers and summary.json in {}\n", o.save_all ? "all" : "failing", o.out_dir.string());
  }
  return s;
}

nlohmann::json random_summary_json(const RandomCampaign& c) {
  nlohmann::json j;
  const auto& o = c.options;
  j["unit"] = o.unit;
  j["seed"] = o.seed;
  j["count"] = o.count;
  j["first"] = o.first;
  j["jobs"] = o.jobs;
  j["watchdog"] = o.watchdog;
  for (const auto* cfg : o.configs) j["configs"].push_back(cfg->name);
  j["seconds"] = c.seconds;
  nlohmann::json counts = nlohmann::json::object(), per_config = nlohmann::json::object();
  for (const RandomStatus st : kStatuses) counts[std::string(random_status_name(st))] = 0;
  int agrees = 0, na = 0;
  for (const RandomRun& r : c.runs) {
    const std::string st(random_status_name(r.status));
    counts[st] = counts[st].get<int>() + 1;
    const std::string cfg = r.layer.config != nullptr ? r.layer.config->name : "?";
    if (!per_config.contains(cfg)) per_config[cfg] = nlohmann::json::object();
    per_config[cfg][st] = per_config[cfg].value(st, 0) + 1;
    agrees += r.reference == "agrees";
    na += r.reference.rfind("n/a", 0) == 0;
  }
  j["counts"] = counts;
  j["per_config"] = per_config;
  if (reports_reference_counts(o.unit)) j["reference"] = {{"agrees", agrees}, {"not_applicable", na}};
  if (o.judge_cmod) {
    nlohmann::json v = nlohmann::json::object();
    for (const RandomRun& r : c.runs) {
      if (!r.cross.cmod) continue;
      const std::string cfg = r.layer.config != nullptr ? r.layer.config->name : "?";
      const std::string st(verdict_name(r.cross.cmod->state));
      if (!v.contains(cfg)) v[cfg] = nlohmann::json::object();
      v[cfg][st] = v[cfg].value(st, 0) + 1;
    }
    j["cmod"] = v;
    nlohmann::json stopped = nlohmann::json::array();
    for (const RandomRun& r : c.runs) {
      if (!r.cross.cmod || (r.cross.cmod->state != CmodVerdict::State::Refused &&
                            r.cross.cmod->state != CmodVerdict::State::Timeout)) {
        continue;
      }
      stopped.push_back({{"index", r.layer.index}, {"name", r.layer.name}, {"verdict", verdict_name(r.cross.cmod->state)},
                         {"detail", r.cross.cmod->detail}, {"file", r.file.string()}, {"command", r.command()}});
    }
    j["cmod_stopped"] = stopped;
  }
  j["failures"] = nlohmann::json::array();
  for (const RandomRun& r : c.runs) {
    if (r.status == RandomStatus::Pass) continue;
    nlohmann::json f;
    f["index"] = r.layer.index;
    f["name"] = r.layer.name;
    f["config"] = r.layer.config != nullptr ? r.layer.config->name : "";
    f["status"] = std::string(random_status_name(r.status));
    f["layer_seed"] = r.layer.seed;
    f["stall"] = r.layer.stall;
    f["rand_reset"] = r.layer.rand_reset;
    f["features"] = r.layer.features;
    f["message"] = r.message;
    f["reference"] = r.reference;
    if (r.cross.cmod) {
      f["cmod"] = {{"verdict", verdict_name(r.cross.cmod->state)}, {"detail", r.cross.cmod->detail}};
      if (!r.cross.cmod->adapted.empty()) f["cmod"]["adapted"] = r.cross.cmod->adapted;
    }
    f["file"] = r.file.string();
    f["command"] = r.command();
    j["failures"].push_back(f);
  }
  return j;
}

int random_exit_code(const RandomCampaign& c) {
  bool mismatch = false, broken = false;
  for (const RandomRun& r : c.runs) {
    mismatch |= r.status == RandomStatus::Mismatch;
    broken |= r.status == RandomStatus::Timeout || r.status == RandomStatus::Error || r.status == RandomStatus::Refused;
  }
  return broken ? static_cast<int>(ExitCode::Timeout) : mismatch ? static_cast<int>(ExitCode::Mismatch) : 0;
}

}  // namespace dla::harness

