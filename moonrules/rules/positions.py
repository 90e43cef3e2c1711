"""Whether a position given from outside can happen: the checks every reader of one shares.

A position asked about (by a protocol request, ``moonrules explain``, …) names tiles, seats and
a trump; before any rule is applied to it, it must be one the rules allow to arise: tiles of
the rule set's set (TILE-2 … TILE-4), each at most once (DEAL-3), at most seven in a hand
(DEAL-1), seats that exist (SEAT-1), a trick of at most one tile per player (TRICK-1), a trump
the rules offer (TRUMP-5). Each check raises :class:`~moonrules.rules.errors.IllegalAction`
with the clause and a message that starts with where the fault is (``hand[2]: …``, the name
of a parameter or a field), and returns nothing otherwise.

>>> from moonrules.rules.ruleset import STANDARD
>>> from moonrules.rules.tiles import tiles
>>> try:
...     check_in_set(STANDARD, "hand", tiles("6-6 6-0"))
... except IllegalAction as e:
...     print(e.rule, e.message)
TILE-2 hand[1]: 6-0 is not a tile of the moon-22 set these rules play with
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from moonrules.rules import clauses
from moonrules.rules.errors import IllegalAction, shown, wrong_type
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import Tile

MAX_HAND = 7
"""The most tiles a player holds (DEAL-1)."""


def _rules(rules: object) -> RuleSet:
    if not isinstance(rules, RuleSet):
        raise wrong_type("rules", "a RuleSet", rules)
    return rules


def _tiles(tiles: object, parameter: str) -> tuple[Tile, ...]:
    if isinstance(tiles, str) or not isinstance(tiles, Sequence):
        raise wrong_type(parameter, "a sequence of Tiles", tiles)
    if not all(isinstance(t, Tile) for t in tiles):
        raise wrong_type(parameter, "a sequence of Tiles", tiles)
    return tuple(tiles)


def _int(value: object, parameter: str) -> int:
    if type(value) is not int:
        raise wrong_type(parameter, "a whole number", value)
    return value


def check_offered(rules: RuleSet, trump: Trump, path: str = "trump") -> None:
    """The trump must be one the rule set offers (TRUMP-5)."""
    if not isinstance(trump, Trump):
        raise wrong_type("trump", "a Trump", trump)
    if trump not in _rules(rules).trumps:
        offered = ", ".join(json.dumps(t.to_json()) for t in rules.trumps)
        raise IllegalAction(
            "TRUMP-5",
            f"{path}: {json.dumps(trump.to_json())} is not a trump these rules offer; "
            f"they offer {offered}",
            trump=trump,
            allowed_trumps=rules.trumps,
        )


def check_in_set(rules: RuleSet, path: str, tiles: Sequence[Tile] | Tile) -> None:
    """Every tile must belong to the rule set's tiles (TILE-2, TILE-3, TILE-4); ``path`` names
    the tile, or the list (then each tile is named by its index)."""
    single = isinstance(tiles, Tile)
    allowed = _rules(rules).tile_set.tiles
    for i, t in enumerate((tiles,) if isinstance(tiles, Tile) else _tiles(tiles, "tiles")):
        if t not in allowed:
            where = path if single else f"{path}[{i}]"
            raise IllegalAction(
                clauses.tile_set_clause(rules.tile_set),
                f"{where}: {t} is not a tile of the {rules.tile_set.value} set "
                "these rules play with",
                tile=t,
            )


def check_distinct(groups: Sequence[tuple[str, Sequence[Tile]]]) -> None:
    """No tile may appear twice, in one list or across lists (DEAL-3); each group is a
    path and its tiles."""
    seen: dict[Tile, str] = {}
    if isinstance(groups, str) or not isinstance(groups, Sequence):
        raise wrong_type("groups", "a sequence of (path, tiles) pairs", groups)
    for group in groups:
        if not isinstance(group, tuple) or len(group) != 2 or not isinstance(group[0], str):
            raise wrong_type("groups", "a sequence of (path, tiles) pairs", groups)
        path, tiles = group[0], _tiles(group[1], "groups")
        for i, t in enumerate(tiles):
            where = f"{path}[{i}]"
            if t in seen:
                raise IllegalAction(
                    "DEAL-3",
                    f"{where}: {t} appears twice, at {seen[t]} and at {where}; "
                    "there is one of each tile",
                    tile=t,
                )
            seen[t] = where


def check_seat(rules: RuleSet, seat: int, path: str) -> None:
    """Seats are numbered 0 to players - 1 (SEAT-1)."""
    players = _rules(rules).players
    if not 0 <= _int(seat, "seat") < players:
        raise IllegalAction(
            "SEAT-1",
            f"{path}: seats are numbered 0 to {players - 1} with these rules, not {shown(seat)}",
        )


def check_hand(hand: Sequence[Tile], path: str = "hand") -> None:
    """A hand to play from holds one tile at least (TRICK-1) and seven at most (DEAL-1)."""
    hand = _tiles(hand, "hand")
    if not hand:
        raise IllegalAction("TRICK-1", f"{path}: the hand is empty; a player to play holds a tile")
    if len(hand) > MAX_HAND:
        raise IllegalAction(
            "DEAL-1", f"{path}: {len(hand)} tiles; a player holds at most {MAX_HAND}"
        )


def check_trick_open(rules: RuleSet, trick: Sequence[Tile], path: str = "trick") -> None:
    """A trick still to be played to has fewer tiles than players (TRICK-1)."""
    trick = _tiles(trick, "trick")
    if len(trick) >= _rules(rules).players:
        raise IllegalAction(
            "TRICK-1",
            f"{path}: already complete with {len(trick)} tiles; with {rules.players} players "
            f"a trick has {rules.players}",
        )


def check_trick_size(
    rules: RuleSet, trick: Sequence[Tile], path: str = "trick", *, complete: bool = True
) -> None:
    """A trick has one tile from each player (TRICK-1): exactly that many when ``complete``,
    else from one (the lead) up to that many."""
    n = _rules(rules).players
    trick = _tiles(trick, "trick")
    if complete and len(trick) != n:
        raise IllegalAction(
            "TRICK-1",
            f"{path}: {len(trick)} tiles; a complete trick has one tile from each of the "
            f"{n} players",
        )
    if not trick:
        raise IllegalAction("TRICK-1", f"{path}: no tile; a trick has at least the led tile")
    if len(trick) > n:
        raise IllegalAction(
            "TRICK-1", f"{path}: {len(trick)} tiles; a trick has at most {n}, one per player"
        )


def check_hand_result(rules: RuleSet, bidder: int, bid: int, tricks: Sequence[int]) -> None:
    """A hand can end so: ``bidder`` a seat (SEAT-1), ``bid`` a bid of the rules (BID-4),
    ``tricks`` one number per seat (SEAT-1), none below 0, seven in all (TRICK-3)."""
    check_seat(rules, bidder, "bidder")
    if _int(bid, "bid") not in rules.bids:
        allowed = ", ".join(map(str, rules.bids))
        raise IllegalAction(
            "BID-4", f"bid: {shown(bid)} is not a bid; a bid is one of {allowed}", call=bid
        )
    if isinstance(tricks, str) or not isinstance(tricks, Sequence):
        raise wrong_type("tricks", "a sequence of whole numbers", tricks)
    tricks = tuple(_int(n, "tricks") for n in tricks)
    if len(tricks) != rules.players:
        raise IllegalAction(
            "SEAT-1",
            f"tricks: {len(tricks)} numbers; give the tricks won by each of the "
            f"{rules.players} seats",
        )
    for i, n in enumerate(tricks):
        if n < 0:
            raise IllegalAction(
                "TRICK-3", f"tricks[{i}]: {shown(n)} tricks; no seat wins fewer than none"
            )
    if sum(tricks) != 7:
        raise IllegalAction(
            "TRICK-3", f"tricks: they add up to {shown(sum(tricks))}; a hand has exactly 7 tricks"
        )


def check_scores(rules: RuleSet, scores: Sequence[int], path: str = "scores") -> None:
    """One score per side: per seat (SEAT-1), or per team in partnership (TEAM-1)."""
    if isinstance(scores, str) or not isinstance(scores, Sequence):
        raise wrong_type(path, "a sequence of whole numbers", scores)
    if len(scores) != _rules(rules).sides:
        raise IllegalAction(
            "TEAM-1" if rules.partnership else "SEAT-1",
            f"{path}: {len(scores)} numbers; these rules keep {rules.sides} scores, one per "
            + ("team" if rules.partnership else "seat"),
        )


__all__ = [
    "MAX_HAND",
    "check_distinct",
    "check_hand",
    "check_hand_result",
    "check_in_set",
    "check_offered",
    "check_scores",
    "check_seat",
    "check_trick_open",
    "check_trick_size",
]
