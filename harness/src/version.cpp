#include "harness/version.hpp"

#include "dla_version.inc"  // generated at build time (cmake/DlaVersionScript.cmake)

namespace dla::harness {

std::string_view tool_version() { return DLA_VERSION; }
std::string_view tool_commit() { return DLA_COMMIT; }

nlohmann::json tool_json() { return {{"name", "dlacosim"}, {"version", DLA_VERSION}, {"commit", DLA_COMMIT}}; }

std::string tool_line() { return std::string("dlacosim ") + DLA_VERSION + " (commit " + DLA_COMMIT + ")"; }

}  // namespace dla::harness
