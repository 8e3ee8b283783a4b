#!/usr/bin/env bash
# Strength against thinking time: each search level given 1x, 3x and 10x its default
# mean time per decision (`LEVEL@TIME`, the thread's CPU time) against the level at its
# fixed default budget, and `expert@1s` against `expert@100ms`, on duplicate deals
# (seed 2026). Like strength.sh, each match writes docs/strength/time-bank9/NAME.csv as it
# goes (one thread, so its pairs are in order) and is resumed from it: stop it when you
# must and run it again. Prints the table of what has been played with the bots of now
# (timed bots carry the time a clear decision leaves to the next ones, up to nine times
# their time), then the rows played with earlier bots, marked so: docs/strength/time-bank
# (a bank of four times), docs/strength/time-play (before the bank) and
# docs/strength/time (before the timed bots also weighed their deals by the play). Then
# `tree@160ms` (expert's play by ISMCTS rooted in its sampled deals) compared deal by
# deal with `expert@160ms` (scripts/paired.py).
#
#   scripts/strength-time.sh [DEALS|--table] [MATCH_FILTER]
#
# DEALS defaults to 1000; --table only prints the table. MATCH_FILTER (a grep pattern over
# "game variant a b") picks matches, e.g. `scripts/strength-time.sh 1000 'kaibosh.*160ms'`.
#
# The default mean times, CPU per decision with a choice, 20 hands with the level in every
# seat (`cargo run --release -p calltrump-bots --example decision_times -- LEVEL GAME
# [VARIANT] 20`, first line, with close calls extended): hard 4.7 ms in Kaibosh, 9.6 /
# 9.6 ms in Bid Euchre alexa / simplified; expert 16.0 ms, 34.2 / 32.0 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${1:-1000}
filter=${2:-.}
out=docs/strength/time-bank9

matches=()
# game variant level default-ms
for row in "kaibosh standard hard 5" "kaibosh standard expert 16" \
    "bid-euchre alexa hard 10" "bid-euchre alexa expert 34" \
    "bid-euchre simplified hard 10" "bid-euchre simplified expert 32"; do
    read -r game variant level ms <<<"$row"
    for times in 1 3 10; do
        matches+=("$game $variant $level@$((ms * times))ms $level")
    done
done
for variant in "kaibosh standard" "bid-euchre alexa" "bid-euchre simplified"; do
    matches+=("$variant expert@1s expert@100ms")
done
# expert's card play by ISMCTS rooted in its sampled deals (`tree`), at 10x expert's time.
matches+=("kaibosh standard tree@160ms expert")

# One thread, so that each report's pairs are in order.
arena_args=(--threads 1)
# shellcheck source=lib/arena-matches.sh
source scripts/lib/arena-matches.sh
play_matches
echo "With the bots of now:"
print_matches --times
current=$out
now=("${matches[@]}")
for earlier in "docs/strength/time-bank:with a bank of four times the time (predates the bank of nine and extended close calls)" \
    "docs/strength/time-play:before timed bots carried unused time (predates the bank)" \
    "docs/strength/time:before timed bots read the play (predates the bank too)"; do
    out=${earlier%%:*}
    # The matches of then, as their reports name them (their times differ from now's).
    mapfile -t matches < <(python3 -c '
import json, sys
for path in sys.argv[1:]:
    r = json.load(open(path))
    print(r["game"], r["variant"], r["a"], r["b"])' "$out"/*.json)
    echo
    echo "Played with earlier bots, ${earlier#*:}:"
    print_matches --times
done
out=$current
matches=("${now[@]}")

# The rooted tree against PIMC's play at the same time, deal by deal (the same calls).
pimc=$(match_file kaibosh standard expert@160ms expert).csv
tree=$(match_file kaibosh standard tree@160ms expert).csv
if [[ -s $pimc && -s $tree ]]; then
    echo "kaibosh standard tree@160ms against expert@160ms: $(python3 scripts/paired.py "$pimc" "$tree")"
fi
