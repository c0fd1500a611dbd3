// The engine registry (harness/include/harness/engine.hpp): the generated list, sorted and checked once.
#include "harness/engine.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace dla::harness::engines {

const std::vector<Engine>& engines() {
  static const std::vector<Engine> k = [] {
    std::vector<Engine> v = registered_engines();
    std::stable_sort(v.begin(), v.end(), [](const Engine& a, const Engine& b) { return a.order < b.order; });
    std::set<std::string_view> names;
    for (const Engine& e : v) {
      if (!names.insert(e.name).second) throw std::logic_error(fmt::format("engine \"{}\" registered twice", e.name));
    }
    return v;
  }();
  return k;
}

const Engine* find_engine(std::string_view name) {
  for (const Engine& e : engines()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const std::vector<const RtlTop*>& rtl_tops() {
  static const std::vector<const RtlTop*> k = [] {
    std::vector<const RtlTop*> v;
    for (const Engine& e : engines()) {
      for (const RtlTop& t : e.rtl_tops) v.push_back(&t);
    }
    std::stable_sort(v.begin(), v.end(), [](const RtlTop* a, const RtlTop* b) { return a->order < b->order; });
    return v;
  }();
  return k;
}

const RtlTop& rtl_top(std::string_view name) {
  for (const RtlTop* t : rtl_tops()) {
    if (t->name == name) return *t;
  }
  throw std::logic_error(fmt::format("no RTL top \"{}\" registered", name));
}

namespace {

std::vector<std::string> top_list(const RtlTop& top, std::vector<std::string_view> Engine::*list) {
  std::vector<std::string> out;
  for (const std::string_view n : top.engines) {
    const Engine* e = find_engine(n);
    if (e == nullptr) throw std::logic_error(fmt::format("RTL top {} names no engine \"{}\"", top.name, n));
    for (const std::string_view b : e->*list) out.emplace_back(b);
  }
  return out;
}

}  // namespace

std::vector<std::string> top_blocks(const RtlTop& top) { return top_list(top, &Engine::blocks); }

const RtlTop* rtl_top_for(const std::vector<std::string>& blocks) {
  for (const RtlTop* top : rtl_tops()) {
    const std::vector<std::string> have = top_blocks(*top);
    if (std::all_of(blocks.begin(), blocks.end(),
                    [&have](const std::string& b) { return std::find(have.begin(), have.end(), b) != have.end(); })) {
      return top;
    }
  }
  return nullptr;
}
std::vector<std::string> top_interrupts(const RtlTop& top) { return top_list(top, &Engine::interrupts); }

bool engine_exists_on(const Engine& e, const golden::HwConfig& cfg) {
  if (e.needs_register == nullptr) return true;
  const RegDb& db = RegDb::nvdla();
  return db.address(cfg.name, *db.find(e.needs_register)).has_value();
}

std::string join_and(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return s;
}

std::vector<const Engine*> bench_engines() {
  std::vector<const Engine*> v;
  for (const Engine& e : engines()) {
    if (e.bench) v.push_back(&e);
  }
  return v;
}

std::vector<const Engine*> random_engines() {
  std::vector<const Engine*> v;
  for (const Engine& e : engines()) {
    if (e.random) v.push_back(&e);
  }
  std::stable_sort(v.begin(), v.end(), [](const Engine* a, const Engine* b) { return a->random->order < b->random->order; });
  return v;
}

}  // namespace dla::harness::engines

namespace dla::harness {

// The first registered top (RtlTop::order) whose blocks hold every block the
// program enables: nvdla_core runs SDP, PDP and the convolution pipeline, alone or together (and
// a program enabling nothing); CDP, BDMA and RUBIK alone have their own; RUBIK with nvdla_core
// blocks (deconvolution) runs on both tops over one memory.
std::unique_ptr<Device> make_rtl_device(const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                        const RunOptions& opt, std::string& why) {
  if (const engines::RtlTop* top = engines::rtl_top_for(blocks)) return top->make(blocks, cfg, opt);
  // Name every top with its blocks, from the registry, so the message stays true as tops are added.
  std::vector<std::string> tops;
  for (const engines::RtlTop* t : engines::rtl_tops()) {
    tops.push_back(fmt::format("{} ({})", t->name, engines::join_and(engines::top_blocks(*t))));
  }
  why = fmt::format("the program enables {}, and no RTL top of this build has them all; the tops are {}",
                    engines::join_and(blocks), fmt::join(tops, "; "));
  return nullptr;
}

}  // namespace dla::harness
