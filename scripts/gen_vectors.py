"""Generate the conformance vectors ``spec/vectors/*.jsonl`` from the reference.

Every vector is a request and the answer :func:`moonrules.conformance.protocol.handle` gives
to it, with the clauses of ``spec/rules.md`` the case exercises. Nothing in a
vector file is written by hand: the requests are chosen here (exhaustively where
the domain is small, from seeded random draws and seeded random games where it is
not) and the answers are the reference's. Each file starts with a provenance
header: the generator, the moonrules version, the protocol version, the number of
vectors and the SHA-256 of the rest of the file.

``tests/test_vectors.py`` regenerates every file in memory and fails on any
difference. When a change to the rules engine or the protocol is intended,
regenerate the files and review the diff::

    python scripts/gen_vectors.py            # write spec/vectors/*.jsonl
    python scripts/gen_vectors.py --check    # exit 1 if a file differs
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import moonrules as m  # noqa: E402
from moonrules.conformance import protocol  # noqa: E402
from moonrules.game import (  # noqa: E402
    Bid,
    Discard,
    GameState,
    NameTrump,
    Pass,
    Phase,
    Play,
    apply_renege,
    illegal_play_reason,
)
from moonrules.records.record import JSON, call_json, to_record  # noqa: E402
from moonrules.rules.auction import Auction, apply_call, legal_calls  # noqa: E402
from moonrules.rules.ruleset import ALIASES, FirstLead, RuleSet  # noqa: E402
from moonrules.rules.suits import Trump, in_suit, is_trump, led_suit  # noqa: E402
from moonrules.rules.tiles import Tile  # noqa: E402
from moonrules.rules.tricks import trick_winner  # noqa: E402

GENERATOR = "scripts/gen_vectors.py"
VECTOR_DIR = ROOT / "spec" / "vectors"
FILES = ("errors", *protocol.OPS)
"""The vector files, by stem: one per operation, and ``errors`` for faults common to all."""

PRESETS = tuple(m.PRESETS)
Vector = dict[str, JSON]


# ---------------------------------------------------------------------------
# Collecting vectors


class Vectors:
    """The vectors of every file, in the order made; names are unique."""

    def __init__(self) -> None:
        self.files: dict[str, list[Vector]] = {f: [] for f in FILES}
        self.names: set[str] = set()

    def add(
        self,
        file: str,
        name: str,
        request: JSON,
        *,
        tags: Iterable[str] = (),
        raw: bool = False,
        keep_id: bool = False,
    ) -> Vector:
        """Add the vector of ``request`` (an id is given unless ``keep_id``)."""
        name = f"{file}/{name}"
        assert name not in self.names, name
        self.names.add(name)
        vectors = self.files[file]
        if raw:
            answer = json.loads(protocol.handle_line(request))
        else:
            if isinstance(request, dict) and not keep_id:
                request = {"id": len(vectors) + 1, **request}
            answer = json.loads(protocol.encode(protocol.handle(request)))
        clauses = set(tags)
        if answer["ok"] or answer["error"]["rule"]:
            clauses |= protocol.request_clauses(request, answer)
        vector: Vector = {"name": name}
        if raw:
            vector["raw"] = True
        vector.update(request=request, expected=answer, clauses=sorted(clauses, key=clause_key))
        vectors.append(vector)
        return vector

    def unique(self, file: str, stem: str) -> str:
        """``stem``, or ``stem/2``, ``stem/3``… if taken."""
        n = 1
        name = stem
        while f"{file}/{name}" in self.names:
            n += 1
            name = f"{stem}/{n}"
        return name


def clause_key(clause: str) -> tuple[str, int]:
    prefix, _, number = clause.partition("-")
    return prefix, int(number)


def trump_json(trump: Trump) -> JSON:
    return trump.to_json()


def tname(trump: Trump) -> str:
    return f"trump-{trump}"


def tiles_json(ts: Iterable[Tile]) -> list[str]:
    return [str(t) for t in ts]


def rules_request(preset: str) -> dict[str, JSON]:
    """The request's rules member: none for the standard rules, to test the default."""
    return {} if preset == "standard" else {"rules": preset}


# ---------------------------------------------------------------------------
# errors


def gen_errors(v: Vectors) -> None:
    f = "errors"
    raw_lines = {
        "bad-json/empty-line": "",
        "bad-json/blank-line": "   ",
        "bad-json/not-json": "nope",
        "bad-json/unclosed-object": '{"id": 1, "op": "tiles"',
        "bad-json/trailing-text": '{"id": 1, "op": "tiles"} x',
        "bad-json/single-quotes": "{'id': 1, 'op': 'tiles'}",
        "bad-json/nan": '{"id": 1, "op": "tiles", "x": NaN}',
        "bad-json/infinity": '{"id": 1, "op": "game_winner", "scores": [Infinity, 0, 0]}',
        "bad-json/a-list": '[{"id": 1, "op": "tiles"}]',
        "bad-json/a-string": '"tiles"',
        "bad-json/a-number": "42",
        "bad-json/null": "null",
        "bad-json/true": "true",
    }
    for name, line in raw_lines.items():
        v.add(f, name, line, raw=True)
    for name, value in {"list": [1, 2], "string": "tiles", "number": 7, "null": None}.items():
        v.add(f, f"bad-json/request-is-{name}", value)

    v.add(f, "bad-request/no-op", {"trump": 6})
    for name, op in {"number": 3, "null": None, "list": ["tiles"], "bool": True}.items():
        v.add(f, f"bad-request/op-is-{name}", {"op": op})
    for op in ("deal", "Tiles", "legal-plays", "", "tiles "):
        v.add(f, f"unknown-op/{op or 'empty'}", {"op": op})

    samples = {
        "tiles": {},
        "led_suit": {"trump": 6, "tile": "6-4"},
        "legal_plays": {"trump": 6, "hand": ["6-4", "3-3"], "trick": ["5-2"]},
        "trick_winner": {"trump": 6, "trick": ["5-2", "6-4", "3-3"]},
        "legal_bids": {"bids": ["pass", 5]},
        "auction": {"bids": ["pass", 5]},
        "score_hand": {"bidder": 1, "bid": 5, "tricks": [1, 5, 1]},
        "game_winner": {"scores": [21, 3, 4]},
        "replay": {"record": {"rules": "standard", "hands": [_SAMPLE_HAND]}},
        "view": {"record": {"rules": "standard", "hands": [_SAMPLE_HAND]}, "seat": 0},
    }
    for op, fields in samples.items():
        v.add(f, f"ok/{op}", {"op": op, **fields})
        v.add(f, f"bad-request/{op}/unknown-field", {"op": op, **fields, "colour": "red"})
        for missing in protocol.OPS[op].required:
            rest = {k: x for k, x in fields.items() if k != missing}
            v.add(f, f"bad-request/{op}/missing-{missing}", {"op": op, **rest})

    # ids are echoed whatever their value; no id answers with null
    ids: dict[str, JSON] = {
        "zero": 0,
        "negative": -12,
        "fraction": 2.5,
        "text": "abc",
        "unicode": "ü✓",
        "empty-text": "",
        "null": None,
        "true": True,
        "list": [1, "two", None],
        "object": {"seat": 2, "tags": ["x"]},
    }
    for name, rid in ids.items():
        v.add(f, f"id/{name}", {"id": rid, "op": "tiles"}, keep_id=True)
        v.add(f, f"id/{name}/on-error", {"id": rid, "op": "led_suit", "trump": 6}, keep_id=True)
    v.add(f, "id/absent", {"op": "tiles"}, keep_id=True)
    v.add(f, "id/absent/on-error", {"op": "nope"}, keep_id=True)

    # rules: names, aliases, objects
    for name in (*PRESETS, *ALIASES):
        v.add(f, f"rules/name/{name}", {"op": "tiles", "rules": name})
    v.add(f, "rules/name/upper-case", {"op": "tiles", "rules": "PAGAT"})
    v.add(f, "rules/name/underscore", {"op": "tiles", "rules": "lead_trump"})
    for name in ("chess", "", "standard-plus", "moon"):
        v.add(f, f"unknown-rules/{name or 'empty'}", {"op": "tiles", "rules": name})
    for name, value in {"number": 3, "null": None, "list": ["standard"], "bool": True}.items():
        v.add(f, f"bad-request/rules-is-{name}", {"op": "tiles", "rules": value})
    objects: dict[str, JSON] = {
        "ok/empty-object": {},
        "ok/partnership-fields": {"players": 4, "tile_set": "double-six-28"},
        "ok/no-moon": {"moon": False},
        "ok/trump-numbers-subset": {"trump_numbers": [5, 6], "no_trump": False},
        "ok/target-50": {"target": 50},
        "bad-request/unknown-field": {"colours": 3},
        "bad-request/players-text": {"players": "4"},
        "bad-request/players-bool": {"players": True},
        "bad-request/players-fraction": {"players": 3.5},
        "bad-request/moon-number": {"moon": 1},
        "bad-request/tile-set-unknown": {"tile_set": "double-nine-55"},
        "bad-request/scoring-upper-case": {"scoring": "Marks"},
        "bad-request/trump-numbers-not-list": {"trump_numbers": 6},
        "bad-request/trump-numbers-text": {"trump_numbers": ["6"]},
        "illegal/four-players-22-tiles": {"players": 4},
        "illegal/three-players-28-tiles": {"tile_set": "double-six-28"},
        "illegal/five-players": {"players": 5},
        "illegal/after-trump-without-widow": {
            "tile_set": "no-double-blank-21",
            "widow_timing": "after-trump",
        },
        "illegal/target-zero": {"target": 0},
        "illegal/min-bid-6": {"min_bid": 6},
        "illegal/trump-0-with-21-tiles": {"tile_set": "no-double-blank-21", "trump_numbers": [0]},
        "illegal/trump-number-7": {"trump_numbers": [7]},
        "illegal/no-trump-offered": {
            "trump_numbers": [],
            "doubles_trump": False,
            "no_trump": False,
        },
    }
    for name, value in objects.items():
        v.add(
            f,
            f"rules/object/{name}",
            {"op": "tiles", "rules": value},
            tags=("RULES-1",) if name.startswith("illegal") else (),
        )


