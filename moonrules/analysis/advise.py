"""Bidding advice for one hand: double-dummy statistics over sampled deals.

Given a seat's seven tiles, :func:`advise` deals the unseen tiles at random
many times (the other hands and, with three players, the widow), and for each
trump the rule set offers (TRUMP-1, TRUMP-5) solves each sample double-dummy
with the seat as bidder (:func:`moonrules.analysis.solver.solve`): the bidder
takes the widow and discards by :func:`discard_for` (WIDOW-1, WIDOW-2) and
leads the first trick (LEAD-1). The result is the distribution of the tricks the
bidder's side takes, the chance of each bid being made with a 95% confidence
interval, and the bid with the best expected score (SCORE-1 … SCORE-6).

Double-dummy numbers assume every player sees every tile and plays perfectly:
the bidder never misguesses, but neither do the defenders. Against the ``strong``
bot playing every seat they came out 0.13 tricks below the tricks taken in play
(``bench/dd_vs_play.py``; see ``docs/guides/bidding.md``).

>>> from moonrules.rules.tiles import tiles
>>> from moonrules.rules.suits import Trump
>>> a = advise(tiles("6-6 6-5 6-4 6-3 5-5 4-4 3-3"), trumps=[Trump.SIX, Trump.ONE], samples=8)
>>> a.best.trump, a.trump(Trump.SIX).samples, a.trump(Trump.SIX).counts
(Trump.SIX, 8, (0, 0, 0, 0, 0, 0, 0, 8))
"""

from __future__ import annotations

import contextlib
import math
import random
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Final

import attrs

from moonrules.analysis.solver import SolverCache, solve
from moonrules.game import Contract, Game, GameState, Hand, Phase
from moonrules.game.deal import check_seed
from moonrules.kernel.tables import LED_SUIT, STRENGTH, SUIT_MASK
from moonrules.rules.auction import MOON, PASS, Auction, legal_calls
from moonrules.rules.contract import check_arguments, typed
from moonrules.rules.errors import ArgumentError, MoonError, wrong_type
from moonrules.rules.ruleset import RuleSet, Scoring, as_rules
from moonrules.rules.scoring import score_hand
from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import Tile, check_tiles, tiles_of

__all__ = [
    "Advice",
    "AdviceError",
    "BidAdvice",
    "Choice",
    "TrumpAdvice",
    "advise",
    "bidder_state",
    "check_hand",
    "discard_for",
    "sample_deal",
    "tricks_as_bidder",
    "wilson",
]

Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% confidence interval."""


class AdviceError(MoonError):
    """A hand, call or trump that :func:`advise` cannot take (a user error: exit 2)."""


# ---------------------------------------------------------------------------
# The pieces: a hand checked, a sample dealt, the discard, the position, the solve


def check_hand(hand: Sequence[Tile], rules: RuleSet) -> int:
    """The mask of a seat's seven tiles, or :class:`AdviceError` naming what is wrong (DEAL-1,
    DEAL-3): a tile outside the rule set's tiles, a repeated tile, or not seven tiles."""
    allowed = rules.tile_set.mask
    mask = 0
    for t in hand:
        if not allowed >> t.index & 1:
            raise AdviceError(
                f"hand: {t} is not in the {rules.tile_set.value} set these rules play with"
            )
        if mask >> t.index & 1:
            raise AdviceError(f"hand: {t} is given twice; a hand holds each tile once")
        mask |= 1 << t.index
    if len(hand) != 7:
        raise AdviceError(f"hand: a hand has 7 tiles (DEAL-1), and {len(hand)} were given")
    return mask


def sample_deal(rules: RuleSet, hand: int, seed: int, k: int, seat: int = 0) -> tuple[int, ...]:
    """Sample ``k`` of ``seed``: every seat's seven tiles as masks, ``seat`` holding ``hand``,
    and last the widow's tile index (-1 without a widow, DEAL-2).

    The unseen tiles (the rule set's tiles less ``hand``), in tile order, are
    shuffled by a :class:`random.Random` seeded with the text
    ``moonrules/advise/{seed}/{k}`` and dealt seven to each other seat in turn;
    the widow is the last. The same ``(seed, k)`` always gives the same sample.
    """
    unseen = [i for i in range(28) if (rules.tile_set.mask & ~hand) >> i & 1]
    random.Random(f"moonrules/advise/{seed}/{k}").shuffle(unseen)
    masks = []
    pos = 0
    for s in range(rules.players):
        if s == seat:
            masks.append(hand)
            continue
        m = 0
        for i in unseen[pos : pos + 7]:
            m |= 1 << i
        masks.append(m)
        pos += 7
    widow = unseen[pos] if rules.has_widow else -1
    return (*masks, widow)


