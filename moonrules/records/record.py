"""Game records: the library's save format and the input of arbitration.

A record is JSON (schema: ``spec/schema/record.schema.json``)::

    {"rules": "standard", "seed": 7,
     "hands": [{"first_bidder": 0, "deal": [["6-6", ...], [...], [...]], "widow": "3-1",
                "bids": ["pass", 5, "pass"], "discard": "3-1", "trump": 6,
                "plays": ["6-6", "6-1", ...]}, ...]}

``rules`` is a preset name or an object of :class:`~moonrules.rules.ruleset.RuleSet`
fields; ``seed`` (optional) is the seed later deals come from. A hand thrown in
has only ``first_bidder``, ``deal``, ``widow`` and ``bids``. A record may stop
anywhere; fields not reached are left out and the unfinished hand scores nothing.

:func:`to_record` writes a state's record, :func:`from_record` rebuilds the
exact state, and :func:`replay` checks a record step by step and reports the
first thing the rules forbid (hand, step, index, clause, message).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, Literal

import attrs

from moonrules.game import (
    Bid,
    Deal,
    Discard,
    GameState,
    Hand,
    NameTrump,
    Pass,
    Phase,
    Play,
    apply,
    apply_renege,
    check_deal,
    illegal_play_reason,
    new_game,
    with_deal,
)
from moonrules.records.jsontext import MAX_RECORD_BYTES, JSONTextError, loads
from moonrules.rules.auction import PASS, check_call
from moonrules.rules.errors import IllegalAction, ParseError, RulesError, quote
from moonrules.rules.ruleset import (
    PRESETS,
    AllPass,
    FirstLead,
    MoonMade,
    Renege,
    RuleSet,
    Scoring,
    TieRule,
    WidowTiming,
    rules_by_name,
)
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, TileSet, tiles_of

Step = Literal["deal", "bid", "discard", "trump", "play"]
JSON = Any
"""A JSON value as :mod:`json` reads it (the one definition; other modules import it)."""

_HAND_FIELDS = ("first_bidder", "deal", "widow", "bids", "discard", "trump", "plays")


class RecordError(ParseError):
    """A record that cannot be read: not the shape of a record (before any rule applies).

    ``path`` says where, e.g. ``hands[1].plays[4]``.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


class UnknownRulesError(RecordError):
    """A record (or request) names a rule set that matches no preset or alias."""


class RecordRulesError(RecordError):
    """A record's rule set is well formed but cannot be played (RULES-1, TRUMP-5, BID-4).

    ``rule`` is the clause the rule set breaks.
    """

    def __init__(self, path: str, message: str, rule: str) -> None:
        super().__init__(path, message)
        self.rule = rule


@attrs.frozen(slots=True)
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
    """:func:`from_record` of a record that breaks a rule; ``violation`` says where."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.rule, violation.message)
        self.violation = violation


@attrs.frozen(slots=True)
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


@attrs.frozen(slots=True)
class ReplayResult:
    """What :func:`replay` found. ``state`` is the state reached (before the violation)."""

    state: GameState
    hands: tuple[HandSummary, ...]
    violation: Violation | None = None

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


# ---------------------------------------------------------------------------
# Encoding


def tile_json(t: Tile) -> str:
    return str(t)


def tiles_json(ts: Sequence[Tile]) -> list[str]:
    """A tile list as the protocol writes it: sorted high first."""
    return [str(t) for t in sorted(ts, reverse=True)]


def call_json(call: int) -> str | int:
    return "pass" if call == PASS else call


def rules_json(rules: RuleSet) -> str | dict[str, JSON]:
    """A preset's name, or every field of a rule set that is no preset."""
    name = rules.name
    return name if name is not None else rules.to_json()


_ENUM_FIELDS: dict[str, type[Any]] = {
    "tile_set": TileSet,
    "all_pass": AllPass,
    "widow_timing": WidowTiming,
    "first_lead": FirstLead,
    "moon_made": MoonMade,
    "scoring": Scoring,
    "tie": TieRule,
    "renege": Renege,
}


_INT_FIELDS = ("players", "min_bid", "target")
_BOOL_FIELDS = ("moon", "doubles_trump", "no_trump")