_SAMPLE_HAND = {
    "first_bidder": 0,
    "deal": [
        ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "5-5"],
        ["5-4", "5-3", "5-2", "5-1", "4-4", "4-3", "4-2"],
        ["4-1", "3-3", "3-2", "3-1", "2-2", "2-1", "1-1"],
    ],
    "widow": "0-0",
    "bids": [7, "pass", "pass"],
}


# ---------------------------------------------------------------------------
# tiles


def gen_id_range(v: Vectors) -> None:
    """The ids every engine must echo exactly (spec/protocol.md, section 2): integers within
    plus or minus 2**53 - 1 (what a double holds exactly, as in JavaScript), long and
    non-ASCII strings, and values built of them, on an answer and on a refusal."""
    f = "errors"
    top = 2**53 - 1
    ids: dict[str, JSON] = {
        "largest-integer": top,
        "smallest-integer": -top,
        "long-text": "moon-" * 200,
        "escapes": 'tab\tquote"backslash\\',
        "nested-integers": {"run": 7, "ids": [top, -top, "x"]},
    }
    for name, rid in ids.items():
        v.add(f, f"id/{name}", {"id": rid, "op": "tiles"}, keep_id=True)
        v.add(f, f"id/{name}/on-error", {"id": rid, "op": "tiles", "x": 1}, keep_id=True)


def gen_tiles(v: Vectors) -> None:
    for preset in PRESETS:
        v.add("tiles", preset, {"op": "tiles", **rules_request(preset)})
    v.add(
        "tiles",
        "rules-object/three-player-21",
        {"op": "tiles", "rules": {"tile_set": "no-double-blank-21"}},
    )
    v.add(
        "tiles",
        "illegal/rules-object/21-tiles-four-players",
        {"op": "tiles", "rules": {"players": 4, "tile_set": "no-double-blank-21"}},
    )


# ---------------------------------------------------------------------------
# led_suit

MALFORMED_TILES: dict[str, JSON] = {
    "no-hyphen": "64",
    "spaces": "6 - 4",
    "leading-space": " 6-4",
    "end-7": "7-1",
    "end-negative": "-1-3",
    "three-ends": "6-4-2",
    "number": 64,
    "list": [6, 4],
    "null": None,
    "word": "six-four",
    "en-dash": "6\u20134",
}
MALFORMED_TRUMPS: dict[str, JSON] = {
    "text-number": "6",
    "seven": 7,
    "negative": -1,
    "bool": True,
    "upper-case": "Doubles",
    "no-trump-word": "no-trump",
    "trump-word": "trump",
    "fraction": 2.5,
    "null": None,
}


def gen_led_suit(v: Vectors, rng: random.Random) -> None:
    f = "led_suit"
    exhaustive = ("standard", "partnership", "no-double-blank")
    for preset in PRESETS:
        rules = m.PRESETS[preset]
        for trump in rules.trumps:
            tiles = (
                rules.tile_set.tiles
                if preset in exhaustive
                else rng.sample(rules.tile_set.tiles, 3)
            )
            for t in tiles:
                written = str(t)
                if rng.random() < 0.3 and not t.is_double:
                    written = f"{t.low}-{t.high}"
                v.add(
                    f,
                    f"{preset}/{tname(trump)}/{t}",
                    {"op": f, **rules_request(preset), "trump": trump_json(trump), "tile": written},
                )
    # EX-3, EX-4: which tiles trump 0, 3 and doubles make trumps
    for trump, tag in ((Trump.ZERO, "EX-3"), (Trump.THREE, "EX-3"), (Trump.DOUBLES, "EX-4")):
        for t in m.MOON_SET:
            v.add(
                f,
                f"example/{tag}/{tname(trump)}/{t}",
                {"op": f, "trump": trump_json(trump), "tile": str(t)},
                tags=(tag,),
            )
    for name, tile in MALFORMED_TILES.items():
        v.add(f, f"bad-request/tile-{name}", {"op": f, "trump": 6, "tile": tile}, tags=("TILE-1",))
    for name, trump in MALFORMED_TRUMPS.items():
        v.add(
            f,
            f"bad-request/trump-{name}",
            {"op": f, "trump": trump, "tile": "6-4"},
            tags=("TRUMP-1",),
        )
    for preset in PRESETS:
        rules = m.PRESETS[preset]
        for t in m.TILES:
            if t not in rules.tile_set.tiles:
                v.add(
                    f,
                    f"illegal/{preset}/tile-outside-set/{t}",
                    {"op": f, **rules_request(preset), "trump": 6, "tile": str(t)},
                )
        for trump in Trump:
            if trump not in rules.trumps:
                v.add(
                    f,
                    f"illegal/{preset}/trump-not-offered/{trump}",
                    {"op": f, **rules_request(preset), "trump": trump_json(trump), "tile": "6-4"},
                )
    custom = {"trump_numbers": [1, 2], "no_trump": False}
    for trump in (Trump.THREE, Trump.NONE, Trump.ONE, Trump.DOUBLES):
        v.add(
            f,
            f"rules-object/trump-numbers-1-2/{tname(trump)}",
            {"op": f, "rules": custom, "trump": trump_json(trump), "tile": "3-1"},
        )


