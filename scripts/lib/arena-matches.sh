# Sourced by strength.sh and strength-time.sh: plays their lists of arena matches, each
# written to its CSV as it goes and resumed from it, and prints the table of those played.
#
# The caller sets: out (the folder of the reports), deals (a number, or --table to only
# print), filter (a grep pattern over "game variant a b"), matches (an array of
# "game variant a b"), and arena_args (an array of extra `arena` arguments).

# The report's path without its extension.
match_file() {
    local a=${3/@/-at-} b=${4/@/-at-}
    echo "$out/$1-$2-$a-${b/:/}"
}

play_matches() {
    [[ $deals != --table ]] || return 0
    mkdir -p "$out"
    cargo build --release -q -p calltrump
    # A copy, so that building another version meanwhile does not change the bots mid-run.
    local bin
    bin=$(mktemp -d)/calltrump
    cp target/release/calltrump "$bin"
    local m game variant a b name
    for m in "${matches[@]}"; do
        grep -q -- "$filter" <<<"$m" || continue
        read -r game variant a b <<<"$m"
        name=$(match_file "$game" "$variant" "$a" "$b")
        # A finished match keeps its report (a resumed one lacks the contracts and times).
        if [[ -s $name.json ]] && grep -q "\"pairs\": $deals," "$name.json"; then
            continue
        fi
        "$bin" arena --game "$game" --variant "$variant" --a "$a" --b "$b" "${arena_args[@]}" \
            --deals "$deals" --seed 2026 --csv "$name.csv" --resume --json >"$name.json"
    done
}

# Prints the table; `--times` adds the bots' mean time per decision.
print_matches() {
    local times=${1:-}
    if [[ $times == --times ]]; then
        echo "| game | A | B | deals | A − B per deal | 95% CI | verdict | mean ms per decision, A / B (wall) |"
        echo "|---|---|---|---|---|---|---|---|"
    else
        echo "| game | A | B | deals | A − B per deal | 95% CI | verdict |"
        echo "|---|---|---|---|---|---|---|"
    fi
    local m game variant a b json
    for m in "${matches[@]}"; do
        grep -q -- "$filter" <<<"$m" || continue
        read -r game variant a b <<<"$m"
        json=$(match_file "$game" "$variant" "$a" "$b").json
        [[ -s $json ]] || continue
        python3 - "$json" "$times" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
d = r["difference"]
verdict = "A stronger" if d["low"] > 0 else "B stronger" if d["high"] < 0 else "not separated"
num = lambda x: f"{x:+.2f}".replace("-", "−")
row = (f'| {r["game"]} {r["variant"]} | `{r["a"]}` | `{r["b"]}` | {d["n"]} | {num(d["mean"])} '
       f'| [{num(d["low"])}, {num(d["high"])}] | {verdict} |')
if sys.argv[2] == "--times":
    # A resumed run times only the pairs it played itself.
    times = {t["bot"]: t["mean"] for t in r.get("decision_time_ms") or [] if t["decisions"]}
    row += " " + " / ".join(f'{times[k]:.0f}' if k in times else "–" for k in "AB") + " |"
print(row)
PY
    done
}
