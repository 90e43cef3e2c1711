"""The JSON-lines protocol of ``moonrules serve`` (normative text: ``spec/protocol.md``).

Other Moon engines, in any language, ask the reference what the rules say by
sending one JSON object per line and reading one JSON object back per line.
:func:`handle` answers one request given as a JSON value; :func:`handle_line`
answers one line of text. Both are pure: they never raise and never print.

Every answer is ``{"id": ..., "ok": true, "result": ...}`` or ``{"id": ...,
"ok": false, "error": {"code": ..., "message": ..., "rule": ...}}``; ``rule`` is
the clause of ``spec/rules.md`` that forbids the request, for ``illegal``, and
``null`` otherwise. The answers come from the library's rule functions; nothing
here decides a rule by itself, it only reads requests, checks that they describe
a position the rules allow, and encodes the library's answer.

>>> handle({"id": 1, "op": "led_suit", "trump": 6, "tile": "3-5"})
{'id': 1, 'ok': True, 'result': 5}
>>> handle_line('{"id": "a", "op": "legal_plays", "trump": 6, "hand": ["5-3", "1-1"], '
...             '"trick": ["3-2"]}')
'{"id":"a","ok":true,"result":["5-3"]}'
>>> handle({"id": 2, "op": "legal_bids", "bids": [5, 4]})["error"]["rule"]
'BID-3'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Final

import attrs

from moonrules.game import Bid, GameState, Phase
from moonrules.game.views import view
from moonrules.records.jsontext import MAX_LINE_BYTES, JSONTextError, loads, size_text
from moonrules.records.record import (
    JSON,
    RecordError,
    RecordRulesError,
    ReplayResult,
    UnknownRulesError,
    call_json,
    json_kind,
    parse_call_json,
    parse_record,
    parse_tile_json,
    parse_trump_json,
    rules_from_json,
    tiles_json,
)
from moonrules.records.replay import replay
from moonrules.rules import clauses, positions
from moonrules.rules.auction import PASS, Auction, apply_call, legal_calls
from moonrules.rules.contract import check_arguments, check_int
from moonrules.rules.errors import QUOTE_LENGTH, IllegalAction, PicklableError, quote, wrong_type
from moonrules.rules.ruleset import FirstLead, RuleSet
from moonrules.rules.scoring import game_winner, score_hand
from moonrules.rules.suits import TRUMP_SUIT, Trump, led_suit
from moonrules.rules.tiles import Tile
from moonrules.rules.tricks import legal_plays, trick_winner

PROTOCOL_VERSION: Final = 1
"""The version of ``spec/protocol.md`` this module implements."""

ERROR_CODES: Final = (
    "bad-json",
    "unknown-op",
    "bad-request",
    "illegal",
    "unknown-rules",
    "internal",
)
"""Every error code an answer may carry (``internal`` only for a fault of the server itself)."""


class ProtocolError(PicklableError):
    """A request the server refuses: an error code, a message, and the clause for ``illegal``."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule


def _bad(message: str) -> ProtocolError:
    return ProtocolError("bad-request", message)


def _illegal(rule: str, message: str) -> ProtocolError:
    return ProtocolError("illegal", message, rule)


# ---------------------------------------------------------------------------
# Reading fields


def _record_error(e: RecordError, prefix: str) -> ProtocolError:
    """A :class:`RecordError` as a protocol error, its path under ``prefix``."""
    path = f"{prefix}.{e.path}" if prefix and e.path else prefix or e.path
    text = f"{path}: {e.message}" if path else e.message
    if isinstance(e, UnknownRulesError):
        return ProtocolError("unknown-rules", text)
    if isinstance(e, RecordRulesError):
        return _illegal(e.rule, text)
    return _bad(text)


def _tile(value: JSON, path: str) -> Tile:
    try:
        return parse_tile_json(value, path)
    except RecordError as e:
        raise _record_error(e, "") from None


def _tiles(value: JSON, path: str) -> tuple[Tile, ...]:
    if not isinstance(value, list):
        raise _bad(f'{path}: expected a list of tiles like ["6-4", "3-3"], got {json_kind(value)}')
    return tuple(_tile(v, f"{path}[{i}]") for i, v in enumerate(value))


