"""Every legal request of the finite ops (fuzz --exhaustive), and the size of an op's space."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from moonrules.conformance.generators import Request, _call_json, tile_text
from moonrules.records.record import JSON
from moonrules.rules.auction import Auction, legal_calls
from moonrules.rules.ruleset import PRESETS, RuleSet

# ---------------------------------------------------------------------------
# Every legal request of the finite ops


def _auctions(rules: RuleSet) -> Iterator[list[JSON]]:
    """Every call sequence of an auction, from the empty one to each end (depth first)."""
    stack: list[tuple[Auction, list[JSON]]] = [(Auction(rules=rules), [])]
    while stack:
        auction, calls = stack.pop()
        yield calls
        if not auction.is_over:
            for call in reversed(legal_calls(auction)):
                stack.append((auction.call(call), [*calls, _call_json(call)]))


def _compositions(total: int, parts: int) -> Iterator[list[int]]:
    for cut in itertools.combinations(range(total + parts - 1), parts - 1):
        edges = (-1, *cut, total + parts - 1)
        yield [edges[i + 1] - edges[i] - 1 for i in range(parts)]


def _trick_classes(names: Sequence[str]) -> list[str]:
    """One preset per class of presets that decide tricks alike (tile set, players, trumps)."""
    seen: dict[tuple[object, ...], str] = {}
    for name in names:
        r = PRESETS[name]
        seen.setdefault((r.tile_set, r.players, r.trumps, r.first_lead), name)
    return list(seen.values())


def _every_tiles(names: Sequence[str]) -> Iterator[Request]:
    for name in names:
        yield {"op": "tiles", "rules": name}


def _every_led_suit(names: Sequence[str]) -> Iterator[Request]:
    for name in names:
        r = PRESETS[name]
        for trump in r.trumps:
            for t in r.tile_set.tiles:
                for flip in (False, True) if not t.is_double else (False,):
                    text = tile_text(t, flip)
                    yield {"op": "led_suit", "rules": name, "trump": trump.to_json(), "tile": text}


def _every_auction(names: Sequence[str], op: str) -> Iterator[Request]:
    for name in names:
        for calls in _auctions(PRESETS[name]):
            yield {"op": op, "rules": name, "bids": calls}


def _every_score_hand(names: Sequence[str]) -> Iterator[Request]:
    for name in names:
        r = PRESETS[name]
        for bidder in range(r.players):
            for bid in r.bids:
                for tricks in _compositions(7, r.players):
                    yield {
                        "op": "score_hand",
                        "rules": name,
                        "bidder": bidder,
                        "bid": bid,
                        "tricks": tricks,
                    }


def _every_trick_winner(names: Sequence[str]) -> Iterator[Request]:
    for name in _trick_classes(names):
        r = PRESETS[name]
        for trump in r.trumps:
            for trick in itertools.permutations(r.tile_set.tiles, r.players):
                yield {
                    "op": "trick_winner",
                    "rules": name,
                    "trump": trump.to_json(),
                    "trick": [str(t) for t in trick],
                }


def _every_legal_plays(names: Sequence[str]) -> Iterator[Request]:
    for name in _trick_classes(names):
        r = PRESETS[name]
        pool = r.tile_set.tiles
        for trump in r.trumps:
            base = {"op": "legal_plays", "rules": name, "trump": trump.to_json()}
            for t in pool:
                yield {**base, "hand": [str(t)], "trick": []}
            for led in pool:
                others = [t for t in pool if t != led]
                for size in (1, 2):
                    for hand in itertools.combinations(others, size):
                        yield {**base, "hand": [str(t) for t in hand], "trick": [str(led)]}


_ENUMERATORS: Final[dict[str, Callable[[Sequence[str]], Iterator[Request]]]] = {
    "tiles": _every_tiles,
    "led_suit": _every_led_suit,
    "legal_plays": _every_legal_plays,
    "trick_winner": _every_trick_winner,
    "legal_bids": lambda names: _every_auction(names, "legal_bids"),
    "auction": lambda names: _every_auction(names, "auction"),
    "score_hand": _every_score_hand,
}


def exhaustive(op: str, names: Sequence[str]) -> Iterator[Request]:
    """Every legal request of a finite op under ``names`` (empty for the other ops).

    - ``tiles``: each preset; ``led_suit``: each tile, written either way, under each
      trump each preset offers; ``score_hand``: each bidder, bid and split of the
      seven tricks; ``legal_bids`` and ``auction``: each call sequence the rules allow,
      from the empty one to each end;
    - ``trick_winner``: each complete trick (ordered, distinct tiles) under each trump;
    - ``legal_plays``: each lead with hands of one and two tiles, and each one-tile
      hand leading (the classes the exhaustive proofs of the suit rules cover);

    the last two once per class of presets that decide tricks alike (the same tile
    set, players, trumps and first lead).
    """
    enumerate_op = _ENUMERATORS.get(op)
    return iter(()) if enumerate_op is None else enumerate_op(names)


def space_size(op: str, names: Sequence[str]) -> int | None:
    """How many legal requests :func:`exhaustive` gives for a small op (``tiles``,
    ``led_suit``), so that a random run can tell when it has drawn them all; else ``None``."""
    if op not in ("tiles", "led_suit"):
        return None
    return sum(1 for _ in exhaustive(op, names))


__all__ = ["exhaustive", "space_size"]
