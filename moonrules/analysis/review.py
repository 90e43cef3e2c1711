"""Reviewing a game: every call, discard, trump and tile graded against the alternatives.

:func:`review` walks a game (a record read by :func:`moonrules.read_record`, or any
:class:`~moonrules.game.GameState`) hand by hand and, at each decision a seat had a choice
about (a forced action, one legal choice, is no decision), values every legal alternative
two ways:

* **double dummy**: the tricks the deciding seat's side takes in the whole hand (those
  already won and the rest) when everyone then plays perfectly with every tile in view
  (:func:`~moonrules.analysis.solver.solve`), and the points the hand then scores for
  that side;
* **single dummy**: the mean of those points over ``samples`` deals of the hidden tiles
  consistent with what the seat could see at that moment (a :data:`Worlds` sampler; by
  default every consistent deal alike), each finished double dummy, with its standard
  error.

The *points* of a side are its score change for the hand (SCORE-1 … SCORE-6). The
defenders are valued together, as the solver plays them (they share the aim of holding
the bidder's side to fewest tricks): in three-player games a defender's points are the
two defenders' points added up, so a defender's double-dummy ``tricks`` are the tricks
the bidder's side does not take. After a call, the rest of the auction is the record's
(a later call that is no longer legal becomes a pass, or the lowest bid when a pass is
not allowed, BID-8); the bidder then discards by :func:`~moonrules.analysis.advise.discard_for`
and names, in each deal, the trump that takes most tricks for it of the :data:`TRUMPS` it
holds most tiles of (a double-dummy choice: a call's values lean to the bidder).
After a discard or a trump, the bidder's next choice of the two is the best for it over
the deals.

The **loss** of a decision is the best alternative's single-dummy points less the chosen
one's (double-dummy points when ``samples`` is 0). Its **noise** is the standard error of
that difference, paired over the same deals. A loss gets a **mark** when it is at least
:data:`NOISE_Z` times its noise and at least a threshold of expected points:
:data:`INACCURACY` (``?!``), :data:`MISTAKE` (``?``), :data:`BLUNDER` (``??``). A
player's **accuracy** is the mean over its decisions of
``(chosen - worst) / (best - worst)`` by the same values, as a percentage; decisions whose
alternatives are all worth the same are left out of it.

In the sampled deals the solver is asked only what the points need
(:mod:`moonrules.analysis.probe`): whether the contract is made, where the points of the
side valued depend on nothing more (the bidder's side, or marks scoring), the exact tricks
only for a defender; the values are those full solves give.

Each decision draws its deals from a :class:`random.Random` seeded with the text
``moonrules/review/{seed}/{hand}/{index}``, so a review depends only on its arguments,
never on ``jobs`` (how many processes share the decisions).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Final, TypeAlias

import attrs

from moonrules.analysis.advise import bidder_state
from moonrules.analysis.probe import Tricks, most_tricks, play_reaches, play_tricks
from moonrules.analysis.solver import SolverCache, solve
from moonrules.game import Action, Bid, Discard, GameState, NameTrump, Pass, Phase, Play
from moonrules.game.deal import check_seed
from moonrules.game.knowledge import knowledge
from moonrules.game.play import apply, legal_actions
from moonrules.game.sampling import Sampler
from moonrules.game.state import Contract, Game, Hand
from moonrules.game.views import PlayerView, view
from moonrules.game.worlds import world
from moonrules.kernel.tables import SUIT_MASK
from moonrules.rules.auction import MOON, PASS, Auction, legal_calls
from moonrules.rules.contract import typed
from moonrules.rules.errors import ArgumentError, MoonError, wrong_type
from moonrules.rules.ruleset import RuleSet, Scoring
from moonrules.rules.scoring import score_hand
from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import TILES

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "NOISE_Z",
    "SAMPLES",
    "TRUMPS",
    "Alternative",
    "CallChance",
    "Decision",
    "HandReview",
    "PlayerReview",
    "Review",
    "ReviewError",
    "Worlds",
    "action_json",
    "likely_trumps",
    "mark_for",
    "review",
    "review_json",
    "uniform_worlds",
]

SAMPLES: Final = 16
"""The default number of deals each decision is valued over (single dummy)."""
INACCURACY: Final = 0.3
"""Expected points lost from which a decision is marked ``?!``."""
MISTAKE: Final = 0.6
"""Expected points lost from which a decision is marked ``?``."""
BLUNDER: Final = 1.0
"""Expected points lost from which a decision is marked ``??`` (a sure trick thrown away
by a defender costs 1 point; by a bidder, when it sets the contract, twice the bid)."""
NOISE_Z: Final = 2.0
"""A loss below this many standard errors of the paired difference is within the noise."""

TRUMPS: Final = 3
"""After a call, the bidder's trump is the best for it double dummy in each deal among the
``TRUMPS`` it holds most tiles of (:func:`likely_trumps`)."""
PROBE: Final = 8
"""Where the bidder has further choices after a decision (the trump after a call or a
discard, the discard after a trump), they are all valued over the first ``PROBE`` deals;
over the rest only the :data:`KEEP` best for the bidder over those (and any tied)."""
KEEP: Final = 2
"""How many of the bidder's further choices are kept past the first :data:`PROBE` deals."""

