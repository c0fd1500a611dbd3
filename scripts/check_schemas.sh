#!/usr/bin/env bash
# The JSON Schemas of testvectors/schema/ against `dlacosim validate` (issue 41): each resolves in
# a standard validator (python3-jsonschema, Draft 2020-12; self-contained, no reference to fetch),
# every bundled layer, network and suite passes both, and every unknown field -- at the top of a
# file and in each of its nested objects -- is rejected by both.
# usage: check_schemas.sh DLACOSIM SOURCE_DIR WORK_DIR
set -euo pipefail
py=/usr/bin/python3
"$py" -c "import jsonschema" 2>/dev/null ||
  { echo "FAIL: python3-jsonschema is not installed (scripts/setup.sh installs it)"; exit 1; }
exec "$py" "$2/scripts/check_schemas.py" "$1" "$2" "$3"
