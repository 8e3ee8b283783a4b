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

if [[ $deals != --table ]]; then
    mkdir -p "$out"
    cargo build --release -q -p calltrump
    # A copy, so that building another version meanwhile does not change the bots mid-run.
    bin=$(mktemp -d)/calltrump
    cp target/release/calltrump "$bin"
fi
for m in "${matches[@]}"; do
    [[ $deals != --table ]] || break
    grep -q -- "$filter" <<<"$m" || continue
    read -r game variant a b <<<"$m"
    name="$out/$game-$variant-$a-${b/:/}"
    # A finished match keeps its report (a resumed one lacks the contracts and times).
    if [[ -s $name.json ]] && grep -q "\"pairs\": $deals," "$name.json"; then
        continue
    fi
    "$bin" arena --game "$game" --variant "$variant" --a "$a" --b "$b" \
        --deals "$deals" --seed 2026 --csv "$name.csv" --resume --json >"$name.json"
done

echo "| game | A | B | deals | A − B per deal | 95% CI | verdict |"
echo "|---|---|---|---|---|---|---|"
for m in "${matches[@]}"; do
    grep -q -- "$filter" <<<"$m" || continue
    read -r game variant a b <<<"$m"
    json="$out/$game-$variant-$a-${b/:/}.json"
    [[ -s $json ]] || continue
    python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
d = r["difference"]
verdict = "A stronger" if d["low"] > 0 else "B stronger" if d["high"] < 0 else "not separated"
print(f'| {r["game"]} {r["variant"]} | `{r["a"]}` | `{r["b"]}` | {d["n"]} | {d["mean"]:+.2f} '
      f'| [{d["low"]:+.2f}, {d["high"]:+.2f}] | {verdict} |')
PY
done
