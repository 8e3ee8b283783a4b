#!/usr/bin/env python3
"""Two arena matches over the same duplicate deals (same game, seed and B), compared deal
by deal: the mean of (NEW's difference - OLD's difference) on the deals both played, with
its 95% interval. Pairing removes the luck of the cards that both matches share.

    scripts/paired.py OLD.csv NEW.csv
"""
import csv
import math
import sys


def differences(path):
    with open(path) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {int(r["index"]): float(r["difference"]) for r in rows}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    old, new = differences(sys.argv[1]), differences(sys.argv[2])
    common = sorted(old.keys() & new.keys())
    if len(common) < 2:
        sys.exit(f"only {len(common)} deals in both files")
    d = [new[i] - old[i] for i in common]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    num = lambda x: f"{x:+.2f}".replace("-", "−")
    old_mean = sum(old[i] for i in common) / n
    new_mean = sum(new[i] for i in common) / n
    print(f"{n} deals: old {num(old_mean)}, new {num(new_mean)}, "
          f"new − old {num(mean)} [{num(mean - half)}, {num(mean + half)}]")


main()