def discard_for(tiles8: int, trump: int, rules: RuleSet) -> int:
    """The tile index the bidder discards from ``tiles8`` (their hand and the widow) under
    ``trump`` (a ``Trump.value``): the rule :func:`advise` and the study follow (WIDOW-1).

    The rule: keep the trumps when there is anything else to throw; of the other
    tiles (all tiles when every one is a trump, or under no-trump), discard the
    one that the most tiles of the set outside the bidder's hand outrank in the
    suit its lead calls (LEAD-3, SUIT-3, SUIT-4): the tile least likely to win a
    trick. Ties go to the tile whose suit the bidder holds fewest of (a void is
    worth more than a guard), then to the lower tile index.
    """
    trumps = SUIT_MASK[trump][TRUMP_SUIT]
    candidates = tiles8 & ~trumps or tiles8
    outside = rules.tile_set.mask & ~tiles8
    led = LED_SUIT[trump]
    best_key: tuple[int, int, int] | None = None
    best = -1
    m = candidates
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        suit = led[i]
        st = STRENGTH[trump][suit]
        suit_tiles = SUIT_MASK[trump][suit]
        beaten_by = sum(
            1 for j in range(28) if outside >> j & 1 and suit_tiles >> j & 1 and st[j] > st[i]
        )
        held = (tiles8 & suit_tiles).bit_count()
        key = (-beaten_by, held, i)
        if best_key is None or key < best_key:
            best_key, best = key, i
    return best


def bidder_state(
    rules: RuleSet, deal: Sequence[int], bidder: int, trump: int, bid: int | None = None
) -> GameState:
    """The opening lead of a hand dealt ``deal`` (masks per seat, then the widow's index or
    -1) in which ``bidder`` bid and named ``trump``, the others passing (BID-3, BID-6).

    The bidder took the widow and discarded by :func:`discard_for` (WIDOW-1,
    WIDOW-2) and leads (LEAD-1). The same state as reached by :func:`apply` with
    those calls, discard and trump (checked in ``tests/test_advise.py``).
    """
    n = rules.players
    widow = deal[n]
    dealt = tuple(deal[:n])
    hands = list(dealt)
    discard = -1
    if widow >= 0:
        eight = hands[bidder] | 1 << widow
        discard = discard_for(eight, trump, rules)
        hands[bidder] = eight & ~(1 << discard)
    amount = rules.min_bid if bid is None else bid
    calls = (amount,) + (PASS,) * (n - 1)
    contract = Contract(1, bidder, dealt, widow, calls, bidder, amount, discard, trump, widow >= 0)
    hand = Hand(contract, tuple(hands), Phase.PLAY, bidder, (), (), (0,) * n)
    return GameState(Game(rules, 0, (0,) * rules.sides), hand)


def tricks_as_bidder(rules: RuleSet, deal: Sequence[int], bidder: int, trump: int) -> int:
    """The double-dummy tricks of ``bidder``'s side with ``trump`` from the opening lead."""
    return solve(bidder_state(rules, deal, bidder, trump), SolverCache(1 << 16))


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


# ---------------------------------------------------------------------------
# The result


@attrs.frozen(slots=True, field_transformer=typed)
class BidAdvice:
    """One bid under one trump: the chance it is made and the bidder's expected score."""

    bid: int
    p_make: float
    """The share of samples in which the bidder's side takes the bid (7 for 21, SCORE-1)."""
    ci: tuple[float, float]
    """The 95% Wilson interval of ``p_make``."""
    expected_score: float
    """Mean score change of the bid (see :func:`advise`)."""