def rules_from_json(value: JSON, path: str = "rules") -> RuleSet:
    """A rule set from a preset name (or alias) or an object of rule-set fields.

    ``None`` gives the standard rules. Raises :class:`UnknownRulesError` for a
    name that matches no preset, :class:`RecordError` for an unknown field or a
    value of the wrong type, and :class:`RecordRulesError` (with the clause) for
    a rule set whose fields contradict each other (RULES-1, TRUMP-5, BID-4).
    """
    if value is None:
        return PRESETS["standard"]
    if isinstance(value, str):
        try:
            return rules_by_name(value)
        except ParseError as e:
            raise UnknownRulesError(path, str(e)) from None
    if not isinstance(value, dict):
        raise RecordError(
            path, f"expected a preset name or an object of rule-set fields, got {_json_kind(value)}"
        )
    known = [f.name for f in attrs.fields(RuleSet)]
    kwargs: dict[str, Any] = {}
    for key, v in value.items():
        where = f"{path}.{key}"
        if key not in known:
            raise RecordError(where, f"unknown rule-set field; the fields are {', '.join(known)}")
        if key in _ENUM_FIELDS:
            choices = [e.value for e in _ENUM_FIELDS[key]]
            if not isinstance(v, str) or v not in choices:
                raise RecordError(where, f"expected one of {choices}, got {_json_kind(v)}")
            kwargs[key] = _ENUM_FIELDS[key](v)
        elif key == "trump_numbers":
            if not isinstance(v, list) or any(type(n) is not int for n in v):
                raise RecordError(where, f"expected a list of numbers 0-6, got {_json_kind(v)}")
            kwargs[key] = tuple(v)
        elif key in _INT_FIELDS:
            kwargs[key] = _int(v, where, "a whole number")
        else:
            assert key in _BOOL_FIELDS
            if not isinstance(v, bool):
                raise RecordError(where, f"expected true or false, got {_json_kind(v)}")
            kwargs[key] = v
    try:
        return RuleSet(**kwargs)
    except RulesError as e:
        raise RecordRulesError(path, e.message, e.rule) from None


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
    if after and "discard" in out:
        # keep the record's field order close to the order things happen
        out = {
            k: out[k]
            for k in ("first_bidder", "deal", "widow", "bids", "trump", "discard", "plays")
            if k in out
        }
    return out


def to_record(state: GameState) -> dict[str, JSON]:
    """The record of a game so far, mid-hand included; :func:`from_record` rebuilds it.

    A state read by :func:`from_record` gives its record back exactly as it was
    written: without ``seed`` if it had none, ending between hands if it did (while
    the hand the game dealt after it is untouched), and in its spellings (tiles either
    end first, a seat's tiles in any order, a rule-set alias, fields left out; see
    :func:`_as_written`). What the game adds after it was read is written as for any
    state: tiles high end first, each seat's tiles high first, every field.
    """
    g = state.game
    hands = [*g.history]
    if g.open_hand is None or state.hand != g.open_hand or not hands:
        hands.append(state.hand)
    out: dict[str, JSON] = {"rules": rules_json(g.rules)}
    if g.seed_given:
        out["seed"] = g.seed
    out["hands"] = [_hand_json(h, g.rules) for h in hands]
    if g.source is None:
        return out
    source = json.loads(g.source) if isinstance(g.source, str) else _thawed(g.source)
    written: dict[str, JSON] = _as_written(out, source, "")
    return written


_ABSENT: Final[Mapping[str, JSON]] = MappingProxyType(
    {"rules": "standard", "bids": (), "plays": ()}
)
"""What a record means by leaving a field out: the standard rules, no calls, no plays."""


