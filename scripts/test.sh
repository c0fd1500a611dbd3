#!/usr/bin/env bash
# The tests: set up, build everything, run every test (unit, RTL cross-checks, CLI, lint and
# synthesis) through CTest.
#
#   bash scripts/test.sh [--sanitize] [CTEST ARGS...]
#
# Without options (what CI runs): the release build, build/ (GCC, -O3), the one scripts/build.sh
# makes. --sanitize: the sanitizer build, build-sanitize/ (scripts/configure-sanitize.sh: clang;
# the project's C++ under AddressSanitizer and UndefinedBehaviorSanitizer, the verilated models
# uninstrumented), running the same tests plus a few seconds of each libFuzzer target (label
# `fuzz`, tests/fuzz/CMakeLists.txt). Any sanitizer report fails the test it occurs in. It is not
# in CI: it costs about twice the CPU of the release run (docs/PERFORMANCE.md).
#
# Synthesis of further configurations of modules that another check already synthesizes is left
# to scripts/synth-all.sh (label synth_full); CI elaborates them in Yosys instead (label elab).
# Without CTEST ARGS, the RTL checks (Verilator lint, Yosys), which need nothing compiled, run
# from the start beside the configure step, the build and the other tests, from a tree of their
# own (<build>/rtl-checks, -DDLA_RTL_CHECKS_ONLY=ON, configured in about a second), two at a time
# at nice 10: they take the cores the configure step (one Verilator at a time), the build's serial
# steps (links) and the test run's tail leave idle, barely slowing the rest while it runs, and
# end on both cores; their output follows the other tests'.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=1
  shift
fi
bash scripts/setup.sh
jobs=${DLA_JOBS:-$(nproc)}
dir=build
if ((sanitize)); then dir=build-sanitize; fi
rtl_checks='^(lint|synth|elab)$'
early=0
if (($# == 0)); then
  early=1
  mkdir -p "$dir"
  cmake -S . -B "$dir/rtl-checks" -DDLA_RTL_CHECKS_ONLY=ON >"$dir/rtl-checks-configure.log" 2>&1 ||
    { cat "$dir/rtl-checks-configure.log"; exit 1; }
  (cd "$dir/rtl-checks/rtl" &&
   exec nice -n 10 ctest --output-on-failure -j "$jobs" --timeout 1800 -L "$rtl_checks" -LE synth_full) \
    >"$dir/rtl-checks.log" 2>&1 &
  early_pid=$!
  # A failed configure or build stops the script: stop the checks too.
  trap 'pkill -P "$early_pid" 2>/dev/null; kill "$early_pid" 2>/dev/null; true' EXIT
fi
if ((sanitize)); then
  bash scripts/configure-sanitize.sh
else
  source scripts/cmod-args.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${cmod_args[@]}"
fi
cd "$dir"
# Leaks are reported too (LeakSanitizer is part of AddressSanitizer on Linux); the suppressions
# name Verilator runtime allocations only, each with its reason.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
       LSAN_OPTIONS=suppressions="$PWD/../scripts/sanitize/lsan.supp"
cmake --build . -j "$jobs"
rc=0
if ((early)); then
  ctest --output-on-failure -j "$jobs" --timeout 1800 -LE "$rtl_checks|^synth_full$" || rc=$?
  early_rc=0
  wait "$early_pid" || early_rc=$?
  trap - EXIT
  echo "--- RTL checks (lint, synthesis), run beside the build ---"
  cat rtl-checks.log
  ((early_rc == 0)) || rc=$early_rc
else
  ctest --output-on-failure -j "$jobs" --timeout 1800 -LE synth_full "$@" || rc=$?
fi
exit $rc
