"""Game records: the library's save format and the input of arbitration.

A record is JSON (schema: ``spec/schema/record.schema.json``)::

    {"rules": "standard", "seed": 7,
     "hands": [{"first_bidder": 0, "deal": [["6-6", ...], [...], [...]], "widow": "3-1",
                "bids": ["pass", 5, "pass"], "discard": "3-1", "trump": 6,
                "plays": ["6-6", "6-1", ...]}, ...]}

``rules`` is a preset name or an object of :class:`~moonrules.rules.ruleset.RuleSet`
fields; ``seed`` (optional) is the seed later deals come from; ``players`` (optional)
names the player at each seat, ``null`` for a seat without a name
(:mod:`moonrules.records.players`): names are kept with the game's record, never part
of the game. A hand thrown in
has only ``first_bidder``, ``deal``, ``widow`` and ``bids``. A record may stop
anywhere; fields not reached are left out and the unfinished hand scores nothing.

This module holds the record's types, its writing (:func:`to_record`, the names and
annotations a record keeps) and its reading (:func:`load_record`, :func:`parse_record`).
Replaying it is :mod:`moonrules.records.replay`: :func:`~moonrules.records.replay.from_record`
rebuilds the exact state, and :func:`~moonrules.records.replay.replay` checks a record step
by step and reports the first thing the rules forbid (hand, step, index, clause, message).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final, Literal

import attrs

from moonrules.game import Bid, GameState, Hand, Pass, Phase
from moonrules.records.annotations import Annotation, hand_actions, parse_annotations
from moonrules.records.jsontext import MAX_RECORD_BYTES, JSONTextError, loads
from moonrules.records.players import Players, parse_players
from moonrules.records.spelling import as_written, thawed
from moonrules.records.values import (
    JSON,
    RecordError,
    RecordRulesError,
    UnknownRulesError,
    call_json,
    expect_int,
    expect_list,
    json_kind,
    parse_call_json,
    parse_tile_json,
    parse_trump_json,
    rules_from_json,
    rules_json,
    tile_json,
    tiles_json,
)
from moonrules.rules.contract import check_int, typed
from moonrules.rules.errors import IllegalAction, wrong_type
from moonrules.rules.ruleset import PRESETS, RuleSet, WidowTiming
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, tiles_of

Step = Literal["deal", "bid", "discard", "trump", "play", "claim"]
_HAND_FIELDS = ("first_bidder", "deal", "widow", "bids", "discard", "trump", "plays", "claim")


@attrs.frozen(slots=True, field_transformer=typed)
class Violation:
    """The first thing in a record the rules forbid.

    ``hand`` is the index of the hand in the record, ``step`` which list it is in,
    ``index`` the position in that list (``None`` for a single field).
    """

    hand: int
    step: Step
    index: int | None
    rule: str
    message: str
    error: IllegalAction | None = attrs.field(default=None, eq=False, repr=False)
    """The error the rules raised, with its structured fields (seat, tile, what was allowed)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "hand": self.hand,
            "step": self.step,
            "index": self.index,
            "rule": self.rule,
            "message": self.message,
        }


class RecordViolation(IllegalAction):
    """:func:`~moonrules.records.replay.from_record` of a record that breaks a rule;
    ``violation`` says where."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.rule, violation.message)
        self.violation = violation


@attrs.frozen(slots=True, field_transformer=typed)
class HandSummary:
    """One hand of a replayed record: bidder, bid, tricks per seat, score change per side."""

    bidder: int | None
    bid: int | None
    tricks: tuple[int, ...]
    deltas: tuple[int, ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "bidder": self.bidder,
            "bid": self.bid,
            "tricks": list(self.tricks),
            "deltas": list(self.deltas),
        }


@attrs.frozen(slots=True, field_transformer=typed)
class ReplayResult:
    """What :func:`~moonrules.records.replay.replay` found. ``state`` is the state reached
    (before the violation).

    ``players`` are the names the record gives its seats (trimmed; ``None`` for a seat
    without one), or ``None`` for a record without ``players``: read whatever the replay
    found, and never part of the protocol's answer (:meth:`to_json`).
    """

    state: GameState
    hands: tuple[HandSummary, ...]
    violation: Violation | None = None
    players: tuple[str | None, ...] | None = None

    @property
    def valid(self) -> bool:
        return self.violation is None

    def to_json(self) -> dict[str, JSON]:
        """The protocol's ``replay`` answer."""
        if self.violation is not None:
            return {"valid": False, "violation": self.violation.to_json()}
        return {
            "valid": True,
            "scores": list(self.state.scores),
            "winner": self.state.winner,
            "hands": [h.to_json() for h in self.hands],
        }