# ---------------------------------------------------------------------------
# legal_plays and trick_winner


def random_position(
    rng: random.Random, rules: RuleSet, trump: Trump, trick_size: int, hand_size: int
) -> tuple[list[Tile], list[Tile]]:
    """A hand and a trick: the trick's tiles often follow its lead, the hand often can follow."""
    pool = list(rules.tile_set.tiles)
    rng.shuffle(pool)
    trick: list[Tile] = []
    if trick_size:
        trick.append(pool.pop())
        suit = led_suit(trick[0], trump)
        while len(trick) < trick_size:
            followers = [t for t in pool if in_suit(t, suit, trump)]
            t = rng.choice(followers) if followers and rng.random() < 0.6 else pool[-1]
            pool.remove(t)
            trick.append(t)
    hand = pool[:hand_size]
    rng.shuffle(hand)
    return hand, trick


def gen_legal_plays(v: Vectors, rng: random.Random) -> None:
    f = "legal_plays"
    for preset in PRESETS:
        rules = m.PRESETS[preset]
        for trump in rules.trumps:
            for i in range(8):
                trick_size = i % rules.players
                hand_size = 7 if i in (0, rules.players) else rng.randint(1, 7)
                hand, trick = random_position(rng, rules, trump, trick_size, hand_size)
                hand_json = [f"{t.low}-{t.high}" if rng.random() < 0.2 else str(t) for t in hand]
                v.add(
                    f,
                    f"{preset}/{tname(trump)}/{i}",
                    {
                        "op": f,
                        **rules_request(preset),
                        "trump": trump_json(trump),
                        "hand": hand_json,
                        "trick": tiles_json(trick),
                    },
                )
    # LEAD-2: the first lead under lead-trump, with and without trumps, and with six tiles
    rules = m.PRESETS["lead-trump"]
    for trump in rules.trumps:
        for i in range(3):
            pool = list(rules.tile_set.tiles)
            rng.shuffle(pool)
            hand = pool[:7] if i < 2 else pool[:6]
            if i == 1:
                hand = [t for t in pool if not is_trump(t, trump)][:7]
            v.add(
                f,
                f"lead-trump/first-lead/{tname(trump)}/{i}",
                {
                    "op": f,
                    "rules": "lead-trump",
                    "trump": trump_json(trump),
                    "hand": tiles_json(hand),
                    "trick": [],
                },
                tags=("LEAD-2",),
            )
    # the worked examples
    ex: list[tuple[str, str, JSON, list[str], list[str]]] = [
        ("EX-1", "3-2-led", 6, ["5-3", "6-6", "1-1", "4-4"], ["3-2"]),
        ("EX-1", "5-1-led", 6, ["1-1", "5-3", "6-6", "4-4"], ["5-1"]),
        ("EX-1", "3-2-led-trump-2", 2, ["5-3", "6-6", "1-1", "4-4"], ["3-2"]),
        ("EX-2", "4-2-led", "doubles", ["4-4", "3-1", "6-1", "5-5"], ["4-2"]),
        ("EX-2", "4-2-led-holding-6-4", "doubles", ["4-4", "6-4", "3-1"], ["4-2"]),
    ]
    for tag, name, trump_v, hand_t, trick_t in ex:
        v.add(
            f,
            f"example/{tag}/{name}",
            {"op": f, "trump": trump_v, "hand": hand_t, "trick": trick_t},
            tags=(tag,),
        )
    # faults, one each
    base = {"op": f, "trump": 6, "hand": ["6-6", "5-3", "1-1"], "trick": ["3-2"]}
    faults: dict[str, dict[str, JSON]] = {
        "bad-request/hand-not-list": {"hand": "6-6"},
        "bad-request/trick-not-list": {"trick": None},
        "bad-request/hand-tile-malformed": {"hand": ["6-6", "5/3"]},
        "bad-request/trick-tile-number": {"trick": [32]},
        "bad-request/trump-text": {"trump": "six"},
        "illegal/hand-duplicate-tile": {"hand": ["6-6", "5-3", "6-6"]},
        "illegal/hand-duplicate-tile-written-backwards": {"hand": ["5-3", "3-5"]},
        "illegal/trick-duplicate-tile": {"trick": ["3-2", "2-3"]},
        "illegal/hand-shares-tile-with-trick": {"hand": ["6-6", "3-2"]},
        "illegal/empty-hand": {"hand": []},
        "illegal/hand-of-eight": {
            "hand": ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "6-5", "5-4"],
            "trick": [],
        },
        "illegal/trick-complete": {"trick": ["3-2", "3-1", "2-2"]},
        "illegal/trick-overfull": {"trick": ["3-2", "3-1", "2-2", "2-1"]},
        "illegal/hand-tile-outside-set": {"hand": ["6-6", "6-0"]},
        "illegal/trick-tile-outside-set": {"trick": ["3-0"]},
    }
    for name, change in faults.items():
        tags = ("TILE-1",) if "malformed" in name or "number" in name else ()
        v.add(f, name, {**base, **change}, tags=tags)
    v.add(
        f,
        "illegal/partnership/trick-complete",
        {**base, "rules": "partnership", "trick": ["3-2", "3-1", "2-2", "3-0"]},
    )
    v.add(
        f,
        "illegal/no-double-blank/trump-0-not-offered",
        {**base, "rules": "no-double-blank", "trump": 0},
    )
    v.add(
        f,
        "illegal/no-double-blank/tile-0-0",
        {**base, "rules": "no-double-blank", "hand": ["0-0", "6-6"]},
    )
    v.add(f, "illegal/pagat/doubles-not-offered", {**base, "rules": "pagat", "trump": "doubles"})


def gen_trick_winner(v: Vectors, rng: random.Random) -> None:
    f = "trick_winner"
    for preset in PRESETS:
        rules = m.PRESETS[preset]
        for trump in rules.trumps:
            for i in range(6):
                _, trick = random_position(rng, rules, trump, rules.players, 0)
                written = [f"{t.low}-{t.high}" if rng.random() < 0.2 else str(t) for t in trick]
                v.add(
                    f,
                    f"{preset}/{tname(trump)}/{i}",
                    {
                        "op": f,
                        **rules_request(preset),
                        "trump": trump_json(trump),
                        "trick": written,
                    },
                )
    ex: list[tuple[str, str, JSON, list[str]]] = [
        ("EX-2", "6-4-wins", "doubles", ["4-2", "6-4", "5-1"]),
        ("EX-2", "4-4-trumps", "doubles", ["4-2", "6-4", "4-4"]),
        ("EX-4", "6-6-over-5-5", "doubles", ["5-5", "6-6", "0-0"]),
        ("EX-4", "1-1-over-0-0", "doubles", ["0-0", "1-1", "5-4"]),
        ("EX-5", "2-6-over-2-3", 2, ["3-2", "6-2", "5-5"]),
        ("EX-5", "2-2-over-2-6", 2, ["6-2", "2-2", "2-1"]),
        ("EX-5", "suit-2-order", 5, ["2-1", "2-4", "2-6"]),
        ("EX-5", "suit-2-double", 5, ["2-6", "2-2", "3-2"]),
    ]
    for tag, name, trump_v, trick in ex:
        v.add(f, f"example/{tag}/{name}", {"op": f, "trump": trump_v, "trick": trick}, tags=(tag,))
    base = {"op": f, "trump": 6, "trick": ["3-2", "6-3", "3-3"]}
    faults: dict[str, dict[str, JSON]] = {
        "bad-request/trick-not-list": {"trick": "3-2 6-3 3-3"},
        "bad-request/tile-malformed": {"trick": ["3-2", "6-3", "33"]},
        "bad-request/trump-missing-value": {"trump": None},
        "illegal/trick-empty": {"trick": []},
        "illegal/trick-incomplete": {"trick": ["3-2", "6-3"]},
        "illegal/trick-overfull": {"trick": ["3-2", "6-3", "3-3", "1-1"]},
        "illegal/duplicate-tile": {"trick": ["3-2", "6-3", "2-3"]},
        "illegal/tile-outside-set": {"trick": ["3-2", "6-3", "3-0"]},
        "illegal/trump-not-offered": {"rules": "pagat", "trump": "doubles"},
    }
    for name, change in faults.items():
        v.add(f, name, {**base, **change}, tags=("TILE-1",) if "malformed" in name else ())
    v.add(f, "illegal/partnership/trick-incomplete", {**base, "rules": "partnership"})


