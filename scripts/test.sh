#!/usr/bin/env bash
# Every test: the module graphs, the Rust workspace (unit, rules, invariants, CLI, server
# over real sockets), then the browser tests (Playwright driving Debian's Chromium),
# installing what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# No circle among the modules of the engine, the bots and the table library.
python3 scripts/module_cycles.py crates/engine/src crates/bots/src crates/table/src
cargo test --workspace --release
bash e2e/run.sh
