#!/usr/bin/env bash
# The bot levels' rating anchors: whole-game matches between neighbouring levels of each
# game, kept as the arena's CSV files in crates/server/data/anchors/, from which the
# server rates each level (crates/server/src/rating/anchors.rs). The matches are seeded,
# so running this again writes the same files.
#   bash scripts/bot-anchors.sh [PATH/TO/calltrump]   (default: target/release/calltrump)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/calltrump}
out=crates/server/data/anchors
pairs=${ANCHOR_PAIRS:-6}
mkdir -p "$out"
for game in kaibosh bid-euchre kout; do
  for match in easy:medium medium:hard hard:expert; do
    a=${match%%:*} b=${match##*:}
    rm -f "$out/$game-$a-$b.csv"
    nice -n 10 "$bin" arena --game "$game" --a "$a" --b "$b" --games "$pairs" \
      --seed 0 --threads 1 --csv "$out/$game-$a-$b.csv" >/dev/null
    echo "$game $a-$b: $(($(wc -l < "$out/$game-$a-$b.csv") - 2)) pairs"
  done
done