# ---------------------------------------------------------------------------
# legal_bids and auction


def auction_prefixes(rules: RuleSet) -> list[tuple[int, ...]]:
    """Every sequence of calls some auction allows, in a fixed order."""
    out: list[tuple[int, ...]] = []

    def walk(a: Auction) -> None:
        out.append(a.calls)
        for c in legal_calls(a):
            walk(apply_call(a, c))

    walk(Auction(rules=rules))
    return out


def gen_auctions(v: Vectors, rng: random.Random) -> None:
    exhaustive = (
        "standard",
        "partnership",
        "partnership-forced",
        "partnership-min3",
        "partnership-min5",
    )
    for preset in PRESETS:
        rules = m.PRESETS[preset]
        prefixes = auction_prefixes(rules)
        if preset not in exhaustive:
            prefixes = [prefixes[0], *rng.sample(prefixes[1:], 8)]
        for calls in prefixes:
            bids = [call_json(c) for c in calls]
            label = ",".join(map(str, bids)) or "none"
            for f in ("legal_bids", "auction"):
                v.add(f, f"{preset}/{label}", {"op": f, **rules_request(preset), "bids": bids})
    for f in ("legal_bids", "auction"):
        v.add(f, "example/EX-6/rising", {"op": f, "bids": [4, 5, 6]}, tags=("EX-6",))
        v.add(f, "example/EX-6/21-ends", {"op": f, "bids": [4, 21]}, tags=("EX-6",))
        v.add(f, "rules-object/no-moon", {"op": f, "rules": {"moon": False}, "bids": [7]})
        v.add(
            f,
            "rules-object/3p-forced",
            {"op": f, "rules": {"all_pass": "force"}, "bids": ["pass", "pass"]},
        )
        faults: dict[str, tuple[JSON, JSON]] = {
            "bad-request/bids-not-list": ("standard", "pass"),
            "bad-request/call-text": ("standard", ["five"]),
            "bad-request/call-upper-case-pass": ("standard", ["Pass"]),
            "bad-request/call-bool": ("standard", [True]),
            "bad-request/call-null": ("standard", [None]),
            "bad-request/call-fraction": ("standard", [4.5]),
            "illegal/call-zero": ("standard", [0]),
            "illegal/call-negative": ("standard", ["pass", -5]),
            "illegal/call-8": ("standard", [8]),
            "illegal/call-20": ("standard", [20]),
            "illegal/call-3-min-4": ("standard", [3]),
            "illegal/call-4-min-5": ("partnership-min5", [4]),
            "illegal/call-2-min-3": ("partnership-min3", ["pass", 2]),
            "illegal/21-without-moon": ({"moon": False}, [21]),
            "illegal/bid-not-higher": ("standard", [5, 5]),
            "illegal/bid-lower": ("standard", [6, "pass", 4]),
            "illegal/bid-lower-partnership": ("partnership", ["pass", 7, 6]),
            "illegal/call-after-21": ("standard", [21, "pass"]),
            "illegal/call-after-21-partnership": ("partnership", ["pass", 21, "pass"]),
            "illegal/call-after-everyone": ("standard", ["pass", "pass", "pass", 4]),
            "illegal/fourth-call-three-players": ("standard", [4, 5, 6, 7]),
            "illegal/fifth-call-four-players": ("partnership", [4, 5, 6, 7, 21]),
            "illegal/forced-last-pass": ("partnership-forced", ["pass", "pass", "pass", "pass"]),
            "illegal/forced-last-pass-3p": ({"all_pass": "force"}, ["pass", "pass", "pass"]),
        }
        for name, (rules, bids) in faults.items():
            request: dict[str, JSON] = {"op": f, "bids": bids}
            if rules != "standard":
                request["rules"] = rules
            tags = ("BID-3",) if name.startswith("bad-request/call") else ()
            v.add(f, name, request, tags=tags)


# ---------------------------------------------------------------------------
# score_hand and game_winner


def trick_split(
    rng: random.Random, players: int, bidder: int, bidder_side_tricks: int, partnership: bool
) -> list[int]:
    """Tricks per seat, 7 in all, the bidder's side taking ``bidder_side_tricks``."""
    tricks = [0] * players
    side = [s for s in range(players) if (s % 2 == bidder % 2 if partnership else s == bidder)]
    others = [s for s in range(players) if s not in side]
    for _ in range(bidder_side_tricks):
        tricks[rng.choice(side)] += 1
    for _ in range(7 - bidder_side_tricks):
        tricks[rng.choice(others)] += 1
    return tricks


def gen_score_hand(v: Vectors, rng: random.Random) -> None:
    f = "score_hand"
    for preset in PRESETS:
        rules = m.PRESETS[preset]
        for bidder in range(rules.players):
            for bid in rules.bids:
                need = 7 if bid == 21 else bid
                for won in sorted({need, need - 1, rng.randint(0, 7), 7}):
                    if not 0 <= won <= 7:
                        continue
                    tricks = trick_split(rng, rules.players, bidder, won, rules.partnership)
                    v.add(
                        f,
                        f"{preset}/seat-{bidder}/bid-{bid}/won-{won}",
                        {
                            "op": f,
                            **rules_request(preset),
                            "bidder": bidder,
                            "bid": bid,
                            "tricks": tricks,
                        },
                    )
    base = {"op": f, "bidder": 0, "bid": 5, "tricks": [5, 1, 1]}
    faults: dict[str, dict[str, JSON]] = {
        "bad-request/bidder-text": {"bidder": "0"},
        "bad-request/bidder-bool": {"bidder": False},
        "bad-request/bid-text": {"bid": "five"},
        "bad-request/bid-pass": {"bid": "pass"},
        "bad-request/bid-fraction": {"bid": 5.5},
        "bad-request/tricks-not-list": {"tricks": 7},
        "bad-request/tricks-text": {"tricks": [5, "1", 1]},
        "bad-request/tricks-bool": {"tricks": [5, True, 1]},
        "illegal/bidder-no-such-seat": {"bidder": 3},
        "illegal/bidder-negative": {"bidder": -1},
        "illegal/bid-below-minimum": {"bid": 3},
        "illegal/bid-8": {"bid": 8},
        "illegal/bid-zero": {"bid": 0},
        "illegal/tricks-too-few-seats": {"tricks": [6, 1]},
        "illegal/tricks-too-many-seats": {"tricks": [4, 1, 1, 1]},
        "illegal/tricks-add-up-to-8": {"tricks": [5, 2, 1]},
        "illegal/tricks-add-up-to-6": {"tricks": [5, 1, 0]},
        "illegal/tricks-negative": {"tricks": [8, 0, -1]},
    }
    for name, change in faults.items():
        v.add(f, name, {**base, **change})
    v.add(
        f, "illegal/partnership/tricks-per-team", {**base, "rules": "partnership", "tricks": [5, 2]}
    )
    v.add(
        f,
        "illegal/partnership/bidder-no-such-seat",
        {**base, "rules": "partnership", "bidder": 4, "tricks": [5, 1, 1, 0]},
    )
    v.add(
        f,
        "illegal/partnership-min5/bid-4",
        {**base, "rules": "partnership-min5", "bid": 4, "tricks": [5, 1, 1, 0]},
    )
    v.add(f, "illegal/no-moon/bid-21", {**base, "rules": {"moon": False}, "bid": 21})