def _as_written(value: JSON, source: JSON, key: str) -> JSON:
    """``value``, a part of a record :func:`to_record` wrote, in the spellings of ``source``,
    the same part of the record the game was read from; ``key`` names the part (``""`` for
    the whole record, ``"hand"`` for one hand, else the field's name).

    The two are walked in parallel, and wherever the source's value means the same as the
    written one, the source's is kept: the same tile with either end first (TILE-1), the
    same tiles dealt to a seat in any order, the same rule set named by an alias, in other
    letters, or as an object of fields. A field the source left out stays out while the
    written value is what leaving it out means (:data:`_ABSENT`); fields keep the source's
    order. Whatever the game added after it was read (calls, plays, hands) and whatever
    differs is written as :func:`to_record` writes it, so the result is always a record of
    the state, and the record read is given back exactly while the state is the one read.
    """
    if key in ("", "hand") and isinstance(value, dict) and isinstance(source, dict):
        out = {k: _as_written(value[k], v, k) for k, v in source.items() if k in value}
        absent = object()
        for k, v in value.items():
            if k not in source and _ABSENT.get(k, absent) != (
                tuple(v) if isinstance(v, list) else v
            ):
                out[k] = v
        return out
    if key in ("hands", "plays", "deal") and isinstance(value, list) and isinstance(source, list):
        part = "hand" if key == "hands" else "tile" if key == "plays" else "seat"
        kept = [_as_written(v, s, part) for v, s in zip(value, source, strict=False)]
        return kept + value[len(kept) :]
    if key in ("tile", "widow", "discard") and isinstance(value, str) and isinstance(source, str):
        return source if source in (value, value[::-1]) else value
    if key == "seat" and isinstance(value, list) and isinstance(source, list):
        if not all(isinstance(t, str) for t in source):
            return value
        spelt = sorted(max(t, t[::-1]) for t in source)  # each tile high end first
        return list(source) if spelt == sorted(value) else value
    if key == "rules" and source != value:
        try:
            return source if rules_from_json(source) == rules_from_json(value) else value
        except RecordError:
            return value
    return value


def _kept(record: dict[str, JSON]) -> object:
    """A record as a :class:`Game` keeps it: its JSON text, or, for a record with a number
    of more digits than Python writes as text, the record frozen (:func:`_frozen`)."""
    try:
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError):
        return _frozen(record)


@attrs.frozen(slots=True)
class _Object:
    """A JSON object frozen, its members in order."""

    members: tuple[tuple[str, object], ...]


def _frozen(value: JSON) -> object:
    """A JSON value as an immutable value (objects as :class:`_Object`, lists as tuples)."""
    if isinstance(value, dict):
        return _Object(tuple(zip(map(str, value), map(_frozen, value.values()), strict=True)))
    if isinstance(value, list):
        return tuple(map(_frozen, value))
    return value


def _thawed(value: object) -> JSON:
    """The JSON value :func:`_frozen` froze, as new dicts and lists."""
    if isinstance(value, _Object):
        return {k: _thawed(v) for k, v in value.members}
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


def _as_read(state: GameState, record: dict[str, JSON], hands: int) -> GameState:
    """``state`` keeping the record it was read from (see :func:`to_record`)."""
    seed_given = "seed" in record
    g = state.game
    open_hand = state.hand if state.hand.number > hands and g.winner is None else None
    game = attrs.evolve(g, seed_given=seed_given, open_hand=open_hand, source=_kept(record))
    return GameState(game, state.hand)


# ---------------------------------------------------------------------------
# Reading


_TILE_TEXT = re.compile(r"[0-9]-[0-9]")


def parse_tile_json(value: JSON, path: str) -> Tile:
    """A tile written as the protocol and records write it: ``"a-b"``, either order (TILE-1).

    Exactly two digits 0-6 joined by ``-``, nothing around them; anything else
    raises :class:`RecordError` naming ``path``.
    """
    if not isinstance(value, str):
        raise RecordError(path, f'expected a tile like "6-4", got {_json_kind(value)}')
    if _TILE_TEXT.fullmatch(value) is None:
        raise RecordError(
            path, f'{quote(value)} is not a tile: write two numbers 0-6 joined by "-", like "6-4"'
        )
    try:
        return Tile.parse(value)
    except ParseError as e:
        raise RecordError(path, str(e)) from None


def json_kind(value: JSON) -> str:
    """A JSON value described for an error message: ``'the text "x"'``, ``'a list'``, …"""
    return _json_kind(value)


_BIG: Final = 10**40