MARKS: Final = ("?!", "?", "??")

Worlds: TypeAlias = Callable[[PlayerView, random.Random, int], "list[GameState]"]
"""Draws ``count`` whole game states the seat of the view cannot tell from the real one."""


class ReviewError(MoonError, ValueError):
    """A review cannot be made of what was given (a one-line reason)."""


def uniform_worlds(v: PlayerView, rng: random.Random, count: int) -> list[GameState]:
    """``count`` states at ``v``'s position, every deal consistent with ``v`` alike."""
    know = knowledge(v)
    sampler = Sampler(know)
    return [world(v, know, *sampler.draw(rng)) for _ in range(count)]


# ---------------------------------------------------------------------------
# The values


@attrs.frozen(slots=True, field_transformer=typed)
class Alternative:
    """One legal action at a decision and what it is worth to the deciding side."""

    action: Action
    dd_tricks: int
    """Tricks of the deciding side in the whole hand, double dummy."""
    dd_points: int
    """What the hand then scores for the deciding side, double dummy."""
    sd_points: float | None
    """Mean points over the deals consistent with the seat's view (``None``: no samples)."""
    sd_se: float | None
    """The standard error of ``sd_points``."""


@attrs.frozen(slots=True, field_transformer=typed)
class CallChance:
    """Bidding advice at a call: the chance that ``bid`` is made with ``trump``."""

    bid: int
    trump: Trump
    p_make: float


@attrs.frozen(slots=True, field_transformer=typed)
class Decision:
    """One decision of one seat, its alternatives (legal order) and the verdict."""

    hand: int
    index: int
    """The action's place in the hand, from 0 (forced actions count)."""
    seat: int
    kind: str
    """``"call"``, ``"discard"``, ``"trump"`` or ``"play"``."""
    trick: int | None
    """The trick (from 1) of a play."""
    chosen: Action
    alternatives: tuple[Alternative, ...]
    loss: float
    noise: float
    """The standard error of the loss (0 without samples)."""
    mark: str | None
    accuracy: float | None
    """``(chosen - worst) / (best - worst)``, or ``None`` when every alternative is worth
    the same."""
    advice: tuple[CallChance, ...] = ()

    @property
    def chosen_alternative(self) -> Alternative:
        return next(a for a in self.alternatives if a.action == self.chosen)


@attrs.frozen(slots=True, field_transformer=typed)
class HandReview:
    """The review of one hand: the hand as played and its decisions in order."""

    number: int
    hand: Hand
    decisions: tuple[Decision, ...]


@attrs.frozen(slots=True, field_transformer=typed)
class PlayerReview:
    """One player's summary."""

    seat: int
    decisions: int
    marks: tuple[int, int, int]
    """How many ``?!``, ``?`` and ``??``."""
    points_lost: float
    accuracy: float | None
    """The mean of the decisions' accuracies, in percent."""


