#include "harness/layer.hpp"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <limits>

#include "golden/arith.hpp"
#include "harness/files.hpp"
#include "harness/interrupt.hpp"
#include "harness/rng.hpp"
#include "harness/engine.hpp"
#include "harness/bench.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness {

const std::vector<UnitHandler>& unit_handlers() {
  static const std::vector<UnitHandler> k = engines::all_handlers();
  return k;
}

namespace {

const UnitHandler& handler_for(const JsonNode& unit_node) {
  const std::string unit = unit_node.as_string();
  std::string list;
  for (const auto& h : unit_handlers()) {
    if (h.unit == unit) return h;
    list += (list.empty() ? "" : ", ") + std::string(h.unit);
  }
  unit_node.fail(fmt::format("unknown unit \"{}\" (known: {})", unit, list));
}

// A layer that failed validation still reports what its file says (unit, configuration, name, the
// seed and stall a run would have used), as far as its JSON can be read: its BAD-INPUT header
// must not show seed=0 for a layer whose seed is 11.
void header_of_bad_layer(const std::filesystem::path& file, const RunOptions& opt, RunResult& r) {
  try {
    const auto doc = parse_json_file(file);
    const nlohmann::json& j = JsonNode::root(doc).raw();
    if (!j.is_object() || !j.contains("unit") || !j["unit"].is_string()) return;
    r.unit = j["unit"].get<std::string>();
    r.config = opt.config.value_or(j.contains("config") && j["config"].is_string() ? j["config"].get<std::string>() : "?");
    if (j.contains("name") && j["name"].is_string() && !j["name"].get<std::string>().empty()) r.name = j["name"].get<std::string>();
    r.seed = opt.seed.value_or(j.contains("seed") && j["seed"].is_number_unsigned() ? j["seed"].get<uint64_t>() : 1);
    r.stall = opt.stall.value_or(j.contains("stall") && j["stall"].is_number() ? j["stall"].get<double>() : 0.0);
  } catch (...) {  // not even readable JSON: the header says the file never ran
  }
}

}  // namespace

LoadedLayer load_layer(const std::filesystem::path& file) {
  LoadedLayer l;
  l.doc = parse_json_file(file);
  const JsonNode root = l.root();
  if (!root.is_object()) root.fail("a layer file must hold a JSON object");
  l.header.file = file;
  const JsonNode unit = root.require("unit");
  const UnitHandler& h = handler_for(unit);
  l.header.unit = std::string(h.unit);
  l.header.name = root.get("name") ? root.require("name").as_string() : file.stem().string();
  if (l.header.name.empty()) root.require("name").fail("must not be empty");
  const JsonNode cfg = root.require("config");
  std::string names;
  for (const auto& n : golden::config_names()) names += (names.empty() ? "" : ", ") + n;
  l.header.config = golden::find_config(cfg.as_string());
  if (l.header.config == nullptr) cfg.fail(fmt::format("unknown configuration \"{}\" (known: {})", cfg.as_string(), names));
  if (const auto s = root.get("seed")) l.header.seed = s->as_u64();
  if (const auto s = root.get("stall")) l.header.stall = s->as_double(0.0, 0.95);
  h.validate(l.header, root);
  return l;
}