def _hand_json(h: Hand, rules: RuleSet) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "first_bidder": h.first_bidder,
        "deal": [tiles_json(tiles_of(m)) for m in h.deal],
    }
    if h.widow >= 0:
        out["widow"] = tile_json(TILES[h.widow])
    out["bids"] = [call_json(c) for c in h.calls]
    if h.thrown_in:
        return out
    after = rules.widow_timing is WidowTiming.AFTER_TRUMP
    if h.discard >= 0:
        out["discard"] = tile_json(TILES[h.discard])
    if h.trump >= 0:
        out["trump"] = Trump(h.trump).to_json()
    if h.trump >= 0 and (h.discard >= 0 or not rules.has_widow or not after):
        plays = [str(t) for tr in h.tricks for t in tr.tiles]
        plays.extend(str(TILES[i]) for i in h.trick)
        if h.phase is Phase.PLAY or h.phase is Phase.DONE:
            out["plays"] = plays
    if h.claim is not None:
        out["claim"] = {"seat": h.claim.seat, "tricks": h.claim.tricks}
    if after and "discard" in out:
        # keep the record's field order close to the order things happen
        out = {
            k: out[k]
            for k in ("first_bidder", "deal", "widow", "bids", "trump", "discard", "plays", "claim")
            if k in out
        }
    return out


def to_record(
    state: GameState,
    *,
    players: Sequence[str | None] | None = None,
    annotations: Sequence[Annotation] | None = None,
) -> dict[str, JSON]:
    """The record of a game so far, mid-hand included;
    :func:`~moonrules.records.replay.from_record` rebuilds it.

    ``players`` names the player at each seat (``None`` for a seat without a name), one per
    seat, as the record's ``players`` field (:mod:`moonrules.records.players`: each name
    1 to 40 characters once trimmed, written trimmed); :class:`RecordError` naming the entry
    (``players[2]: …``) for one that is not. Without it, the record has the names of the
    record the state was read from, if it had any, and no ``players`` field otherwise.
    ``annotations`` are notes on its actions (``moonrules.records.annotations``), the
    record's ``annotations`` field, checked against its hands; without them, those of the
    record the state was read from, if any.

    A state read by :func:`~moonrules.records.replay.from_record` gives its record back
    exactly as it was written: without ``seed`` if it had none, ending between hands if it did
    (while the hand the game dealt after it is untouched), and in its spellings (tiles either
    end first, a seat's tiles in any order, a rule-set alias, fields left out; see
    ``moonrules.records.spelling.as_written``). What the game adds after it was
    read is written as for any state: tiles high end first, each seat's tiles high
    first, every field.
    """
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    _check_annotations(annotations)
    g = state.game
    names: Players | None = None
    if players is not None:
        if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
            raise wrong_type("players", "a sequence of names (str or None), one per seat", players)
        for k, name in enumerate(players):
            if name is not None and not isinstance(name, str):
                raise wrong_type(f"players[{k}]", "a name (str) or None", name)
        names = parse_players(list(players), g.rules.players)
    hands = [*g.history]
    if g.open_hand is None or state.hand != g.open_hand or not hands:
        hands.append(state.hand)
    out: dict[str, JSON] = {"rules": rules_json(g.rules)}
    if g.seed_given:
        out["seed"] = g.seed
    if names is not None:
        out["players"] = list(names)
    out["hands"] = [_hand_json(h, g.rules) for h in hands]
    if g.source is None:
        return _annotated(out, g.rules.players, annotations)
    source = _source(g.source)
    if annotations is None and "annotations" in source:
        annotations = annotations_of(state)
    if names is None and "players" in source:
        out = {**out, "players": source["players"]}
    written: dict[str, JSON] = as_written(out, source, "")
    if "players" in written and "players" not in source:  # the names before the hands
        written = {k: written[k] for k in sorted(written, key=_FIELD_ORDER.index)}
    return _annotated(written, g.rules.players, annotations)


def _check_annotations(annotations: object) -> None:
    """:class:`TypeError` naming ``annotations`` (or its entry) unless it is ``None`` or a
    sequence of :class:`Annotation`."""
    if annotations is None:
        return
    if isinstance(annotations, (str, bytes)) or not isinstance(annotations, Sequence):
        raise wrong_type("annotations", "a sequence of Annotation", annotations)
    for k, note in enumerate(annotations):
        if not isinstance(note, Annotation):
            raise wrong_type(f"annotations[{k}]", "an Annotation", note)