def gen_game_winner(v: Vectors, rng: random.Random) -> None:
    f = "game_winner"
    for preset in PRESETS:
        rules = m.PRESETS[preset]
        t = rules.target
        n = rules.sides
        cases: list[list[int]] = [
            [0] * n,
            [t - 1] * n,
            [t] + [0] * (n - 1),
            [t - 1, t, *[t - 2] * (n - 2)],
            [t, t, *[0] * (n - 2)],
            [t + 3, t + 3, *[t + 1] * (n - 2)],
            [-t, t + 1, *[t] * (n - 2)],
            [t + 2, t + 1, *[-4] * (n - 2)],
            [-5] * n,
        ]
        for _ in range(4):
            cases.append([rng.randint(-t, t + 5) for _ in range(n)])
        for i, scores in enumerate(cases):
            request = {"op": f, **rules_request(preset), "scores": scores}
            v.add(f, f"{preset}/{i}", request)
            top = max(scores)
            if top >= t and scores.count(top) > 1:
                for seat in range(rules.players):
                    v.add(f, f"{preset}/{i}/bidder-{seat}", {**request, "bidder": seat})
    base = {"op": f, "scores": [21, 3, 4]}
    faults: dict[str, dict[str, JSON]] = {
        "bad-request/scores-not-list": {"scores": 21},
        "bad-request/score-text": {"scores": ["21", 3, 4]},
        "bad-request/score-fraction": {"scores": [21.5, 3, 4]},
        "bad-request/bidder-text": {"bidder": "1"},
        "illegal/scores-too-few": {"scores": [21, 3]},
        "illegal/scores-empty": {"scores": []},
        "illegal/scores-too-many": {"scores": [21, 3, 4, 5]},
        "illegal/bidder-no-such-seat": {"bidder": 3},
        "illegal/bidder-negative": {"bidder": -2},
    }
    for name, change in faults.items():
        v.add(f, name, {**base, **change})
    v.add(
        f,
        "illegal/partnership/scores-per-seat",
        {**base, "rules": "partnership", "scores": [21, 3, 4, 5]},
    )
    v.add(f, "ok/bidder-null", {**base, "bidder": None})


# ---------------------------------------------------------------------------
# replay: seeded games, cut short, and one illegal step each


def best_trump(rules: RuleSet, hand: Sequence[Tile]) -> Trump:
    """The offered trump (not no-trump) naming the most tiles of the hand."""
    choices = [t for t in rules.trumps if t is not Trump.NONE] or list(rules.trumps)
    return max(choices, key=lambda t: (sum(is_trump(x, t) for x in hand), t.value))


def choose(rng: random.Random, s: GameState) -> m.Action:
    """A seeded player, a little better than random so games end: legal actions only."""
    acts = m.legal_actions(s)
    if rng.random() < 0.1:
        return rng.choice(acts)
    seat = s.to_act
    assert seat is not None
    hand = s.hands[seat]
    rules = s.rules
    if s.phase is Phase.BIDDING:
        t = best_trump(rules, hand)
        strength = sum(is_trump(x, t) for x in hand) + rules.partnership
        bids = [a for a in acts if isinstance(a, Bid) and a.amount <= min(7, strength)]
        if bids:
            return bids[-1] if rng.random() < 0.5 else bids[0]
        return acts[0]
    if s.phase is Phase.TRUMP:
        named = NameTrump(best_trump(rules, hand))
        return named if named in acts else rng.choice(acts)
    if s.phase is Phase.DISCARD:
        t = s.trump or best_trump(rules, hand)
        keep = [a for a in acts if isinstance(a, Discard) and not is_trump(a.tile, t)]
        return min(keep or acts, key=lambda a: a.tile.pips if isinstance(a, Discard) else 0)
    trump = s.trump
    assert trump is not None
    plays = [a for a in acts if isinstance(a, Play)]
    if not s.trick:
        trumps = [a for a in plays if is_trump(a.tile, trump)]
        if trumps and rng.random() < 0.7:
            return max(trumps, key=lambda a: a.tile.index)
        return rng.choice(plays)
    winning = [a for a in plays if trick_winner((*s.trick, a.tile), trump) == len(s.trick)]
    if winning:
        return winning[0]
    return min(plays, key=lambda a: a.tile.pips)


def play_game(preset: str, seed: int, max_hands: int = 40, reneges: float = 0.0) -> list[GameState]:
    """Every state of a seeded game, first to last (at most ``max_hands`` hands).

    With ``reneges`` (under ``renege = penalty`` rules) a player sometimes reneges.
    """
    s = m.new_game(preset, seed=seed)
    rng = random.Random(f"vectors/{preset}/{seed}")
    states = [s]
    while not s.is_over and s.hand_number <= max_hands:
        if reneges and s.phase is Phase.PLAY and s.trick and rng.random() < reneges:
            seat = s.to_act
            assert seat is not None
            bad = [t for t in s.hands[seat] if illegal_play_reason(s, t) is not None]
            if bad:
                s = apply_renege(s, rng.choice(bad))
                states.append(s)
                continue
        s = m.apply(s, choose(rng, s))
        states.append(s)
    return states


def finished_games(preset: str, count: int, max_hands: int) -> list[list[GameState]]:
    """The first ``count`` seeded games that end within ``max_hands`` hands."""
    out = []
    seed = 0
    while len(out) < count:
        states = play_game(preset, seed, max_hands)
        if states[-1].is_over:
            out.append(states)
        seed += 1
    return out


def last_hand(record: dict[str, JSON]) -> dict[str, JSON]:
    hand: dict[str, JSON] = record["hands"][-1]
    return hand


def single_hand(record: dict[str, JSON]) -> dict[str, JSON]:
    """The record cut to its last hand, alone (a record may start at any hand)."""
    return {**record, "hands": [record["hands"][-1]]}


