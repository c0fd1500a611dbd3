#!/usr/bin/env bash
# Seed corpora of the fuzz targets (docs/FUZZING.md) from the bundled files: testvectors/, the
# project's bad-input test data (tests/data/), the hand-written seeds in tests/fuzz/seeds/<target>/
# and, when ../shared/nvdla-traces is there, NVIDIA's trace tests (.cfg, input.txn, small .dat
# images, and program layers imported from a few traces when a dlacosim binary is given).
# Nothing large is copied: files over 64 KiB are skipped.
#
#   bash tests/fuzz/make_seeds.sh OUT_DIR [DLACOSIM]
#
# writes OUT_DIR/<target>/<files> (OUT_DIR is emptied first).
set -euo pipefail
out=$1
bin=${2:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
traces=$src/../shared/nvdla-traces
rm -rf "$out"
# One target per tests/fuzz/fuzz_<target>.cpp.
targets=()
for f in "$src"/tests/fuzz/fuzz_*.cpp; do t=${f##*/fuzz_}; targets+=("${t%.cpp}"); done
for t in "${targets[@]}"; do mkdir -p "$out/$t"; done

# seed TARGET FILE...: copies each file of at most 64 KiB (name made unique by its path).
seed() {
  local t=$1 f
  shift
  for f in "$@"; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] || continue
    cp "$f" "$out/$t/$(echo "${f#"$src"/}" | tr '/' '_')"
  done
}

for t in "${targets[@]}"; do seed "$t" "$src"/tests/fuzz/seeds/"$t"/*; done
# Not testvectors/layers/conv_large: layers of 3 MB of data, 2 s each to validate under ASan.
for f in "$src"/testvectors/layers/*/*.json "$src"/tests/data/bad_layers/*.json; do
  case $f in */conv_large/*) continue ;; esac
  unit=$(sed -n 's/.*"unit" *: *"\([a-z]*\)".*/\1/p' "$f" | head -1)
  [ -d "$out/layer_$unit" ] && seed "layer_$unit" "$f"
done
seed suite "$src"/testvectors/suites/*.json
seed cfg "$src"/tests/data/bad_cfg/*.cfg
seed txn "$src"/tests/data/bad_txn/*.txn
seed dat "$src"/tests/data/bad_cfg/*.dat "$src"/tests/data/bad_txn/*.dat

# NVIDIA's loadables (the small ones: all but the convolutions on nv_full, RUBIK and LeNet).
seed loadable "$src"/../shared/nvdla-sw/loadables/*_fbuf

if [ -d "$traces" ]; then
  mapfile -t cfgs < <(find "$traces" -name '*.cfg' | sort)
  seed cfg "${cfgs[@]}"
  mapfile -t txns < <(find "$traces" -name '*.txn' | sort)
  seed txn "${txns[@]}"
  mapfile -t dats < <(find "$traces" -name '*.dat' -size -8k | sort)
  seed dat "${dats[@]}"
  if [ -n "$bin" ] && [ -x "$bin" ]; then
    n=0
    for c in "${cfgs[@]}"; do
      case $c in */nv_small/*) ;; *) continue ;; esac
      "$bin" import "$c" --config nv_small >"$out/layer_program/import_$(basename "$c" .cfg).json" 2>/dev/null ||
        rm -f "$out/layer_program/import_$(basename "$c" .cfg).json"
      n=$((n + 1))
      ((n < 8)) || break
    done
    find "$out/layer_program" -size +64k -delete
  fi
fi
for t in "${targets[@]}"; do printf '%s: %s seeds\n' "$t" "$(find "$out/$t" -type f | wc -l)"; done