@attrs.frozen(slots=True, field_transformer=typed)
class Review:
    """What :func:`review` found."""

    rules: RuleSet
    samples: int
    seed: int
    seat: int | None
    hands: tuple[HandReview, ...]
    players: tuple[PlayerReview, ...]


def mark_for(loss: float, noise: float) -> str | None:
    """The mark of a loss of ``loss`` expected points with standard error ``noise``."""
    if loss <= 0 or loss < NOISE_Z * noise:
        return None
    if loss >= BLUNDER:
        return "??"
    if loss >= MISTAKE:
        return "?"
    if loss >= INACCURACY:
        return "?!"
    return None


def action_json(action: Action) -> int | str:
    """An action as records write it: ``"pass"``, a bid, ``"6-4"``, a trump."""
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Bid):
        return action.amount
    if isinstance(action, NameTrump):
        return action.trump.to_json()
    if isinstance(action, (Play, Discard)):
        return str(action.tile)
    raise TypeError(f"{action!r} is not an action")  # pragma: no cover


# ---------------------------------------------------------------------------
# Points


def _points(rules: RuleSet, seat: int, bidder: int, bid: int, tricks: int) -> int:
    """The hand's points for ``seat``'s side when the bidder's side takes ``tricks``."""
    if bidder < 0:
        return 0
    won = [0] * rules.players
    won[bidder] = tricks
    other = next(s for s in range(rules.players) if rules.side_of(s) != rules.side_of(bidder))
    won[other] = 7 - tricks
    deltas = score_hand(rules, bidder, bid, won).deltas
    mine = rules.side_of(seat)
    if mine == rules.side_of(bidder):
        return deltas[mine]
    return sum(d for s, d in enumerate(deltas) if s != rules.side_of(bidder))


def _side_tricks(rules: RuleSet, seat: int, bidder: int, tricks: int) -> int:
    return tricks if rules.side_of(seat) == rules.side_of(bidder) else 7 - tricks


# ---------------------------------------------------------------------------
# Valuing one decision in one deal: the bidder's side's tricks for each alternative,
# as a table of the bidder's further choices (discard or trump) where it has any.


Paths: TypeAlias = dict[tuple[Action, ...], int]
"""The bidder side's tricks for each way the bidder may go on to the play."""

Table: TypeAlias = dict[tuple[Action, ...], tuple[int, int, int]]
"""For each way the bidder goes on: the deciding side's tricks and points, the bidder's
points. In a sampled deal (not ``exact``), where the points depend only on whether the
contract is made, the tricks are only a count that makes it or not (``_made``)."""

Memo: TypeAlias = dict[tuple[int, Trump], Tricks]
"""In one deal, at a call: the bidder's side's tricks for a bidder and a trump, as far as
they were asked (:class:`~moonrules.analysis.probe.Tricks`)."""


def _need(bid: int) -> int:
    """The tricks that make a bid (SCORE-1)."""
    return 7 if bid == MOON else bid


def _made_only(rules: RuleSet, seat: int, bidder: int) -> bool:
    """Whether ``seat``'s points for the hand depend only on whether the bidder's contract
    is made: on the bidder's side (SCORE-2), or under marks (SCORE-6); a defender scores
    its tricks (SCORE-3)."""
    return rules.scoring is Scoring.MARKS or rules.side_of(seat) == rules.side_of(bidder)


def _made(bid: int, made: bool) -> int:
    """A count of tricks that makes ``bid`` or not, as ``made`` says."""
    return _need(bid) if made else _need(bid) - 1


