#!/usr/bin/env bash
# Auction mistakes and blunders per 100 auction decisions of bots' self-play, as
# `calltrump analyze` marks them: GAMES games of LEVEL in every seat (seed 31), every
# game's auction decisions judged at SAMPLES deals per card play (calls get 60 per 150
# of them). Records and analyses go to DIR, reused if already there.
#
#   scripts/auction-marks.sh LEVEL GAMES [SAMPLES] [GAME VARIANT] [DIR] [CALLTRUMP]
#
# e.g. `scripts/auction-marks.sh expert 10 300` (alexa Bid Euchre, the issue's measure).
set -euo pipefail
level=$1
games=$2
samples=${3:-300}
game=${4:-bid-euchre}
variant=${5:-alexa}
dir=${6:-target/auction-marks}
bin=${7:-}
cd "$(dirname "$0")/.."
if [[ -z $bin ]]; then
    cargo build --release -q -p calltrump
    bin=target/release/calltrump
fi
run="$dir/$game-$variant-$level-$games"
mkdir -p "$run"
[[ -s $run/records.jsonl ]] ||
    "$bin" simulate --game "$game" --variant "$variant" --bots "$level" --games "$games" \
        --seed 31 --records "$run/records.jsonl" --json >"$run/simulate.json"
n=0
while IFS= read -r line; do
    out="$run/game-$n-s$samples.json"
    if [[ ! -s $out ]]; then
        printf '%s\n' "$line" >"$run/game-$n.json"
        "$bin" analyze "$run/game-$n.json" --samples "$samples" --json >"$out.part"
        mv "$out.part" "$out"
    fi
    n=$((n + 1))
done <"$run/records.jsonl"
python3 - "$run" "$samples" "$level" <<'PY'
import glob, json, math, sys
run, samples, level = sys.argv[1], sys.argv[2], sys.argv[3]
decisions = marked = mistakes = blunders = 0
for path in sorted(glob.glob(f"{run}/game-*-s{samples}.json")):
    for hand in json.load(open(path))["hands"]:
        for d in hand["decisions"]:
            if d["phase"] != "auction" or d["forced"]:
                continue
            decisions += 1
            mistakes += d["mark"] == "mistake"
            blunders += d["mark"] == "blunder"
marked = mistakes + blunders
rate = 100 * marked / max(decisions, 1)
p = marked / max(decisions, 1)
half = 196 * math.sqrt(p * (1 - p) / max(decisions, 1))
print(f"{level}: {decisions} auction decisions, {mistakes} mistakes, {blunders} blunders: "
      f"{rate:.1f} per 100 [{max(rate - half, 0):.1f}, {rate + half:.1f}]")
PY
