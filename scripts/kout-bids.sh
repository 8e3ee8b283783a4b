#!/usr/bin/env bash
# Kout Bo auctions: for each level (every seat), the share of contracts at each bid and
# how often each is made, over GAMES whole games of self-play (seed 31), from
# `calltrump simulate --json`'s contracts. The reports go to DIR, reused if there.
#
#   scripts/kout-bids.sh [GAMES] [DIR] [CALLTRUMP]
set -euo pipefail
games=${1:-20}
dir=${2:-target/kout-bids}
bin=${3:-}
cd "$(dirname "$0")/.."
if [[ -z $bin ]]; then
    cargo build --release -q -p calltrump
    bin=target/release/calltrump
fi
mkdir -p "$dir"
for variant in kout6 kout4; do
    for level in easy medium hard expert; do
        json="$dir/$variant-$level-$games.json"
        [[ -s $json ]] || "$bin" simulate --game kout --variant "$variant" --bots "$level" \
            --games "$games" --seed 31 --json >"$json"
    done
done
python3 - "$dir" "$games" <<'PY'
import json, sys
dir, games = sys.argv[1], sys.argv[2]
for variant in ["kout6", "kout4"]:
    reports = {l: json.load(open(f"{dir}/{variant}-{l}-{games}.json"))
               for l in ["easy", "medium", "hard", "expert"]}
    names = sorted({c for r in reports.values() for c in r["contracts"]},
                   key=lambda c: (len(c), c))
    print(f"\n{variant}, {games} games each: contracts at each bid (share), made %")
    print("| level | hands | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for level, r in reports.items():
        total = sum(c["bid"] for c in r["contracts"].values())
        cells = []
        for n in names:
            c = r["contracts"].get(n, {"bid": 0, "made": 0})
            cells.append("–" if not c["bid"] else
                         f'{c["bid"]} ({100 * c["bid"] / total:.0f}%), {100 * c["made"] / c["bid"]:.0f}% made')
        print(f'| `{level}` | {r["hands"]} | ' + " | ".join(cells) + " |")
PY