def _annotated(
    out: dict[str, JSON], seats: int, annotations: Sequence[Annotation] | None
) -> dict[str, JSON]:
    """The record ``out`` with ``annotations`` (checked against its hands) as its last field."""
    if annotations is None:
        return out
    value: JSON = [a.to_json() for a in annotations]
    hands = out["hands"]
    assert isinstance(hands, list)
    parse_annotations(value, seats, [hand_actions(h) for h in hands])
    rest = {k: v for k, v in out.items() if k != "annotations"}
    return {**rest, "annotations": value} if annotations else rest


_FIELD_ORDER: Final = ("rules", "seed", "players", "hands", "annotations")


def _source(kept_record: object) -> dict[str, JSON]:
    """The record a game was read from, as :func:`~moonrules.records.spelling.kept` kept it."""
    source: dict[str, JSON] = (
        json.loads(kept_record) if isinstance(kept_record, str) else thawed(kept_record)
    )
    return source


def players_of(state: GameState) -> Players | None:
    """The names of the players of the record ``state`` was read from, by seat (trimmed;
    ``None`` for a seat without one), or ``None`` when that record had no ``players`` (or
    the state was not read from a record). A state played on from it keeps them.

    >>> import moonrules
    >>> s = moonrules.new_game(seed=1, first_bidder=0)
    >>> players_of(s) is None
    True
    >>> players_of(moonrules.from_record(to_record(s, players=["Ann", None, " Bo"])))
    ('Ann', None, 'Bo')
    """
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    g = state.game
    if g.source is None:
        return None
    source = _source(g.source)
    if "players" not in source:
        return None
    return parse_players(source["players"], g.rules.players)


def annotations_of(state: GameState) -> tuple[Annotation, ...]:
    """The annotations of the record ``state`` was read from (``()`` without any)."""
    if type(state) is not GameState:
        raise wrong_type("state", "a GameState", state)
    g = state.game
    if g.source is None:
        return ()
    source = _source(g.source)
    if "annotations" not in source:
        return ()
    hands = source["hands"]
    assert isinstance(hands, list)
    return parse_annotations(
        source["annotations"], g.rules.players, [hand_actions(h) for h in hands]
    )


# ---------------------------------------------------------------------------
# Reading


@attrs.frozen(slots=True)
class _HandRecord:
    first_bidder: int
    deal: tuple[tuple[Tile, ...], ...]
    widow: Tile | None
    has_widow: bool
    bids: tuple[Pass | Bid, ...] | None
    discard: Tile | None
    has_discard: bool
    trump: Trump | None
    plays: tuple[Tile, ...] | None
    claim: tuple[int, int] | None = None
    """The claim that ended the hand, after its plays: (seat, tricks)."""


def _parse_claim(value: JSON, path: str) -> tuple[int, int]:
    """A hand's ``claim``: ``{"seat": S, "tricks": K}`` (CLAIM-1)."""
    if not isinstance(value, dict):
        raise RecordError(
            path, f'expected a claim object like {{"seat": 1, "tricks": 3}}, got {json_kind(value)}'
        )
    for key in value:
        if key not in ("seat", "tricks"):
            raise RecordError(f"{path}.{key}", "unknown field; a claim has 'seat' and 'tricks'")
    for key in ("seat", "tricks"):
        if key not in value:
            raise RecordError(path, f"missing field {key!r}")
    seat = expect_int(value["seat"], f"{path}.seat", "a seat number")
    tricks = expect_int(value["tricks"], f"{path}.tricks", "a number of tricks")
    return seat, tricks


