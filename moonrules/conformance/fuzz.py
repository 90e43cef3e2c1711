"""Differential fuzzing of another Moon engine against the reference (``moonrules fuzz``).

Hypothesis generates situations that are legal by construction (and, now and then, a
request with exactly one fault), builds the protocol request of ``spec/protocol.md`` for
each, and asks both the reference (:func:`moonrules.conformance.protocol.handle`,
in-process) and the target. On the first disagreement for an op, Hypothesis shrinks the
situation to a minimal one, and the report gives that request, both answers, the first place they
differ, the clauses of ``spec/rules.md`` involved, and a one-line reproduction.

The target is either a command speaking the protocol on stdin/stdout
(:class:`ProcessTarget`: a per-request timeout, restarted after a crash, a hang or
garbage output) or any Python callable taking a request ``dict`` and returning the
response ``dict``, so that a Python engine is fuzzed in-process::

    >>> from moonrules.conformance.fuzz import fuzz
    >>> from moonrules.conformance.protocol import handle
    >>> report = fuzz(handle, ops=["led_suit"], examples=20, seed=1)
    >>> report.ok, report.cases["led_suit"]
    (True, 20)

Hypothesis is needed (``pip install hypothesis``); runs are reproducible with ``seed``
(the example database is never used).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import shlex
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Final, Literal

import attrs

from moonrules.conformance.protocol import OPS as PROTOCOL_OPS
from moonrules.conformance.target import Target, TargetFault, TargetTimeout, clip
from moonrules.game import GameState, Play, apply, legal_actions, new_game, seeded_deal
from moonrules.game import Phase as GamePhase
from moonrules.records.record import JSON, to_record
from moonrules.rules.auction import MOON, PASS, Auction, legal_calls
from moonrules.rules.errors import MoonError
from moonrules.rules.ruleset import (
    PRESETS,
    AllPass,
    Renege,
    RuleSet,
    Scoring,
    TieRule,
    rules_by_name,
)
from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, is_trump, led_suit
from moonrules.rules.tiles import TILES, Tile, TileSet

if TYPE_CHECKING:  # Hypothesis is imported when fuzzing starts, not with this module
    from hypothesis import settings
    from hypothesis import strategies as st

Request = dict[str, JSON]
Response = dict[str, JSON]
Handler = Callable[[Request], Response]

OPS: Final[tuple[str, ...]] = tuple(PROTOCOL_OPS)
"""Every op the fuzzer exercises, in the order it runs them."""

FindingKind = Literal["disagreement", "crash", "timeout", "garbage"]

DEFAULT_EXAMPLES: Final = 500
"""Examples per op when neither ``examples`` nor ``seconds`` is given."""
DEFAULT_TIMEOUT: Final = 5.0
"""Seconds a target may take to answer one request."""
DEFAULT_SHRINK_SECONDS: Final = 60.0
"""The most time spent shrinking one finding; past it the smallest case so far is reported."""


class FuzzError(MoonError):
    """The fuzzer cannot run: a target that cannot be started, an unknown op or preset."""


# ---------------------------------------------------------------------------
# Talking to a target


class TargetFailure(Exception):
    """The target did not answer a request with a protocol response.

    ``kind`` is ``"crash"`` (it exited, or an in-process target raised), ``"timeout"``
    (no answer within the per-request timeout) or ``"garbage"`` (a line that is not a
    JSON object); ``detail`` says what happened.
    """

    def __init__(self, kind: FindingKind, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind: FindingKind = kind
        self.detail = detail


class ProcessTarget(Target):
    """A protocol server run as a subprocess (a :class:`moonrules.conformance.target.Target`).

    The command is split like a shell would split it (no shell is run). Each request
    waits at most ``timeout`` seconds for its answer. A target that exits, hangs,
    prints something that is not a JSON object or more than one line raises
    :class:`TargetFailure` for that request and is started afresh for the next one. Use
    it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(command, timeout=timeout, cwd=cwd, env=env)
        if not self.argv:
            raise FuzzError("the target command is empty")

    def start(self) -> None:
        """Start the target now (it is started on the first request otherwise)."""
        try:
            super().start()
        except OSError as e:
            raise FuzzError(f"cannot start the target {self.display!r}: {e}") from None

    def __call__(self, request: Request) -> Response:
        try:
            answer, _ = self.ask_object(json.dumps(request, separators=(",", ":")))
        except TargetTimeout as e:
            raise TargetFailure(e.kind, e.detail) from None
        except TargetFault as e:
            raise TargetFailure(e.kind, f"{e.detail}; the target was restarted") from None
        return answer


class _CallableTarget:
    """An in-process target: exceptions become crashes, non-dict answers garbage."""

    def __init__(self, handle: Handler) -> None:
        self.handle = handle

    def __call__(self, request: Request) -> Response:
        try:
            answer = self.handle(json.loads(json.dumps(request)))
        except Exception as e:
            where = traceback.extract_tb(e.__traceback__)[-1]
            raise TargetFailure(
                "crash",
                f"{type(e).__name__}: {e} (at {os.path.basename(where.filename)}:{where.lineno})",
            ) from None
        if not isinstance(answer, dict):
            raise TargetFailure("garbage", f"the answer is not a dict: {clip(repr(answer))}")
        try:
            return dict(json.loads(json.dumps(answer)))
        except (TypeError, ValueError) as e:
            raise TargetFailure("garbage", f"the answer is not JSON-serialisable: {e}") from None


def serve(handle: Handler, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Serve ``handle`` as a protocol server: a request per input line, an answer per line.

    A line that is not a JSON object gets the reference's ``bad-json`` answer (a line
    over a limit ``bad-request``, as :func:`moonrules.conformance.serve.serve` has it);
    every other line goes to ``handle``, whose answer is written as one line and flushed.
    Returns 0 at the end of input. This is the quickest way to put a Python engine
    behind ``moonrules fuzz --target`` or ``moonrules conform --target``.
    """
    import sys

    from moonrules.conformance.serve import serve as serve_lines

    serve_lines(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer, handle)
    return 0


# ---------------------------------------------------------------------------
# Situations: Hypothesis strategies for every op


def tile_text(t: Tile, flip: bool = False) -> str:
    """The protocol's text of a tile: high end first, or low end first with ``flip``."""
    return f"{t.low}-{t.high}" if flip else str(t)