def gen_replay(v: Vectors, rng: random.Random) -> None:
    f = "replay"

    def add(name: str, record: JSON, *, tags: Iterable[str] = (), **extra: JSON) -> None:
        v.add(f, v.unique(f, name), {"op": f, **extra, "record": record}, tags=tags)

    games: dict[str, list[list[GameState]]] = {}
    for preset in PRESETS:
        games[preset] = finished_games(preset, 3, 14)
        for i, states in enumerate(games[preset]):
            add(f"{preset}/whole-game/{i}", to_record(states[-1]))
    # a renege under penalty rules ends the hand (RENEGE-2)
    for seed in range(40):
        states = play_game("renege-penalty", seed, 6, reneges=0.03)
        if any(h.renege >= 0 for h in states[-1].history):
            add(f"renege-penalty/with-reneges/{seed}", to_record(states[-1]), tags=("RENEGE-2",))
        if len(v.files[f]) > 60:
            break
    # records cut short: between hands and inside a hand, at every phase
    for preset in PRESETS:
        states = games[preset][0]
        picks = rng.sample(range(1, len(states) - 1), 10)
        for j in sorted(picks):
            s = states[j]
            add(
                f"{preset}/cut/{s.phase.value}/{j}",
                single_hand(to_record(s)) if j % 2 else to_record(s),
            )
        thrown = [s for s in states if s.history and s.history[-1].thrown_in]
        if thrown:
            add(f"{preset}/thrown-in", to_record(thrown[0]))
    # without rules in the record, the request's apply
    rec = to_record(games["partnership"][0][40])
    del rec["rules"]
    add("partnership/rules-from-request", rec, rules="partnership")
    add("standard/record-without-rules-read-as-standard", rec)
    add("partnership/rules-in-both", to_record(games["partnership"][0][40]), rules="4p")
    add("bad-request/rules-differ", to_record(games["partnership"][0][40]), rules="standard")
    mutations(add, games, rng)
    malformed(add, games)
    claims(add)


def claims(add: Add) -> None:
    """Claims end their hand (CLAIM-1): claims that hold (then the game goes on), claims that
    fail, and claims the rules refuse (of some tricks with three players, off turn)."""
    crng = random.Random(50)  # its own stream: the vectors after these draw as before
    for preset in ("standard", "partnership"):
        held = failed = 0
        for seed in range(60):
            states = play_game(preset, seed, 3)
            playing = [s for s in states if s.phase is Phase.PLAY and len(s.tricks) >= 2]
            if not playing:
                continue
            s = playing[seed % len(playing)]
            seat = s.to_act
            assert seat is not None
            left = 7 - len(s.tricks)
            for k in (left, *range(left - 1, 0, -1)) if s.rules.partnership else (left,):
                try:
                    t = m.apply_claim(s, seat, k)
                except m.ClaimDoesNotHold:
                    if failed < 4 and k == left:
                        rec = to_record(s)
                        last_hand(rec)["claim"] = {"seat": seat, "tricks": k}
                        add(f"{preset}/claim/fails", rec, tags=("CLAIM-1",))
                        failed += 1
                    continue
                if held < 6:
                    for _ in range(12):  # the game goes on after the claim
                        if t.is_over:
                            break
                        t = m.apply(t, choose(crng, t))
                    add(f"{preset}/claim/holds", to_record(t), tags=("CLAIM-1",))
                    held += 1
                break
            if held >= 6 and failed >= 4:
                break
        s = next(x for x in finished_games(preset, 1, 2)[0] if x.phase is Phase.PLAY)
        assert s.to_act is not None
        rec = to_record(s)
        last_hand(rec)["claim"] = {"seat": (s.to_act + 1) % s.rules.players, "tricks": 1}
        add(f"{preset}/claim/off-turn", rec, tags=("CLAIM-1", "TURN-1"))
        if not s.rules.partnership:
            rec = to_record(s)
            last_hand(rec)["claim"] = {"seat": s.to_act, "tricks": 1}
            add(f"{preset}/claim/of-some-with-three-players", rec, tags=("CLAIM-1",))


Add = Callable[..., None]


def mutations(add: Add, games: dict[str, list[list[GameState]]], rng: random.Random) -> None:
    """Records with exactly one illegal step, each named for it; the record stops there."""
    for preset in PRESETS:
        states = [s for g in games[preset] for s in g if not s.is_over]
        c = _Case(preset, m.PRESETS[preset], rng, add, games, states)
        _deal_mutations(c)
        _bid_mutations(c)
        _discard_mutations(c)
        _trump_mutations(c)
        _play_mutations(c)
        _record_end_mutations(c)


class _Case:
    """One preset's games, cut into records that the mutations then break."""

    def __init__(
        self,
        preset: str,
        rules: RuleSet,
        rng: random.Random,
        add: Add,
        games: dict[str, list[list[GameState]]],
        states: list[GameState],
    ) -> None:
        self.preset = preset
        self.rules = rules
        self.rng = rng
        self.add = add
        self.games = games
        self.states = states
        self.by_phase: dict[Phase, list[GameState]] = {phase: [] for phase in Phase}
        for s in states:
            self.by_phase[s.phase].append(s)

    def pick(self, pool: list[GameState], k: int) -> list[GameState]:
        return self.rng.sample(pool, min(k, len(pool)))

    def cut(self, s: GameState) -> dict[str, JSON]:
        """The record of ``s``, its last hand first when that keeps the case whole."""
        return (
            single_hand(to_record(s))
            if s.hand.number > 1 and self.rng.random() < 0.7
            else (to_record(s))
        )


def _deal_mutations(c: _Case) -> None:
    """DEAL-1 … DEAL-3, SEAT-1, BID-1: a broken deal."""
    for s in c.pick([x for x in c.by_phase[Phase.BIDDING] if not x.hand.calls], 2):
        rec = c.cut(s)
        deal = last_hand(rec)["deal"]
        a, b = c.rng.sample(range(c.rules.players), 2)
        deal[a][0] = deal[b][0]
        c.add(f"{c.preset}/deal/duplicate-tile", rec)
        rec = c.cut(s)
        outside = [t for t in m.TILES if t not in c.rules.tile_set.tiles]
        if outside:
            last_hand(rec)["deal"][0][0] = str(c.rng.choice(outside))
            c.add(f"{c.preset}/deal/tile-outside-set", rec)
        rec = c.cut(s)
        hand = last_hand(rec)
        hand["deal"][1] = hand["deal"][1][:6]
        c.add(f"{c.preset}/deal/six-tiles", rec)
        rec = c.cut(s)
        hand = last_hand(rec)
        if "widow" in hand:
            hand["deal"][0].append(hand.pop("widow"))
            c.add(f"{c.preset}/deal/eight-tiles-no-widow", rec)
            rec = c.cut(s)
            del last_hand(rec)["widow"]
            c.add(f"{c.preset}/deal/missing-widow", rec)
        else:
            hand["widow"] = hand["deal"][0].pop()
            c.add(f"{c.preset}/deal/widow-without-one", rec)
        rec = c.cut(s)
        last_hand(rec)["deal"].pop()
        c.add(f"{c.preset}/deal/missing-seat", rec)
        rec = c.cut(s)
        last_hand(rec)["first_bidder"] = c.rules.players
        c.add(f"{c.preset}/deal/first-bidder-no-such-seat", rec)
        rec = to_record(s)
        if len(rec["hands"]) > 1:
            last_hand(rec)["first_bidder"] = (last_hand(rec)["first_bidder"] + 1) % (
                c.rules.players
            )
            c.add(f"{c.preset}/deal/first-bidder-not-next", rec)


