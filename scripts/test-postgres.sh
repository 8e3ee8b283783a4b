#!/usr/bin/env bash
# A throwaway PostgreSQL for the server's tests, in a folder of its own.
#   bash scripts/test-postgres.sh start DIR   initdb into DIR, start postgres on a free
#                                             loopback port, print its URL (stdout only)
#   bash scripts/test-postgres.sh stop DIR    stop it and remove DIR
# Trust authentication, loopback only, its socket in DIR; run as the `postgres` user
# when root (PostgreSQL refuses root). fsync is off: the data is thrown away, and the
# tests check what is committed, not the disk (CALLTRUMP_PG_FSYNC=on keeps it on, for
# measurements to compare with SQLite's FULL). Installs Debian's postgresql if missing.
set -euo pipefail

command=${1:?start or stop}
dir=${2:?a folder}

# Runs a PostgreSQL program as the `postgres` user when root, else as ourselves.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

bin_dir() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

case "$command" in
start)
    if [ -z "$(bin_dir)" ]; then
        if [ "$(id -u)" -eq 0 ]; then
            SUDO=()
        elif command -v sudo >/dev/null; then
            SUDO=(sudo)
        else
            echo "PostgreSQL is missing: run 'apt-get install -y postgresql' as root, or set CALLTRUMP_TEST_POSTGRES" >&2
            exit 1
        fi
        echo "installing Debian's postgresql with apt-get" >&2
        # Another apt may hold its locks: wait for it (as e2e/run.sh does).
        for attempt in $(seq 1 90); do
            "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=10 update >&2 && break
            [ "$attempt" -eq 90 ] && exit 1
            sleep 10
        done
        DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=900 \
            install -y postgresql >&2
    fi
    bin=$(bin_dir)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    durability="-c fsync=off -c full_page_writes=off"
    [ "${CALLTRUMP_PG_FSYNC:-off}" = on ] && durability=""
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
        -o "-h 127.0.0.1 -p $port -k $dir $durability -c max_connections=300" \
        start >&2 || { cat "$dir/postgres.log" >&2; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    bin=$(bin_dir)
    if [ -n "$bin" ] && [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
