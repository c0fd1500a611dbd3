#!/usr/bin/env bash
# Installs what dlacosim needs on Debian 12, only what is missing. Safe to run repeatedly.
set -euo pipefail

# chromium: CTest cli:html-report-in-browser renders an HTML report in it (headless).
# clang-14, libclang-rt-14-dev: clang and libFuzzer for scripts/fuzz.sh (docs/FUZZING.md).
# python3-jsonschema: CTest cli:schemas-as-strict-as-validate checks testvectors/schema/ with it;
# gtkwave's fst2vcd: the wave tests and cli:interrupts-keep-work read the FST files with it.
# libflatbuffers-dev, flatbuffers-compiler: NVDLA loadables (docs/LOADABLES.md; flatc at build time).
packages=(g++ make cmake ccache verilator catch2 nlohmann-json3-dev libboost-program-options-dev
          zlib1g-dev libfmt-dev gtkwave chromium clang-14 libclang-rt-14-dev python3-jsonschema
          libflatbuffers-dev flatbuffers-compiler)
# NVIDIA's C model (docs/CMOD.md), built where an nvdla/hw checkout is at hand (scripts/cmod-args.sh):
# SystemC; java, perl's XML::Simple and python3 run NVIDIA's register-header generator.
if [ -n "${DLA_NVDLA_HW:-}" ] || [ -d "$(dirname "$0")/../../shared/nvdla-hw" ]; then
  packages+=(libsystemc-dev default-jre-headless libxml-simple-perl python3)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js may come from another source than Debian (a nodesource build bundles npm, and Debian's
# npm package then conflicts with it): look for the commands, not the packages.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Yosys 0.55 for the synthesis checks comes from npm (@yowasp/yosys), pinned by its lock file.
bash "$(dirname "$0")/synth/install.sh"