def _presets(rules: Sequence[str] | str | None) -> tuple[str, ...]:
    """Canonical preset names of ``rules`` (names or aliases); every preset when ``None``."""
    if rules is None:
        return tuple(PRESETS)
    names = [rules] if isinstance(rules, str) else list(rules)
    out: list[str] = []
    for name in names:
        for part in str(name).split(","):
            if not part.strip():
                continue
            try:
                canonical = rules_by_name(part).name
            except MoonError as e:
                raise FuzzError(str(e)) from None
            assert canonical is not None
            if canonical not in out:
                out.append(canonical)
    if not out:
        raise FuzzError("no rule set to fuzz: name at least one preset")
    return tuple(out)


def _ops(ops: Sequence[str] | str | None) -> tuple[str, ...]:
    if ops is None:
        return OPS
    names = [ops] if isinstance(ops, str) else list(ops)
    wanted = [p.strip() for name in names for p in str(name).split(",") if p.strip()]
    unknown = [o for o in wanted if o not in OPS]
    if unknown:
        raise FuzzError(f"unknown op {unknown[0]!r}; the ops are {', '.join(OPS)}")
    if not wanted:
        raise FuzzError("no op to fuzz: name at least one")
    return tuple(o for o in OPS if o in wanted)


_MALFORMED_TILES: Final[tuple[JSON, ...]] = ("7-1", "6", "6-4-2", "", "6/4", "six-four", 64, None)
_BAD_TRUMPS: Final[tuple[JSON, ...]] = (7, -1, "seven", True, None, 2.5, "trumps", [6])
_UNKNOWN_RULES: Final = "no-such-rules"


def _faulty(draw: st.DrawFn, faults: bool | None) -> bool:
    """Whether this example carries a fault: ``faults``, or when ``None`` roughly one
    example in four (shrinking goes towards the legal cases)."""
    from hypothesis import strategies as st

    if faults is not None:
        return faults
    return bool(draw(st.integers(0, 3)) == 3)


def _distinct(
    draw: st.DrawFn, pool: Sequence[Tile], lo: int, hi: int, avoid: Sequence[Tile] = ()
) -> tuple[list[Tile], list[str]]:
    """Distinct tiles of ``pool`` not in ``avoid`` (``lo`` to ``hi`` of them), and their
    texts, each written either way. One list of (tile, way) pairs, so that the shrinker
    drops a tile whole; ``avoid`` filters rather than shrinks the pool, so that a tile
    dropped elsewhere does not renumber this list's choices."""

    pairs = draw(_pairs(tuple(pool), lo, min(hi, len(pool) - len(avoid)), frozenset(avoid)))
    return [t for t, _ in pairs], [tile_text(t, f) for t, f in pairs]


@functools.lru_cache(maxsize=4096)
def _pairs(
    pool: tuple[Tile, ...], lo: int, hi: int, avoid: frozenset[Tile]
) -> st.SearchStrategy[list[tuple[Tile, bool]]]:
    """The strategy of :func:`_distinct`, built once (building one is costly)."""
    from hypothesis import strategies as st

    tiles = st.sampled_from(pool)
    if avoid:
        tiles = tiles.filter(lambda t: t not in avoid)
    return st.lists(st.tuples(tiles, st.booleans()), min_size=lo, max_size=hi, unique_by=_first)


def _first(pair: tuple[Tile, bool]) -> Tile:
    return pair[0]


def _outside(rules: RuleSet) -> tuple[Tile, ...]:
    inside = set(rules.tile_set.tiles)
    return tuple(t for t in TILES if t not in inside)


def _unoffered(rules: RuleSet) -> tuple[Trump, ...]:
    return tuple(t for t in Trump if t not in rules.trumps)


def _pick_fault(
    draw: st.DrawFn, mode: bool | None, rules: RuleSet, faults: Sequence[str]
) -> str | None:
    """The example's fault, or ``None`` (see :func:`_faulty`). A trump the preset does
    not offer (TRUMP-5), where there is one, is a fault of its own, drawn half the time:
    the mistake engines make most, and a rare one to reach through a list of faults."""
    from hypothesis import strategies as st

    if not _faulty(draw, mode):
        return None
    withheld = bool(_unoffered(rules))
    if withheld and draw(st.booleans()):
        return "trump-not-offered"
    return draw(st.sampled_from(faults))


def _common_faults(draw: st.DrawFn, req: Request, fault: str, fields: Sequence[str]) -> None:
    """Faults any op can carry: a missing field, unknown rules."""
    from hypothesis import strategies as st

    if fault == "missing-field":
        del req[draw(st.sampled_from(list(fields)))]
    elif fault == "unknown-rules":
        req["rules"] = _UNKNOWN_RULES


def _tiles_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None) -> Request:
    from hypothesis import strategies as st

    name = draw(st.sampled_from(presets))
    req: Request = {"op": "tiles", "rules": name}
    if _faulty(draw, mode):
        req["rules"] = _UNKNOWN_RULES
    return req


_TRUMP_FAULTS: Final = ("bad-trump", "malformed-tile", "missing-field", "unknown-rules")
"""The faults every op played under a trump can carry (after its own)."""


def _start_trump_request(
    draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None, faults: Sequence[str]
) -> tuple[str, RuleSet, str | None, Trump]:
    """The preset, its rules, the fault and the trump of a request played under a trump.

    The fault is one of ``faults`` (the op's own), of :data:`_TRUMP_FAULTS`, or
    ``outside-set`` where the preset leaves tiles out (see :func:`_pick_fault`).
    """
    from hypothesis import strategies as st

    name = draw(st.sampled_from(presets))
    rules = PRESETS[name]
    every = [*faults, *_TRUMP_FAULTS]
    if _outside(rules):
        every.insert(0, "outside-set")
    fault = _pick_fault(draw, mode, rules, every)
    return name, rules, fault, draw(st.sampled_from(rules.trumps))


def _trump_faults(
    draw: st.DrawFn, req: Request, rules: RuleSet, fault: str | None, fields: Sequence[str]
) -> None:
    """A fault of the trump (not offered, malformed), or one any op can carry."""
    from hypothesis import strategies as st

    if fault == "trump-not-offered":
        req["trump"] = draw(st.sampled_from(_unoffered(rules))).to_json()
    elif fault == "bad-trump":
        req["trump"] = draw(st.sampled_from(_BAD_TRUMPS))
    elif fault is not None:
        _common_faults(draw, req, fault, fields)


def _led_suit_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None) -> Request:
    from hypothesis import strategies as st

    name, rules, fault, trump = _start_trump_request(draw, presets, mode, ())
    t = draw(st.sampled_from(rules.tile_set.tiles))
    text = tile_text(t, draw(st.booleans()))
    req: Request = {"op": "led_suit", "rules": name, "trump": trump.to_json(), "tile": text}
    if fault == "outside-set":
        req["tile"] = tile_text(draw(st.sampled_from(_outside(rules))), draw(st.booleans()))
    elif fault == "malformed-tile":
        req["tile"] = draw(st.sampled_from(_MALFORMED_TILES))
    else:
        _trump_faults(draw, req, rules, fault, ("trump", "tile"))
    return req


