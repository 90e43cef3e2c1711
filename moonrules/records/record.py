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

:func:`to_record` writes a state's record, :func:`from_record` rebuilds the
exact state, and :func:`replay` checks a record step by step and reports the
first thing the rules forbid (hand, step, index, clause, message).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from operator import attrgetter
from typing import Final, Literal

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
    apply_claim,
    apply_renege,
    check_deal,
    illegal_play_reason,
    new_game,
    with_deal,
)
from moonrules.records.annotations import Annotation, hand_actions, parse_annotations
from moonrules.records.jsontext import MAX_RECORD_BYTES, JSONTextError, loads
from moonrules.records.players import Players, parse_players
from moonrules.records.spelling import as_written, kept, thawed
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
from moonrules.rules.auction import PASS, check_call
from moonrules.rules.contract import check_int, typed
from moonrules.rules.errors import IllegalAction, wrong_type
from moonrules.rules.ruleset import (
    PRESETS,
    Renege,
    RuleSet,
    WidowTiming,
)
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile, tiles_of

Step = Literal["deal", "bid", "discard", "trump", "play", "claim"]
_HAND_FIELDS = ("first_bidder", "deal", "widow", "bids", "discard", "trump", "plays", "claim")
_INDEX = attrgetter("index")
"""A tile's index: sorting by it is sorting tiles (and much quicker than comparing them)."""


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
    """:func:`from_record` of a record that breaks a rule; ``violation`` says where."""

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
    """What :func:`replay` found. ``state`` is the state reached (before the violation).

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
    """The record of a game so far, mid-hand included; :func:`from_record` rebuilds it.

    ``players`` names the player at each seat (``None`` for a seat without a name), one per
    seat, as the record's ``players`` field (:mod:`moonrules.records.players`: each name
    1 to 40 characters once trimmed, written trimmed); :class:`RecordError` naming the entry
    (``players[2]: …``) for one that is not. Without it, the record has the names of the
    record the state was read from, if it had any, and no ``players`` field otherwise.
    ``annotations`` are notes on its actions (``moonrules.records.annotations``), the
    record's ``annotations`` field, checked against its hands; without them, those of the
    record the state was read from, if any.

    A state read by :func:`from_record` gives its record back exactly as it was
    written: without ``seed`` if it had none, ending between hands if it did (while
    the hand the game dealt after it is untouched), and in its spellings (tiles either
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
    >>> players_of(from_record(to_record(s, players=["Ann", None, " Bo"])))
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


def _as_read(state: GameState, record: dict[str, JSON], hands: int) -> GameState:
    """``state`` keeping the record it was read from (see :func:`to_record`)."""
    seed_given = "seed" in record
    g = state.game
    open_hand = state.hand if state.hand.number > hands and g.winner is None else None
    game = attrs.evolve(g, seed_given=seed_given, open_hand=open_hand, source=kept(record))
    return GameState(game, state.hand)


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
    if rules is not None and not isinstance(rules, RuleSet):
        raise wrong_type("rules", "a RuleSet or None", rules)
    rules, seed, players, hands = _parse(record, rules)
    state: GameState | None = None
    summaries: list[HandSummary] = []
    earlier: list[Hand] = []
    try:
        for i, hr in enumerate(hands):
            state = _replay_hand(state, rules, seed, i, hr, last=i == len(hands) - 1)
            h = state.hand if state.hand.number == i + 1 else state.history[-1]
            summaries.append(_summary(h, rules))
            state = _set_aside(state, earlier)
    except _Stop as stop:
        reached = stop.state if stop.state is not None else state
        if reached is None:  # the first hand's deal is broken: no state was reached
            reached = new_game(rules, seed, first_bidder=0)
        return ReplayResult(_whole(reached, earlier), tuple(summaries), stop.violation, players)
    assert state is not None
    state = _whole(state, earlier)
    return ReplayResult(_as_read(state, record, len(hands)), tuple(summaries), None, players)


def _set_aside(state: GameState, earlier: list[Hand]) -> GameState:
    """``state`` keeping only the last of its earlier hands; the others are appended to
    ``earlier``. The game copies its history at the end of each hand: a replay that kept
    it whole would copy every hand once per later hand (quadratic in the hands)."""
    history = state.game.history
    if len(history) <= 1:
        return state
    earlier.extend(history[:-1])
    return GameState(attrs.evolve(state.game, history=history[-1:]), state.hand)


def _whole(state: GameState, earlier: list[Hand]) -> GameState:
    """``state`` with the earlier hands :func:`_set_aside` put back in front of its history."""
    if not earlier:
        return state
    history = (*earlier, *state.game.history)
    return GameState(attrs.evolve(state.game, history=history), state.hand)


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
        "play": hr.plays is not None or hr.claim is not None,
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
    deal = Deal(tuple(tuple(sorted(h, key=_INDEX)) for h in hr.deal), hr.widow)
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
    """The plays of hand ``i``, to its end (TRICK-1 … TRICK-3, FOLLOW-*, RENEGE-*), and the
    claim that ended it (CLAIM-1)."""
    plays = hr.plays or ()
    if hr.plays is None and hr.claim is None and not last:
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
    if hr.claim is not None:
        return _replay_claim(state, i, hr.claim, number, len(plays))
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


def _replay_claim(
    state: GameState, i: int, claim: tuple[int, int], number: int, plays: int
) -> GameState:
    """The claim after hand ``i``'s plays (CLAIM-1): settled, or the violation it is."""
    seat, tricks = claim
    if _hand_ended(state, number):
        raise _fail(
            state,
            i,
            "claim",
            None,
            IllegalAction(
                "CLAIM-1",
                f"the hand was over after its {plays} plays; seat {seat} claimed after it",
                seat=seat,
            ),
        )
    try:
        return apply_claim(state, seat, tricks)
    except IllegalAction as e:
        raise _fail(state, i, "claim", None, e) from None


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
    "from_record",
    "json_kind",
    "load_record",
    "parse_call_json",
    "parse_record",
    "parse_tile_json",
    "parse_trump_json",
    "players_of",
    "replay",
    "rules_from_json",
    "rules_json",
    "tile_json",
    "tiles_json",
    "to_record",
]
