"""Requests for every op, drawn from a source of choices: fast seeded draws, replays, Hypothesis.

Every builder of this module takes a :class:`Choices`, a source of whole numbers,
and builds a protocol request (without ``id``) from them: a situation legal by
construction, or one with exactly one fault. The same builders serve three sources:

- :class:`RandomChoices` draws from a seeded :class:`random.Random` (cheap: what
  ``moonrules fuzz`` runs on) and records what it drew;
- :class:`ReplayChoices` replays a recorded sequence, changed or cut short (what a
  finding is shrunk with: shorter and smaller sequences give smaller requests);
- :class:`HypothesisChoices` draws from Hypothesis (:func:`requests`, for property
  tests).

Each choice is recorded as its distance from its simplest value (0 where the range
holds 0, else the end nearest to 0), so that lowering a choice simplifies the request:
a list shrinks by dropping an element with the choices that made it, a tile towards
the first of its set, a number towards 0.

:mod:`moonrules.conformance.spaces` enumerates the finite ops' legal requests and counts
them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from moonrules.conformance.protocol import OPS as PROTOCOL_OPS
from moonrules.game import GameState, Play, apply, legal_actions, new_game, seeded_deal
from moonrules.game import Phase as GamePhase
from moonrules.records.record import JSON, to_record
from moonrules.rules.auction import MOON, PASS, Auction, legal_calls
from moonrules.rules.errors import MoonError
from moonrules.rules.ruleset import PRESETS, AllPass, Renege, RuleSet, rules_by_name
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TILES, Tile

if TYPE_CHECKING:  # Hypothesis is imported only by requests(), not with this module
    from hypothesis import strategies as st

T = TypeVar("T")
Request = dict[str, JSON]

OPS: Final[tuple[str, ...]] = tuple(PROTOCOL_OPS)
"""Every op, in the order the fuzzer runs them."""

FINITE_OPS: Final = (
    "tiles",
    "led_suit",
    "legal_plays",
    "trick_winner",
    "legal_bids",
    "auction",
    "score_hand",
)
"""The ops :func:`exhaustive` enumerates (the others have no end of legal requests)."""


class FuzzError(MoonError):
    """The fuzzer cannot run: a target that cannot be started, an unknown op or preset."""


# ---------------------------------------------------------------------------
# Sources of choices


def _origin(lo: int, hi: int) -> int:
    return 0 if lo <= 0 <= hi else (lo if lo > 0 else hi)


class Choices:
    """A source of whole numbers; the builders' only way to choose. ``record`` keeps
    each choice as its distance from its simplest value (see the module's text)."""

    def __init__(self) -> None:
        self.record: list[int] = []

    def _choose(self, lo: int, hi: int, origin: int) -> int:
        raise NotImplementedError

    def num(self, lo: int, hi: int) -> int:
        """A whole number from ``lo`` to ``hi`` (both included)."""
        origin = _origin(lo, hi)
        value = self._choose(lo, hi, origin)
        self.record.append(value - origin)
        return value

    def coin(self) -> bool:
        """Yes or no, evenly (no is simpler)."""
        return self.num(0, 1) == 1

    def more(self) -> bool:
        """Whether a list goes on: yes three times in four (no is simpler)."""
        return self.num(0, 3) > 0

    def pick(self, seq: Sequence[T]) -> T:
        """One element of ``seq`` (the first is simplest)."""
        return seq[self.num(0, len(seq) - 1)]

    def pair(self, n: int) -> tuple[int, int]:
        """Two different numbers below ``n``, in either order."""
        i = self.num(0, n - 1)
        j = self.num(0, n - 2)
        return i, j + (j >= i)


class RandomChoices(Choices):
    """Choices drawn from a seeded generator, evenly over each range."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self._random = rng.random

    def _choose(self, lo: int, hi: int, origin: int) -> int:
        return lo + int(self._random() * (hi - lo + 1))

    def num(self, lo: int, hi: int) -> int:
        """:meth:`Choices.num`, inlined (the fuzzer's hottest call)."""
        value = lo + int(self._random() * (hi - lo + 1))
        self.record.append(value - (0 if lo <= 0 <= hi else lo if lo > 0 else hi))
        return value


class ReplayChoices(Choices):
    """The recorded choices ``prefix`` again (each moved into its range); past their
    end, the simplest value of each range."""

    def __init__(self, prefix: Sequence[int]) -> None:
        super().__init__()
        self._prefix = prefix

    def _choose(self, lo: int, hi: int, origin: int) -> int:
        i = len(self.record)
        if i >= len(self._prefix):
            return origin
        return min(hi, max(lo, origin + self._prefix[i]))


class HypothesisChoices(Choices):
    """Choices drawn by Hypothesis (inside a composite strategy, through ``draw``)."""

    def __init__(self, draw: st.DrawFn) -> None:
        super().__init__()
        self._draw = draw

    def _choose(self, lo: int, hi: int, origin: int) -> int:
        value: int = self._draw(_integers(lo, hi))
        return value


@functools.lru_cache(maxsize=1024)
def _integers(lo: int, hi: int) -> st.SearchStrategy[int]:
    from hypothesis import strategies as st

    return st.integers(lo, hi)


# ---------------------------------------------------------------------------
# Names


def tile_text(t: Tile, flip: bool = False) -> str:
    """The protocol's text of a tile: high end first, or low end first with ``flip``."""
    return f"{t.low}-{t.high}" if flip else str(t)


def presets(rules: Sequence[str] | str | None) -> tuple[str, ...]:
    """Canonical preset names of ``rules`` (names or aliases, or comma-separated lists of
    them); every preset when ``None``."""
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


def ops(names: Sequence[str] | str | None, what: str = "op") -> tuple[str, ...]:
    """The ops named (comma-separated lists allowed), in :data:`OPS` order; all when ``None``."""
    if names is None:
        return OPS
    listed = [names] if isinstance(names, str) else list(names)
    wanted = [p.strip() for name in listed for p in str(name).split(",") if p.strip()]
    unknown = [o for o in wanted if o not in OPS]
    if unknown:
        raise FuzzError(f"unknown {what} {unknown[0]!r}; the ops are {', '.join(OPS)}")
    if not wanted:
        raise FuzzError(f"no {what} to fuzz: name at least one")
    return tuple(o for o in OPS if o in wanted)


# ---------------------------------------------------------------------------
# The builders


_MALFORMED_TILES: Final[tuple[JSON, ...]] = ("7-1", "6", "6-4-2", "", "6/4", "six-four", 64, None)
_BAD_TRUMPS: Final[tuple[JSON, ...]] = (7, -1, "seven", True, None, 2.5, "trumps", [6])
_UNKNOWN_RULES: Final = "no-such-rules"


def _faulty(c: Choices, faults: bool | None) -> bool:
    """Whether this example carries a fault: ``faults``, or when ``None`` roughly one
    example in four (shrinking goes towards the legal cases)."""

    if faults is not None:
        return faults
    return bool(c.num(0, 3) == 3)


def _distinct(
    c: Choices, pool: Sequence[Tile], lo: int, hi: int, avoid: Sequence[Tile] = ()
) -> tuple[list[Tile], list[str]]:
    """Distinct tiles of ``pool`` not in ``avoid`` (``lo`` to ``hi`` of them), and their
    texts, each written either way. Each tile after the first ``lo`` is preceded by a
    choice to go on, and each is chosen from the whole pool (the next free one when
    taken), so that shrinking drops a tile whole without changing the others."""
    n = len(pool)
    if avoid:
        avoided = {t.index for t in avoid}
        taken = [t.index in avoided for t in pool]
    else:
        taken = [False] * n
    hi = min(hi, n - sum(taken))
    tiles: list[Tile] = []
    texts: list[str] = []
    while len(tiles) < hi and (len(tiles) < lo or c.more()):
        i = c.num(0, n - 1)
        while taken[i]:
            i = (i + 1) % n
        taken[i] = True
        t = pool[i]
        tiles.append(t)
        texts.append(tile_text(t, c.coin()))
    return tiles, texts


@functools.lru_cache(maxsize=64)
def _trumps(rules: RuleSet) -> tuple[Trump, ...]:
    return rules.trumps


@functools.lru_cache(maxsize=64)
def _bids(rules: RuleSet) -> tuple[int, ...]:
    return rules.bids


@functools.lru_cache(maxsize=64)
def _outside(rules: RuleSet) -> tuple[Tile, ...]:
    inside = set(rules.tile_set.tiles)
    return tuple(t for t in TILES if t not in inside)


@functools.lru_cache(maxsize=64)
def _unoffered(rules: RuleSet) -> tuple[Trump, ...]:
    return tuple(t for t in Trump if t not in rules.trumps)


def _pick_fault(c: Choices, mode: bool | None, rules: RuleSet, faults: Sequence[str]) -> str | None:
    """The example's fault, or ``None`` (see :func:`_faulty`). A trump the preset does
    not offer (TRUMP-5), where there is one, is a fault of its own, drawn half the time:
    the mistake engines make most, and a rare one to reach through a list of faults."""

    if not _faulty(c, mode):
        return None
    withheld = bool(_unoffered(rules))
    if withheld and c.coin():
        return "trump-not-offered"
    return c.pick(faults)


def _common_faults(c: Choices, req: Request, fault: str, fields: Sequence[str]) -> None:
    """Faults any op can carry: a missing field, unknown rules."""

    if fault == "missing-field":
        del req[c.pick(list(fields))]
    elif fault == "unknown-rules":
        req["rules"] = _UNKNOWN_RULES


def _tiles_request(c: Choices, presets: tuple[str, ...], mode: bool | None) -> Request:

    name = c.pick(presets)
    req: Request = {"op": "tiles", "rules": name}
    if _faulty(c, mode):
        req["rules"] = _UNKNOWN_RULES
    return req


_TRUMP_FAULTS: Final = ("bad-trump", "malformed-tile", "missing-field", "unknown-rules")
"""The faults every op played under a trump can carry (after its own)."""


def _start_trump_request(
    c: Choices, presets: tuple[str, ...], mode: bool | None, faults: Sequence[str]
) -> tuple[str, RuleSet, str | None, Trump]:
    """The preset, its rules, the fault and the trump of a request played under a trump.

    The fault is one of ``faults`` (the op's own), of :data:`_TRUMP_FAULTS`, or
    ``outside-set`` where the preset leaves tiles out (see :func:`_pick_fault`).
    """

    name = c.pick(presets)
    rules = PRESETS[name]
    every = [*faults, *_TRUMP_FAULTS]
    if _outside(rules):
        every.insert(0, "outside-set")
    fault = _pick_fault(c, mode, rules, every)
    return name, rules, fault, c.pick(_trumps(rules))


def _trump_faults(
    c: Choices, req: Request, rules: RuleSet, fault: str | None, fields: Sequence[str]
) -> None:
    """A fault of the trump (not offered, malformed), or one any op can carry."""

    if fault == "trump-not-offered":
        req["trump"] = c.pick(_unoffered(rules)).to_json()
    elif fault == "bad-trump":
        req["trump"] = c.pick(_BAD_TRUMPS)
    elif fault is not None:
        _common_faults(c, req, fault, fields)


def _led_suit_request(c: Choices, presets: tuple[str, ...], mode: bool | None) -> Request:

    name, rules, fault, trump = _start_trump_request(c, presets, mode, ())
    t = c.pick(rules.tile_set.tiles)
    text = tile_text(t, c.coin())
    req: Request = {"op": "led_suit", "rules": name, "trump": trump.to_json(), "tile": text}
    if fault == "outside-set":
        req["tile"] = tile_text(c.pick(_outside(rules)), c.coin())
    elif fault == "malformed-tile":
        req["tile"] = c.pick(_MALFORMED_TILES)
    else:
        _trump_faults(c, req, rules, fault, ("trump", "tile"))
    return req


def _legal_plays_request(c: Choices, presets: tuple[str, ...], mode: bool | None) -> Request:

    own = ("duplicate", "shared", "empty-hand", "complete-trick")
    name, rules, fault, trump = _start_trump_request(c, presets, mode, own)
    n = rules.players
    pool = rules.tile_set.tiles
    lo, hi = {"complete-trick": (n, n), "shared": (1, n - 1)}.get(fault or "", (0, n - 1))
    trick, trick_texts = _distinct(c, pool, lo, hi)
    lo, hi = (0, 0) if fault == "empty-hand" else (1, 7)
    if not trick and not fault and c.coin():
        lo = hi = 7  # a leader holding 7 tiles leads the first trick (LEAD-2 may apply)
    hand, hand_texts = _distinct(c, pool, lo, hi, avoid=trick)
    if fault == "duplicate":
        i = c.num(0, len(hand) - 1)
        hand_texts.insert(c.num(0, len(hand_texts)), tile_text(hand[i], True))
    elif fault == "shared":
        hand_texts.append(trick_texts[c.num(0, len(trick_texts) - 1)])
    elif fault == "outside-set":
        hand_texts[-1] = tile_text(c.pick(_outside(rules)), c.coin())
    elif fault == "malformed-tile":
        hand_texts[-1] = c.pick(_MALFORMED_TILES)
    req: Request = {
        "op": "legal_plays",
        "rules": name,
        "trump": trump.to_json(),
        "hand": hand_texts,
        "trick": trick_texts,
    }
    _trump_faults(c, req, rules, fault, ("trump", "hand", "trick"))
    return req


def _trick_winner_request(c: Choices, presets: tuple[str, ...], mode: bool | None) -> Request:

    own = ("short-trick", "long-trick", "duplicate")
    name, rules, fault, trump = _start_trump_request(c, presets, mode, own)
    n = rules.players
    lo, hi = {"short-trick": (0, n - 1), "long-trick": (n + 1, n + 1)}.get(fault or "", (n, n))
    trick, texts = _distinct(c, rules.tile_set.tiles, lo, hi)
    if fault == "duplicate":
        texts[-1] = tile_text(trick[0], not texts[0].startswith(str(trick[0].high)))
    elif fault == "outside-set":
        texts[-1] = tile_text(c.pick(_outside(rules)), c.coin())
    elif fault == "malformed-tile":
        texts[-1] = c.pick(_MALFORMED_TILES)
    req: Request = {"op": "trick_winner", "rules": name, "trump": trump.to_json(), "trick": texts}
    _trump_faults(c, req, rules, fault, ("trump", "trick"))
    return req


def _legal_call(c: Choices, auction: Auction, rules: RuleSet) -> int:
    """A call the auction allows, chosen among every call (pass, then each bid), the next
    allowed one when it is not: a call keeps its choice whatever came before."""
    every = (PASS, *rules.bids)
    legal = set(legal_calls(auction))
    i = c.num(0, len(every) - 1)
    while every[i] not in legal:
        i = (i + 1) % len(every)
    return every[i]


def _call_json(call: int) -> str | int:
    return "pass" if call == PASS else call


_BAD_CALLS: Final[tuple[JSON, ...]] = ("PASS", "4", 4.5, None, True, [5], "bid")


def _bids_request(c: Choices, presets: tuple[str, ...], mode: bool | None, op: str) -> Request:

    name = c.pick(presets)
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
    fault = c.pick(faults) if _faulty(c, mode) else None
    auction = Auction(rules=rules)
    calls: list[JSON] = []

    def call(x: int) -> None:
        nonlocal auction
        auction = auction.call(x)
        calls.append(_call_json(x))

    if fault == "forced-pass":
        for _ in range(n - 1):
            call(PASS)
        calls.append("pass")
    elif fault == "call-after-end":  # a whole auction, then one call too many
        while not auction.is_over:
            call(_legal_call(c, auction, rules))
        calls.append(_call_json(c.pick((PASS, *rules.bids))))
    else:
        for _ in range(c.num(0, n)):
            if auction.is_over:
                break
            call(_legal_call(c, auction, rules))
    if fault == "low-bid":  # no higher than the highest bid so far (a bid of 21 ends it)
        while auction.high_bid == PASS or auction.is_over:
            auction, calls = Auction(rules=rules), []
            call(c.pick([b for b in rules.bids if b != MOON]))
        calls.append(c.pick([b for b in rules.bids if b <= auction.high_bid]))
    elif fault == "not-a-bid":
        calls.append(c.pick([b for b in (0, -1, 1, 2, 8, 20, 22) if b not in rules.bids]))
    elif fault == "malformed-call":
        calls.insert(c.num(0, len(calls)), c.pick(_BAD_CALLS))
    if fault in ("low-bid", "not-a-bid") and c.coin():
        calls.append("pass")  # the refused call need not be the last one
    req: Request = {"op": op, "rules": name, "bids": calls}
    if fault in ("missing-field", "unknown-rules"):
        _common_faults(c, req, fault, ("bids",))
    return req


def _score_hand_request(c: Choices, presets: tuple[str, ...], mode: bool | None) -> Request:

    name = c.pick(presets)
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
    fault = c.pick(faults) if _faulty(c, mode) else None
    bidder = c.num(0, n - 1)
    bid = c.pick(_bids(rules))
    # the bidder's side takes as many tricks as the bid needs, give or take (exactly is
    # the simplest: the edge of SCORE-1); the seats of each side share their tricks
    won = max(0, min(7, min(bid, 7) + c.num(-7, 7)))
    side = rules.side_of(bidder)
    tricks: list[JSON] = [0] * n
    for seats, total in (
        ([bidder, *(s for s in range(n) if s != bidder and rules.side_of(s) == side)], won),
        ([s for s in range(n) if rules.side_of(s) != side], 7 - won),
    ):
        left = total
        for s in seats[1:]:
            k = c.num(0, left)
            tricks[s] = k
            left -= k
        tricks[seats[0]] = left
    req: Request = {"op": "score_hand", "rules": name, "bidder": bidder, "bid": bid}
    if fault == "tricks-not-seven":
        i = c.num(0, n - 1)
        tricks[i] += c.pick([1, -1] if tricks[i] > 0 else [1])
    elif fault == "tricks-length":
        tricks = [*tricks, 0] if c.coin() else tricks[:-1]
    elif fault == "negative-tricks":
        i, j = c.pair(n)
        tricks[j] += tricks[i] + 1
        tricks[i] = -1
    elif fault == "bad-bidder":
        req["bidder"] = c.pick([n, -1, 4, "0", None])
    elif fault == "bad-bid":
        wrong = [b for b in (0, 1, 2, 3, 8, 20, 22, "pass") if b not in rules.bids]
        req["bid"] = c.pick(wrong)
    req["tricks"] = tricks
    if fault in ("missing-field", "unknown-rules"):
        _common_faults(c, req, fault, ("bidder", "bid", "tricks"))
    return req


def _game_winner_request(c: Choices, presets: tuple[str, ...], mode: bool | None) -> Request:

    name = c.pick(presets)
    rules = PRESETS[name]
    sides = rules.sides
    target = rules.target
    faults = ["scores-length", "bad-score", "missing-field", "unknown-rules"]
    fault = c.pick(faults) if _faulty(c, mode) else None
    tie = c.num(0, 1)
    low, high = -(target + 10), 2 * target + 5
    if tie == 0:  # free scores
        scores: list[JSON] = [c.num(low, high) for _ in range(sides)]
    else:  # a tie at the top, at or above the target
        top = c.num(target, high)
        i, j = sorted(c.pair(sides))
        scores = [top if k in (i, j) else c.num(low, top) for k in range(sides)]
    if fault == "scores-length":
        scores = [*scores, 0] if c.coin() else scores[:-1]
    elif fault == "bad-score":
        scores[c.num(0, sides - 1)] = c.pick(["21", None, 2.5, True])
    req: Request = {"op": "game_winner", "rules": name, "scores": scores}
    if c.coin():  # the last hand's bidder, which END-3 (bidder-out) looks at
        req["bidder"] = c.num(0, rules.players - 1)
    if fault in ("missing-field", "unknown-rules"):
        _common_faults(c, req, fault, ("scores",))
    return req


_MAX_GAME_STEPS: Final = 2000


def _replay_request(c: Choices, presets: tuple[str, ...], mode: bool | None) -> Request:
    """A game played by random legal actions, stopped anywhere, as a record.

    The actions come from a seeded random player, so that a shorter game (the shrinker
    lowers the number of steps) is a prefix of the longer one. Now and then the game is
    played to its end. With a fault, the record ends with exactly one illegal step where
    it stopped: a bad deal, a call the auction forbids, a discard not held, a trump not
    offered, a play that reneges, is out of turn or is of a tile no one holds, or a hand
    after the end of the game.
    """

    name = c.pick(presets)
    rules = PRESETS[name]
    faulty = _faulty(c, mode)
    seed = c.num(0, 2**31 - 1)
    first = c.num(0, rules.players - 1)
    player = random.Random(c.num(0, 2**31 - 1))
    whole = c.num(0, 7) == 7  # now and then, a whole game (or nearly)
    steps = c.num(0, _MAX_GAME_STEPS if whole else 100)
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
            _add_fault(c, state, record, c.pick(faults))
    else:
        record = to_record(state)
    if c.coin():
        record = _flip_record(record)
    return {"op": "replay", "rules": name, "record": record}


def _view_request(c: Choices, presets: tuple[str, ...], mode: bool | None) -> Request:
    """A record as for ``replay`` and a seat: what that seat may see (VIEW-1).

    With a fault, either the record carries one illegal step or the seat does not exist.
    """

    faulty = _faulty(c, mode)
    bad_seat = faulty and c.coin()
    req = _replay_request(c, presets, faulty and not bad_seat)
    players = PRESETS[req["rules"]].players
    seat: JSON = c.num(0, players - 1)
    if bad_seat:
        seat = c.pick([players, -1, 7, "0", None])
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


def _add_fault(c: Choices, state: GameState, record: dict[str, JSON], fault: str) -> None:

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
        s, o = c.pair(rules.players)
        deal_lists[s][c.num(0, 6)] = deal_lists[o][c.num(0, 6)]
    elif fault == "short-hand":
        deal_lists = hand["deal"]
        s, o = c.pair(rules.players)
        deal_lists[o].append(deal_lists[s].pop(c.num(0, 6)))
    elif fault == "outside-tile":
        deal_lists = hand["deal"]
        s = c.num(0, rules.players - 1)
        deal_lists[s][c.num(0, 6)] = str(c.pick(_outside(rules)))
    elif fault == "wrong-first-bidder":
        hand["first_bidder"] = (hand["first_bidder"] + c.num(1, rules.players - 1)) % (
            rules.players
        )
    elif fault == "illegal-call":
        legal = set(legal_calls(state.auction))
        wrong = [c for c in (PASS, *range(1, 9), MOON, 22) if c not in legal]
        hand.setdefault("bids", []).append(_call_json(c.pick(wrong)))
    elif fault == "discard-not-held":
        assert state.bidder is not None
        others = [t for s, h in enumerate(state.hands) if s != state.bidder for t in h]
        hand["discard"] = str(c.pick(others))
    elif fault == "trump-not-offered":
        hand["trump"] = c.pick(_unoffered(rules)).to_json()
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
        hand.setdefault("plays", []).append(str(c.pick(choices)))


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


def build(op: str, presets: Sequence[str], faults: bool | None, c: Choices) -> Request:
    """One request (without ``id``) of ``op`` under one of ``presets``, from the choices ``c``.

    Situations are legal by construction; with ``faults=None`` about one in four
    carries exactly one fault (a malformed field, or something the rules forbid), so
    that refusals are compared too; ``faults=False`` builds only legal situations,
    ``faults=True`` only faulty ones. Where the default says the same (the standard
    rules, or a record that names its own), ``rules`` is now and then left out.
    """
    names = tuple(presets)
    if op in ("legal_bids", "auction"):
        req = _bids_request(c, names, faults, op)
    elif op in _BUILDERS:
        req = _BUILDERS[op](c, names, faults)
    else:
        raise FuzzError(f"unknown op {op!r}; the ops are {', '.join(OPS)}")
    default = req.get("rules") == "standard" or (
        req["op"] in ("replay", "view")
        and isinstance(req.get("record"), dict)
        and "rules" in req["record"]
    )
    if default and c.coin():
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


def requests(
    op: str, rules: Sequence[str] | str | None = None, faults: bool | None = None
) -> st.SearchStrategy[Request]:
    """The Hypothesis strategy of requests (without ``id``) for ``op`` under ``rules``.

    The requests of :func:`build`, drawn by Hypothesis (``rules``: preset names or
    aliases, default every preset).
    """
    from hypothesis import strategies as st

    names = presets(rules)
    if op not in OPS:
        raise FuzzError(f"unknown op {op!r}; the ops are {', '.join(OPS)}")

    @st.composite
    def strategy(draw: st.DrawFn) -> Request:
        return build(op, names, faults, HypothesisChoices(draw))

    return strategy()


def draw(
    op: str, names: Sequence[str], faults: bool | None, rng: random.Random
) -> tuple[Request, list[int]]:
    """A request drawn with ``rng``, and the choices that build it again (:func:`replay`)."""
    c = RandomChoices(rng)
    return build(op, names, faults, c), c.record


def replay(
    op: str, names: Sequence[str], faults: bool | None, choices: Sequence[int]
) -> tuple[Request, list[int]]:
    """The request ``choices`` build (see :class:`ReplayChoices`), and the choices used."""
    c = ReplayChoices(choices)
    return build(op, names, faults, c), c.record


def canonical(request: Request) -> str:
    """A key that is the same for two requests that ask the same thing (tiles as written,
    ``rules`` default spelled out), for counting distinct requests."""
    import json

    fields = {k: v for k, v in request.items() if k != "id"}
    fields.setdefault("rules", "standard")
    return json.dumps(fields, sort_keys=True, separators=(",", ":"))


__all__ = [
    "FINITE_OPS",
    "OPS",
    "Choices",
    "FuzzError",
    "HypothesisChoices",
    "RandomChoices",
    "ReplayChoices",
    "build",
    "canonical",
    "draw",
    "ops",
    "presets",
    "replay",
    "requests",
    "tile_text",
]