def _json_kind(value: JSON) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int) and not -_BIG < value < _BIG:
        return "a number of more than 40 digits"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {quote(value)}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _int(value: JSON, path: str, what: str) -> int:
    if type(value) is not int:
        raise RecordError(path, f"expected {what}, got {_json_kind(value)}")
    return value


def _list(value: JSON, path: str, what: str) -> list[JSON]:
    if not isinstance(value, list):
        raise RecordError(path, f"expected {what}, got {_json_kind(value)}")
    return value


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


def parse_call_json(value: JSON, path: str) -> Pass | Bid:
    """A call: ``"pass"`` or a whole number, a bid the rules then judge (BID-4).

    ``0`` and negative numbers are read as bids, which no rule set allows; only
    ``"pass"`` is a pass.
    """
    if value == "pass" and isinstance(value, str):
        return Pass()
    if type(value) is int:
        return Bid(value)
    raise RecordError(path, f'expected "pass" or a bid (a whole number), got {_json_kind(value)}')


def parse_trump_json(value: JSON, path: str) -> Trump:
    """A trump as records and the protocol write it: 0-6, ``"doubles"``, ``"none"`` (TRUMP-1)."""
    if type(value) is int and 0 <= value <= 6:
        return Trump.of_number(value)
    if value == "doubles" and isinstance(value, str):
        return Trump.DOUBLES
    if value == "none" and isinstance(value, str):
        return Trump.NONE
    raise RecordError(path, f'expected a trump: 0-6, "doubles" or "none", got {_json_kind(value)}')


def _parse_hand(value: JSON, path: str) -> _HandRecord:
    if not isinstance(value, dict):
        raise RecordError(path, f"expected a hand object, got {_json_kind(value)}")
    for key in value:
        if key not in _HAND_FIELDS:
            raise RecordError(f"{path}.{key}", f"unknown field; a hand has {list(_HAND_FIELDS)}")
    for key in ("first_bidder", "deal"):
        if key not in value:
            raise RecordError(path, f"missing field {key!r}")
    first = _int(value["first_bidder"], f"{path}.first_bidder", "a seat number")
    deal_v = _list(value["deal"], f"{path}.deal", "a list of each seat's tiles")
    deal = tuple(
        tuple(
            parse_tile_json(t, f"{path}.deal[{s}][{i}]")
            for i, t in enumerate(_list(h, f"{path}.deal[{s}]", "a list of tiles"))
        )
        for s, h in enumerate(deal_v)
    )
    widow = parse_tile_json(value["widow"], f"{path}.widow") if "widow" in value else None
    bids = None
    if "bids" in value:
        bids = tuple(
            parse_call_json(c, f"{path}.bids[{i}]")
            for i, c in enumerate(_list(value["bids"], f"{path}.bids", "a list of calls"))
        )
    discard = parse_tile_json(value["discard"], f"{path}.discard") if "discard" in value else None
    trump = parse_trump_json(value["trump"], f"{path}.trump") if "trump" in value else None
    plays = None
    if "plays" in value:
        plays = tuple(
            parse_tile_json(t, f"{path}.plays[{i}]")
            for i, t in enumerate(_list(value["plays"], f"{path}.plays", "a list of tiles"))
        )
    return _HandRecord(
        first, deal, widow, "widow" in value, bids, discard, "discard" in value, trump, plays
    )


def parse_record(
    record: JSON, rules: RuleSet | None = None
) -> tuple[RuleSet, int, list[_HandRecord]]:
    """Check a record's shape; :class:`RecordError` names the field that is wrong.

    ``rules`` is used when the record names none (default: the standard rules).
    """
    if not isinstance(record, dict):
        raise RecordError("", f"a record is a JSON object, got {_json_kind(record)}")
    for key in record:
        if key not in ("rules", "seed", "hands"):
            raise RecordError(key, "unknown field; a record has 'rules', 'seed' and 'hands'")
    if "rules" in record:
        if record["rules"] is None:
            raise RecordError("rules", "expected a preset name or an object of rule-set fields")
        rules = rules_from_json(record["rules"])
    elif rules is None:
        rules = PRESETS["standard"]
    seed = _int(record.get("seed", 0), "seed", "a whole number")
    if "hands" not in record:
        raise RecordError("", "missing field 'hands'")
    hands_v = _list(record["hands"], "hands", "a list of hands")
    if not hands_v:
        raise RecordError("hands", "a record has at least one hand")
    return rules, seed, [_parse_hand(h, f"hands[{i}]") for i, h in enumerate(hands_v)]