RunResult run_layer(const std::filesystem::path& file, const RunOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r;
  r.layer_file = file.string();
  r.name = file.stem().string();
  r.mode = opt.mode;
  r.rand_reset = opt.sim.rand_reset;
  try {
    LoadedLayer l = load_layer(file);
    if (opt.config) {
      l.header.config = golden::find_config(*opt.config);
      if (l.header.config == nullptr) throw InputError("--config", "", "unknown configuration \"" + *opt.config + "\"");
      handler_for(l.root().require("unit")).validate(l.header, l.root());
    }
    if (opt.seed) l.header.seed = *opt.seed;
    if (opt.stall) l.header.stall = *opt.stall;
    // The flip reaches a datapath unit's output vector; units judged on memory do not have one,
    // and ignoring the option would report a PASS for a self-test that never ran.
    if (const engines::Engine* e = engines::find_engine(l.header.unit); opt.flip && (e == nullptr || !e->flip_bit)) {
      std::vector<std::string> with;
      for (const engines::Engine& x : engines::engines()) {
        if (x.flip_bit) with.emplace_back(x.name);
      }
      throw InputError("--flip-bit", "",
                       fmt::format("applies to {} layers (a datapath's output vector); {} layers are "
                                   "judged on memory, which the flip does not reach",
                                   engines::join_and(with), l.header.unit));
    }
    if ((!opt.stop_after.empty() || !opt.wave_layer.empty()) && l.header.unit != "network") {
      throw InputError(!opt.stop_after.empty() ? "--stop-after" : "--wave-layer", "",
                       fmt::format("applies to network files; this is a {} layer", l.header.unit));
    }
    r.name = l.header.name;
    r.unit = l.header.unit;
    r.config = l.header.config->name;
    r.seed = l.header.seed;
    r.stall = l.header.stall;
    const RunResult unit_result = handler_for(l.root().require("unit")).run(l.header, l.root(), opt);
    r.status = unit_result.status;
    r.message = unit_result.message;
    r.cycles = unit_result.cycles;
    r.launch_cycle = unit_result.launch_cycle;
    r.work = unit_result.work;
    r.dma = unit_result.dma;
    r.compares = unit_result.compares;
    r.cmod = unit_result.cmod;
  } catch (const InputError& e) {
    r.status = Status::BadInput;
    r.message = e.what();
    if (r.unit.empty()) header_of_bad_layer(file, opt, r);
  } catch (const SimTimeout& e) {
    r.status = Status::Timeout;
    r.message = e.what();
    r.cycles = e.cycle();
  } catch (const SimInterrupted& e) {  // SIGINT / SIGTERM: the run did not finish
    r.status = Status::Error;
    r.abandoned = true;
    r.cycles = e.cycle;
    r.message = fmt::format("interrupted by {} at cycle {} of {}", stop_signal_name(), e.cycle, e.unit);
  } catch (const std::exception& e) {
    r.status = Status::Error;
    r.message = std::string("internal error: ") + e.what();
  }
  r.seconds = seconds_since(t0);
  return r;
}

std::vector<int64_t> resolve_values(const JsonNode& node, std::size_t count, int element_bytes, int64_t min,
                                    int64_t max, uint64_t seed) {
  node.allow_keys({"random", "values", "file"});
  const int sources = (node.get("random") ? 1 : 0) + (node.get("values") ? 1 : 0) + (node.get("file") ? 1 : 0);
  if (sources != 1) node.fail("give exactly one of \"random\", \"values\" or \"file\"");
  std::vector<int64_t> out;
  out.reserve(count);
  if (const auto rnd = node.get("random")) {
    rnd->allow_keys({"min", "max"});
    const int64_t lo = rnd->get("min") ? rnd->require("min").as_int(min, max) : min;
    const int64_t hi = rnd->get("max") ? rnd->require("max").as_int(min, max) : max;
    if (lo > hi) rnd->fail(fmt::format("min {} is greater than max {}", lo, hi));
    Rng rng = Rng::derive(seed, node.pointer());
    for (std::size_t i = 0; i < count; ++i) out.push_back(rng.range(lo, hi));
  } else if (const auto vals = node.get("values")) {
    if (vals->size() != count) {
      vals->fail(fmt::format("{} values given, the layer needs exactly {}", vals->size(), count));
    }
    for (const auto& v : vals->items()) out.push_back(v.as_int(min, max));
  } else {
    const JsonNode f = node.require("file");
    const std::filesystem::path p = node.file().parent_path() / f.as_string();
    std::vector<uint8_t> bytes;
    try {
      bytes = read_gzip_file(p);
    } catch (const InputError& e) {
      f.fail(fmt::format("{}: {}", p.string(), e.rule()));
    }
    const std::size_t need = count * static_cast<std::size_t>(element_bytes);
    if (bytes.size() != need) {
      f.fail(fmt::format("{} holds {} bytes, the layer needs exactly {} ({} values of {} bytes)", p.string(),
                         bytes.size(), need, count, element_bytes));
    }
    for (std::size_t i = 0; i < count; ++i) {
      uint64_t u = 0;
      for (int b = 0; b < element_bytes; ++b) u |= uint64_t{bytes[i * element_bytes + b]} << (8 * b);
      const int64_t v = golden::sign_extend(u, 8 * element_bytes);
      if (v < min || v > max) f.fail(fmt::format("value {} at index {} is out of range [{}, {}]", v, i, min, max));
      out.push_back(v);
    }
  }
  return out;
}