def _paths(
    state: GameState,
    cache: SolverCache,
    keep: frozenset[tuple[Action, ...]] | None = None,
    exact: bool = True,
) -> Paths:
    """The bidder side's tricks for each way on to the play (only ``keep``'s, if given);
    not ``exact``: only whether they make the contract (``_made``)."""
    if state.phase is Phase.PLAY:
        if exact:
            return {(): solve(state, cache)}
        bid = state.hand.bid
        return {(): _made(bid, Tricks(state, cache).at_least(_need(bid)))}
    out: Paths = {}
    for a in legal_actions(state):
        sub = None if keep is None else frozenset(p[1:] for p in keep if p[0] == a)
        if sub is not None and not sub:
            continue
        for rest, t in _paths(apply(state, a), cache, sub, exact).items():
            out[(a, *rest)] = t
    return out


def _continue_auction(state: GameState, calls: tuple[int, ...], call: int) -> tuple[int, int]:
    """The bidder (-1: thrown in) and bid after ``call``, the record's later ``calls``
    following (see the module's text)."""
    h = state.hand
    rules = state.rules
    auction = Auction((*h.calls, call), h.first_bidder, rules)
    for c in calls[len(h.calls) + 1 :]:
        if auction.is_over:
            break
        legal = legal_calls(auction)
        auction = auction.call(c if c in legal else (PASS if PASS in legal else min(legal)))
    while not auction.is_over:
        legal = legal_calls(auction)
        auction = auction.call(PASS if PASS in legal else min(legal))
    winner = auction.winner
    return (-1, 0) if winner is None else (winner, auction.high_bid)


@attrs.frozen(slots=True)
class _Task:
    """One decision to value: its state, the calls of the whole auction, the choice made."""

    hand: int
    index: int
    state: GameState
    calls: tuple[int, ...]
    chosen: Action
    trick: int | None


def _kind(phase: Phase) -> str:
    return {
        Phase.BIDDING: "call",
        Phase.DISCARD: "discard",
        Phase.TRUMP: "trump",
        Phase.PLAY: "play",
    }[phase]


def _entry(rules: RuleSet, seat: int, bidder: int, bid: int, tricks: int) -> tuple[int, int, int]:
    if bidder < 0:
        return (0, 0, 0)
    return (
        _side_tricks(rules, seat, bidder, tricks),
        _points(rules, seat, bidder, bid, tricks),
        _points(rules, bidder, bidder, bid, tricks),
    )


def _as_bidder(memo: Memo, rules: RuleSet, deal: tuple[int, ...], bidder: int, t: Trump) -> Tricks:
    """The tricks of ``bidder`` in ``deal`` with trump ``t`` from the opening lead, as
    :func:`~moonrules.analysis.advise.tricks_as_bidder` counts them (remembered in ``memo``)."""
    known = memo.get((bidder, t))
    if known is None:
        known = memo[(bidder, t)] = Tricks(bidder_state(rules, deal, bidder, t.value))
    return known


def _values(
    deal_state: GameState,
    alts: Sequence[Action],
    contracts: Sequence[tuple[int, int]],
    seat: int,
    cache: SolverCache,
    memo: Memo | None = None,
    keep: Sequence[frozenset[tuple[Action, ...]]] | None = None,
    exact: bool = True,
) -> list[Table]:
    """For each alternative in the deal of ``deal_state``, its :data:`Table`. In the
    auction, ``memo`` keeps each bidder's tricks by trump in this deal. Not ``exact`` (a
    sampled deal): where the points depend only on whether the contract is made, only
    that is asked of the solver (one probe instead of a solve, :mod:`moonrules.analysis.probe`)."""
    rules = deal_state.rules
    h = deal_state.hand
    phase = deal_state.phase
    if phase is Phase.PLAY:
        if not exact and _made_only(rules, seat, h.bidder):
            reach = play_reaches(deal_state, _need(h.bid), cache)
            vals = {tile: _made(h.bid, made) for tile, made in reach.items()}
        else:
            vals = play_tricks(deal_state, cache)
        return [
            {(): _entry(rules, seat, h.bidder, h.bid, vals[a.tile])}
            for a in alts
            if isinstance(a, Play)
        ]
    if phase is Phase.BIDDING:
        deal = (*h.deal, h.widow)
        if memo is None:
            memo = {}
        out: list[Table] = []
        for bidder, bid in contracts:
            if bidder < 0:
                out.append({(): (0, 0, 0)})
                continue
            held = h.deal[bidder] | (1 << h.widow if h.widow >= 0 else 0)
            ways = [_as_bidder(memo, rules, deal, bidder, t) for t in likely_trumps(rules, held)]
            if exact or not _made_only(rules, seat, bidder):
                best = most_tricks(ways)
            else:
                best = _made(bid, any(w.at_least(_need(bid)) for w in ways))
            out.append({(): _entry(rules, seat, bidder, bid, best)})
        return out
    if not exact:
        assert h.bidder == seat  # the bidder discards and names trump: its points are made-only
    return [
        {
            p: _entry(rules, seat, h.bidder, h.bid, n)
            for p, n in _paths(
                apply(deal_state, a), cache, None if keep is None else keep[k], exact
            ).items()
        }
        for k, a in enumerate(alts)
    ]