def _legal_plays_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None) -> Request:
    from hypothesis import strategies as st

    own = ("duplicate", "shared", "empty-hand", "complete-trick")
    name, rules, fault, trump = _start_trump_request(draw, presets, mode, own)
    n = rules.players
    pool = rules.tile_set.tiles
    lo, hi = {"complete-trick": (n, n), "shared": (1, n - 1)}.get(fault or "", (0, n - 1))
    trick, trick_texts = _distinct(draw, pool, lo, hi)
    lo, hi = (0, 0) if fault == "empty-hand" else (1, 7)
    if not trick and not fault and draw(st.booleans()):
        lo = hi = 7  # a leader holding 7 tiles leads the first trick (LEAD-2 may apply)
    hand, hand_texts = _distinct(draw, pool, lo, hi, avoid=trick)
    if fault == "duplicate":
        i = draw(st.integers(0, len(hand) - 1))
        hand_texts.insert(draw(st.integers(0, len(hand_texts))), tile_text(hand[i], True))
    elif fault == "shared":
        hand_texts.append(trick_texts[draw(st.integers(0, len(trick_texts) - 1))])
    elif fault == "outside-set":
        hand_texts[-1] = tile_text(draw(st.sampled_from(_outside(rules))), draw(st.booleans()))
    elif fault == "malformed-tile":
        hand_texts[-1] = draw(st.sampled_from(_MALFORMED_TILES))
    req: Request = {
        "op": "legal_plays",
        "rules": name,
        "trump": trump.to_json(),
        "hand": hand_texts,
        "trick": trick_texts,
    }
    _trump_faults(draw, req, rules, fault, ("trump", "hand", "trick"))
    return req


def _trick_winner_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None) -> Request:
    from hypothesis import strategies as st

    own = ("short-trick", "long-trick", "duplicate")
    name, rules, fault, trump = _start_trump_request(draw, presets, mode, own)
    n = rules.players
    lo, hi = {"short-trick": (0, n - 1), "long-trick": (n + 1, n + 1)}.get(fault or "", (n, n))
    trick, texts = _distinct(draw, rules.tile_set.tiles, lo, hi)
    if fault == "duplicate":
        texts[-1] = tile_text(trick[0], not texts[0].startswith(str(trick[0].high)))
    elif fault == "outside-set":
        texts[-1] = tile_text(draw(st.sampled_from(_outside(rules))), draw(st.booleans()))
    elif fault == "malformed-tile":
        texts[-1] = draw(st.sampled_from(_MALFORMED_TILES))
    req: Request = {"op": "trick_winner", "rules": name, "trump": trump.to_json(), "trick": texts}
    _trump_faults(draw, req, rules, fault, ("trump", "trick"))
    return req


def _call_json(call: int) -> str | int:
    return "pass" if call == PASS else call


_BAD_CALLS: Final[tuple[JSON, ...]] = ("PASS", "4", 4.5, None, True, [5], "bid")


def _bids_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None, op: str) -> Request:
    from hypothesis import strategies as st

    name = draw(st.sampled_from(presets))
    rules = PRESETS[name]
    n = rules.players
    faults = [
        "call-after-end",
        "call-after-end",
        "low-bid",
        "not-a-bid",
        "malformed-call",
        "missing-field",
        "unknown-rules",
    ]
    if rules.all_pass is AllPass.FORCE:
        faults.insert(0, "forced-pass")
    fault = draw(st.sampled_from(faults)) if _faulty(draw, mode) else None
    auction = Auction(rules=rules)
    calls: list[JSON] = []

    def call(c: int) -> None:
        nonlocal auction
        auction = auction.call(c)
        calls.append(_call_json(c))

    if fault == "forced-pass":
        for _ in range(n - 1):
            call(PASS)
        calls.append("pass")
    elif fault == "call-after-end":  # a whole auction, then one call too many
        while not auction.is_over:
            call(draw(st.sampled_from(legal_calls(auction))))
        calls.append(_call_json(draw(st.sampled_from((PASS, *rules.bids)))))
    else:
        for _ in range(draw(st.integers(0, n))):
            if auction.is_over:
                break
            call(draw(st.sampled_from(legal_calls(auction))))
    if fault == "low-bid":  # no higher than the highest bid so far (a bid of 21 ends it)
        while auction.high_bid == PASS or auction.is_over:
            auction, calls = Auction(rules=rules), []
            call(draw(st.sampled_from([b for b in rules.bids if b != MOON])))
        calls.append(draw(st.sampled_from([b for b in rules.bids if b <= auction.high_bid])))
    elif fault == "not-a-bid":
        calls.append(
            draw(st.sampled_from([b for b in (0, -1, 1, 2, 8, 20, 22) if b not in rules.bids]))
        )
    elif fault == "malformed-call":
        calls.insert(draw(st.integers(0, len(calls))), draw(st.sampled_from(_BAD_CALLS)))
    if fault in ("low-bid", "not-a-bid") and draw(st.booleans()):
        calls.append("pass")  # the refused call need not be the last one
    req: Request = {"op": op, "rules": name, "bids": calls}
    if fault in ("missing-field", "unknown-rules"):
        _common_faults(draw, req, fault, ("bids",))
    return req


def _score_hand_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None) -> Request:
    from hypothesis import strategies as st

    name = draw(st.sampled_from(presets))
    rules = PRESETS[name]
    n = rules.players
    faults = [
        "tricks-not-seven",
        "tricks-length",
        "negative-tricks",
        "bad-bidder",
        "bad-bid",
        "missing-field",
        "unknown-rules",
    ]
    fault = draw(st.sampled_from(faults)) if _faulty(draw, mode) else None
    bidder = draw(st.integers(0, n - 1))
    bid = draw(st.sampled_from(rules.bids))
    tricks: list[JSON] = []
    left = 7
    for _ in range(n - 1):
        k = draw(st.integers(0, left))
        tricks.append(k)
        left -= k
    tricks.append(left)
    req: Request = {"op": "score_hand", "rules": name, "bidder": bidder, "bid": bid}
    if fault == "tricks-not-seven":
        i = draw(st.integers(0, n - 1))
        tricks[i] += draw(st.sampled_from([1, -1] if tricks[i] > 0 else [1]))
    elif fault == "tricks-length":
        tricks = [*tricks, 0] if draw(st.booleans()) else tricks[:-1]
    elif fault == "negative-tricks":
        i, j = draw(st.permutations(range(n)))[:2]
        tricks[j] += tricks[i] + 1
        tricks[i] = -1
    elif fault == "bad-bidder":
        req["bidder"] = draw(st.sampled_from([n, -1, 4, "0", None]))
    elif fault == "bad-bid":
        wrong = [b for b in (0, 1, 2, 3, 8, 20, 22, "pass") if b not in rules.bids]
        req["bid"] = draw(st.sampled_from(wrong))
    req["tricks"] = tricks
    if fault in ("missing-field", "unknown-rules"):
        _common_faults(draw, req, fault, ("bidder", "bid", "tricks"))
    return req