def _parse_hand(value: JSON, path: str) -> _HandRecord:
    if not isinstance(value, dict):
        raise RecordError(path, f"expected a hand object, got {json_kind(value)}")
    for key in value:
        if key not in _HAND_FIELDS:
            raise RecordError(f"{path}.{key}", f"unknown field; a hand has {list(_HAND_FIELDS)}")
    for key in ("first_bidder", "deal"):
        if key not in value:
            raise RecordError(path, f"missing field {key!r}")
    first = expect_int(value["first_bidder"], f"{path}.first_bidder", "a seat number")
    deal_v = expect_list(value["deal"], f"{path}.deal", "a list of each seat's tiles")
    deal = tuple(
        tuple(
            parse_tile_json(t, f"{path}.deal[{s}][{i}]")
            for i, t in enumerate(expect_list(h, f"{path}.deal[{s}]", "a list of tiles"))
        )
        for s, h in enumerate(deal_v)
    )
    widow = parse_tile_json(value["widow"], f"{path}.widow") if "widow" in value else None
    bids = None
    if "bids" in value:
        bids = tuple(
            parse_call_json(c, f"{path}.bids[{i}]")
            for i, c in enumerate(expect_list(value["bids"], f"{path}.bids", "a list of calls"))
        )
    discard = parse_tile_json(value["discard"], f"{path}.discard") if "discard" in value else None
    trump = parse_trump_json(value["trump"], f"{path}.trump") if "trump" in value else None
    plays = None
    if "plays" in value:
        plays = tuple(
            parse_tile_json(t, f"{path}.plays[{i}]")
            for i, t in enumerate(expect_list(value["plays"], f"{path}.plays", "a list of tiles"))
        )
    claim = _parse_claim(value["claim"], f"{path}.claim") if "claim" in value else None
    return _HandRecord(
        first, deal, widow, "widow" in value, bids, discard, "discard" in value, trump, plays, claim
    )


def parse_record(
    record: JSON, rules: RuleSet | None = None
) -> tuple[RuleSet, int, list[_HandRecord]]:
    """Check a record's shape; :class:`RecordError` names the field that is wrong.

    ``rules`` is used when the record names none (default: the standard rules).
    """
    rules, seed, _players, hands = _parse(record, rules)
    return rules, seed, hands


def _parse(
    record: JSON, rules: RuleSet | None
) -> tuple[RuleSet, int, Players | None, list[_HandRecord]]:
    """:func:`parse_record`, and the record's ``players`` (``None`` without the field)."""
    if not isinstance(record, dict):
        raise RecordError("", f"a record is a JSON object, got {json_kind(record)}")
    for key in record:
        if key not in _FIELD_ORDER:
            raise RecordError(
                key,
                "unknown field; a record has 'rules', 'seed', 'players', 'hands' and 'annotations'",
            )
    if "rules" in record:
        if record["rules"] is None:
            raise RecordError("rules", "expected a preset name or an object of rule-set fields")
        rules = rules_from_json(record["rules"])
    elif rules is None:
        rules = PRESETS["standard"]
    seed = expect_int(record.get("seed", 0), "seed", "a whole number")
    players = parse_players(record["players"], rules.players) if "players" in record else None
    if "hands" not in record:
        raise RecordError("", "missing field 'hands'")
    hands_v = expect_list(record["hands"], "hands", "a list of hands")
    if not hands_v:
        raise RecordError("hands", "a record has at least one hand")
    hands = [_parse_hand(h, f"hands[{i}]") for i, h in enumerate(hands_v)]
    if "annotations" in record:
        parse_annotations(record["annotations"], rules.players, [hand_actions(h) for h in hands_v])
    return rules, seed, players, hands


def load_record(text: str | bytes, *, max_length: int | None = MAX_RECORD_BYTES) -> JSON:
    """Parse record text as strict JSON; :class:`RecordError` for anything it cannot read.

    The error says where the text is broken, or which limit it passes: longer
    than ``max_length`` characters (default 4 MiB; ``None`` for no limit), nested
    too deeply, a number too long, ``NaN`` or ``Infinity``, a member named twice
    (see :mod:`moonrules.records.jsontext`). Bytes must be UTF-8.
    """
    if max_length is not None:
        check_int(max_length, "max_length", 1, what="a length in characters")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"byte {e.start}", "the record is not UTF-8 text") from None
    if not isinstance(text, str):
        raise TypeError(f"text: expected the record's text (str), not {type(text).__name__}")
    try:
        return loads(text, max_length=max_length)
    except JSONTextError as e:
        if e.line is None:
            raise RecordError("", e.message) from None
        where = f"line {e.line}, column {e.column}"
        raise RecordError(where, f"not valid JSON: {e.message}") from None


__all__ = [
    "JSON",
    "HandSummary",
    "RecordError",
    "RecordRulesError",
    "RecordViolation",
    "ReplayResult",
    "UnknownRulesError",
    "Violation",
    "annotations_of",
    "call_json",
    "json_kind",
    "load_record",
    "parse_call_json",
    "parse_record",
    "parse_tile_json",
    "parse_trump_json",
    "players_of",
    "rules_from_json",
    "rules_json",
    "tile_json",
    "tiles_json",
    "to_record",
]
