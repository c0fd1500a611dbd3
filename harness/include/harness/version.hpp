// The tool's version (CMake's project version) and the git commit it was built from ("+local-changes"
// when the tree had uncommitted changes; "unknown" outside a git checkout): `dlacosim --version`
// and every results file (JSON, JUnit, HTML).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dla::harness {

[[nodiscard]] std::string_view tool_version();
[[nodiscard]] std::string_view tool_commit();
// {"name": "dlacosim", "version": ..., "commit": ...}
[[nodiscard]] nlohmann::json tool_json();
// "dlacosim 0.1.0 (commit 69d081a...)"
[[nodiscard]] std::string tool_line();

}  // namespace dla::harness
