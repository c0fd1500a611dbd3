// Which configuration an NVDLA trace runs on (docs/TRACES.md "Configuration"): from --config, or
// from the trace itself -- the NVDLA build folder its path names and the register map it writes --
// and never a silent default.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/nvdla_cfg.hpp"

namespace dla::harness {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The configuration a build folder name stands for: "" for a build of NVDLA this project does not
// model; nullopt for a name that is no NVDLA build.
std::optional<std::string> build_of(const std::string& name) {
  if (name == "nvdlav1") return "nv_full";  // NVDLA v1's own nv_full (its trace-player tests)
  if (golden::find_config(name) != nullptr) return name;
  // master's spec/defs names: nv_small, nv_small_256, nv_small_256_full, nv_medium_512, ...
  static const std::regex kBuild("nv_(small|medium|large|full)(_[0-9]+)?(_full)?");
  if (std::regex_match(name, kBuild)) return "";
  return std::nullopt;
}

}  // namespace

bool is_trace_file(const std::filesystem::path& path) {
  const auto ext = path.extension();
  return ext == ".cfg" || ext == ".txn";
}

Program import_trace(const std::filesystem::path& path, const std::string& config) {
  return path.extension() == ".txn" ? import_nvdla_txn(path, config) : import_nvdla_cfg(path, config);
}

TraceConfig trace_config(const std::filesystem::path& path, const std::optional<std::string>& given) {
  const std::vector<std::string> modeled = golden::config_names();
  // The build folder nearest the file (../nvdla-traces/nv_large/dc_x/dc_x.cfg: nv_large).
  std::string folder, from_path;  // the folder's name, its configuration ("" if not modeled)
  for (auto dir = std::filesystem::absolute(path).lexically_normal().parent_path(); !dir.empty();) {
    if (const auto b = build_of(dir.filename().string())) {
      folder = dir.filename().string();
      from_path = *b;
      break;
    }
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  if (given) {
    if (golden::find_config(*given) == nullptr) {
      throw InputError("--config", *given, fmt::format("unknown configuration (known: {})", join(modeled)));
    }
    TraceConfig t{*given, "--config", ""};
    if (!folder.empty() && from_path != *given) {
      t.warning = fmt::format("{} lies in the folder of NVDLA build {}{}; it runs on --config {} as asked", path.string(),
                              folder, from_path.empty() || from_path == folder ? "" : " (" + from_path + ")", *given);
    }
    return t;
  }
  if (!folder.empty() && from_path.empty()) {
    throw InputError(path.string(), "",
                     fmt::format("a trace of NVDLA build {} (its folder), which dlacosim does not model; the "
                                 "configurations it models: {}",
                                 folder, join(modeled)));
  }
  // The register map: the configurations whose map holds every register the trace writes (a .txn
  // addresses registers in NVDLA v1's map: nv_full).
  std::vector<std::string> fits;
  std::optional<InputError> first_error;
  for (const auto& c : modeled) {
    if (path.extension() == ".txn" && !golden::find_config(c)->nvdlav1_map) continue;
    try {
      (void)import_trace(path, c);
      fits.push_back(c);
    } catch (const InputError& e) {
      if (!first_error) first_error = e;
    }
  }
  if (fits.empty()) {
    if (first_error) throw *first_error;  // malformed, or no configuration has its registers
    throw InputError(path.string(), "", "no configuration this build models has the trace's register map");
  }
  if (!from_path.empty()) {
    if (std::find(fits.begin(), fits.end(), from_path) == fits.end()) {
      throw InputError(path.string(), "",
                       fmt::format("its folder names NVDLA build {}, but {}'s register map lacks registers it writes "
                                   "(fits: {}); give --config",
                                   folder, from_path, join(fits)));
    }
    return {from_path, fmt::format("its folder names NVDLA build {}", folder), ""};
  }
  if (fits.size() == 1) return {fits[0], "the only configuration whose register map it fits", ""};
  throw InputError(path.string(), "",
                   fmt::format("cannot tell which configuration the trace is for: its path names no NVDLA build "
                               "folder (nv_small, nv_large, nvdlav1 ...) and its registers fit {}; give --config "
                               "with one of them",
                               join(fits)));
}

}  // namespace dla::harness
