"""Games and matches between bots.

:func:`play_game` plays one whole game, each seat's bot seeing only its view;
:func:`run_match` plays many, rotating the bots round the seats so that no bot
is favoured by position, on a pool of worker processes; :func:`summarize`
gives each bot's win rate and mean points per hand with 95% confidence
intervals, and its bids made and set and moons tried and made.

:func:`run_duplicate` plays a *duplicate* match instead: every deal (the first
hand of a game) is played once for each arrangement of the bots over the seats
(:func:`arrangements`), the same tiles each time, so that the luck of the deal
cancels; :func:`duplicate_summary` gives the paired difference in points per
hand between the bots with a 95% confidence interval, split into what each
scored as bidder and as defender.

Every game's deal and every bot's random generator are seeded from the
match's seed and the game's (deal's) number alone, so a match gives the same
results whatever the number of workers.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs

from moonrules.bots.base import Bot
from moonrules.bots.basic import BasicBot, RandomBot
from moonrules.bots.learned import LearnedBot
from moonrules.bots.pimc import PimcBot
from moonrules.bots.strong import StrongBot
from moonrules.game import Action, GameState, Phase, apply, legal_actions, new_game, view
from moonrules.rules.auction import MOON
from moonrules.rules.errors import MoonError, wrong_type
from moonrules.rules.ruleset import RuleSet, as_rules

__all__ = [
    "BOTS",
    "BotStats",
    "DuplicateBot",
    "DuplicateHand",
    "DuplicateSummary",
    "GameResult",
    "HandResult",
    "PairedDifference",
    "UnknownBot",
    "arrangements",
    "bot_by_name",
    "duplicate_summary",
    "interval_text",
    "mean_interval",
    "play_game",
    "run_duplicate",
    "run_match",
    "summarize",
]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "basic": BasicBot,
    "pimc": PimcBot,
    "strong": StrongBot,
    "learned": LearnedBot,
}
"""The bots shipped, by name."""


class UnknownBot(MoonError):
    """A bot name that is not one of :data:`BOTS`."""


def bot_by_name(name: str) -> Bot:
    """A new bot of the level called ``name`` (``random``, ``basic``, ``pimc``, ``strong`` or
    ``learned``)."""
    key = name.strip().lower() if isinstance(name, str) else name
    try:
        return BOTS[key]()
    except (KeyError, TypeError):
        raise UnknownBot(f"no bot is called {name!r}; known: {', '.join(BOTS)}") from None


@attrs.frozen(slots=True)
class HandResult:
    """One finished hand: the bidder (``-1`` when thrown in), the bid, made or not, and the
    score change of each seat (its side's change, in partnership rules)."""

    bidder: int
    bid: int
    made: bool
    seat_points: tuple[int, ...]


@attrs.frozen(slots=True)
class GameResult:
    """One game: the bot name at each seat, the winning side, the scores and every hand."""

    index: int
    seats: tuple[str, ...]
    winner: int | None
    scores: tuple[int, ...]
    hands: tuple[HandResult, ...]
    times: tuple[tuple[str, str, float, float], ...] = ()
    """With timing: (bot name, phase, seconds of wall clock, seconds of CPU) of every
    decision."""


def _hand_result(state: GameState, number: int) -> HandResult:
    h = state.history[number - 1] if number <= len(state.history) else state.hand
    rules = state.rules
    deltas = h.deltas or (0,) * rules.sides
    seat_points = tuple(deltas[rules.side_of(s)] for s in range(rules.players))
    if h.bidder < 0:
        return HandResult(-1, 0, False, seat_points)
    made = deltas[rules.side_of(h.bidder)] > 0
    return HandResult(h.bidder, h.bid, made, seat_points)


def game_seed(match_seed: int, index: int) -> int:
    """The deal seed of game ``index`` of a match."""
    return random.Random(f"moonrules/match/{match_seed}/{index}").getrandbits(63)


def play_game(
    rules: RuleSet | str,
    seed: int,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    *,
    max_hands: int = 1000,
    timing: bool = False,
    on_action: Callable[[GameState, int, Action], None] | None = None,
) -> tuple[GameState, list[tuple[str, str, float, float]]]:
    """Play a whole game of ``rules`` dealt from ``seed``: seat ``s`` is ``bots[s]`` drawing on
    ``rngs[s]``. Stops after ``max_hands`` hands (the game then has no winner).

    Each bot gets only ``view(state, seat)``; an action that is not legal raises
    ``ValueError``. Returns the last state and, with ``timing``, each decision's
    (bot, phase, wall-clock seconds, CPU seconds of this process).
    """
    r = as_rules(rules)
    if len(bots) != r.players or len(rngs) != r.players:
        raise ValueError(f"{r.players} players need {r.players} bots and generators")
    state = new_game(r, seed)
    times: list[tuple[str, str, float, float]] = []
    while not state.is_over and state.hand_number <= max_hands:
        seat = state.to_act
        assert seat is not None
        v = view(state, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        action = bots[seat].act(v, rngs[seat])
        if timing:
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            times.append((bots[seat].name, v.phase.value, wall, cpu))
        if action not in legal_actions(state):
            raise ValueError(f"bot {bots[seat].name!r} at seat {seat} chose {action}, not legal")
        if on_action is not None:
            on_action(state, seat, action)
        state = apply(state, action)
    return state, times


@attrs.frozen(slots=True)
class _GameJob:
    rules: RuleSet
    match_seed: int
    index: int
    lineup: tuple[str, ...]
    factory: Callable[[str], Bot]
    max_hands: int
    timing: bool


def lineup_of(names: Sequence[str], index: int) -> tuple[str, ...]:
    """The bots' seats in game ``index``: the lineup turned ``index`` seats round."""
    n = len(names)
    k = index % n
    return tuple(names[(s - k) % n] for s in range(n))


def _play_job(job: _GameJob) -> GameResult:
    bots = [job.factory(name) for name in job.lineup]
    rngs = [
        random.Random(f"moonrules/match/{job.match_seed}/{job.index}/seat/{s}")
        for s in range(len(bots))
    ]
    state, times = play_game(
        job.rules,
        game_seed(job.match_seed, job.index),
        bots,
        rngs,
        max_hands=job.max_hands,
        timing=job.timing,
    )
    last = state.hand_number if state.is_over or state.hand.phase is Phase.DONE else None
    count = len(state.history) + (1 if last is not None else 0)
    hands = tuple(_hand_result(state, k) for k in range(1, count + 1))
    return GameResult(
        job.index,
        job.lineup,
        state.winner,
        state.scores,
        hands,
        tuple(times),
    )


def run_match(
    rules: RuleSet | str,
    names: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    factory: Callable[[str], Bot] = bot_by_name,
    max_hands: int = 1000,
    timing: bool = False,
    progress: Callable[[int], None] | None = None,
    hands: int | None = None,
) -> list[GameResult]:
    """Play ``games`` games between the bots named ``names`` (one per seat), turning the
    lineup one seat round each game; on ``workers`` processes (1: in this process).

    With ``hands``, play games until they hold that many hands between them instead
    (``games`` is then the most games played): the first games, in order, whose hands
    reach the number, whatever the number of workers.
    ``factory`` makes a bot from a name (it must be picklable for workers > 1).
    ``progress(done)`` is called as games (with ``hands``: hands) finish. Results come in
    game order.
    """
    r = as_rules(rules)
    if len(names) != r.players:
        raise ValueError(f"{r.players} players need {r.players} bot names, not {len(names)}")
    for name in names:
        factory(name)  # unknown names fail here, before any game

    def job(i: int) -> _GameJob:
        return _GameJob(r, seed, i, lineup_of(names, i), factory, max_hands, timing)

    results: list[GameResult] = []
    played = 0

    def done(res: GameResult) -> bool:
        nonlocal played
        results.append(res)
        played += len(res.hands)
        if progress is not None:
            progress(len(results) if hands is None else min(played, hands))
        return hands is not None and played >= hands

    if workers <= 1 or games <= 1:
        for i in range(games):
            if done(_play_job(job(i))):
                break
        return results
    batch = max(2 * workers, r.players)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for first in range(0, games, batch if hands is not None else games):
            last = min(games, first + (batch if hands is not None else games))
            stop = False
            for res in pool.map(_play_job, [job(i) for i in range(first, last)], chunksize=1):
                if done(res):
                    stop = True
                    break
            if stop:
                break
    return results


# ---------------------------------------------------------------------------
# Statistics


Z95 = 1.959963984540054


@attrs.frozen(slots=True)
class BotStats:
    """One bot's figures over a match; each interval is (low, high) at 95%."""

    name: str
    seats: int
    """Seat-games played (a bot at two seats of a game counts twice)."""
    games: int
    wins: float
    """Games won, a game shared between seats of this bot counting as a fraction."""
    win_rate: float
    win_ci: tuple[float, float]
    hands: int
    points_per_hand: float
    points_ci: tuple[float, float]
    bids_made: int
    bids_set: int
    moons_tried: int
    moons_made: int


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The Wilson score interval of a proportion at 95%."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(rules: RuleSet | str, results: Iterable[GameResult]) -> list[BotStats]:
    """Each bot's :class:`BotStats`, in the order the bots first appear.

    Win rate: a side wins a game; a bot's share of a game is the fraction of
    its seats on the winning side (seats of one team count once). Its interval
    is Wilson's when every share is 0 or 1, else the normal one over games.
    Points per hand: the score change of the bot's seat (its team's, in
    partnership rules) per hand dealt, thrown-in hands included; the interval
    treats each game as one observation (a ratio estimate), since the hands of
    a game are not independent.
    """
    r = as_rules(rules)
    results = list(results)
    names: list[str] = []
    for g in results:
        for n in g.seats:
            if n not in names:
                names.append(n)
    out = []
    for name in names:
        shares: list[float] = []
        pts: list[tuple[float, int]] = []
        made = set_ = moons = moons_made = seats = 0
        for g in results:
            mine = [s for s, n in enumerate(g.seats) if n == name]
            if not mine:
                continue
            seats += len(mine)
            sides = sorted({r.side_of(s) for s in mine})
            shares.append(sum(1 for sd in sides if sd == g.winner) / len(sides))
            total = sum(h.seat_points[s] for h in g.hands for s in mine)
            pts.append((total, len(g.hands) * len(mine)))
            for h in g.hands:
                if h.bidder in mine:
                    made += h.made
                    set_ += not h.made
                    if h.bid == MOON:
                        moons += 1
                        moons_made += h.made
        games = len(shares)
        wins = sum(shares)
        rate = wins / games if games else 0.0
        if all(x in (0.0, 1.0) for x in shares):
            ci = wilson(wins, games)
        else:
            sd = math.sqrt(sum((x - rate) ** 2 for x in shares) / max(1, games - 1))
            half = Z95 * sd / math.sqrt(max(1, games))
            ci = (max(0.0, rate - half), min(1.0, rate + half))
        total_pts = sum(p for p, _ in pts)
        total_hands = sum(h for _, h in pts)
        mean = total_pts / total_hands if total_hands else 0.0
        if games > 1 and total_hands:
            hbar = total_hands / games
            var = sum((p - mean * h) ** 2 for p, h in pts) / (games * (games - 1) * hbar * hbar)
            half = Z95 * math.sqrt(var)
        else:
            half = math.inf
        out.append(
            BotStats(
                name,
                seats,
                games,
                wins,
                rate,
                ci,
                total_hands,
                mean,
                (mean - half, mean + half),
                made,
                set_,
                moons,
                moons_made,
            )
        )
    return out


# ---------------------------------------------------------------------------
# Duplicate matches


def arrangements(rules: RuleSet | str, lineup: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Every distinct seating of the bots of ``lineup`` (one name per seat), ``lineup`` first.

    A seating comes from a permutation of the seats that keeps partners together (with
    three players, any permutation): ``("a", "b", "b")`` gives the three seatings of ``a``
    alone, ``("a", "b", "a", "b")`` in partnership rules the two of ``a``'s team. Each bot
    sits at each seat equally often over the seatings (as often as it appears in
    ``lineup``), so a deal played once per seating favours no bot by position.
    """
    r = as_rules(rules)
    if isinstance(lineup, str) or not isinstance(lineup, Sequence):
        raise wrong_type("lineup", "a sequence of bot names", lineup)
    names = tuple(lineup)
    if not all(isinstance(x, str) for x in names):
        raise wrong_type("lineup", "a sequence of bot names", lineup)
    n = r.players
    if len(names) != n:
        raise ValueError(f"lineup: {n} players need {n} bot names, not {len(names)}")
    out: list[tuple[str, ...]] = []
    for perm in itertools.permutations(range(n)):
        together = all(
            (r.side_of(a) == r.side_of(b)) == (r.side_of(perm[a]) == r.side_of(perm[b]))
            for a in range(n)
            for b in range(a + 1, n)
        )
        seating = tuple(names[perm[s]] for s in range(n))
        if together and seating not in out:
            out.append(seating)
    return tuple(out)


def deal_seed(match_seed: int, index: int) -> int:
    """The seed of deal ``index`` of a duplicate match (its tiles and first bidder)."""
    return random.Random(f"moonrules/duplicate/{match_seed}/{index}").getrandbits(63)


@attrs.frozen(slots=True)
class DuplicateHand:
    """Deal ``index`` played with the bots seated as ``seats`` (arrangement ``arrangement``
    of :func:`arrangements`): the hand's result, and with timing each decision's
    (bot name, phase, wall-clock seconds, CPU seconds)."""

    index: int
    arrangement: int
    seats: tuple[str, ...]
    hand: HandResult
    times: tuple[tuple[str, str, float, float], ...] = ()


@attrs.frozen(slots=True)
class _HandJob:
    rules: RuleSet
    match_seed: int
    index: int
    arrangement: int
    seats: tuple[str, ...]
    factory: Callable[[str], Bot]
    timing: bool


def _play_hand(job: _HandJob) -> DuplicateHand:
    bots = [job.factory(name) for name in job.seats]
    # a bot's generator depends on the deal, its seat and its name, not on the seating:
    # where a bot sits at the same seat in two seatings, it draws the same numbers
    # (common random numbers, which narrow the paired interval)
    rngs = [
        random.Random(f"moonrules/duplicate/{job.match_seed}/{job.index}/{s}/{name}")
        for s, name in enumerate(job.seats)
    ]
    state, times = play_game(
        job.rules, deal_seed(job.match_seed, job.index), bots, rngs, max_hands=1, timing=job.timing
    )
    return DuplicateHand(
        job.index, job.arrangement, job.seats, _hand_result(state, 1), tuple(times)
    )


def run_duplicate(
    rules: RuleSet | str,
    names: Sequence[str],
    deals: int,
    *,
    seed: int = 0,
    workers: int = 1,
    factory: Callable[[str], Bot] = bot_by_name,
    timing: bool = False,
    progress: Callable[[int], None] | None = None,
) -> list[DuplicateHand]:
    """Play ``deals`` deals, each once for every seating of :func:`arrangements` of the bots
    named ``names`` (one per seat), on ``workers`` processes (1: in this process).

    A deal is the first hand of a game seeded by :func:`deal_seed` (the tiles and the
    first bidder); the hand is played to its end (a hand thrown in, BID-7, scores
    nothing). ``factory`` makes a bot from a name (picklable for workers > 1);
    ``progress(done)`` is called as hands finish. Results come in the order of the deals,
    then of the seatings, whatever the number of workers.
    """
    r = as_rules(rules)
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise wrong_type("names", "a sequence of bot names", names)
    for parameter, number in (("deals", deals), ("seed", seed), ("workers", workers)):
        if not isinstance(number, int) or isinstance(number, bool):
            raise wrong_type(parameter, "a whole number", number)
    if not callable(factory):
        raise wrong_type("factory", "a function from a bot name to a bot", factory)
    if progress is not None and not callable(progress):
        raise wrong_type("progress", "a function of the hands done, or None", progress)
    seatings = arrangements(r, names)
    if len(set(seatings[0])) < 2:
        raise ValueError("names: a duplicate match needs at least two different bots")
    if deals < 1:
        raise ValueError(f"deals: expected a whole number of at least 1, not {deals!r}")
    if workers < 1:
        raise ValueError(f"workers: expected at least 1 worker, not {workers!r}")
    for name in set(names):
        factory(name)  # unknown names fail here, before any deal
    jobs = [
        _HandJob(r, seed, i, k, seating, factory, timing)
        for i in range(deals)
        for k, seating in enumerate(seatings)
    ]
    results: list[DuplicateHand] = []
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            results.append(_play_hand(job))
            if progress is not None:
                progress(len(results))
        return results
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for res in pool.map(_play_hand, jobs, chunksize=1):
            results.append(res)
            if progress is not None:
                progress(len(results))
    return results


def mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean of ``values`` and its 95% normal interval (infinite for one value)."""
    n = len(values)
    if n == 0:
        return 0.0, (-math.inf, math.inf)
    mean = sum(values) / n
    if n < 2:
        return mean, (-math.inf, math.inf)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, (mean - half, mean + half)


def interval_text(values: Sequence[float]) -> str:
    """:func:`mean_interval` as a line's figure: ``+0.333 [+0.230, +0.436]``."""
    mean, (low, high) = mean_interval(values)
    return f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]"


@attrs.frozen(slots=True)
class DuplicateBot:
    """One bot's figures over a duplicate match. Points are per seat-hand (a hand at a
    seat the bot held); ``points_per_hand`` is the sum of ``bidding_points`` (what it
    scored on the hands its side won the auction) and ``defending_points`` (the others);
    each interval is at 95%, over deals."""

    name: str
    seat_hands: int
    points_per_hand: float
    points_ci: tuple[float, float]
    bidding_points: float
    defending_points: float
    bids: int
    """Seat-hands on which the bot's side won the auction."""
    bids_made: int
    moons_tried: int
    moons_made: int
    thrown_in: int
    """Seat-hands thrown in (every seat passed, BID-7)."""

    @property
    def bid_share(self) -> float:
        """The share of the bot's seat-hands on which its side won the auction."""
        return self.bids / self.seat_hands if self.seat_hands else 0.0

    @property
    def points_per_bid(self) -> float:
        """Mean points of a hand the bot's side won the auction on."""
        return self.bidding_points * self.seat_hands / self.bids if self.bids else 0.0

    @property
    def points_per_defence(self) -> float:
        """Mean points of a hand the bot's side defended (thrown-in hands left out)."""
        defended = self.seat_hands - self.bids - self.thrown_in
        return self.defending_points * self.seat_hands / defended if defended else 0.0


@attrs.frozen(slots=True)
class PairedDifference:
    """``first`` minus ``second`` in points per hand, paired by deal: the luck of the deal
    cancels. ``bidding`` and ``defending`` split ``mean`` by role (they add up to it);
    each interval is the 95% normal interval over the deals."""

    first: str
    second: str
    deals: int
    mean: float
    ci: tuple[float, float]
    bidding: float
    bidding_ci: tuple[float, float]
    defending: float
    defending_ci: tuple[float, float]


@attrs.frozen(slots=True)
class DuplicateSummary:
    """The figures of a duplicate match: each bot's, and each pair's paired difference
    (every pair of bots, in the order they first appear)."""

    deals: int
    hands: int
    bots: tuple[DuplicateBot, ...]
    differences: tuple[PairedDifference, ...]


def _side_role(rules: RuleSet, hand: HandResult, seat: int) -> str:
    if hand.bidder < 0:
        return "thrown"
    return "bid" if rules.side_of(hand.bidder) == rules.side_of(seat) else "defend"


def _duplicate_hands(results: object) -> list[DuplicateHand]:
    """``results`` as a list, or the :class:`TypeError` naming the parameter."""
    if isinstance(results, (str, bytes)) or not isinstance(results, Iterable):
        raise wrong_type("results", "an iterable of DuplicateHand", results)
    out = list(results)
    for res in out:
        if not isinstance(res, DuplicateHand):
            raise wrong_type("results", "an iterable of DuplicateHand", res)
    return out


def duplicate_summary(rules: RuleSet | str, results: Iterable[DuplicateHand]) -> DuplicateSummary:
    """The :class:`DuplicateSummary` of a duplicate match's hands.

    For each deal and bot: the mean points of the bot's seat-hands in that deal (its
    team's points, in partnership rules), split into bidding and defending. A bot's
    figure is the mean of these over the deals; a pair's difference is the mean of the
    per-deal differences, with a 95% interval from their spread. Only deals in which
    both bots of a pair played count for that pair.
    """
    r = as_rules(rules)
    results = _duplicate_hands(results)
    names: list[str] = []
    by_deal: dict[int, dict[str, list[tuple[int, str]]]] = {}
    totals: dict[str, list[int]] = {}
    hands = 0
    for res in results:
        hands += 1
        deal = by_deal.setdefault(res.index, {})
        h = res.hand
        for s, name in enumerate(res.seats):
            if name not in names:
                names.append(name)
                totals[name] = [0] * 6
            role = _side_role(r, h, s)
            deal.setdefault(name, []).append((h.seat_points[s], role))
            t = totals[name]
            t[0] += 1
            if role == "bid":
                t[1] += 1
                t[2] += h.made
                if h.bid == MOON:
                    t[3] += 1
                    t[4] += h.made
            elif role == "thrown":
                t[5] += 1

    def per_deal(name: str, which: str) -> dict[int, float]:
        out = {}
        for index, deal in by_deal.items():
            got = deal.get(name)
            if got:
                pts = [p for p, role in got if which == "all" or role == which]
                out[index] = sum(pts) / len(got)
        return out

    bots = []
    for name in names:
        mean, ci = mean_interval(list(per_deal(name, "all").values()))
        bid = per_deal(name, "bid")
        defend = per_deal(name, "defend")
        t = totals[name]
        bots.append(
            DuplicateBot(
                name,
                t[0],
                mean,
                ci,
                sum(bid.values()) / len(bid) if bid else 0.0,
                sum(defend.values()) / len(defend) if defend else 0.0,
                t[1],
                t[2],
                t[3],
                t[4],
                t[5],
            )
        )
    diffs = []
    for a, b in itertools.combinations(names, 2):
        figures = []
        for which in ("all", "bid", "defend"):
            pa, pb = per_deal(a, which), per_deal(b, which)
            figures.append(mean_interval([pa[i] - pb[i] for i in pa if i in pb]))
        common = sum(1 for i in by_deal if a in by_deal[i] and b in by_deal[i])
        (m, ci), (mb, cb), (md, cd) = figures
        diffs.append(PairedDifference(a, b, common, m, ci, mb, cb, md, cd))
    return DuplicateSummary(len(by_deal), hands, tuple(bots), tuple(diffs))