class _Stop(Exception):
    """A violation, with the state reached just before the step that broke the rule."""

    def __init__(self, violation: Violation, state: GameState | None) -> None:
        self.violation = violation
        self.state = state


def _fail(
    state: GameState | None, hand: int, step: Step, index: int | None, err: IllegalAction
) -> _Stop:
    return _Stop(Violation(hand, step, index, err.rule, _sentence(err.message), err), state)


def _sentence(message: str) -> str:
    message = message[0].upper() + message[1:] if message else message
    return message if message.endswith(".") else message + "."


def _summary(h: Hand, rules: RuleSet) -> HandSummary:
    return HandSummary(
        None if h.bidder < 0 else h.bidder,
        None if h.bidder < 0 else h.bid,
        h.tricks_won or (0,) * rules.players,
        h.deltas if h.deltas is not None else (0,) * rules.sides,
    )


def replay(record: JSON, *, rules: RuleSet | None = None) -> ReplayResult:
    """Replay a record; stop at the first thing the rules forbid.

    Raises :class:`RecordError` for a record that is not the shape of a record
    (a missing or ill-typed field, a malformed tile); a rule broken is reported
    in the result's ``violation``, never raised. ``rules`` applies when the
    record names none (default: the standard rules).
    """
    rules, seed, hands = parse_record(record, rules)
    state: GameState | None = None
    summaries: list[HandSummary] = []
    try:
        for i, hr in enumerate(hands):
            state = _replay_hand(state, rules, seed, i, hr, last=i == len(hands) - 1)
            h = state.hand if state.hand.number == i + 1 else state.history[i]
            summaries.append(_summary(h, rules))
    except _Stop as stop:
        reached = stop.state if stop.state is not None else state
        if reached is None:  # the first hand's deal is broken: no state was reached
            reached = new_game(rules, seed, first_bidder=0)
        return ReplayResult(reached, tuple(summaries), stop.violation)
    assert state is not None
    return ReplayResult(_as_read(state, record, len(hands)), tuple(summaries), None)


def _replay_hand(
    state: GameState | None, rules: RuleSet, seed: int, i: int, hr: _HandRecord, *, last: bool
) -> GameState:
    """Hand ``i`` of a record, step by step: the deal, the auction, the widow and trump in
    the rules' order, the plays. Raises :class:`_Stop` at the first step the rules forbid."""
    state = _replay_deal(state, rules, seed, i, hr)
    number = state.hand.number
    state = _replay_bids(state, i, hr, number)
    order: tuple[Step, ...] = (
        ("trump", "discard")
        if rules.widow_timing is WidowTiming.AFTER_TRUMP
        else ("discard", "trump")
    )
    present: dict[Step, bool] = {
        "discard": hr.has_discard,
        "trump": hr.trump is not None,
        "play": hr.plays is not None,
    }
    sequence: tuple[Step, ...] = (*order, "play")
    later = [st for st in sequence if present[st]]
    if _hand_ended(state, number):  # every player passed: thrown in (BID-7)
        if later:
            what = "play" if later[0] == "play" else later[0]
            raise _fail(
                state,
                i,
                later[0],
                None if later[0] != "play" else 0,
                IllegalAction(
                    "BID-7",
                    f"every player passed, so the hand was thrown in: there is no {what}",
                ),
            )
        return state
    if state.hand.phase is Phase.BIDDING:
        if later or not last:
            step: Step = later[0] if later else "bid"
            n = len(hr.bids or ())
            raise _fail(
                state,
                i,
                step,
                n if step == "bid" else None,
                IllegalAction(
                    "BID-6", f"the auction is not over after {n} call(s), and the record goes on"
                ),
            )
        return state
    for step in order:
        reached = _replay_contract_step(state, i, hr, step, sequence, present, last)
        if reached is None:  # the record stops before this step
            return state
        state = reached
    return _replay_plays(state, i, hr, number, last=last)