namespace {

// An fp16 pattern's place in the order of values (+0 and -0 both 0), and back (+0).
int64_t fp16_key(uint16_t h) { return (h & 0x8000u) != 0 ? -int64_t{h & 0x7fffu} : int64_t{h}; }
uint16_t fp16_of_key(int64_t k) { return static_cast<uint16_t>(k < 0 ? 0x8000 | -k : k); }

// The fp16 holding v exactly, if any.
std::optional<uint16_t> exact_fp16(double v) {
  if (!std::isfinite(v)) return std::nullopt;
  const uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  const double a = std::fabs(v);
  if (a == 0) return sign;
  int e = 0;
  (void)std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  if (e - 1 > 15) return std::nullopt;
  if (e - 1 < -14) {  // denormal: a multiple of 2^-24 below 2^-14
    const double m = std::ldexp(a, 24);
    if (m != std::floor(m)) return std::nullopt;
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(m));
  }
  const double m = std::ldexp(a, 11 - e);  // 11 significant bits
  if (m != std::floor(m)) return std::nullopt;
  return static_cast<uint16_t>(sign | static_cast<uint16_t>((e - 1 + 15) << 10) | (static_cast<uint16_t>(m) - 1024u));
}

}  // namespace

namespace {

// A float register or datum of `bits` (16 or 32) as its bit pattern: "inf", "-inf", "nan", a hex
// pattern of bits / 4 digits, or a number `exact` holds exactly (else the rule `holds` is named).
uint32_t parse_float_pattern(const JsonNode& node, int bits, std::optional<uint32_t> (*exact)(double),
                             const char* holds) {
  const std::string name = bits == 16 ? "fp16" : "fp32";
  const std::string hex = "0x" + std::string(static_cast<std::size_t>(bits / 4), 'H');
  if (node.is_string()) {
    const std::string s = node.as_string();
    const uint32_t exp_all = bits == 16 ? 0x7c00u : 0x7f800000u, sign = bits == 16 ? 0x8000u : 0x80000000u;
    if (s == "inf") return exp_all;
    if (s == "-inf") return sign | exp_all;
    if (s == "nan") return exp_all | (exp_all >> 1 & ~exp_all);  // the quiet NaN: the mantissa's top bit
    if (s.size() == hex.size() && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
        s.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos) {
      return static_cast<uint32_t>(std::stoul(s.substr(2), nullptr, 16));
    }
    node.fail(fmt::format("\"{}\" is not an {} value: give a number, \"{}\" (the bit pattern), \"inf\", \"-inf\" or "
                          "\"nan\"",
                          s, name, hex));
  }
  const double v = node.as_double(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
  const std::optional<uint32_t> p = exact(v);
  if (!p) {
    node.fail(fmt::format("{} is not an {} value ({} holds {}); give an exact value or its bit pattern \"{}\"", v, name,
                          name, holds, hex));
  }
  return *p;
}

std::optional<uint32_t> exact_fp32(double v) {
  const auto f = static_cast<float>(v);
  if (!std::isfinite(f) || static_cast<double>(f) != v) return std::nullopt;
  return std::bit_cast<uint32_t>(f);
}

std::optional<uint32_t> exact_fp16_pattern(double v) {
  const std::optional<uint16_t> h = exact_fp16(v);
  return h ? std::optional<uint32_t>(*h) : std::nullopt;
}

}  // namespace

uint16_t parse_fp16(const JsonNode& node) {
  return static_cast<uint16_t>(parse_float_pattern(
      node, 16, &exact_fp16_pattern, "11 significant bits, magnitudes up to 65504 and multiples of 2^-24"));
}

uint32_t parse_fp32(const JsonNode& node) {
  return parse_float_pattern(node, 32, &exact_fp32, "24 significant bits");
}

nlohmann::json values_json(const std::vector<int64_t>& v, golden::Precision p) {
  if (p != golden::Precision::Fp16) return nlohmann::json{{"values", v}};
  nlohmann::json a = nlohmann::json::array();
  for (const int64_t x : v) a.push_back(fmt::format("{:#06x}", static_cast<uint16_t>(x)));
  return nlohmann::json{{"values", std::move(a)}};
}

std::vector<int64_t> resolve_fp16_values(const JsonNode& node, std::size_t count, uint64_t seed) {
  node.allow_keys({"random", "values", "file"});
  const int sources = (node.get("random") ? 1 : 0) + (node.get("values") ? 1 : 0) + (node.get("file") ? 1 : 0);
  if (sources != 1) node.fail("give exactly one of \"random\", \"values\" or \"file\"");
  std::vector<int64_t> out;
  out.reserve(count);
  const auto finite = [](const JsonNode& n) {
    const uint16_t h = parse_fp16(n);
    if ((h & 0x7c00u) == 0x7c00u) n.fail("a random range needs finite bounds");
    return h;
  };
  if (const auto rnd = node.get("random")) {
    rnd->allow_keys({"min", "max", "specials"});
    const int64_t lo = rnd->get("min") ? fp16_key(finite(rnd->require("min"))) : fp16_key(0xc000);  // -2
    const int64_t hi = rnd->get("max") ? fp16_key(finite(rnd->require("max"))) : fp16_key(0x4000);  // 2
    if (lo > hi) rnd->fail("min is greater than max");
    const double specials = rnd->get("specials") ? rnd->require("specials").as_double(0.0, 1.0) : 0.0;
    Rng rng = Rng::derive(seed, node.pointer());
    // Specials come from a stream of their own: the drawn values stay those without them.
    Rng srng = Rng::derive(seed, node.pointer() + "/specials");
    static constexpr uint16_t kSpecials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x0001, 0x8001, 0x03ff,
                                             0x7bff, 0xfbff, 0x0400};
    for (std::size_t i = 0; i < count; ++i) {
      uint16_t h = fp16_of_key(rng.range(lo, hi));
      if (specials > 0 && srng.chance(specials)) {
        // One in three a NaN of random sign and payload, else an edge value.
        h = srng.chance(1.0 / 3) ? static_cast<uint16_t>(0x7c00 | (srng.chance(0.5) ? 0x8000 : 0) | static_cast<int>(srng.range(1, 0x3ff)))
                                 : kSpecials[static_cast<std::size_t>(srng.range(0, static_cast<int64_t>(std::size(kSpecials)) - 1))];
      }
      out.push_back(golden::sign_extend(h, 16));
    }
  } else if (const auto vals = node.get("values")) {
    if (vals->size() != count) {
      vals->fail(fmt::format("{} values given, the layer needs exactly {}", vals->size(), count));
    }
    for (const auto& v : vals->items()) out.push_back(golden::sign_extend(parse_fp16(v), 16));
  } else {
    out = resolve_values(node, count, 2, -32768, 32767, seed);  // any 16-bit pattern
  }
  return out;
}

}  // namespace dla::harness
