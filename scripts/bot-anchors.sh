#!/usr/bin/env bash
# The bot levels' rating anchors: whole-game matches between neighbouring levels of each
# game, kept as the arena's CSV files in crates/server/data/anchors/, from which the
# server rates each level (crates/server/src/rating/anchors.rs). The matches are seeded,
# so running this again writes the same files; a file with fewer pairs than ANCHOR_PAIRS
# is extended (the arena's --resume plays only the missing pairs, the same as a fresh run).
#   ANCHOR_PAIRS=30 [ANCHOR_GAMES="kaibosh kout"] bash scripts/bot-anchors.sh [PATH/TO/calltrump]
#   (default: 30 pairs, each two games; target/release/calltrump)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/calltrump}
out=crates/server/data/anchors
pairs=${ANCHOR_PAIRS:-30}
mkdir -p "$out"
for game in ${ANCHOR_GAMES:-kaibosh bid-euchre kout}; do
  for match in easy:medium medium:hard hard:expert; do
    a=${match%%:*} b=${match##*:}
    resume=()
    [ -f "$out/$game-$a-$b.csv" ] && resume=(--resume)
    nice -n 15 "$bin" arena --game "$game" --a "$a" --b "$b" --games "$pairs" \
      --seed 0 --threads 1 --csv "$out/$game-$a-$b.csv" "${resume[@]}" >/dev/null
    echo "$game $a-$b: $(($(wc -l < "$out/$game-$a-$b.csv") - 2)) pairs"
  done
done