@attrs.frozen(slots=True, field_transformer=typed)
class TrumpAdvice:
    """The double-dummy statistics of one trump."""

    trump: Trump
    samples: int
    counts: tuple[int, ...]
    """``counts[k]``: the samples in which the bidder's side took exactly ``k`` tricks (0-7)."""
    mean: float
    bids: tuple[BidAdvice, ...]
    """One per bid still open to the seat (:attr:`Advice.bids`), lowest first."""

    def p_at_least(self, k: int) -> float:
        """The share of samples with at least ``k`` tricks."""
        return sum(self.counts[k:]) / self.samples if self.samples else 0.0

    def bid(self, amount: int) -> BidAdvice:
        """The statistics of the bid ``amount``."""
        for b in self.bids:
            if b.bid == amount:
                return b
        raise KeyError(amount)


@attrs.frozen(slots=True, field_transformer=typed)
class Choice:
    """The call with the best expected score: a bid and trump, or a pass (``bid`` 0)."""

    bid: int
    trump: Trump | None
    expected_score: float


@attrs.frozen(slots=True, field_transformer=typed)
class Advice:
    """What :func:`advise` found for one hand."""

    hand: tuple[Tile, ...]
    rules: RuleSet
    calls: tuple[int, ...]
    seed: int
    bids: tuple[int, ...]
    """The bids open to the seat after ``calls`` (BID-3, BID-4)."""
    may_pass: bool
    """Whether the seat may pass (not under BID-8 when all before have passed)."""
    trumps: tuple[TrumpAdvice, ...]
    best: Choice

    def trump(self, trump: Trump) -> TrumpAdvice:
        """The statistics of one trump."""
        for t in self.trumps:
            if t.trump is trump:
                return t
        raise KeyError(trump)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dictionary (the ``--json`` output of ``moonrules advise``)."""
        return {
            "hand": [str(t) for t in self.hand],
            "rules": self.rules.name or self.rules.to_json(),
            "calls": ["pass" if c == PASS else c for c in self.calls],
            "seed": self.seed,
            "bids": list(self.bids),
            "may_pass": self.may_pass,
            "trumps": [
                {
                    "trump": t.trump.to_json(),
                    "samples": t.samples,
                    "counts": list(t.counts),
                    "mean": t.mean,
                    "bids": [
                        {
                            "bid": b.bid,
                            "p_make": b.p_make,
                            "ci": list(b.ci),
                            "expected_score": b.expected_score,
                        }
                        for b in t.bids
                    ],
                }
                for t in self.trumps
            ],
            "best": {
                "call": "pass" if self.best.bid == PASS else self.best.bid,
                "trump": None if self.best.trump is None else self.best.trump.to_json(),
                "expected_score": self.best.expected_score,
            },
        }


# ---------------------------------------------------------------------------
# The computation


def _solve_batch(
    rules: RuleSet, hand: int, seed: int, trumps: tuple[int, ...], ks: tuple[int, ...]
) -> list[tuple[int, ...]]:
    """For each sample ``k`` of ``ks``: the bidder's tricks under each of ``trumps``."""
    out = []
    for k in ks:
        deal = sample_deal(rules, hand, seed, k)
        out.append(tuple(tricks_as_bidder(rules, deal, 0, t) for t in trumps))
    return out


def _bid_score(rules: RuleSet, bid: int, tricks: int) -> int:
    """The bidder's score change for ``bid`` with ``tricks`` (SCORE-1 … SCORE-6): points won or
    lost; under marks, the bidder's mark less each other side's (+1 made, -1 set)."""
    n = rules.players
    per_seat = [tricks] + [0] * (n - 1)
    if rules.partnership:
        per_seat = [tricks, 7 - tricks, 0, 0]
    else:
        per_seat[1] = 7 - tricks
    deltas = score_hand(rules, 0, bid, per_seat).deltas
    if rules.scoring is Scoring.MARKS:
        return 1 if deltas[0] else -1
    return deltas[0]


def _needs_more(counts: list[int], n: int, bids: tuple[int, ...], half_width: float) -> bool:
    for b in bids:
        need = 7 if b == MOON else b
        lo, hi = wilson(sum(counts[need:]), n)
        if (hi - lo) / 2 > half_width:
            return True
    return False


