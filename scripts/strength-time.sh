#!/usr/bin/env bash
# Strength against thinking time: each search level given 1x, 3x and 10x its default
# mean time per decision (`LEVEL@TIME`, the thread's CPU time) against the level at its
# fixed default budget, and `expert@1s` against `expert@100ms`, on duplicate deals
# (seed 2026). Like strength.sh, each match writes docs/strength/time/NAME.csv as it
# goes (one thread, so its pairs are in order) and is resumed from it: stop it when you
# must and run it again. Prints the table of what has been played.
#
#   scripts/strength-time.sh [DEALS|--table] [MATCH_FILTER]
#
# DEALS defaults to 1000; --table only prints the table. MATCH_FILTER (a grep pattern over
# "game variant a b") picks matches, e.g. `scripts/strength-time.sh 1000 'kaibosh.*140ms'`.
#
# The default mean times, CPU per decision with a choice, 20 hands with the level in every
# seat (`cargo run --release -p calltrump-bots --example decision_times -- LEVEL GAME
# [VARIANT] 20`, first line): hard 2.8 ms in Kaibosh, 7.4 / 7.3 ms in Bid Euchre alexa /
# simplified; expert 13.9 ms, 42.8 / 44.2 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${1:-1000}
filter=${2:-.}
out=docs/strength/time

matches=()
# game variant level default-ms
for row in "kaibosh standard hard 3" "kaibosh standard expert 14" \
    "bid-euchre alexa hard 7" "bid-euchre alexa expert 43" \
    "bid-euchre simplified hard 7" "bid-euchre simplified expert 44"; do
    read -r game variant level ms <<<"$row"
    for times in 1 3 10; do
        matches+=("$game $variant $level@$((ms * times))ms $level")
    done
done
for variant in "kaibosh standard" "bid-euchre alexa" "bid-euchre simplified"; do
    matches+=("$variant expert@1s expert@100ms")
done

if [[ $deals != --table ]]; then
    mkdir -p "$out"
    cargo build --release -q -p calltrump
    bin=$(mktemp -d)/calltrump
    cp target/release/calltrump "$bin"
fi
file() { echo "$out/$1-$2-${3/@/-at-}-${4/@/-at-}"; }
for m in "${matches[@]}"; do
    [[ $deals != --table ]] || break
    grep -q -- "$filter" <<<"$m" || continue
    read -r game variant a b <<<"$m"
    name=$(file "$game" "$variant" "$a" "$b")
    if [[ -s $name.json ]] && grep -q "\"pairs\": $deals," "$name.json"; then
        continue
    fi
    "$bin" arena --game "$game" --variant "$variant" --a "$a" --b "$b" --threads 1 \
        --deals "$deals" --seed 2026 --csv "$name.csv" --resume --json >"$name.json"
done

echo "| game | A | B | deals | A − B per deal | 95% CI | verdict | mean ms per decision, A / B (wall) |"
echo "|---|---|---|---|---|---|---|---|"
for m in "${matches[@]}"; do
    grep -q -- "$filter" <<<"$m" || continue
    read -r game variant a b <<<"$m"
    json=$(file "$game" "$variant" "$a" "$b").json
    [[ -s $json ]] || continue
    python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
d = r["difference"]
verdict = "A stronger" if d["low"] > 0 else "B stronger" if d["high"] < 0 else "not separated"
# A resumed run times only the pairs it played itself.
times = {t["bot"]: t["mean"] for t in r.get("decision_time_ms") or [] if t["decisions"]}
ms = " / ".join(f'{times[k]:.0f}' if k in times else "–" for k in "AB")
num = lambda x: f"{x:+.2f}".replace("-", "−")
print(f'| {r["game"]} {r["variant"]} | `{r["a"]}` | `{r["b"]}` | {d["n"]} | {num(d["mean"])} '
      f'| [{num(d["low"])}, {num(d["high"])}] | {verdict} | {ms} |')
PY
done
