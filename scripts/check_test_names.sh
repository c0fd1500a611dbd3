#!/usr/bin/env bash
# Catch test names must not contain '[', ']' or ';': catch_discover_tests then merges the test
# with every later one into a single CTest entry whose filter matches nothing (it "passes").
# Nor may they start with '-': Catch2 then reads the name CTest passes it as an option and fails.
# Arguments: the folders to search (tests/ and engines/).
set -euo pipefail
bad=$(grep -rnoE 'TEST_CASE\("([^"]*[][;][^"]*|-[^"]*)"' "${@:-tests}" || true)
if [ -n "$bad" ]; then
  echo "test names with '[', ']' or ';', or starting with '-' (rename them):"
  echo "$bad"
  exit 1
fi
echo "test names ok"