def _game_winner_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None) -> Request:
    from hypothesis import strategies as st

    name = draw(st.sampled_from(presets))
    rules = PRESETS[name]
    sides = rules.sides
    target = rules.target
    faults = ["scores-length", "bad-score", "missing-field", "unknown-rules"]
    fault = draw(st.sampled_from(faults)) if _faulty(draw, mode) else None
    tie = draw(st.integers(0, 1))
    low, high = -(target + 10), 2 * target + 5
    if tie == 0:  # free scores
        scores: list[JSON] = draw(st.lists(st.integers(low, high), min_size=sides, max_size=sides))
    else:  # a tie at the top, at or above the target
        top = draw(st.integers(target, high))
        i, j = sorted(draw(st.permutations(range(sides)))[:2])
        scores = [top if k in (i, j) else draw(st.integers(low, top)) for k in range(sides)]
    if fault == "scores-length":
        scores = [*scores, 0] if draw(st.booleans()) else scores[:-1]
    elif fault == "bad-score":
        scores[draw(st.integers(0, sides - 1))] = draw(st.sampled_from(["21", None, 2.5, True]))
    req: Request = {"op": "game_winner", "rules": name, "scores": scores}
    if draw(st.booleans()):  # the last hand's bidder, which END-3 (bidder-out) looks at
        req["bidder"] = draw(st.integers(0, rules.players - 1))
    if fault in ("missing-field", "unknown-rules"):
        _common_faults(draw, req, fault, ("scores",))
    return req


_MAX_GAME_STEPS: Final = 2000


def _replay_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None) -> Request:
    """A game played by random legal actions, stopped anywhere, as a record.

    The actions come from a seeded random player, so that a shorter game (the shrinker
    lowers the number of steps) is a prefix of the longer one. Now and then the game is
    played to its end. With a fault, the record ends with exactly one illegal step where
    it stopped: a bad deal, a call the auction forbids, a discard not held, a trump not
    offered, a play that reneges, is out of turn or is of a tile no one holds, or a hand
    after the end of the game.
    """
    from hypothesis import strategies as st

    name = draw(st.sampled_from(presets))
    rules = PRESETS[name]
    faulty = _faulty(draw, mode)
    seed = draw(st.integers(0, 2**31 - 1))
    first = draw(st.integers(0, rules.players - 1))
    player = random.Random(draw(st.integers(0, 2**31 - 1)))
    whole = draw(st.integers(0, 7)) == 7  # now and then, a whole game (or nearly)
    steps = draw(st.integers(0, _MAX_GAME_STEPS if whole else 100))
    state = new_game(rules, seed, first_bidder=first)
    done = 0
    while not state.is_over and done < steps:
        state = apply(state, player.choice(legal_actions(state)))
        done += 1
    if faulty:
        for _ in range(40):  # a few more legal steps, to a point where a fault is possible
            if _record_faults(state):
                break
            state = apply(state, player.choice(legal_actions(state)))
        record: dict[str, JSON] = to_record(state)
        faults = _record_faults(state)
        if faults:
            _add_fault(draw, state, record, draw(st.sampled_from(faults)))
    else:
        record = to_record(state)
    if draw(st.booleans()):
        record = _flip_record(record)
    return {"op": "replay", "rules": name, "record": record}


def _view_request(draw: st.DrawFn, presets: tuple[str, ...], mode: bool | None) -> Request:
    """A record as for ``replay`` and a seat: what that seat may see (VIEW-1).

    With a fault, either the record carries one illegal step or the seat does not exist.
    """
    from hypothesis import strategies as st

    faulty = _faulty(draw, mode)
    bad_seat = faulty and draw(st.booleans())
    req = _replay_request(draw, presets, faulty and not bad_seat)
    players = PRESETS[req["rules"]].players
    seat: JSON = draw(st.integers(0, players - 1))
    if bad_seat:
        seat = draw(st.sampled_from([players, -1, 7, "0", None]))
    return {**req, "op": "view", "seat": seat}


def _record_faults(state: GameState) -> list[str]:
    if state.is_over:
        return ["hand-after-end"]
    phase = state.phase
    rules = state.rules
    out: list[str] = []
    if phase is GamePhase.BIDDING:
        if not state.calls:
            out += ["duplicate-tile", "short-hand"]
            if _outside(rules):
                out.append("outside-tile")
            if state.hand_number > 1:
                out.append("wrong-first-bidder")
        out.append("illegal-call")
    elif phase is GamePhase.DISCARD:
        out.append("discard-not-held")
    elif phase is GamePhase.TRUMP:
        if _unoffered(rules):
            out.append("trump-not-offered")
    elif phase is GamePhase.PLAY:
        seat = state.to_act
        assert seat is not None
        legal = {a.tile for a in legal_actions(state) if isinstance(a, Play)}
        if rules.renege is Renege.STOP and any(t not in legal for t in state.hands[seat]):
            out.append("renege")  # (under renege = penalty a renege is a legal step)
        if any(h for s, h in enumerate(state.hands) if s != seat):
            out.append("out-of-turn")
        held = {t for h in state.hands for t in h}
        if any(t not in held for t in rules.tile_set.tiles):
            out.append("tile-not-held")
    return out


