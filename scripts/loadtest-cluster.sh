#!/usr/bin/env bash
# The same load three ways, one after another: one node on SQLite, one node on
# PostgreSQL, three nodes on PostgreSQL (issue 26). Every node and the load test on this
# machine's loopback; a throwaway PostgreSQL (scripts/test-postgres.sh, fsync on, as
# SQLite's FULL) stopped at the end. Prints each `calltrump loadtest` report.
#   bash scripts/loadtest-cluster.sh   (TABLES, SECS, RAMP_SECS, THINK_MS to change the load;
#                                       CALLTRUMP_BIN, the binary: target/release/calltrump)
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${TABLES:-500}
secs=${SECS:-30}
ramp=${RAMP_SECS:-5}
think=${THINK_MS:-1000}
bin=$(realpath "${CALLTRUMP_BIN:-target/release/calltrump}")
dir=$(mktemp -d /tmp/calltrump-loadtest-cluster.XXXXXX)
chmod 755 "$dir"
pids=()

stop_nodes() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    pids=()
}
cleanup() {
    stop_nodes
    bash scripts/test-postgres.sh stop "$dir/pg"
    rm -rf "$dir"
}
trap cleanup EXIT

# Starts a node with ARGS, its limits on loopback clients off; sets $addr.
node() {
    local out="$dir/node-${#pids[@]}-$RANDOM.out"
    "$bin" serve --addr 127.0.0.1:0 --bot-delay-ms 0 --max-connections 1000000 \
        --max-connections-per-address 0 --creates-per-minute 0 "$@" >"$out" 2>/dev/null &
    pids+=($!)
    for _ in $(seq 1 100); do
        addr=$(sed -n 's|^calltrump is serving at http://\([^/]*\)/.*|\1|p' "$out")
        [ -n "$addr" ] && return
        sleep 0.1
    done
    echo "a node did not start: $*" >&2
    exit 1
}

# Runs the load test against the nodes at ADDR...
load() {
    local urls=()
    for a in "$@"; do urls+=(--url "http://$a"); done
    echo "\$ calltrump loadtest --tables $tables --secs $secs --ramp-secs $ramp --think-ms $think ${urls[*]}"
    "$bin" loadtest --tables "$tables" --secs "$secs" --ramp-secs "$ramp" --think-ms "$think" "${urls[@]}"
    echo
}

url=$(CALLTRUMP_PG_FSYNC=on bash scripts/test-postgres.sh start "$dir/pg")
psql=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql
for db in one three; do
    "$psql" -q "$url" -c "CREATE DATABASE $db"
done
server=${url%/*}

echo "== one node on SQLite (--sqlite-synchronous full)"
node --data "$dir/sqlite"
load "$addr"
stop_nodes

echo "== one node on PostgreSQL (fsync on, synchronous_commit on)"
node --database "$server/one"
load "$addr"
stop_nodes

echo "== three nodes on PostgreSQL"
nodes=()
for n in 1 2 3; do
    node --database "$server/three" --node "node-$n"
    nodes+=("$addr")
done
load "${nodes[@]}"
