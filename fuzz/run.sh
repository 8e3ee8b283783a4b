#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 600), from its seeds, and prints
# libFuzzer's closing figures. Needs cargo-fuzz (`cargo install cargo-fuzz`) and a
# nightly toolchain (`cargo +nightly`; or RUSTC_BOOTSTRAP=1 with stable, see
# docs/fuzzing.md). A crash is kept in fuzz/artifacts/TARGET/ and stops the run.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
toolchain=${FUZZ_TOOLCHAIN:-+nightly}
for target in protocol_line record game_actions; do
  mkdir -p "corpus/$target"
  echo "== $target, ${seconds}s"
  cargo $toolchain fuzz run "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 2>&1 |
    grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)|#[0-9]+ +DONE|SUMMARY|panicked'
done