def _add_fault(draw: st.DrawFn, state: GameState, record: dict[str, JSON], fault: str) -> None:
    from hypothesis import strategies as st

    rules = state.rules
    hands: list[dict[str, JSON]] = record["hands"]
    hand = hands[-1]
    seat = state.to_act
    if fault == "hand-after-end":
        last = hands[-1]
        deal = seeded_deal(rules, state.seed, state.hand_number + 1)
        extra: dict[str, JSON] = {
            "first_bidder": (last["first_bidder"] + 1) % rules.players,
            "deal": [[str(t) for t in sorted(h, reverse=True)] for h in deal.hands],
        }
        if deal.widow is not None:
            extra["widow"] = str(deal.widow)
        extra["bids"] = []
        hands.append(extra)
    elif fault == "duplicate-tile":
        deal_lists: list[list[str]] = hand["deal"]
        s, o = draw(st.permutations(range(rules.players)))[:2]
        deal_lists[s][draw(st.integers(0, 6))] = deal_lists[o][draw(st.integers(0, 6))]
    elif fault == "short-hand":
        deal_lists = hand["deal"]
        s, o = draw(st.permutations(range(rules.players)))[:2]
        deal_lists[o].append(deal_lists[s].pop(draw(st.integers(0, 6))))
    elif fault == "outside-tile":
        deal_lists = hand["deal"]
        s = draw(st.integers(0, rules.players - 1))
        deal_lists[s][draw(st.integers(0, 6))] = str(draw(st.sampled_from(_outside(rules))))
    elif fault == "wrong-first-bidder":
        hand["first_bidder"] = (hand["first_bidder"] + draw(st.integers(1, rules.players - 1))) % (
            rules.players
        )
    elif fault == "illegal-call":
        legal = set(legal_calls(state.auction))
        wrong = [c for c in (PASS, *range(1, 9), MOON, 22) if c not in legal]
        hand.setdefault("bids", []).append(_call_json(draw(st.sampled_from(wrong))))
    elif fault == "discard-not-held":
        assert state.bidder is not None
        others = [t for s, h in enumerate(state.hands) if s != state.bidder for t in h]
        hand["discard"] = str(draw(st.sampled_from(others)))
    elif fault == "trump-not-offered":
        hand["trump"] = draw(st.sampled_from(_unoffered(rules))).to_json()
    else:
        assert seat is not None
        playable = {a.tile for a in legal_actions(state) if isinstance(a, Play)}
        if fault == "renege":
            choices = [t for t in state.hands[seat] if t not in playable]
        elif fault == "out-of-turn":
            choices = [t for s, h in enumerate(state.hands) if s != seat for t in h]
        else:  # tile-not-held: played already, discarded, or (with a widow) never dealt
            held = {t for h in state.hands for t in h}
            choices = [t for t in rules.tile_set.tiles if t not in held]
        hand.setdefault("plays", []).append(str(draw(st.sampled_from(choices))))


def _flip_record(record: dict[str, JSON]) -> dict[str, JSON]:
    """The record with every tile written low end first (the same tiles)."""

    def flip(value: JSON) -> JSON:
        if isinstance(value, str) and len(value) == 3 and value[1] == "-":
            return f"{value[2]}-{value[0]}"
        if isinstance(value, list):
            return [flip(v) for v in value]
        return value

    out = dict(record)
    out["hands"] = [
        {k: (flip(v) if k in ("deal", "widow", "discard", "plays") else v) for k, v in h.items()}
        for h in record["hands"]
    ]
    return out


def requests(
    op: str, rules: Sequence[str] | str | None = None, faults: bool | None = None
) -> st.SearchStrategy[Request]:
    """The Hypothesis strategy of requests (without ``id``) for ``op`` under ``rules``.

    ``rules``: preset names or aliases (default: every preset). Situations are legal
    by construction; about one in four carries exactly one fault (a malformed field, or
    something the rules forbid), so that refusals are compared too. ``faults=False``
    draws only legal situations, ``faults=True`` only faulty ones.
    """
    from hypothesis import strategies as st

    presets = _presets(rules)
    if op in ("legal_bids", "auction"):
        inner = st.composite(_bids_request)(presets, faults, op)
    elif op in _BUILDERS:
        inner = st.composite(_BUILDERS[op])(presets, faults)
    else:
        raise FuzzError(f"unknown op {op!r}; the ops are {', '.join(OPS)}")
    return st.composite(_default_rules)(inner)


def _default_rules(draw: st.DrawFn, inner: st.SearchStrategy[Request]) -> Request:
    """Now and then, leave out ``rules`` where the default says the same: the standard
    rules, or a record that names its own."""
    from hypothesis import strategies as st

    req = dict(draw(inner))
    default = req.get("rules") == "standard" or (
        req["op"] in ("replay", "view")
        and isinstance(req.get("record"), dict)
        and "rules" in req["record"]
    )
    if default and draw(st.booleans()):
        del req["rules"]
    return req


_BUILDERS: Final[dict[str, Callable[..., Request]]] = {
    "tiles": _tiles_request,
    "led_suit": _led_suit_request,
    "legal_plays": _legal_plays_request,
    "trick_winner": _trick_winner_request,
    "score_hand": _score_hand_request,
    "game_winner": _game_winner_request,
    "replay": _replay_request,
    "view": _view_request,
}


# ---------------------------------------------------------------------------
# Comparing answers


def _dump(value: JSON) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=False)


def _shape_error(answer: JSON) -> str | None:
    """Why ``answer`` is not a protocol answer, or ``None`` if it is one."""
    if not isinstance(answer, dict):
        return "the answer is not a JSON object"
    ok = answer.get("ok")
    if ok is True:
        return None if "result" in answer else 'the answer has "ok": true and no "result"'
    if ok is False:
        err = answer.get("error")
        if not isinstance(err, dict) or not isinstance(err.get("code"), str):
            return 'the answer has "ok": false and no "error" object with a "code"'
        return None
    return 'the answer has no "ok": true or false'


def comparable(op: str, answer: Response) -> dict[str, JSON]:
    """The part of an answer that must agree: ``id``, ``ok``, and the ``result``, or the
    error's ``code`` and ``rule``. Messages are free text and never compared (nor is a
    replay violation's ``message``)."""
    out: dict[str, JSON] = {"id": answer.get("id"), "ok": answer.get("ok")}
    if answer.get("ok") is True:
        result = answer.get("result")
        if (
            op == "replay"
            and isinstance(result, dict)
            and isinstance(result.get("violation"), dict)
        ):
            violation = {k: v for k, v in result["violation"].items() if k != "message"}
            result = {**result, "violation": violation}
        out["result"] = result
    else:
        err = answer.get("error")
        err = err if isinstance(err, dict) else {}
        out["error"] = {"code": err.get("code"), "rule": err.get("rule")}
    return out


def _is_number(value: JSON) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(a: JSON, b: JSON) -> bool:
    """Equality of JSON scalars: ``1`` and ``1.0`` are one number, ``true`` is no number."""
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    return type(a) is type(b) and _dump(a) == _dump(b)