def _hand_ended(state: GameState, number: int) -> bool:
    """Whether hand ``number`` is over: the game ended, or the next hand was dealt."""
    return state.is_over or state.hand.number != number


def _replay_deal(
    state: GameState | None, rules: RuleSet, seed: int, i: int, hr: _HandRecord
) -> GameState:
    """The deal of hand ``i`` (END-1, SEAT-1, BID-1, DEAL-1 … DEAL-3)."""
    if state is not None and state.is_over:
        raise _fail(
            state,
            i,
            "deal",
            None,
            IllegalAction(
                "END-1", f"the game was over after hand {i}; a record has no hand after that"
            ),
        )
    if not 0 <= hr.first_bidder < rules.players:
        raise _fail(
            state,
            i,
            "deal",
            None,
            IllegalAction(
                "SEAT-1",
                f"seats are numbered 0 to {rules.players - 1}; there is no seat {hr.first_bidder}",
            ),
        )
    if state is not None and hr.first_bidder != state.hand.first_bidder:
        raise _fail(
            state,
            i,
            "deal",
            None,
            IllegalAction(
                "BID-1",
                f"seat {state.hand.first_bidder} bids first in hand {i + 1}, one seat on "
                f"from the hand before, not seat {hr.first_bidder}",
                seat=hr.first_bidder,
            ),
        )
    if hr.has_widow and not rules.has_widow:
        raise _fail(
            state,
            i,
            "deal",
            None,
            IllegalAction(
                "DEAL-2",
                f"these rules have no widow, and the record names {hr.widow} as one",
                tile=hr.widow,
            ),
        )
    deal = Deal(tuple(tuple(sorted(h)) for h in hr.deal), hr.widow)
    try:
        check_deal(rules, deal)
    except IllegalAction as e:
        raise _fail(state, i, "deal", None, e) from None
    if state is None:
        return new_game(rules, seed, first_bidder=hr.first_bidder, deal=deal)
    return with_deal(state, deal)


def _replay_bids(state: GameState, i: int, hr: _HandRecord, number: int) -> GameState:
    """The calls of hand ``i`` (BID-2 … BID-8)."""
    for j, call in enumerate(hr.bids or ()):
        if _hand_ended(state, number):
            raise _fail(
                state,
                i,
                "bid",
                j,
                IllegalAction(
                    "BID-2",
                    "every player has had their one turn to call; the auction is over",
                    call=call.amount if isinstance(call, Bid) else PASS,
                    allowed_calls=(),
                ),
            )
        try:
            if state.hand.phase is not Phase.BIDDING:
                # a call after the auction ended: BID-5 after a 21, else BID-2
                check_call(state.auction, call.amount if isinstance(call, Bid) else PASS)
            state = apply(state, call)
        except IllegalAction as e:
            raise _fail(state, i, "bid", j, e) from None
    return state


def _replay_contract_step(
    state: GameState,
    i: int,
    hr: _HandRecord,
    step: Step,
    sequence: tuple[Step, ...],
    present: dict[Step, bool],
    last: bool,
) -> GameState | None:
    """The discard (WIDOW-1, WIDOW-2, DEAL-2) or the naming of trump (TRUMP-1, TRUMP-5).

    ``None`` when the record stops before this step and nothing follows it.
    """
    rules = state.rules
    if step == "discard" and not rules.has_widow:
        if hr.has_discard:
            raise _fail(
                state,
                i,
                "discard",
                None,
                IllegalAction(
                    "DEAL-2",
                    "these rules have no widow, so the bidder discards nothing",
                    seat=state.hand.bidder,
                    tile=hr.discard,
                ),
            )
        return state
    action: Discard | NameTrump
    if step == "discard":
        if hr.discard is None:
            return _missing(state, i, "discard", "WIDOW-1", sequence, present, last)
        action = Discard(hr.discard)
    else:
        if hr.trump is None:
            return _missing(state, i, "trump", "TRUMP-1", sequence, present, last)
        action = NameTrump(hr.trump)
    try:
        return apply(state, action)
    except IllegalAction as e:
        raise _fail(state, i, step, None, e) from None


