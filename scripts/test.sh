#!/usr/bin/env bash
# Every test: the Rust workspace (unit, rules, invariants, CLI, server over real sockets),
# then the browser tests (Playwright driving Debian's Chromium), installing what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --release
bash e2e/run.sh