def first_difference(a: JSON, b: JSON, path: str = "") -> str | None:
    """Where JSON values ``a`` (expected) and ``b`` (actual) first differ, or ``None``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            sub = f"{path}.{key}" if path else key
            if key not in b:
                return f"{sub}: expected {clip(_dump(a[key]))}, missing"
            found = first_difference(a[key], b[key], sub)
            if found:
                return found
        for key in b:
            if key not in a:
                sub = f"{path}.{key}" if path else key
                return f"{sub}: not expected, got {clip(_dump(b[key]))}"
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if _same(a, b):
        return None
    return f"{path or 'answer'}: expected {clip(_dump(a))}, got {clip(_dump(b))}"


def compare(op: str, expected: Response, actual: Response) -> str | None:
    """``None`` if the target's answer agrees with the reference's, else where it differs."""
    return first_difference(comparable(op, expected), comparable(op, actual))


# ---------------------------------------------------------------------------
# The clauses a request involves


def _trump_clause(trump: Trump) -> str:
    if trump is Trump.DOUBLES:
        return "TRUMP-3"
    if trump is Trump.NONE:
        return "TRUMP-4"
    return "TRUMP-2"


def _add(out: list[str], *ids: str) -> None:
    for i in ids:
        if i not in out:
            out.append(i)


def clauses_involved(
    request: Request, expected: Response, actual: Response | None = None
) -> list[str]:
    """The clauses of ``spec/rules.md`` a request exercises, the ones the answers cite first.

    Best effort, from the situation: a request the reference refuses cites the clause
    it breaks; a legal one the clauses that decide its answer.
    """
    out: list[str] = []
    for answer in (expected, actual):
        if not isinstance(answer, dict):
            continue
        err = answer.get("error")
        if isinstance(err, dict) and isinstance(err.get("rule"), str):
            _add(out, err["rule"])
        result = answer.get("result")
        if isinstance(result, dict) and isinstance(result.get("violation"), dict):
            rule = result["violation"].get("rule")
            if isinstance(rule, str):
                _add(out, rule)
    # a malformed request: the error's clause (if any) is all there is
    with contextlib.suppress(Exception):
        _situation_clauses(request, expected, actual, out)
    return out


def _situation_clauses(
    request: Request, expected: Response, actual: Response | None, out: list[str]
) -> None:
    from moonrules.conformance.protocol import request_rules

    rules = request_rules(request)
    op = request.get("op")
    trump = Trump.parse(request["trump"]) if "trump" in request else None
    if op == "tiles":
        _add(out, "TILE-1", _TILE_SET_CLAUSE[rules.tile_set])
    elif op == "led_suit":
        assert trump is not None
        t = Tile.parse(request["tile"])
        _add(out, "LEAD-3", _trump_clause(trump))
        if is_trump(t, trump):
            _add(out, "SUIT-2")
    elif op == "legal_plays":
        assert trump is not None
        hand = [Tile.parse(x) for x in request["hand"]]
        trick = [Tile.parse(x) for x in request["trick"]]
        if not trick:
            first = len(hand) == 7 and rules.first_lead.value == "trump"
            _add(out, "LEAD-2" if first else "LEAD-1")
        else:
            suit = led_suit(trick[0], trump)
            _add(out, "LEAD-3", "FOLLOW-1" if suit == TRUMP_SUIT else "FOLLOW-2")
            if not any(in_suit(t, suit, trump) for t in hand):
                _add(out, "FOLLOW-3")
            if any(is_trump(t, trump) for t in (*hand, *trick)):
                _add(out, "SUIT-2")
            _add(out, "SUIT-1")
        _add(out, _trump_clause(trump))
    elif op == "trick_winner":
        assert trump is not None
        trick = [Tile.parse(x) for x in request["trick"]]
        _add(out, "TRICK-2", "LEAD-3")
        _add(out, "SUIT-4" if any(is_trump(t, trump) for t in trick) else "SUIT-3")
        _add(out, _trump_clause(trump))
    elif op in ("legal_bids", "auction"):
        bids = request["bids"]
        _add(out, "BID-2", "BID-3", "BID-4")
        if 21 in bids:
            _add(out, "BID-5")
        if all(b == "pass" for b in bids) and len(bids) >= rules.players - 1:
            _add(out, "BID-8" if rules.all_pass.value == "force" else "BID-7")
        if len(bids) >= rules.players or 21 in bids:
            _add(out, "BID-6")
    elif op == "score_hand":
        _add(out, "SCORE-1", "SCORE-2", "SCORE-3")
        if request["bid"] == 21:
            _add(out, "SCORE-4" if rules.moon_made.value == "wins-game" else "SCORE-5")
        if rules.scoring is Scoring.MARKS:
            _add(out, "SCORE-6")
        if rules.partnership:
            _add(out, "TEAM-1")
    elif op == "game_winner":
        scores = request["scores"]
        _add(out, "END-1")
        top = max(scores)
        if top >= rules.target and scores.count(top) > 1:
            _add(out, "END-3" if rules.tie is TieRule.BIDDER_OUT else "END-2")
        if rules.partnership:
            _add(out, "TEAM-1")
    elif op == "view":
        _add(out, "VIEW-1")
    elif op == "replay" and actual is not None:
        where = compare("replay", expected, actual) or ""
        if "deltas" in where or "scores" in where:
            _add(out, "SCORE-1", "SCORE-2", "SCORE-3")
            if rules.partnership:
                _add(out, "TEAM-1")
        if ".tricks" in where:
            _add(out, "TRICK-2")
        if "winner" in where:
            _add(out, "END-1", "END-3" if rules.tie is TieRule.BIDDER_OUT else "END-2")
        if ".bidder" in where or ".bid" in where:
            _add(out, "BID-6")


_TILE_SET_CLAUSE: Final[dict[TileSet, str]] = {
    TileSet.MOON_22: "TILE-2",
    TileSet.DOUBLE_SIX_28: "TILE-3",
    TileSet.NO_DOUBLE_BLANK_21: "TILE-4",
}


# ---------------------------------------------------------------------------
# Findings and the report


@attrs.define
class Finding:
    """One disagreement (or crash, hang, garbage answer), shrunk to a minimal request."""

    op: str
    kind: FindingKind
    request: Request
    """The minimal request (its ``id`` is 1)."""
    expected: Response
    """The reference's answer."""
    actual: Response | None
    """The target's answer; ``None`` when it crashed, hung or printed garbage."""
    detail: str
    """Where the answers first differ, or what went wrong with the target."""
    clauses: list[str]
    """Clauses of ``spec/rules.md`` the request involves."""
    reproduce: str
    """A command line that sends the request to the target."""
    examples: int
    """Examples of this op run before the first failing one was found (it included)."""
    shrinks: int
    """Shrinking attempts made to reach the minimal request."""

    @property
    def rules(self) -> JSON:
        return self.request.get("rules", "standard")

    def to_json(self) -> dict[str, JSON]:
        return {
            "op": self.op,
            "kind": self.kind,
            "rules": self.rules,
            "request": self.request,
            "expected": self.expected,
            "actual": self.actual,
            "detail": self.detail,
            "clauses": self.clauses,
            "reproduce": self.reproduce,
            "reference": _reference_command(self.request),
            "examples": self.examples,
            "shrinks": self.shrinks,
        }

    def to_text(self, number: int = 1) -> str:
        what = {
            "disagreement": "the answers disagree",
            "crash": "the target crashed",
            "timeout": "the target did not answer in time",
            "garbage": "the target's answer is not a protocol answer",
        }[self.kind]
        lines = [
            f"[{number}] {self.op} (rules: {self.rules}): {what}; found after {self.examples} "
            f"example(s), shrunk in {self.shrinks} step(s)",
            f"    clauses:   {', '.join(self.clauses) or '-'}",
            f"    request:   {_dump(self.request)}",
            f"    expected:  {_dump(self.expected)}",
            f"    actual:    {_dump(self.actual) if self.actual is not None else '(no answer)'}",
            f"    {'differs:' if self.kind == 'disagreement' else 'problem:'}   {self.detail}",
            f"    reproduce: {self.reproduce}",
            f"    reference: {_reference_command(self.request)}",
        ]
        return "\n".join(lines)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _reference_command(request: Request) -> str:
    return f"echo {shlex.quote(_dump(request))} | moonrules serve"