def likely_trumps(rules: RuleSet, held: int) -> tuple[Trump, ...]:
    """The :data:`TRUMPS` trumps a bidder holding ``held`` (a mask) has most tiles of (the
    rules' order breaks ties): those weighed when a call is valued."""
    ranked = sorted(
        rules.trumps, key=lambda t: -(held & SUIT_MASK[t.value][TRUMP_SUIT]).bit_count()
    )
    return tuple(ranked[:TRUMPS])


def _kept(column: Sequence[Table]) -> frozenset[tuple[Action, ...]]:
    """The bidder's :data:`KEEP` best ways on over the first deals (ties kept)."""
    paths = list(column[0])
    if len(paths) <= KEEP:
        return frozenset(paths)
    means = {p: sum(c[p][2] for c in column) for p in paths}
    cut = sorted(means.values(), reverse=True)[KEEP - 1]
    return frozenset(p for p in paths if means[p] >= cut)


def _bidder_path(column: Sequence[Table]) -> tuple[Action, ...]:
    """The way the bidder goes on: the best mean points for it over the deals (the first
    such in legal order)."""
    paths = list(column[0])
    return max(paths, key=lambda p: (sum(c[p][2] for c in column), -paths.index(p)))


def _evaluate(task: _Task, samples: int, seed: int, worlds: Worlds) -> Decision:
    state = task.state
    seat = state.to_act
    assert seat is not None
    alts = legal_actions(state)
    contracts: list[tuple[int, int]] = []
    if state.phase is Phase.BIDDING:
        contracts = [
            _continue_auction(state, task.calls, a.amount if isinstance(a, Bid) else PASS)
            for a in alts
        ]
    cache = SolverCache(1 << 16)
    real = _values(state, alts, contracts, seat, cache)
    dd = [table[_bidder_path([table])] for table in real]
    sd: list[tuple[float, float]] | None = None
    per_deal: list[list[int]] = []
    advice: tuple[CallChance, ...] = ()
    if samples > 0:
        rng = random.Random(f"moonrules/review/{seed}/{task.hand}/{task.index}")
        deals = worlds(view(state, seat), rng, samples)
        memos: list[Memo] = [{} for _ in deals]
        first = min(PROBE, len(deals))
        tables = [
            _values(w, alts, contracts, seat, cache, m, exact=False)
            for w, m in zip(deals[:first], memos[:first], strict=True)
        ]
        keep = [_kept([t[k] for t in tables]) for k in range(len(alts))]
        tables += [
            _values(w, alts, contracts, seat, cache, m, keep, exact=False)
            for w, m in zip(deals[first:], memos[first:], strict=True)
        ]
        tables = [[{p: t[k][p] for p in keep[k]} for k in range(len(alts))] for t in tables]
        if state.phase is Phase.BIDDING:
            advice = _chances(state, seat, alts, deals, memos)
        sd = []
        for k in range(len(alts)):
            column = [t[k] for t in tables]
            p = _bidder_path(column)
            pts = [c[p][1] for c in column]
            per_deal.append(pts)
            sd.append((sum(pts) / len(pts), _se(pts)))
    values = [m for m, _ in sd] if sd is not None else [float(e[1]) for e in dd]
    chosen = alts.index(task.chosen)
    best = max(range(len(alts)), key=lambda k: (values[k], -k))
    loss = values[best] - values[chosen]
    noise = 0.0
    if sd is not None and best != chosen:
        diffs = [b - c for b, c in zip(per_deal[best], per_deal[chosen], strict=True)]
        noise = _se(diffs)
    worst = min(values)
    accuracy = None if values[best] == worst else (values[chosen] - worst) / (values[best] - worst)
    return Decision(
        task.hand,
        task.index,
        seat,
        _kind(state.phase),
        task.trick,
        task.chosen,
        tuple(
            Alternative(
                a,
                dd[k][0],
                dd[k][1],
                None if sd is None else round(sd[k][0], 6),
                None if sd is None else round(sd[k][1], 6),
            )
            for k, a in enumerate(alts)
        ),
        round(max(loss, 0.0), 6),
        round(noise, 6),
        mark_for(loss, noise),
        None if accuracy is None else round(accuracy, 6),
        advice,
    )