def _bid_mutations(c: _Case) -> None:
    """BID-2 … BID-8: a call the auction refuses."""
    for s in c.pick(c.by_phase[Phase.BIDDING], 3):
        a = s.auction
        allowed = legal_calls(a)
        high = a.high_bid
        rec = c.cut(s)
        bids = last_hand(rec).setdefault("bids", [])
        if high:
            bids.append(high)
            c.add(f"{c.preset}/bid/not-higher", rec)
        elif 0 not in allowed:
            bids.append("pass")
            c.add(f"{c.preset}/bid/forced-pass", rec)
        else:
            bids.append(c.rules.min_bid - 1)
            c.add(f"{c.preset}/bid/below-minimum", rec)
        rec = c.cut(s)
        last_hand(rec).setdefault("bids", []).append(c.rng.choice([8, 0, -1, 22]))
        c.add(f"{c.preset}/bid/not-a-bid", rec)
    forced = []
    if c.rules.all_pass is m.AllPass.FORCE:
        for seed in range(2):
            x = m.new_game(c.preset, seed=seed)
            for _ in range(c.rules.players - 1):
                x = m.apply(x, Pass())
            forced.append(x)
    for s in forced:
        rec = c.cut(s)
        last_hand(rec)["bids"].append("pass")
        c.add(f"{c.preset}/bid/forced-bidder-passes", rec)
    for s in (
        c.pick(c.by_phase[Phase.DISCARD], 1)
        + c.pick(c.by_phase[Phase.TRUMP], 1)
        + c.pick(c.by_phase[Phase.PLAY], 1)
    ):
        rec = c.cut(s)
        bids = last_hand(rec)["bids"]
        calls = s.hand.calls
        fault = "after-21" if 21 in calls else "one-call-too-many"
        bids.append("pass")
        for key in ("discard", "trump", "plays"):
            last_hand(rec).pop(key, None)
        c.add(f"{c.preset}/bid/{fault}", rec)
        # a changed call in a hand played on: the record is whole after it
        rec = c.cut(s)
        bids = last_hand(rec)["bids"]
        first = next(i for i, call in enumerate(bids) if call != "pass")
        if first + 1 < len(bids) and bids[first] != 21:
            bids[first + 1] = bids[first]
            c.add(f"{c.preset}/bid/changed-to-no-raise", rec)
        elif first > 0:
            bids[first - 1] = 21
            c.add(f"{c.preset}/bid/changed-to-21-before-the-last-bid", rec)
    thrown = [x for x in c.states if x.history and x.history[-1].thrown_in]
    for s in thrown[:1]:
        prev = to_record(s)
        prev["hands"].pop()
        last_hand(prev)["trump"] = trump_json(c.rules.trumps[0])
        c.add(f"{c.preset}/bid/thrown-in-hand-names-trump", prev)


def _discard_mutations(c: _Case) -> None:
    """WIDOW-1, DEAL-2: a discard not held, missing, or without a widow."""
    for s in c.pick(c.by_phase[Phase.DISCARD], 3):
        rec = c.cut(s)
        bidder = s.hand.bidder
        others = [t for seat, h in enumerate(s.hands) if seat != bidder for t in h]
        last_hand(rec)["discard"] = str(c.rng.choice(others))
        c.add(f"{c.preset}/discard/tile-not-held", rec)
    for s in c.pick(c.by_phase[Phase.PLAY], 2):
        rec = c.cut(s)
        hand = last_hand(rec)
        if "discard" in hand:
            del hand["discard"]
            c.add(f"{c.preset}/discard/missing-and-goes-on", rec)
        elif not c.rules.has_widow:
            hand["discard"] = hand["plays"][0] if hand.get("plays") else hand["deal"][0][0]
            c.add(f"{c.preset}/discard/without-widow", rec)


def _trump_mutations(c: _Case) -> None:
    """TRUMP-1, TRUMP-5: a trump not offered, or none named."""
    not_offered = [t for t in Trump if t not in c.rules.trumps]
    for s in c.pick(c.by_phase[Phase.TRUMP], 2):
        for t in not_offered:
            rec = c.cut(s)
            last_hand(rec)["trump"] = trump_json(t)
            c.add(f"{c.preset}/trump/not-offered-{t}", rec)
    for s in c.pick(c.by_phase[Phase.PLAY], 1):
        rec = c.cut(s)
        hand = last_hand(rec)
        del hand["trump"]
        c.add(f"{c.preset}/trump/missing-and-goes-on", rec)


def _play_mutations(c: _Case) -> None:
    """TRICK-1, TURN-1, LEAD-2, FOLLOW-1, FOLLOW-2, RENEGE-2: a play refused."""

    def reneges(s: GameState) -> list[Tile]:
        seat = s.to_act
        assert seat is not None
        return [t for t in s.hands[seat] if illegal_play_reason(s, t) is not None]

    can_renege = [x for x in c.by_phase[Phase.PLAY] if x.trick and reneges(x)]
    for s in c.pick(can_renege, 5):
        rec = c.cut(s)
        last_hand(rec).setdefault("plays", []).append(str(c.rng.choice(reneges(s))))
        stop = c.rules.renege is m.Renege.STOP
        c.add(f"{c.preset}/play/{'renege' if stop else 'renege-penalised'}", rec)
    for s in c.pick(c.by_phase[Phase.PLAY], 5):
        seat = s.to_act
        assert seat is not None
        others = [t for o, h in enumerate(s.hands) if o != seat for t in h]
        if others:
            rec = c.cut(s)
            last_hand(rec).setdefault("plays", []).append(str(c.rng.choice(others)))
            c.add(f"{c.preset}/play/out-of-turn", rec)
        gone = [t for t in c.rules.tile_set.tiles if all(t not in h for h in s.hands)]
        if gone:
            rec = c.cut(s)
            last_hand(rec).setdefault("plays", []).append(str(c.rng.choice(gone)))
            c.add(f"{c.preset}/play/tile-no-one-holds", rec)
    # LEAD-2: the first lead of a hand must be a trump when the leader holds one
    if c.rules.first_lead is FirstLead.TRUMP:
        firsts = [x for x in c.by_phase[Phase.PLAY] if not x.tricks and not x.trick]
        for s in firsts[:6]:
            seat = s.to_act
            assert seat is not None and s.trump is not None
            off = [t for t in s.hands[seat] if not is_trump(t, s.trump)]
            if off and len(off) < len(s.hands[seat]):
                rec = c.cut(s)
                last_hand(rec).setdefault("plays", []).append(str(c.rng.choice(off)))
                c.add(f"{c.preset}/play/first-lead-not-trump", rec)


def _record_end_mutations(c: _Case) -> None:
    """TRICK-3, END-1, BID-6: tiles swapped, a hand too long or short, a hand too many."""
    # swapped tiles within a finished hand of a whole record
    full = to_record(c.games[c.preset][1][-1])
    played = [i for i, h in enumerate(full["hands"]) if len(h.get("plays", ())) == 21]
    for i in c.rng.sample(played, min(3, len(played))):
        rec = json.loads(json.dumps(full))
        plays = rec["hands"][i]["plays"]
        j = c.rng.randrange(20)
        plays[j], plays[j + 1] = plays[j + 1], plays[j]
        c.add(f"{c.preset}/play/swapped-tiles", rec)
    # an extra play after the hand, a short hand before the next, a hand after the end
    done = [i for i, h in enumerate(full["hands"][:-1]) if len(h.get("plays", ())) == 21]
    if done:
        i = done[0]
        rec = json.loads(json.dumps(full))
        rec["hands"] = rec["hands"][: i + 1]
        rec["hands"][i]["plays"].append(rec["hands"][i]["plays"][0])
        c.add(f"{c.preset}/play/after-seventh-trick", rec)
        rec = json.loads(json.dumps(full))
        rec["hands"] = rec["hands"][: i + 2]
        rec["hands"][i]["plays"].pop()
        c.add(f"{c.preset}/play/hand-short-and-goes-on", rec)
    rec = json.loads(json.dumps(full))
    rec["hands"].append(rec["hands"][-1])
    c.add(f"{c.preset}/deal/hand-after-game-over", rec)
    bidding = [x for x in c.by_phase[Phase.BIDDING] if x.hand.calls]
    if bidding:
        s = bidding[0]
        rec = to_record(s)
        rec["hands"].append(rec["hands"][-1])
        c.add(f"{c.preset}/bid/auction-unfinished-and-goes-on", rec)