@attrs.define
class FuzzReport:
    """What a fuzzing run found: cases run per op, and the findings (empty when all agree)."""

    target: str
    seed: int
    ops: tuple[str, ...]
    rules: tuple[str, ...]
    cases: dict[str, int]
    """Examples run per op, shrinking attempts not counted."""
    findings: list[Finding]
    elapsed: float
    """Seconds the run took."""
    starts: int = 1
    """Times the target process was started (restarts after crashes, hangs, garbage)."""

    @property
    def ok(self) -> bool:
        """Whether the target agreed with the reference on every case."""
        return not self.findings

    @property
    def total(self) -> int:
        return sum(self.cases.values())

    def summary(self) -> str:
        """One line: the verdict and the cases run per op."""
        per_op = ", ".join(f"{op} {self.cases.get(op, 0)}" for op in self.ops)
        if self.ok:
            head = f"no disagreement in {_count(self.total, 'case')}"
        else:
            n = len(self.findings)
            head = f"{_count(n, 'finding')} in {_count(self.total, 'case')}"
        return f"moonrules fuzz: {head} (seed {self.seed}, {self.elapsed:.1f} s): {per_op}"

    def to_text(self) -> str:
        parts = [self.summary()]
        for i, f in enumerate(self.findings, 1):
            parts.append("")
            parts.append(f.to_text(i))
        if self.findings:
            parts.append("")
            parts.append(
                f"target: {self.target}; started {self.starts} time(s); "
                f"rerun with --seed {self.seed}"
            )
        return "\n".join(parts)

    def to_json(self) -> dict[str, JSON]:
        return {
            "target": self.target,
            "seed": self.seed,
            "ops": list(self.ops),
            "rules": list(self.rules),
            "cases": dict(self.cases),
            "elapsed": round(self.elapsed, 3),
            "starts": self.starts,
            "ok": self.ok,
            "findings": [f.to_json() for f in self.findings],
        }


@attrs.frozen
class Progress:
    """Where a run stands, passed to the ``progress`` callback after each case."""

    op: str
    cases: int
    """Cases run so far, every op."""
    findings: int
    elapsed: float
    shrinking: bool
    """Whether the current op is shrinking a finding."""


# ---------------------------------------------------------------------------
# The engine


class _OutOfTime(BaseException):
    """Stops Hypothesis's generation when the run's time is up (never a finding)."""


@attrs.define
class _Outcome:
    request: Request
    expected: Response
    actual: Response | None
    kind: FindingKind
    detail: str


class _OpRun:
    """The fuzzing of one op: the condition Hypothesis searches and shrinks with."""

    def __init__(
        self,
        op: str,
        target: Handler,
        reference: Handler,
        run: _Run,
    ) -> None:
        self.op = op
        self.target = target
        self.reference = reference
        self.run = run
        self.examples = 0
        self.shrinks = 0
        self.found_at = 0
        self.found = False
        self.frozen = False
        self.shrink_started = 0.0
        self.interesting: dict[str, _Outcome] = {}
        self.last: _Outcome | None = None

    def check(self, fields: Request, request_id: int | None = None) -> _Outcome | None:
        """Ask both; the outcome if they disagree (or the target fails), else ``None``."""
        if request_id is None:
            self.run.next_id += 1
            request_id = self.run.next_id
        request: Request = {"id": request_id, **fields}
        expected = self.reference(request)
        try:
            actual = self.target(request)
        except TargetFailure as e:
            return _Outcome(request, expected, None, e.kind, e.detail)
        shape = _shape_error(actual)
        if shape is not None:
            return _Outcome(request, expected, actual, "garbage", shape)
        diff = compare(self.op, expected, actual)
        if diff is None:
            return None
        return _Outcome(request, expected, actual, "disagreement", diff)

    def condition(self, fields: Request) -> bool:
        key = _dump(fields)
        if self.frozen:
            return key in self.interesting
        now = time.monotonic()
        if self.found:
            if now - self.shrink_started > self.run.shrink_seconds:
                self.frozen = True
                return key in self.interesting
            self.shrinks += 1
        else:
            if self.run.deadline is not None and now > self.run.deadline:
                raise _OutOfTime
            self.examples += 1
            self.run.cases[self.op] += 1
        outcome = self.check(fields)
        self.run.report_progress(self.op, self.found)
        if outcome is None:
            return False
        if not self.found:
            self.found = True
            self.found_at = self.examples
            self.shrink_started = time.monotonic()
            self.run.findings_so_far += 1
        self.interesting[key] = outcome
        self.last = outcome
        if outcome.kind == "timeout":  # every attempt would cost a timeout: no shrinking
            self.frozen = True
        return True


class _Run:
    def __init__(
        self,
        deadline: float | None,
        shrink_seconds: float,
        progress: Callable[[Progress], None] | None,
        ops: tuple[str, ...],
    ) -> None:
        self.deadline = deadline
        self.shrink_seconds = shrink_seconds
        self.progress = progress
        self.cases = dict.fromkeys(ops, 0)
        self.findings_so_far = 0
        self.next_id = 0
        self.started = time.monotonic()

    def report_progress(self, op: str, shrinking: bool) -> None:
        if self.progress is not None:
            self.progress(
                Progress(
                    op,
                    sum(self.cases.values()),
                    self.findings_so_far,
                    time.monotonic() - self.started,
                    shrinking,
                )
            )


