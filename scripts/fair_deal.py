#!/usr/bin/env python3
"""An independent check of calltrump's fair deals (docs/fair-deals.md), in plain Python.

    scripts/fair_deal.py vectors [tests/data/fair-deal/vectors.json]
    scripts/fair_deal.py verify RECORD.json

`vectors` recomputes every test vector from its seed; `verify` checks every committed
hand of a record: the commitment, and the hands its seed and cut deal. Only the standard
library is used, so that anyone can read it against the document and run it.
"""

import hashlib
import hmac
import json
import sys

COMMIT_LABEL = b"calltrump fair deal v1 commit"
SHUFFLE_LABEL = b"calltrump fair deal v1 shuffle"
SUITS = "SHDC"
RANKS = "23456789TJQKA"


def commit(seed: bytes, table: str, hand: int) -> str:
    message = COMMIT_LABEL + seed + hand.to_bytes(8, "big") + table.encode("utf-8")
    return hashlib.sha256(message).hexdigest()


def words(seed: bytes):
    """The stream: HMAC-SHA256(seed, label || counter), 8 big-endian 32-bit words each."""
    counter = 0
    while True:
        block = hmac.new(seed, SHUFFLE_LABEL + counter.to_bytes(8, "big"), hashlib.sha256)
        digest = block.digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        counter += 1


def uniform_below(bound: int, stream) -> int:
    accepted = 2**32 - 2**32 % bound
    for word in stream:
        if word < accepted:
            return word % bound
    raise AssertionError("the stream never ends")


def shuffled(seed: bytes, deck: list) -> list:
    cards = list(deck)
    stream = words(seed)
    for i in range(len(cards) - 1, 0, -1):
        j = uniform_below(i + 1, stream)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def cut(deck: list, n: int) -> list:
    if not 1 <= n < len(deck):
        raise ValueError(f"the cut {n} is not from 1 to {len(deck) - 1}")
    return deck[n:] + deck[:n]


def game_shape(game: str, variant: str, options: dict):
    """The deck in its fixed order, the seats, the hand size, and the clockwise flag."""
    def ranks(low):
        return [r + s for s in SUITS for r in RANKS[RANKS.index(low) :]]

    if game == "kaibosh":
        return ranks("9"), 4, 6, True
    if game == "bid-euchre":
        return [c for c in ranks("J") for _ in range(2)], 4, 8, True
    if variant in (None, "kout6"):
        return ranks("2") + ["BJ", "RJ"], 6, 9, False
    deck = ranks("6") + ["BJ", "RJ"]
    if options.get("deck", "no-black-sixes") == "no-black-sixes":
        deck = [c for c in deck if c not in ("6S", "6C")]
    return deck, 4, 9, False


def deal(deck: list, seats: int, hand_size: int, dealer: int) -> list:
    hands = [[] for _ in range(seats)]
    for i, card in enumerate(deck[: seats * hand_size]):
        hands[(dealer + 1 + i) % seats].append(card)
    return [sorted(hand) for hand in hands]


def cutter(game: str, options: dict, dealer: int, seats: int) -> int:
    clockwise = game != "kout"
    side = options.get("cut", "left" if game == "kout" else "right")
    # Clockwise, the next seat in the order of play sits on the dealer's left.
    return (dealer + 1) % seats if (side == "left") == clockwise else (dealer - 1) % seats


def check_vectors(path: str) -> int:
    failures = 0
    for i, v in enumerate(json.load(open(path))):
        seed = bytes.fromhex(v["seed"])
        deck, seats, size, _ = game_shape(v["game"], v["variant"], v["options"])
        block0 = hmac.new(seed, SHUFFLE_LABEL + bytes(8), hashlib.sha256).hexdigest()
        got = {
            "commitment": commit(seed, v["table"], v["hand"]),
            "stream_block_0": block0,
            "deck": deck,
            "shuffled": shuffled(seed, deck),
            "cut_deck": cut(shuffled(seed, deck), v["cut"]),
            "cutter": cutter(v["game"], v["options"], v["dealer"], seats),
            "hands": deal(cut(shuffled(seed, deck), v["cut"]), seats, size, v["dealer"]),
        }
        for key, value in got.items():
            expected = v[key]
            if key == "hands":
                expected = [sorted(hand) for hand in expected]
            if value != expected:
                print(f"vector {i}: {key} differs")
                failures += 1
    print(f"{i + 1} vectors checked, {failures} differences")
    return 1 if failures else 0


def verify(path: str) -> int:
    record = json.load(open(path))
    game, options = record["game"], record.get("options", {})
    deck, seats, size, _ = game_shape(game, record.get("variant"), options)
    source = record.get("deal_source") or {}
    first_dealer = record.get("first_dealer") or 0
    bad = 0
    for h, hand in enumerate(record["hands"]):
        block = hand.get("fair_deal")
        dealer = (first_dealer + h) % seats
        if block is None or source.get("method") != "committed" or "seed" not in block:
            print(f"hand {h}: no committed deal with its seed revealed")
            bad += 1
            continue
        seed = bytes.fromhex(block["seed"])
        faults = []
        if commit(seed, source["table"], h) != block["commitment"].lower():
            faults.append("the seed does not match the commitment")
        hands = deal(cut(shuffled(seed, deck), block["cut"]), seats, size, dealer)
        for seat, (recorded, computed) in enumerate(zip(hand["deal"], hands)):
            if sorted(c.upper() for c in recorded) != computed:
                faults.append(f"seat {seat}'s cards differ")
        who = cutter(game, options, dealer, seats)
        print(f"hand {h}: " + ("; ".join(faults) or f"ok (dealer {dealer}, cut {block['cut']} by seat {who})"))
        bad += bool(faults)
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "vectors":
        sys.exit(check_vectors(sys.argv[2] if len(sys.argv) > 2 else "tests/data/fair-deal/vectors.json"))
    if len(sys.argv) == 3 and sys.argv[1] == "verify":
        sys.exit(verify(sys.argv[2]))
    print(__doc__)
    sys.exit(2)
