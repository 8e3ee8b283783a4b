#!/usr/bin/env bash
# The browser tests: Playwright (playwright-core from npm) driving Debian's Chromium
# against the real `calltrump serve`. Installs what is missing: Chromium with apt-get
# (Playwright's own browser download is not reachable), the npm packages with `npm ci`.
set -euo pipefail
cd "$(dirname "$0")"
E2E="$(pwd)"
ROOT="$(cd .. && pwd)"

export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=()
    elif command -v sudo >/dev/null; then
        SUDO=(sudo)
    else
        echo "Chromium is missing: run 'apt-get update && apt-get install -y chromium' as root" >&2
        exit 1
    fi
    echo "installing Debian's chromium with apt-get"
    # Another apt may hold its locks (an install already under way): wait for it, up to
    # 15 minutes; dpkg's lock is waited for by apt itself, the lists' lock by retrying.
    for attempt in $(seq 1 90); do
        "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=10 update && break
        [ "$attempt" -eq 90 ] && exit 1
        sleep 10
    done
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=900 install -y chromium
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "Node.js 20+ and npm are needed: apt-get install -y nodejs npm" >&2
    exit 1
fi
# npm ci only when the installed packages are not those of the lock file.
if ! cmp -s package-lock.json node_modules/.package-lock.json.src 2>/dev/null; then
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json node_modules/.package-lock.json.src
fi

# CALLTRUMP_BIN=PATH tests a binary built elsewhere instead of building this tree's.
if [ -z "${CALLTRUMP_BIN:-}" ]; then
    (cd "$ROOT" && cargo build --release -p calltrump)
    TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
    case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$ROOT/$TARGET_DIR" ;; esac
    export CALLTRUMP_BIN="$TARGET_DIR/release/calltrump"
fi

mkdir -p "$E2E/screenshots"
started=$(date +%s)
# One test file at a time: each starts its own server, and the machine has two cores.
# A file that fails is run once more: a test that loses a race with a loaded machine
# is named as flaky (to be fixed), a file that fails twice fails the run.
failed=()
flaky=()
for file in tests/*.test.js; do
    if node --test --test-reporter=spec "$file"; then
        continue
    fi
    echo "== $file failed; running it once more"
    if node --test --test-reporter=spec "$file"; then
        flaky+=("$file")
    else
        failed+=("$file")
    fi
done
echo "browser tests took $(( $(date +%s) - started )) s"
if [ ${#flaky[@]} -gt 0 ]; then
    echo "FLAKY (failed, then passed on a second run): ${flaky[*]}"
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED twice: ${failed[*]}" >&2
    exit 1
fi