def _settings(max_examples: int) -> settings:
    from hypothesis import HealthCheck, Phase, Verbosity, settings

    return settings(
        max_examples=max_examples,
        database=None,
        deadline=None,
        derandomize=False,
        verbosity=Verbosity.quiet,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )


def _search(
    op_run: _OpRun, strategy: st.SearchStrategy[Request], n: int, rng: random.Random
) -> bool:
    """Run up to ``n`` examples; True when this op has a finding (shrunk)."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    try:
        with warnings.catch_warnings():  # e.g. Hypothesis on the size of a long record's repr
            warnings.simplefilter("ignore")
            find(strategy, op_run.condition, settings=_settings(n), random=rng)
    except NoSuchExample:
        return False
    except _OutOfTime:
        if not op_run.found:
            return False
    except Exception:
        # Hypothesis gave up on the shrinking (a flaky target): report the smallest so far
        if not op_run.found:
            raise
    return op_run.found


def _callable_command(handle: Handler) -> str:
    module = getattr(handle, "__module__", None)
    name = getattr(handle, "__qualname__", None)
    if not module or not name or module == "__main__" or "<" in name or "." in name:
        return ""
    return f"{module}.{name}"


def fuzz(
    target: Handler | str | ProcessTarget,
    ops: Sequence[str] | str | None = None,
    rules: Sequence[str] | str | None = None,
    examples: int | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
    reference: Handler | None = None,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> FuzzReport:
    """Fuzz ``target`` against the reference; the report of what disagreed, shrunk.

    ``target``: a command (``"node engine.js"``) speaking the protocol on stdin and
    stdout, a :class:`ProcessTarget`, or a callable answering a request ``dict`` with a
    response ``dict`` (in-process: no timeout applies). ``ops``: which ops (default
    :data:`OPS`); ``rules``: which presets (names or aliases; default all). ``examples``:
    examples per op (default :data:`DEFAULT_EXAMPLES`); or ``seconds``: fuzz the ops in
    turn, 10 examples each, then 20, 40, up to 100 at a time, until the time is up
    (shrinking a finding may take up to ``shrink_seconds`` more). ``seed``: the same
    seed, the same cases (a random one when ``None``, given in the report; with
    ``seconds``, how far the run gets depends on the speed of the machine). Each op
    stops at its first finding, which is shrunk to a minimal request; the other ops go
    on. ``progress`` is called after each case.
    ``reference`` replaces :func:`moonrules.conformance.protocol.handle` (for tests).
    """
    op_names = _ops(ops)
    presets = _presets(rules)
    if examples is not None and seconds is not None:
        raise FuzzError("give a number of examples or a number of seconds, not both")
    if examples is not None and examples < 1:
        raise FuzzError(f"the number of examples must be at least 1, not {examples}")
    if seconds is not None and seconds <= 0:
        raise FuzzError(f"the number of seconds must be positive, not {seconds}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    from moonrules.conformance.protocol import handle

    ref: Handler = reference if reference is not None else handle

    owned: ProcessTarget | None = None
    process: ProcessTarget | None = None
    if isinstance(target, str):
        owned = process = ProcessTarget(target, timeout=timeout, cwd=cwd, env=env)
        process.start()
        call: Handler = process
        name = process.display
    elif isinstance(target, ProcessTarget):
        process = target
        process.start()
        call = target
        name = target.display
    else:
        call = _CallableTarget(target)
        name = _callable_command(target) or repr(target)

    started = time.monotonic()
    run = _Run(None if seconds is None else started + seconds, shrink_seconds, progress, op_names)
    runs = {op: _OpRun(op, call, ref, run) for op in op_names}
    strategies = {op: requests(op, presets) for op in op_names}
    try:
        if seconds is None:
            n = examples if examples is not None else DEFAULT_EXAMPLES
            for op in op_names:
                _search(runs[op], strategies[op], n, random.Random(f"{seed}/{op}"))
        else:
            round_ = 0
            while time.monotonic() < started + seconds:
                pending = [op for op in op_names if not runs[op].found]
                if not pending:
                    break
                for op in pending:
                    if time.monotonic() >= started + seconds:
                        break
                    rng = random.Random(f"{seed}/{op}/{round_}")
                    # short rounds first, so that every op is reached in a short run
                    _search(runs[op], strategies[op], min(100, 10 << round_), rng)
                round_ += 1
        findings = [
            _finding(runs[op], process, target)
            for op in op_names
            if runs[op].found and runs[op].last is not None
        ]
    finally:
        if owned is not None:
            owned.close()
    return FuzzReport(
        target=name,
        seed=seed,
        ops=op_names,
        rules=presets,
        cases=run.cases,
        findings=findings,
        elapsed=time.monotonic() - started,
        starts=process.starts if process is not None else 1,
    )


def _finding(op_run: _OpRun, process: ProcessTarget | None, target: object) -> Finding:
    """The finding of an op: its minimal outcome, asked again with ``id`` 1 when it is cheap."""
    outcome = op_run.last
    assert outcome is not None
    fields = {k: v for k, v in outcome.request.items() if k != "id"}
    if outcome.kind != "timeout":
        again = op_run.check(fields, 1)
        if again is not None:
            outcome = again
    request = outcome.request
    line = shlex.quote(_dump(request))
    if process is not None:
        reproduce = f"echo {line} | {process.display}"
    else:
        func = _callable_command(target)  # type: ignore[arg-type]
        if func:
            module = func.rpartition(".")[0]
            code = f"import {module}; from moonrules.conformance.fuzz import serve; serve({func})"
            reproduce = f"echo {line} | python -c {shlex.quote(code)}"
        else:
            reproduce = f"target(json.loads({_dump(request)!r}))"
    return Finding(
        op=op_run.op,
        kind=outcome.kind,
        request=request,
        expected=outcome.expected,
        actual=outcome.actual,
        detail=outcome.detail,
        clauses=clauses_involved(request, outcome.expected, outcome.actual),
        reproduce=reproduce,
        examples=op_run.found_at,
        shrinks=op_run.shrinks,
    )


def iter_requests(
    op: str, rules: Sequence[str] | str | None = None, n: int = 10, seed: int = 0
) -> Iterator[Request]:
    """``n`` requests of ``op`` drawn from :func:`requests` (for looking at what is fuzzed)."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    out: list[Request] = []

    def keep(fields: Request) -> bool:
        out.append(fields)
        return False

    with contextlib.suppress(NoSuchExample):
        find(requests(op, rules), keep, settings=_settings(n), random=random.Random(seed))
    yield from out