def _replay_plays(
    state: GameState, i: int, hr: _HandRecord, number: int, *, last: bool
) -> GameState:
    """The plays of hand ``i``, to its end (TRICK-1 … TRICK-3, FOLLOW-*, RENEGE-*)."""
    plays = hr.plays or ()
    if hr.plays is None and not last:
        raise _fail(
            state,
            i,
            "play",
            0,
            IllegalAction(
                "TRICK-3", "the hand has no plays, and the record goes on to another hand"
            ),
        )
    for j, t in enumerate(plays):
        if _hand_ended(state, number):
            reneged = bool(state.history) and state.history[-1].renege >= 0
            why = "the hand ended at the renege" if reneged else "seven tricks make a hand"
            raise _fail(
                state,
                i,
                "play",
                j,
                IllegalAction(
                    "RENEGE-2" if reneged else "TRICK-3",
                    f"the hand was over after {j} plays ({why}); {t} was played after it",
                    tile=t,
                ),
            )
        state = _replay_play(state, i, j, t)
    if not _hand_ended(state, number) and not last:
        raise _fail(
            state,
            i,
            "play",
            len(plays),
            IllegalAction(
                "TRICK-3",
                f"the hand has only {len(plays)} plays; seven tricks make a hand, and "
                "the record goes on to another hand",
            ),
        )
    return state


def _missing(
    state: GameState,
    i: int,
    step: Step,
    rule: str,
    sequence: tuple[Step, ...],
    present: dict[Step, bool],
    last: bool,
) -> GameState | None:
    """A discard or trump the record does not name: ``None`` if the record stops there,
    else a violation of ``rule``."""
    after = sequence[sequence.index(step) + 1 :]
    if last and not any(present[st] for st in after):
        return None
    raise _fail(
        state, i, step, None, IllegalAction(rule, f"the record names no {step}, and goes on")
    )


def _replay_play(state: GameState, i: int, j: int, t: Tile) -> GameState:
    err = illegal_play_reason(state, t)
    if err is None:
        return apply(state, Play(t))
    to_act = state.to_act
    if err.rule == "TRICK-1":
        owner = next((s for s, m in enumerate(state.hand.hands) if m >> t.index & 1), None)
        if owner is not None and owner != to_act:
            err = IllegalAction(
                "TURN-1",
                f"seat {to_act} is to play, and {t} is seat {owner}'s tile: played out of turn",
                seat=to_act,
                tile=t,
                allowed_tiles=err.allowed_tiles,
            )
        elif owner is None:
            err = IllegalAction(
                "TRICK-1",
                f"seat {to_act} played {t}, which no one holds now "
                "(it was dealt elsewhere, discarded or already played)",
                seat=to_act,
                tile=t,
                allowed_tiles=err.allowed_tiles,
            )
    if err.rule in ("FOLLOW-1", "FOLLOW-2") and state.rules.renege is Renege.PENALTY:
        return apply_renege(state, t)
    raise _fail(state, i, "play", j, err)


def from_record(record: JSON) -> GameState:
    """Rebuild the exact state a record describes.

    Raises :class:`RecordError` for a malformed record and
    :class:`RecordViolation` (an :class:`~moonrules.rules.errors.IllegalAction` with
    the clause) for one that breaks a rule.
    """
    result = replay(record)
    if result.violation is not None:
        raise RecordViolation(result.violation)
    return result.state


def load_record(text: str | bytes, *, max_length: int | None = MAX_RECORD_BYTES) -> JSON:
    """Parse record text as strict JSON; :class:`RecordError` for anything it cannot read.

    The error says where the text is broken, or which limit it passes: longer
    than ``max_length`` characters (default 4 MiB; ``None`` for no limit), nested
    too deeply, a number too long, ``NaN`` or ``Infinity``, a member named twice
    (see :mod:`moonrules.records.jsontext`). Bytes must be UTF-8.
    """
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
    "HandSummary",
    "RecordError",
    "RecordRulesError",
    "RecordViolation",
    "ReplayResult",
    "UnknownRulesError",
    "Violation",
    "from_record",
    "json_kind",
    "load_record",
    "parse_call_json",
    "parse_record",
    "parse_tile_json",
    "parse_trump_json",
    "replay",
    "rules_from_json",
    "to_record",
]
