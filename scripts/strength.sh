#!/usr/bin/env bash
# Plays the strength table of the README: for every variant, each pair of levels (and
# `expert` against the ISMCTS baseline) over DEALS duplicate deals, seed 2026. Each
# match writes docs/strength/GAME-VARIANT-A-B.csv as it goes and is resumed from it, so
# the script can be stopped and run again (on another day, or another machine, with the
# same calltrump) and only the missing deals are played. Prints the table at the end.
#
#   scripts/strength.sh [DEALS|--table] [PAIR_FILTER]
#
# DEALS defaults to 2000; --table only prints the table of the matches finished so far.
# PAIR_FILTER (a grep pattern over "game variant a b") picks some matches, e.g.
# `scripts/strength.sh 2000 'kaibosh.*expert'`.
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${1:-2000}
filter=${2:-.}
out=docs/strength

matches=()
# Cheapest first: a stopped run has then finished the most matches.
for pair in "medium easy" "hard medium" "expert hard" "expert ismcts:1000"; do
    for variant in "kaibosh standard" "bid-euchre alexa" "bid-euchre simplified" "kout kout6" "kout kout4"; do
        matches+=("$variant $pair")
    done
done

arena_args=()
# shellcheck source=lib/arena-matches.sh
source scripts/lib/arena-matches.sh
play_matches
print_matches