def _int(value: JSON, path: str, what: str) -> int:
    if type(value) is not int:
        raise _bad(f"{path}: expected {what}, got {json_kind(value)}")
    return value


def _ints(value: JSON, path: str, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _bad(f"{path}: expected a list of whole numbers, got {json_kind(value)}")
    return tuple(_int(v, f"{path}[{i}]", what) for i, v in enumerate(value))


def _trump(value: JSON) -> Trump:
    """The request's ``trump``: 0-6, ``"doubles"`` or ``"none"`` (TRUMP-1)."""
    try:
        return parse_trump_json(value, "trump")
    except RecordError as e:
        raise _record_error(e, "") from None


def _checked(check: Callable[[], None]) -> None:
    """Run one of :mod:`moonrules.rules.positions`' checks; what it refuses is ``illegal``."""
    try:
        check()
    except IllegalAction as e:
        raise _illegal(e.rule, e.message) from None


def _check_offered(rules: RuleSet, trump: Trump) -> None:
    """The trump must be one the rule set offers (TRUMP-5)."""
    _checked(lambda: positions.check_offered(rules, trump))


def _auction(rules: RuleSet, value: JSON) -> Auction:
    """Run the request's ``bids`` through the auction rules (BID-2 … BID-8).

    A call that is not ``"pass"`` or a whole number is a bad request; the first
    call the rules refuse makes the request illegal, naming that call's index.
    """
    if not isinstance(value, list):
        raise _bad(f'bids: expected a list of calls ("pass" or a number), got {json_kind(value)}')
    calls = []
    for i, v in enumerate(value):
        try:
            calls.append(parse_call_json(v, f"bids[{i}]"))
        except RecordError as e:
            raise _record_error(e, "") from None
    auction = Auction(rules=rules)
    for i, call in enumerate(calls):
        amount = call.amount if isinstance(call, Bid) else PASS
        if isinstance(call, Bid) and amount == PASS:
            # the library writes a pass as 0; the number 0 is a bid of nothing (BID-4)
            allowed = ", ".join(map(str, rules.bids))
            raise _illegal(
                "BID-4", f'bids[{i}]: 0 is not a bid; a bid is one of {allowed}, or say "pass"'
            )
        try:
            auction = apply_call(auction, amount)
        except IllegalAction as e:
            raise _illegal(e.rule, f"bids[{i}]: {e.message}") from None
    return auction


def _check_in_set(rules: RuleSet, path: str, tiles: Sequence[Tile] | Tile) -> None:
    """Every tile must belong to the rule set's tiles (TILE-2, TILE-3, TILE-4)."""
    _checked(lambda: positions.check_in_set(rules, path, tiles))


def _check_distinct(groups: Sequence[tuple[str, Sequence[Tile]]]) -> None:
    """No tile may appear twice, in one list or across lists (DEAL-3)."""
    _checked(lambda: positions.check_distinct(groups))


def _check_seat(rules: RuleSet, seat: int, path: str) -> None:
    """Seats are numbered 0 to players - 1 (SEAT-1)."""
    _checked(lambda: positions.check_seat(rules, seat, path))


# ---------------------------------------------------------------------------
# The operations


def _op_tiles(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """The rule set's tiles (TILE-1 … TILE-4)."""
    return tiles_json(rules.tile_set.tiles)


def _op_led_suit(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """The suit a led tile calls (LEAD-3)."""
    trump = _trump(req["trump"])
    tile = _tile(req["tile"], "tile")
    _check_offered(rules, trump)
    _check_in_set(rules, "tile", tile)
    suit = led_suit(tile, trump)
    return "trump" if suit == TRUMP_SUIT else suit


def _op_legal_plays(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """The tiles the hand may play to the trick (LEAD-1, LEAD-2, FOLLOW-1 … FOLLOW-3).

    A leader holding seven tiles leads the hand's first trick, so under
    ``first_lead = trump`` LEAD-2 applies to them.
    """
    trump = _trump(req["trump"])
    hand = _tiles(req["hand"], "hand")
    trick = _tiles(req["trick"], "trick")
    _check_offered(rules, trump)
    _check_in_set(rules, "hand", hand)
    _check_in_set(rules, "trick", trick)
    _check_distinct((("trick", trick), ("hand", hand)))
    _checked(lambda: positions.check_hand(hand))
    _checked(lambda: positions.check_trick_open(rules, trick))
    first_lead = not trick and len(hand) == 7 and rules.first_lead is FirstLead.TRUMP
    return tiles_json(legal_plays(hand, trick, trump, lead_trump=first_lead))


def _op_trick_winner(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """The index of the tile that wins a complete trick (TRICK-2)."""
    trump = _trump(req["trump"])
    trick = _tiles(req["trick"], "trick")
    _check_offered(rules, trump)
    _check_in_set(rules, "trick", trick)
    _check_distinct((("trick", trick),))
    _checked(lambda: positions.check_trick_size(rules, trick))
    return trick_winner(trick, trump)


def _op_legal_bids(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """The calls the next bidder may make (BID-2 … BID-8)."""
    return [call_json(c) for c in legal_calls(_auction(rules, req["bids"]))]


def _op_auction(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """Where the auction stands (BID-5, BID-6, BID-7)."""
    a = _auction(rules, req["bids"])
    return {"over": a.is_over, "winner": a.winner, "bid": a.bid, "redeal": a.redeal}


def _op_score_hand(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """A hand's score (SCORE-1 … SCORE-6, TEAM-1)."""
    bidder = _int(req["bidder"], "bidder", "a seat number")
    bid = _int(req["bid"], "bid", "a bid (a whole number)")
    tricks = _ints(req["tricks"], "tricks", "a number of tricks")
    _checked(lambda: positions.check_hand_result(rules, bidder, bid, tricks))
    result = score_hand(rules, bidder, bid, tricks)
    return {"made": result.made, "deltas": list(result.deltas), "game_won": result.game_won}


def _op_game_winner(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """Who has won, or null while play goes on (END-1, END-2, END-3)."""
    scores = _ints(req["scores"], "scores", "a score (a whole number)")
    bidder = req.get("bidder")
    if bidder is not None:
        bidder = _int(bidder, "bidder", "a seat number")
    _checked(lambda: positions.check_scores(rules, scores))
    if bidder is not None:
        _check_seat(rules, bidder, "bidder")
    return game_winner(rules, scores, None if bidder is None else rules.side_of(bidder))


def _replay(rules: RuleSet, req: dict[str, JSON]) -> ReplayResult:
    """Replay the request's ``record``: its own rules govern, else the request's."""
    record = req["record"]
    if "rules" in req and isinstance(record, dict) and "rules" in record:
        try:
            own = rules_from_json(record["rules"])
        except RecordError as e:
            raise _record_error(e, "record") from None
        if own != rules:
            raise _bad("rules: the request's rules differ from the record's; give one of them")
    try:
        return replay(record, rules=rules)
    except RecordError as e:
        raise _record_error(e, "record") from None


def _op_replay(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """Replay a game record; the first thing the rules forbid is the violation."""
    return _replay(rules, req).to_json()


def _op_view(rules: RuleSet, req: dict[str, JSON]) -> JSON:
    """What one seat may see at the end of a game record (VIEW-1).

    The record must be valid: the first thing the rules forbid in it makes the
    request illegal, with that clause.
    """
    try:
        parse_record(req["record"], rules)  # the record's shape first, then the seat's
    except RecordError as e:
        raise _record_error(e, "record") from None
    seat = _int(req["seat"], "seat", "a seat number")
    result = _replay(rules, req)
    v = result.violation
    if v is not None:
        field = {"bid": "bids", "play": "plays"}.get(v.step, v.step)
        where = f"record.hands[{v.hand}].{field}" + ("" if v.index is None else f"[{v.index}]")
        raise _illegal(v.rule, f"{where}: {v.message}")
    state = result.state
    _check_seat(state.rules, seat, "seat")
    if state.hand.number > len(result.hands):
        # the record ends with a finished hand: the view is of that hand, not of the
        # next one, which the record has not dealt
        game = attrs.evolve(state.game, history=state.history[:-1])
        state = GameState(game, state.history[-1])
    return view_json(state, seat)


def view_json(state: GameState, seat: int) -> dict[str, JSON]:
    """What ``seat`` may see of ``state`` (VIEW-1), encoded as the ``view`` op answers it.

    The one encoder of a seat's view: ``moonrules serve`` answers the ``view`` op with it,
    and the table server (``moonrules.table``) sends it to each seat. Only what
    :func:`moonrules.game.views.view` gives the seat is read, so nothing hidden from the
    seat can reach the answer.
    """
    if not isinstance(state, GameState):
        raise wrong_type("state", "a GameState", state)
    if type(seat) is not int:
        raise wrong_type("seat", "a seat number (int)", seat)
    pv = view(state, seat)
    h = state.hand
    return {
        "seat": pv.seat,
        "phase": pv.phase.value,
        "to_act": None if pv.phase is Phase.DONE else pv.to_act,
        "first_bidder": pv.first_bidder,
        "hand": tiles_json(pv.hand),
        "hand_sizes": list(pv.hand_sizes),
        "bids": [call_json(c) for c in h.calls],
        "bidder": pv.bidder,
        "bid": pv.bid,
        "widow": None if pv.widow is None else str(pv.widow),
        "discard": None if pv.discard is None else str(pv.discard),
        "trump": None if pv.trump is None else pv.trump.to_json(),
        "leader": pv.leader,
        "trick": [str(t) for t in pv.trick],
        "tricks": [
            {"leader": t.leader, "tiles": [str(x) for x in t.tiles], "winner": t.winner}
            for t in pv.tricks
        ],
        "tricks_won": list(pv.tricks_won),
        "scores": list(pv.scores),
        "winner": pv.winner,
    }


@attrs.frozen(slots=True)
class Op:
    """One operation: its function, and its required and optional fields."""

    run: Callable[[RuleSet, dict[str, JSON]], JSON]
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()


OPS: Final[dict[str, Op]] = {
    "tiles": Op(_op_tiles, ()),
    "led_suit": Op(_op_led_suit, ("trump", "tile")),
    "legal_plays": Op(_op_legal_plays, ("trump", "hand", "trick")),
    "trick_winner": Op(_op_trick_winner, ("trump", "trick")),
    "legal_bids": Op(_op_legal_bids, ("bids",)),
    "auction": Op(_op_auction, ("bids",)),
    "score_hand": Op(_op_score_hand, ("bidder", "bid", "tricks")),
    "game_winner": Op(_op_game_winner, ("scores",), ("bidder",)),
    "replay": Op(_op_replay, ("record",)),
    "view": Op(_op_view, ("record", "seat")),
}
"""Every operation of the protocol, by name."""

_COMMON: Final = ("id", "op", "rules")


# ---------------------------------------------------------------------------
# Requests and answers


def _answer(request_id: JSON, result: JSON) -> dict[str, JSON]:
    return {"id": request_id, "ok": True, "result": result}


def error_answer(
    request_id: JSON, code: str, message: str, rule: str | None = None
) -> dict[str, JSON]:
    """An error answer."""
    return {
        "id": request_id,
        "ok": False,
        "error": {"code": code, "message": message, "rule": rule},
    }


def request_rules(request: dict[str, JSON]) -> RuleSet:
    """The rule set a request names: a preset name or alias, or an object of fields.

    Raises :class:`ProtocolError`: ``unknown-rules`` for a name no preset has,
    ``bad-request`` for a value of the wrong shape, ``illegal`` (RULES-1,
    TRUMP-5, BID-4) for fields that contradict each other.
    """
    if "rules" not in request:
        return rules_from_json("standard")
    value = request["rules"]
    if not isinstance(value, (str, dict)):
        raise _bad(f"rules: expected a preset name or an object of fields, got {json_kind(value)}")
    try:
        return rules_from_json(value, "rules")
    except RecordError as e:
        raise _record_error(e, "") from None


def _name(key: str) -> str:
    """A member name for a message: as it is, or quoted and cut short when long."""
    return key if len(key) <= QUOTE_LENGTH else quote(key)


def _dispatch(request: dict[str, JSON]) -> JSON:
    if "op" not in request:
        raise _bad("missing field 'op': every request names its operation")
    name = request["op"]
    if not isinstance(name, str):
        raise _bad(f"op: expected the name of an operation, got {json_kind(name)}")
    op = OPS.get(name)
    if op is None:
        raise ProtocolError(
            "unknown-op",
            f"op: no operation is called {quote(name)}; the operations are " + ", ".join(OPS),
        )
    fields = _FIELDS[name]
    for key in request:
        if key not in fields:
            shown = ", ".join(f for f in (*_COMMON, *op.required, *op.optional) if f != "id")
            raise _bad(f"{_name(key)}: unknown field for op {name!r}; its fields are {shown}")
    for key in op.required:
        if key not in request:
            raise _bad(f"missing field {key!r}: op {name!r} needs {', '.join(op.required)}")
    request = {k: v if k == "id" else _integral(v) for k, v in request.items()}
    rules = request_rules(request)
    return op.run(rules, request)


_FIELDS: Final[dict[str, frozenset[str]]] = {
    name: frozenset((*_COMMON, *op.required, *op.optional)) for name, op in OPS.items()
}
"""The fields each op's request may have."""

_PLAIN: Final = frozenset((str, int, bool, type(None)))
"""The types :func:`_integral` leaves as they are, and the lists of them it does not copy."""


def _integral(value: JSON) -> JSON:
    """``value`` with every number that has no fractional part as an :class:`int`.

    JSON has one kind of number, and ``5`` and ``5.0`` are the same number (as in
    JSON Schema); only a number with a fractional part is not a whole number. Values
    with no float in them come back as they are (a list of tiles, of bids).
    """
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list and all(type(v) in _PLAIN for v in value):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    return value


def handle(request: object) -> dict[str, JSON]:
    """The answer to one request, given as a JSON value (a :class:`dict` for a request).

    Never raises: every fault becomes an error answer (see ``spec/protocol.md``).
    """
    if not isinstance(request, dict):
        return error_answer(
            None, "bad-json", f"a request is a JSON object, not {json_kind(request)}"
        )
    request_id = request.get("id")
    try:
        return _answer(request_id, _dispatch(request))
    except ProtocolError as e:
        return error_answer(request_id, e.code, e.message, e.rule)
    except RecursionError:
        return error_answer(request_id, "bad-request", "the request is nested too deeply")
    except Exception as e:  # a fault of the server, never of the request
        return error_answer(request_id, "internal", f"the server failed: {type(e).__name__}: {e}")


def parse_line(line: str, *, max_length: int | None = MAX_LINE_BYTES) -> JSON:
    """Read one request line as strict JSON; :class:`ValueError` says what is wrong.

    ``NaN``, ``Infinity`` and an object naming a member twice are refused, and so
    are the limits of :mod:`moonrules.records.jsontext`: a line longer than
    ``max_length`` characters, nested more than 64 deep, or with a number of more
    than 100 characters (a :class:`~moonrules.records.jsontext.JSONTextError`
    whose ``limit`` is true).
    """
    return loads(line, max_length=max_length)


def encode(answer: dict[str, JSON]) -> str:
    """An answer as one line of JSON text (ASCII, no newline).

    Raises :class:`ValueError` for an answer that is not strict JSON (``NaN``).
    """
    return _ENCODER.encode(answer)


_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
"""What ``json.dumps(answer, separators=(",", ":"), allow_nan=False)`` makes, made once."""


def refusal(error: JSONTextError) -> str:
    """The answer to a line that cannot be read: ``bad-request`` for a limit, else ``bad-json``."""
    if error.limit:
        return encode(error_answer(None, "bad-request", f"the line is refused: {error.message}"))
    where = f" at column {error.column}" if error.column is not None else ""
    return encode(error_answer(None, "bad-json", f"the line is not JSON: {error.message}{where}"))


def too_long(max_bytes: int) -> str:
    """The answer line to a line longer than ``max_bytes``: ``bad-request``."""
    return encode(
        error_answer(
            None, "bad-request", f"the line is refused: it is longer than {size_text(max_bytes)}"
        )
    )


def handle_line(line: str, *, max_length: int | None = MAX_LINE_BYTES) -> str:
    """The answer line to one request line (without its newline).

    A line that is not JSON, or is JSON but not an object, gets a ``bad-json``
    answer whose ``id`` is ``null``; a line over a limit (longer than
    ``max_length`` characters, nested too deeply, a number too long) a
    ``bad-request`` answer whose ``id`` is ``null``.
    """
    check_arguments(handle_line, locals())
    if max_length is not None:
        check_int(max_length, "max_length", 1, what="a number of characters")
    try:
        request = parse_line(line, max_length=max_length)
    except JSONTextError as e:
        return refusal(e)
    answer = handle(request)
    try:
        return encode(answer)
    except (ValueError, RecursionError):  # an id that cannot be written back
        return encode(error_answer(None, "bad-request", "the request's id cannot be written back"))


# ---------------------------------------------------------------------------
# The clauses a request exercises


def _written_low_first(values: Sequence[JSON]) -> bool:
    """Whether any tile is written low end first (``"3-5"``): TILE-1 names it either way."""
    return any(isinstance(v, str) and len(v) == 3 and v[0] < v[2] for v in values)


def _request_tiles(value: JSON) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in value)


def request_clauses(request: dict[str, JSON], answer: dict[str, JSON]) -> set[str]:
    """The clauses of ``spec/rules.md`` a request and the reference's answer exercise.

    A refused request exercises the clause it breaks; an answered one the clauses
    :mod:`moonrules.rules.clauses` finds in its situation. ``answer`` is
    :func:`handle`'s answer to ``request``.

    >>> req = {"op": "legal_bids", "bids": [5, 4]}
    >>> sorted(request_clauses(req, handle(req)))
    ['BID-3']
    """
    if not answer["ok"]:
        rule = answer["error"]["rule"]
        return clauses.error_clauses(rule) if rule else set()
    rules = request_rules(request)
    op = request["op"]
    result = answer["result"]
    out = clauses.rules_clauses(rules)
    if op == "tiles":
        out |= clauses.tiles_clauses(rules)
    elif op == "led_suit":
        out |= clauses.led_suit_clauses(Tile.parse(request["tile"]), Trump.parse(request["trump"]))
        if _written_low_first([request["tile"]]):
            out.add("TILE-1")
    elif op == "legal_plays":
        hand, trick = _request_tiles(request["hand"]), _request_tiles(request["trick"])
        out |= clauses.play_clauses(rules, hand, trick, Trump.parse(request["trump"]))
        if _written_low_first([*request["hand"], *request["trick"]]):
            out.add("TILE-1")
    elif op == "trick_winner":
        trick = _request_tiles(request["trick"])
        out |= clauses.trick_clauses(trick, Trump.parse(request["trump"]))
    elif op in ("legal_bids", "auction"):
        calls = [PASS if c == "pass" else c for c in request["bids"]]
        out |= clauses.auction_clauses(rules, calls, asks_legal=op == "legal_bids")
    elif op == "score_hand":
        out |= clauses.score_clauses(rules, request["bid"])
    elif op == "game_winner":
        out |= clauses.game_end_clauses(rules, request["scores"])
    elif op == "replay":
        out |= _replay_clauses(request, result)
    elif op == "view":
        seen = result["widow"] is not None or result["discard"] is not None
        out |= clauses.view_clauses(rules, widow_seen=seen)
    return out


def _replay_clauses(request: dict[str, JSON], result: JSON) -> set[str]:
    """A replay: the clause broken, or every step the record takes and how it ends."""
    if not result["valid"]:
        return clauses.error_clauses(result["violation"]["rule"])
    record = request["record"]
    rules = request_rules({"rules": record.get("rules", request.get("rules", "standard"))})
    done = replay(record, rules=rules)
    return clauses.game_clauses(rules, [*done.state.history, done.state.hand])


__all__ = [
    "ERROR_CODES",
    "OPS",
    "PROTOCOL_VERSION",
    "Op",
    "ProtocolError",
    "encode",
    "error_answer",
    "handle",
    "handle_line",
    "parse_line",
    "refusal",
    "request_clauses",
    "request_rules",
    "too_long",
    "view_json",
]
