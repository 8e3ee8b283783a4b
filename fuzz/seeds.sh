#!/usr/bin/env bash
# Writes the fuzz targets' seed corpora from real games: decide messages of every
# variant (protocol_line) and game records (record). Run from fuzz/ with a built
# `calltrump` on PATH or in CALLTRUMP.
set -euo pipefail
calltrump=${CALLTRUMP:-calltrump}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p seeds/protocol_line seeds/record seeds/game_actions
cat > "$dir/log.py" <<'PY'
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2, "name": "seeds"}), flush=True)
    elif m["type"] == "bye":
        break
    elif m["type"] == "decide":
        log.write(line)
        print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)
PY
n=0
for gv in "kaibosh standard" "bid-euchre alexa" "bid-euchre simplified" "kout kout6" "kout kout4"; do
  set -- $gv
  : > "$dir/decide.log"
  others=random,random,random
  [ "$2" = kout6 ] && others=random,random,random,random,random
  "$calltrump" simulate --game "$1" --variant "$2" --games 1 --max-deals 2 --seed 7 \
    --bots "ext:python3 $dir/log.py $dir/decide.log,$others" > /dev/null
  # Every fourth decision of the first seat, and a session of all of them.
  awk 'NR % 4 == 1' "$dir/decide.log" | while IFS= read -r line; do
    n=$((n + 1)); printf '%s\n' "$line" > "seeds/protocol_line/$2-$n"
  done
  { echo '{"type":"hello","protocol":2,"seat":0}'; cat "$dir/decide.log"; echo '{"type":"bye"}'; } \
    > "seeds/protocol_line/$2-session"
  "$calltrump" simulate --game "$1" --variant "$2" --games 2 --max-deals 3 --seed 7 --bots random \
    --records "$dir/records.jsonl" > /dev/null
  i=0
  while IFS= read -r record; do
    i=$((i + 1)); printf '%s\n' "$record" > "seeds/record/$2-$i.json"
  done < "$dir/records.jsonl"
done
# game_actions: a few byte strings that pick each variant.
for v in 0 1 2 3 4; do
  head -c 256 /dev/urandom | { printf "\\x$(printf %02x $v)\\x01"; cat; } > "seeds/game_actions/variant-$v"
done
echo "seeds: $(ls seeds/protocol_line | wc -l) protocol lines, $(ls seeds/record | wc -l) records"