def advise(
    hand: Sequence[Tile],
    rules: RuleSet | str | None = None,
    *,
    calls: Sequence[int] = (),
    trumps: Sequence[Trump] | None = None,
    samples: int = 384,
    min_samples: int = 48,
    half_width: float = 0.05,
    seed: int = 0,
    workers: int = 1,
    batch: int = 24,
    progress: Callable[[int, int], None] | None = None,
) -> Advice:
    """Double-dummy bidding statistics for a seat holding ``hand``.

    ``calls``: the auction so far from the first bidder (0 = pass); the seat is
    the next to call, and only the bids it may still make count (BID-3, BID-4).
    ``trumps``: default every trump the rule set offers (TRUMP-5).

    Samples are taken in batches of ``batch``; a trump stops once it has at
    least ``min_samples`` and the 95% interval of the chance of making each bid
    is no wider than ``±half_width``, or at ``samples``. Sample ``k`` is the same
    deal of the unseen tiles for every trump (:func:`sample_deal`), and the
    result depends only on the arguments, not on ``workers`` (how many
    processes solve batches in parallel; 1 solves them in this process).

    The expected score of a bid is the mean over the samples of the bidder's
    score change (SCORE-2, SCORE-4: the bid won or lost; 21 counts as 21 points;
    under marks, +1 made and -1 set). The best choice is the bid and trump with
    the highest expected score, or a pass (worth 0) when none is positive and
    the seat may pass.

    ``progress``, if given, is called after each batch with the samples solved so far
    (over every trump) and the most there can be (``samples`` per trump).
    """
    check_arguments(advise, locals())
    r = as_rules(rules)
    tiles_, calls_, chosen = _checked(hand, calls, trumps, samples, min_samples, half_width)
    check_seed(seed)
    for value, name in ((workers, "workers"), (batch, "batch")):
        if type(value) is not int:
            raise wrong_type(name, "a whole number", value)
    mask = check_hand(tiles_, r)
    auction = Auction(calls_, 0, r)
    if auction.is_over:
        raise AdviceError(f"calls: the auction is over after {len(calls_)} calls; no call is left")
    from moonrules.rules.auction import check_call

    for j, c in enumerate(calls_):
        try:
            check_call(Auction(calls_[:j], 0, r), c)
        except MoonError as e:
            raise AdviceError(f"calls: call {j + 1} of the auction so far: {e}") from None
    open_calls = legal_calls(auction)
    bids = tuple(c for c in open_calls if c != PASS)
    may_pass = PASS in open_calls
    offered = r.trumps
    chosen = offered if chosen is None else chosen
    for t in chosen:
        if t not in offered:
            names = ", ".join(str(o) for o in offered)
            raise AdviceError(
                f"trumps: these rules do not offer {t} as trump (TRUMP-5); they offer {names}"
            )
    for value, name in ((samples, "samples"), (min_samples, "min_samples"), (batch, "batch")):
        if value < 1:
            raise AdviceError(f"{name}: the numbers of samples must be at least 1, not {value}")
    if not 0 < half_width < 1:
        raise AdviceError(f"half_width: a chance between 0 and 1, not {half_width!r}")
    if workers < 1:
        raise AdviceError(f"workers must be at least 1, not {workers}")
    pool_cm = ProcessPoolExecutor(workers) if workers > 1 else contextlib.nullcontext()
    with pool_cm as pool:
        return _advise(
            r,
            tiles_,
            mask,
            calls_,
            bids,
            may_pass,
            chosen,
            samples,
            min_samples,
            half_width,
            seed,
            pool,
            workers,
            batch,
            progress,
        )