def _se(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return math.sqrt(var / n)


def _settle(tricks: Tricks, needs: Sequence[int]) -> None:
    """Learn whether ``tricks`` reaches each of ``needs`` (ascending) by a binary search:
    each answer settles the needs on one side of it too."""
    if needs:
        mid = len(needs) // 2
        if tricks.at_least(needs[mid]):
            _settle(tricks, needs[mid + 1 :])
        else:
            _settle(tricks, needs[:mid])


def _chances(
    state: GameState,
    seat: int,
    alts: Sequence[Action],
    deals: Sequence[GameState],
    memos: Sequence[Memo],
) -> tuple[CallChance, ...]:
    """Bidding advice at a call: over the review's deals, the share in which the seat,
    bidding and naming each of its :func:`likely_trumps`, takes each bid it may make (as
    :func:`~moonrules.analysis.advise.advise` counts, its discard by ``discard_for``)."""
    rules = state.rules
    bids = [a.amount for a in alts if isinstance(a, Bid)]
    if not bids:
        return ()
    trumps = likely_trumps(rules, state.hand.hands[seat])
    needs = sorted({_need(b) for b in bids})
    made = {(t, b): 0 for t in trumps for b in bids}
    for w, memo in zip(deals, memos, strict=True):
        deal = (*w.hand.deal, w.hand.widow)
        for t in trumps:
            tricks = _as_bidder(memo, rules, deal, seat, t)
            _settle(tricks, needs)
            for b in bids:
                made[(t, b)] += tricks.at_least(_need(b))
    n = len(deals)
    return tuple(CallChance(b, t, round(made[(t, b)] / n, 6)) for t in trumps for b in bids)


# ---------------------------------------------------------------------------
# Walking the game


def _hands_of(state: GameState) -> list[Hand]:
    hands = list(state.history)
    if state.hand.calls or state.phase is not Phase.BIDDING:
        hands.append(state.hand)
    return hands


def _start(rules: RuleSet, seed: int, h: Hand) -> GameState:
    c = h.contract
    contract = Contract(c.number, c.first_bidder, c.deal, c.widow)
    hand = Hand(contract, c.deal, Phase.BIDDING, -1, (), (), (0,) * rules.players)
    return GameState(Game(rules, seed, (0,) * rules.sides), hand)


def _recorded(state: GameState, h: Hand) -> Action | None:
    """The action the record took next in hand ``h`` from ``state`` (``None``: none)."""
    cur = state.hand
    phase = cur.phase
    if phase is Phase.BIDDING:
        k = len(cur.calls)
        if k >= len(h.calls):
            return None
        c = h.calls[k]
        return Pass() if c == PASS else Bid(c)
    if phase is Phase.DISCARD:
        return None if h.discard < 0 else Discard(TILES[h.discard])
    if phase is Phase.TRUMP:
        return None if h.trump < 0 else NameTrump(_trump(h.trump))
    if phase is Phase.PLAY:
        done = len(cur.tricks)
        if done < len(h.tricks):
            tiles = h.tricks[done].tiles
        elif done == len(h.tricks):
            tiles = tuple(TILES[i] for i in h.trick)
        else:  # pragma: no cover
            return None
        k = len(cur.trick)
        return Play(tiles[k]) if k < len(tiles) else None
    return None


def _trump(value: int) -> Trump:
    return next(t for t in Trump if t.value == value)


def _tasks(state: GameState, seat: int | None, hand: int | None) -> list[_Task]:
    rules = state.rules
    out: list[_Task] = []
    for h in _hands_of(state):
        if hand is not None and h.number != hand:
            continue
        s = _start(rules, state.seed, h)
        index = 0
        while s.hand.number == h.number and s.phase is not Phase.DONE:
            a = _recorded(s, h)
            if a is None:
                break
            legal = legal_actions(s)
            if a not in legal:  # a renege ends the review of the hand
                break
            if len(legal) > 1 and (seat is None or s.to_act == seat):
                trick = len(s.hand.tricks) + 1 if s.phase is Phase.PLAY else None
                out.append(_Task(h.number, index, s, h.calls, a, trick))
            s = apply(s, a)
            index += 1
    return out


def _cost(task: _Task) -> float:
    """A rough guess at a decision's relative cost, for sharing the work among processes:
    a trump or a discard solves each trump (or discard) in each deal, a call the likely
    trumps of one or two bidders, a play the tricks left after it."""
    phase = task.state.phase
    if phase is Phase.PLAY:
        return 1.0 + task.state.hand.hands[task.state.to_act or 0].bit_count() / 7
    return 8.0 if phase is Phase.BIDDING else 12.0


def _run(args: tuple[_Task, int, int, Worlds]) -> Decision:
    return _evaluate(*args)


def _check_arguments(
    state: GameState,
    seat: object,
    hand: object,
    samples: object,
    seed: object,
    jobs: object,
    worlds: object,
    progress: object,
) -> None:
    """:func:`review`'s arguments: a :class:`TypeError` or :class:`ArgumentError` naming the
    first that is wrong."""
    for value, name in ((samples, "samples"), (jobs, "jobs")):
        if type(value) is not int:
            raise wrong_type(name, "a whole number", value)
    check_seed(seed)
    for value, name in ((seat, "seat"), (hand, "hand")):
        if value is not None and type(value) is not int:
            raise wrong_type(name, f"a {name} number or None", value)
    for function, name in ((worlds, "worlds"), (progress, "progress")):
        if function is not None and not callable(function):
            raise wrong_type(name, "a function or None", function)
    assert isinstance(samples, int) and isinstance(jobs, int)
    if samples < 0:
        raise ArgumentError(f"samples: a number of deals, 0 or more, not {samples}")
    if jobs < 1:
        raise ArgumentError(f"jobs: at least 1, not {jobs}")
    players = state.rules.players
    if seat is not None and not 0 <= seat < players:  # type: ignore[operator]
        raise ArgumentError(f"seat: a seat from 0 to {players - 1}, not {seat!r}")
    numbers = [h.number for h in _hands_of(state)]
    if hand is not None and hand not in numbers:
        raise ArgumentError(f"hand: the record has hands 1 to {len(numbers)}, not {hand!r}")


def review(
    record_or_state: GameState | str,
    *,
    seat: int | None = None,
    hand: int | None = None,
    samples: int = SAMPLES,
    seed: int = 0,
    jobs: int = 1,
    worlds: Worlds | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every decision of a game (see the module's text for what is computed).

    ``record_or_state``: a :class:`~moonrules.game.GameState` or a record's text (JSON or
    the notation). ``seat``: only that seat's decisions; ``hand``: only that hand (by its
    number). ``worlds``: the sampler of deals (default :func:`uniform_worlds`; the command
    line weighs the deals by the calls, :mod:`moonrules.bots.inference`). ``progress`` is
    called with the decisions done and their number.
    """
    if isinstance(record_or_state, str):
        from moonrules.records.reading import read_record

        state = read_record(record_or_state)
    elif isinstance(record_or_state, GameState):
        state = record_or_state
    else:
        raise wrong_type("record_or_state", "a GameState or a record's text", record_or_state)
    _check_arguments(state, seat, hand, samples, seed, jobs, worlds, progress)
    rules = state.rules
    draw = uniform_worlds if worlds is None else worlds
    tasks = _tasks(state, seat, hand)
    work = [(t, samples, seed, draw) for t in tasks]
    decisions: list[Decision] = []
    if jobs > 1 and len(work) > 1:
        # The dearest decisions first, so that no worker is left with one at the end
        # while the others wait (each decision's value does not depend on where it runs).
        order = sorted(range(len(work)), key=lambda k: (-_cost(tasks[k]), k))
        done: dict[int, Decision] = {}
        with ProcessPoolExecutor(min(jobs, len(work))) as pool:
            results = pool.map(_run, [work[k] for k in order], chunksize=1)
            for k, d in zip(order, results, strict=True):
                done[k] = d
                if progress is not None:
                    progress(len(done), len(work))
        decisions = [done[k] for k in range(len(work))]
    else:
        for w in work:
            decisions.append(_run(w))
            if progress is not None:
                progress(len(decisions), len(work))
    hands = tuple(
        HandReview(h.number, h, tuple(d for d in decisions if d.hand == h.number))
        for h in _hands_of(state)
        if hand is None or h.number == hand
    )
    players = tuple(
        _summary(s, decisions) for s in range(rules.players) if seat is None or s == seat
    )
    return Review(rules, samples, seed, seat, hands, players)


def _summary(seat: int, decisions: Sequence[Decision]) -> PlayerReview:
    mine = [d for d in decisions if d.seat == seat]
    marks = tuple(sum(1 for d in mine if d.mark == m) for m in MARKS)
    scored = [d.accuracy for d in mine if d.accuracy is not None]
    return PlayerReview(
        seat,
        len(mine),
        (marks[0], marks[1], marks[2]),
        round(sum(d.loss for d in mine), 6),
        None if not scored else round(100 * sum(scored) / len(scored), 2),
    )


def review_json(r: Review) -> dict[str, object]:
    """The review as JSON-ready data (``moonrules review --json``,
    ``spec/schema/cli/review.schema.json``)."""
    return {
        "rules": r.rules.name or r.rules.to_json(),
        "samples": r.samples,
        "seed": r.seed,
        "thresholds": {"?!": INACCURACY, "?": MISTAKE, "??": BLUNDER, "noise_z": NOISE_Z},
        "players": [
            {
                "seat": p.seat,
                "decisions": p.decisions,
                "marks": dict(zip(MARKS, p.marks, strict=True)),
                "points_lost": p.points_lost,
                "accuracy": p.accuracy,
            }
            for p in r.players
        ],
        "hands": [
            {"number": h.number, "decisions": [_decision_json(d) for d in h.decisions]}
            for h in r.hands
        ],
    }


def _decision_json(d: Decision) -> dict[str, object]:
    out: dict[str, object] = {"seat": d.seat, "kind": d.kind}
    if d.trick is not None:
        out["trick"] = d.trick
    out["chosen"] = action_json(d.chosen)
    out["alternatives"] = [
        {
            "action": action_json(a.action),
            "double_dummy": {"tricks": a.dd_tricks, "points": a.dd_points},
            "single_dummy": None if a.sd_points is None else {"points": a.sd_points, "se": a.sd_se},
        }
        for a in d.alternatives
    ]
    out["loss"] = d.loss
    out["noise"] = d.noise
    out["mark"] = d.mark
    out["accuracy"] = d.accuracy
    if d.kind == "call" and d.advice:
        out["advice"] = [
            {"bid": c.bid, "trump": c.trump.to_json(), "p_make": c.p_make} for c in d.advice
        ]
    return out
