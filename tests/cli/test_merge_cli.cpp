// dlacosim merge: regress shards run in parallel and merged equal the unsharded run.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace fs = std::filesystem;
using dla::test::dlacosim;

namespace {

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

// Wall time is the only field that may differ between two runs of the same entries.
nlohmann::json without_seconds(nlohmann::json results) {
  for (auto& r : results) r.erase("seconds");
  return results;
}

}  // namespace

TEST_CASE("merge of 4 parallel shards equals the unsharded regress run", "[cli][merge]") {
  const fs::path dir = fs::temp_directory_path() / "dlacosim_merge_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string suite = std::string(DLA_SOURCE_DIR) + "/testvectors/suites/smoke.json";
  const std::string bin = std::string(DLA_BINARY_DIR) + "/harness/dlacosim";

  const auto whole = dlacosim("regress " + suite + " -j 1 --json " + (dir / "whole.json").string());
  REQUIRE(whole.exit == 0);

  std::string parallel = "bash -c '";
  for (int i = 0; i < 4; ++i) {
    parallel += bin + " regress " + suite + " -j 1 --shard " + std::to_string(i) + "/4 --json " +
                (dir / ("shard" + std::to_string(i) + ".json")).string() + " >/dev/null 2>&1 & ";
  }
  parallel += "wait'";
  REQUIRE(std::system(parallel.c_str()) == 0);

  std::string shards;
  for (int i = 0; i < 4; ++i) shards += " " + (dir / ("shard" + std::to_string(i) + ".json")).string();
  const auto merged = dlacosim("merge" + shards + " --name smoke --json " + (dir / "merged.json").string() +
                               " --junit " + (dir / "merged.xml").string());
  INFO(merged.out);
  REQUIRE(merged.exit == 0);
  CHECK(merged.out.find("5 passed, 0 failed") != std::string::npos);

  const auto w = read_json(dir / "whole.json").at("results");
  const auto mf = read_json(dir / "merged.json");
  const auto m = mf.at("results");
  REQUIRE(w.size() == 5);
  CHECK(without_seconds(m) == without_seconds(w));
  // The merged file: the shards' planned runs add up; their elapsed times too.
  CHECK(mf.at("runs_planned") == 5);
  CHECK(mf.at("interrupted") == false);
  CHECK(mf.at("elapsed_seconds").is_number());
  // Every shard holds only its own entries (index modulo 4), so the merge had real work to do.
  for (int i = 0; i < 4; ++i) {
    for (const auto& r : read_json(dir / ("shard" + std::to_string(i) + ".json")).at("results")) {
      CHECK(r.at("suite_index").get<int>() % 4 == i);
    }
  }
  std::ifstream xml(dir / "merged.xml");
  const std::string junit((std::istreambuf_iterator<char>(xml)), std::istreambuf_iterator<char>());
  CHECK(junit.find("tests=\"5\" failures=\"0\" errors=\"0\"") != std::string::npos);

}

TEST_CASE("merge refuses overlapping shards, results without a suite index and malformed files", "[cli][merge]") {
  const fs::path dir = fs::temp_directory_path() / "dlacosim_merge_bad_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string suite = std::string(DLA_SOURCE_DIR) + "/testvectors/suites/smoke.json";
  const std::string shard = (dir / "shard3.json").string();
  REQUIRE(dlacosim("regress " + suite + " -j 1 --shard 3/4 --json " + shard).exit == 0);

  const auto overlap = dlacosim("merge " + shard + " " + shard);
  CHECK(overlap.exit == 2);
  CHECK(overlap.out.find("shards overlap") != std::string::npos);

  const std::string single = (dir / "single.json").string();
  REQUIRE(dlacosim("run " + std::string(DLA_SOURCE_DIR) + "/testvectors/layers/sdp/small_relu.json --json " + single)
              .exit == 0);
  const auto no_index = dlacosim("merge " + single);
  CHECK(no_index.exit == 2);
  CHECK(no_index.out.find("no suite_index") != std::string::npos);

  std::ofstream(dir / "bad.json") << R"([{"name": "x"}])";
  const auto bad = dlacosim("merge " + (dir / "bad.json").string());
  CHECK(bad.exit == 2);
  CHECK(bad.out.find("bad.json") != std::string::npos);
  CHECK(bad.out.find("/0") != std::string::npos);

  const auto absent = dlacosim("merge " + (dir / "absent.json").string());
  CHECK(absent.exit == 2);
  CHECK(absent.out.find("absent.json") != std::string::npos);
}