def _checked(
    hand: object,
    calls: object,
    trumps: object,
    samples: object,
    min_samples: object,
    half_width: object,
) -> tuple[tuple[Tile, ...], tuple[int, ...], tuple[Trump, ...] | None]:
    """:func:`advise`'s arguments of the wrong type refused by name (a ``TypeError``), and a
    hand holding a tile twice (an ``AdviceError``)."""
    try:
        tiles_ = check_tiles(hand, "hand")
    except ArgumentError as e:
        raise AdviceError(str(e)) from None
    if isinstance(calls, (str, bytes)) or not isinstance(calls, Sequence):
        raise wrong_type("calls", "a sequence of calls (0 is a pass)", calls)
    for i, c in enumerate(calls):
        if type(c) is not int:
            raise wrong_type(f"calls[{i}]", "a call: 0 (pass) or a bid", c)
    chosen = None
    if trumps is not None:
        if isinstance(trumps, (str, bytes)) or not isinstance(trumps, Sequence):
            raise wrong_type("trumps", "a sequence of Trump values or None", trumps)
        for i, t in enumerate(trumps):
            if type(t) is not Trump:
                raise wrong_type(f"trumps[{i}]", "a Trump", t)
        chosen = tuple(trumps)
    for value, name in ((samples, "samples"), (min_samples, "min_samples")):
        if type(value) is not int:
            raise wrong_type(name, "a whole number of samples", value)
    if type(half_width) not in (int, float):
        raise wrong_type("half_width", "a number between 0 and 1", half_width)
    return tiles_, tuple(calls), chosen


def _advise(
    r: RuleSet,
    tiles_: tuple[Tile, ...],
    mask: int,
    calls_: tuple[int, ...],
    bids: tuple[int, ...],
    may_pass: bool,
    chosen: tuple[Trump, ...],
    samples: int,
    min_samples: int,
    half_width: float,
    seed: int,
    executor: Executor | None,
    workers: int,
    batch: int,
    progress: Callable[[int, int], None] | None,
) -> Advice:
    min_samples = min(min_samples, samples)
    values = tuple(t.value for t in chosen)
    counts = {t: [0] * 8 for t in values}
    done = {t: 0 for t in values}
    active = list(values)
    ahead = 1 if executor is None else 2 * workers
    # Batches are folded in strictly in order and a trump stops by the counts alone,
    # so the result is the same whatever solved them; with an executor, up to
    # ``ahead`` batches are solved ahead (for the trumps sampling when submitted).
    pending: deque[tuple[int, tuple[int, ...], Future[list[tuple[int, ...]]]]] = deque()
    k = 0
    while active:
        while len(pending) < ahead and k < samples:
            ks = tuple(range(k, min(k + batch, samples)))
            ts = tuple(active)
            fut: Future[list[tuple[int, ...]]]
            if executor is None:
                fut = Future()
                fut.set_result(_solve_batch(r, mask, seed, ts, ks))
            else:
                fut = executor.submit(_solve_batch, r, mask, seed, ts, ks)
            pending.append((k, ts, fut))
            k = ks[-1] + 1
        if not pending:
            break
        first, ts, fut = pending.popleft()
        rows = fut.result()
        for j, t in enumerate(ts):
            if t not in active or done[t] != first:
                continue
            c = counts[t]
            for row in rows:
                c[row[j]] += 1
            done[t] += len(rows)
        if progress is not None:
            progress(sum(done.values()), samples * len(values))
        active = [
            t
            for t in active
            if done[t] < samples
            and (done[t] < min_samples or _needs_more(counts[t], done[t], bids, half_width))
        ]
    for fut in (p[2] for p in pending):
        fut.cancel()
    by_trump = []
    for trump in chosen:
        c = counts[trump.value]
        n = done[trump.value]
        mean = sum(i * c[i] for i in range(8)) / n
        advice = []
        for b in bids:  # only the bids still open: a closed one is no choice (BID-3)
            need = 7 if b == MOON else b
            made = sum(c[need:])
            expected = sum(c[i] * _bid_score(r, b, i) for i in range(8)) / n
            advice.append(BidAdvice(b, made / n, wilson(made, n), expected))
        by_trump.append(TrumpAdvice(trump, n, tuple(c), mean, tuple(advice)))
    best = Choice(PASS, None, 0.0) if may_pass else None
    for ta in by_trump:
        for ba in ta.bids:
            if best is None or ba.expected_score > best.expected_score:
                best = Choice(ba.bid, ta.trump, ba.expected_score)
    assert best is not None
    return Advice(tiles_, r, calls_, seed, bids, may_pass, tuple(by_trump), best)


def hand_text(mask: int) -> str:
    """A mask's tiles, highest first, as text."""
    return " ".join(str(t) for t in reversed(tiles_of(mask)))
