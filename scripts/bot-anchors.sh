#!/usr/bin/env bash
# The bot levels' rating anchors: whole-game matches between neighbouring levels of each
# game, kept as the arena's CSV files in crates/server/data/anchors/, from which the
# server rates each level (crates/server/src/rating/anchors.rs). The matches are seeded,
# so running this again writes the same files; a file with fewer pairs than asked is
# extended (the arena's --resume plays only the missing pairs, the same as a fresh run).
# The shipped files have 30 pairs a match for Kaibosh and 24 for Kout and Bid Euchre
# (each pair two games, the teams swapped): what this writes unless told otherwise.
#   [ANCHOR_PAIRS=N] [ANCHOR_GAMES="kaibosh kout"] bash scripts/bot-anchors.sh [PATH/TO/calltrump]
#   (default: every game, each its shipped pairs; target/release/calltrump)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/calltrump}
out=crates/server/data/anchors
mkdir -p "$out"
for game in ${ANCHOR_GAMES:-kaibosh bid-euchre kout}; do
  case $game in kaibosh) shipped=30 ;; *) shipped=24 ;; esac
  pairs=${ANCHOR_PAIRS:-$shipped}
  for match in easy:medium medium:hard hard:expert; do
    a=${match%%:*} b=${match##*:}
    resume=()
    [ -f "$out/$game-$a-$b.csv" ] && resume=(--resume)
    nice -n 15 "$bin" arena --game "$game" --a "$a" --b "$b" --games "$pairs" \
      --seed 0 --threads 1 --csv "$out/$game-$a-$b.csv" "${resume[@]}" >/dev/null
    echo "$game $a-$b: $(($(wc -l < "$out/$game-$a-$b.csv") - 2)) pairs"
  done
done