def malformed(add: Add, games: dict[str, list[list[GameState]]]) -> None:
    """Records that are not the shape of a record: bad-request, unknown-rules, illegal rules."""
    rec = to_record(games["standard"][0][30])

    def changed(change: Callable[[dict[str, JSON]], JSON]) -> JSON:
        copy = json.loads(json.dumps(rec))
        return change(copy)

    def hand0(**fields: JSON) -> Callable[[dict[str, JSON]], JSON]:
        def change(r: dict[str, JSON]) -> JSON:
            r["hands"][0].update(fields)
            return r

        return change

    cases: dict[str, Callable[[dict[str, JSON]], JSON]] = {
        "record-not-object": lambda r: r["hands"],
        "no-hands": lambda r: {"rules": "standard"},
        "hands-empty": lambda r: {**r, "hands": []},
        "hands-not-list": lambda r: {**r, "hands": r["hands"][0]},
        "unknown-member": lambda r: {**r, "colour": 3},
        "seed-text": lambda r: {**r, "seed": "7"},
        "rules-null": lambda r: {**r, "rules": None},
        "rules-number": lambda r: {**r, "rules": 3},
        "rules-field-unknown": lambda r: {**r, "rules": {"colours": 3}},
        "hand-not-object": lambda r: {**r, "hands": [["6-6"]]},
        "hand-unknown-member": hand0(winner=0),
        "first-bidder-text": hand0(first_bidder="0"),
        "deal-not-list": hand0(deal="6-6"),
        "deal-tile-malformed": hand0(deal=[["66"]]),
        "widow-number": hand0(widow=31),
        "bids-not-list": hand0(bids="pass"),
        "call-text": hand0(bids=["pass", "five"]),
        "call-bool": hand0(bids=[False]),
        "discard-malformed": hand0(discard="6"),
        "trump-text-number": hand0(trump="6"),
        "trump-8": hand0(trump=8),
        "plays-tile-malformed": hand0(plays=["6-6", "6:5"]),
    }
    missing = rec["hands"][0]
    cases["hand-without-deal"] = lambda r: {
        **r,
        "hands": [{"first_bidder": 0, "bids": missing["bids"]}],
    }
    cases["hand-without-first-bidder"] = lambda r: {**r, "hands": [{"deal": missing["deal"]}]}
    for name, change in cases.items():
        add(f"bad-request/{name}", changed(change))
    add("unknown-rules/chess", changed(lambda r: {**r, "rules": "chess"}))
    add(
        "illegal/rules-object-inconsistent",
        changed(lambda r: {**r, "rules": {"players": 4}}),
        tags=("RULES-1",),
    )
    add(
        "illegal/rules-object-trump-0-with-21-tiles",
        changed(
            lambda r: {**r, "rules": {"tile_set": "no-double-blank-21", "trump_numbers": [0, 6]}}
        ),
    )


# ---------------------------------------------------------------------------
# view


def gen_view(v: Vectors, rng: random.Random) -> None:
    f = "view"
    for preset in PRESETS:
        rules = m.PRESETS[preset]
        states = play_game(preset, 100, 3)
        phases: dict[Phase, list[GameState]] = {}
        for s in states[1:]:
            phases.setdefault(s.phase, []).append(s)
        picks = [rng.choice(ss) for _, ss in sorted(phases.items(), key=lambda kv: kv[0].value)]
        ends = [
            i for i in range(1, len(states)) if states[i].hand_number > states[i - 1].hand_number
        ]
        for s in picks:
            record = single_hand(to_record(s))
            for seat in range(rules.players):
                v.add(
                    f,
                    f"{preset}/{s.phase.value}/seat-{seat}",
                    {"op": f, "record": record, "seat": seat},
                )
        if ends:
            record = to_record(states[ends[0]])
            record["hands"].pop()
            for seat in range(rules.players):
                v.add(
                    f,
                    f"{preset}/hand-finished/seat-{seat}",
                    {"op": f, "record": record, "seat": seat},
                )
        over = finished_games(preset, 1, 14)[0][-1]
        v.add(f, f"{preset}/game-over/seat-0", {"op": f, "record": to_record(over), "seat": 0})
    record = single_hand(to_record(play_game("standard", 100, 3)[12]))
    faults: dict[str, dict[str, JSON]] = {
        "bad-request/seat-text": {"seat": "1"},
        "bad-request/seat-bool": {"seat": True},
        "bad-request/seat-null": {"seat": None},
        "illegal/seat-3-of-3": {"seat": 3},
        "illegal/seat-negative": {"seat": -1},
    }
    for name, change in faults.items():
        v.add(f, name, {"op": f, "record": record, "seat": 0, **change})
    bad = json.loads(json.dumps(record))
    bad["hands"][0]["bids"] = [5, 5]
    v.add(f, "illegal/record-breaks-a-rule", {"op": f, "record": bad, "seat": 0})
    v.add(f, "bad-request/record-malformed", {"op": f, "record": {"hands": "none"}, "seat": 0})
    v.add(f, "bad-request/missing-seat", {"op": f, "record": record})


# ---------------------------------------------------------------------------
# Files


def generate() -> dict[str, list[Vector]]:
    """Every vector, by file stem, in order."""
    v = Vectors()
    rng = random.Random("moonrules/vectors/1")
    gen_errors(v)
    gen_id_range(v)
    gen_tiles(v)
    gen_led_suit(v, rng)
    gen_legal_plays(v, rng)
    gen_trick_winner(v, rng)
    gen_auctions(v, rng)
    gen_score_hand(v, rng)
    gen_game_winner(v, rng)
    gen_replay(v, rng)
    gen_view(v, rng)
    return v.files


def line(value: JSON) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=False)


def render(vectors: Sequence[Vector]) -> str:
    """A vector file's text: the provenance header, then one vector a line."""
    body = "".join(line(x) + "\n" for x in vectors)
    header = {
        "provenance": {
            "generator": GENERATOR,
            "moonrules": m.__version__,
            "protocol": protocol.PROTOCOL_VERSION,
            "count": len(vectors),
            "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(),
        }
    }
    return line(header) + "\n" + body


def texts() -> dict[str, str]:
    """Every vector file's text, by file name."""
    return {f"{stem}.jsonl": render(vs) for stem, vs in generate().items()}


def clause_ids() -> list[str]:
    """The clause IDs of spec/rules.md, in order."""
    text = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
    return re.findall(r"^### ([A-Z]+-\d+) ", text, re.MULTILINE)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file differs")
    args = parser.parse_args(argv)
    files = texts()
    if args.check:
        stale = [
            n
            for n, t in files.items()
            if not (VECTOR_DIR / n).is_file() or (VECTOR_DIR / n).read_text(encoding="utf-8") != t
        ]
        for n in stale:
            print(f"{VECTOR_DIR / n} is out of date; run python {GENERATOR}")
        return 1 if stale else 0
    VECTOR_DIR.mkdir(parents=True, exist_ok=True)
    for old in VECTOR_DIR.glob("*.jsonl"):
        if old.name not in files:
            old.unlink()
    covered: set[str] = set()
    for name, text in files.items():
        (VECTOR_DIR / name).write_text(text, encoding="utf-8")
        vectors = [json.loads(x) for x in text.splitlines()[1:]]
        for x in vectors:
            covered |= set(x["clauses"])
        print(f"{name}: {len(vectors)} vectors, {len(text.encode()) // 1024} KiB")
    print(f"total: {sum(len(t.splitlines()) - 1 for t in files.values())} vectors")
    missing = [c for c in clause_ids() if c not in covered]
    if missing:
        print(f"clauses no vector exercises: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
