#!/usr/bin/env bash
# The framework never includes an engine (docs/ARCHITECTURE.md, issue 36): nothing under
# harness/src, harness/include/harness or harness/cli includes a header of engines/ or of the
# multi-engine tops (harness/tops/); it reaches engines through the registry (harness/engine.hpp).
# Argument: the project root.
set -euo pipefail
root=${1:-.}
bad=$(cd "$root" && grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(engines|tops)/' \
        harness/src harness/include/harness harness/cli || true)
if [ -n "$bad" ]; then
  echo "the framework includes an engine or a top (reach it through the engine registry instead):"
  echo "$bad"
  exit 1
fi
echo "framework includes no engine"
