#!/usr/bin/env bash
# Every test: the module graphs, the Rust workspace (unit, rules, invariants, CLI, server
# over real sockets, on SQLite and on a throwaway PostgreSQL), then the browser tests
# (Playwright driving Debian's Chromium), installing what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# No circle among the modules of any crate.
python3 scripts/module_cycles.py crates/engine/src crates/bots/src crates/table/src crates/play/src \
    crates/server/src crates/cli/src
# A throwaway PostgreSQL for the server's PostgreSQL tests, unless one is given.
if [ -z "${CALLTRUMP_TEST_POSTGRES:-}" ]; then
    pg_dir=$(mktemp -d /tmp/calltrump-pg.XXXXXX)
    trap 'bash scripts/test-postgres.sh stop "$pg_dir"' EXIT
    CALLTRUMP_TEST_POSTGRES=$(bash scripts/test-postgres.sh start "$pg_dir")
    export CALLTRUMP_TEST_POSTGRES
fi
cargo test --workspace --release --no-fail-fast
bash e2e/run.sh
