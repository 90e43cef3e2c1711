"""Measure the ``learned`` bot against ``pimc`` by seat swaps on duplicate deals.

For each deal (the first hand of a seeded game, :func:`moonrules.bots.match.deal_seed`) the
hand is played once by three ``pimc`` bots (the baseline), then once per seat with that
seat's bot swapped, every seat drawing on the same random generator as in the baseline
(common random numbers). A seat's gain is its points in the swapped hand minus its points
in the baseline; a deal's gain is the mean over the three seats. Swaps:

* ``bid``: the learned calls, everything else ``pimc``'s (the bot runs ``pimc``'s call too,
  drawing the same numbers, so a hand whose calls do not change is the baseline hand, and
  is not played again);
* ``play``: ``pimc``'s calls, ``strong``'s discard, trump and play;
* ``full``: the ``learned`` bot.

    python bench/learned.py swap --swap bid --deals 2000 --workers 2 --out bid.jsonl
    python bench/learned.py report bid.jsonl

``--model FILE`` swaps in a candidate's models (an npz written by ``python -m
moonrules.bots.train fit``) instead of the shipped ones, so that two models are measured on
the same deals.

``pair`` measures two ``learned`` bots against each other on the same deals: each seat of a
deal is, in turn, the ``new`` bot and then the ``old`` bot, against two ``pimc`` drawing the
same random numbers (those of the ``full`` swap). The learned call uses no random number, so
where the two bots make the same call the two hands are the same and are not played::

    python bench/learned.py pair --deals 600 --seed 48 --new-correction shipped --out pair.jsonl
    python bench/learned.py pair-report pair.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from moonrules.bots.base import Bot
from moonrules.bots.learned import LearnedBot
from moonrules.bots.match import deal_seed, interval_text, play_game
from moonrules.bots.pimc import PimcBot
from moonrules.bots.strong import StrongBot
from moonrules.game import Action, GameState, Phase, PlayerView, new_game, view
from moonrules.rules.ruleset import as_rules

RULES = as_rules("standard")


class _Timed:
    """A bot whose call decisions are timed (the learned part)."""

    def __init__(self, inner: Bot, name: str) -> None:
        self.inner = inner
        self.name = name
        self.times: list[float] = []

    def act(self, v: PlayerView, rng: random.Random) -> Action:
        t0 = time.perf_counter()
        a = self.inner.act(v, rng)
        self.times.append(time.perf_counter() - t0)
        return a


class SwapBid:
    """``pimc`` with the learned calls (``pimc``'s call is still drawn, so that the random
    numbers stay those of ``pimc``)."""

    name = "learned-bid"

    def __init__(self, model: str | None = None) -> None:
        self.pimc = PimcBot()
        self.learned = LearnedBot(models_file=model)
        self.call_times: list[float] = []

    def act(self, v: PlayerView, rng: random.Random) -> Action:
        a = self.pimc.act(v, rng)
        if v.phase is Phase.BIDDING:
            t0 = time.perf_counter()
            b = self.learned.act(v, random.Random(0))
            self.call_times.append(time.perf_counter() - t0)
            return b
        return a


class SwapPlay:
    """``pimc``'s calls, ``strong``'s discard, trump and play."""

    name = "strong-play"

    def __init__(self) -> None:
        self.pimc = PimcBot()
        self.strong = StrongBot()

    def act(self, v: PlayerView, rng: random.Random) -> Action:
        if v.phase is Phase.BIDDING:
            return self.pimc.act(v, rng)
        return self.strong.act(v, rng)


def _rng(seed: int, index: int, seat: int) -> random.Random:
    return random.Random(f"moonrules/swap/{seed}/{index}/{seat}")


def _hand(state: GameState) -> dict[str, Any]:
    h = state.history[0] if state.history else state.hand
    deltas = h.deltas or (0,) * RULES.sides
    return {"bidder": h.bidder, "bid": h.bid, "points": [deltas[s] for s in range(3)]}


Job = tuple[str, int, int, str | None]
"""A deal to measure: the swap, the seed, the deal's index, the models' file (``None``:
the shipped models)."""


def deal(job: Job) -> dict[str, Any]:
    swap, seed, index, model = job
    dseed = deal_seed(seed, index)
    calls: list[tuple[int, Action]] = []

    def seen(state: GameState, seat: int, action: Action) -> None:
        if state.phase is Phase.BIDDING:
            calls.append((seat, action))

    t0 = time.process_time()
    base, _ = play_game(
        RULES,
        dseed,
        [PimcBot() for _ in range(3)],
        [_rng(seed, index, s) for s in range(3)],
        max_hands=1,
        on_action=seen,
    )
    out: dict[str, Any] = {"index": index, "base": _hand(base), "seats": [], "times": []}
    for s in range(3):
        if swap == "bid":
            bot: Any = SwapBid(model)
            # the auction up to this seat's call is the baseline's: is its call the same?
            state = new_game(RULES, dseed)
            same = True
            for seat, action in calls:
                if seat == s:
                    mine = bot.act(view(state, s), _rng(seed, index, s))
                    same = mine == action
                    break
                state = _apply(state, action)
            out["times"].extend(bot.call_times)
            if same:
                out["seats"].append(out["base"])
                continue
            bot = SwapBid(model)
        elif swap == "play":
            bot = SwapPlay()
        else:
            bot = _Timed(LearnedBot(models_file=model), "learned")
        bots: list[Any] = [PimcBot() for _ in range(3)]
        bots[s] = bot
        state, _ = play_game(
            RULES, dseed, bots, [_rng(seed, index, k) for k in range(3)], max_hands=1
        )
        out["seats"].append(_hand(state))
        if isinstance(bot, _Timed):
            out["times"].extend(bot.times)
    out["cpu"] = time.process_time() - t0
    return out


def _auction_dd(state: GameState, bots: Sequence[Any], rngs: Sequence[random.Random]) -> Any:
    """The auction, discard and trump from ``state`` by ``bots``, the contract scored by its
    double-dummy tricks (the defenders share theirs evenly), as ``bench/bots.py auctions``."""
    from moonrules.analysis.solver import solve

    while state.phase is not Phase.PLAY and state.hand_number == 1 and not state.is_over:
        seat = state.to_act
        assert seat is not None
        state = _apply(state, bots[seat].act(view(state, seat), rngs[seat]))
    calls = [c for c in state.hand.contract.calls] if state.hand_number == 1 else []
    if state.hand_number != 1 or state.phase is not Phase.PLAY:
        return {"bidder": -1, "bid": 0, "points": [0.0, 0.0, 0.0]}, calls
    bidder, bid = state.bidder, state.bid
    assert bidder is not None and bid is not None
    t = solve(state)
    made = t >= (7 if bid == 21 else bid)
    pts = [float(bid if made else -bid) if s == bidder else (7 - t) / 2 for s in range(3)]
    return {"bidder": bidder, "bid": bid, "points": pts}, calls


def deal_dd(job: Job) -> dict[str, Any]:
    """The bidding-only swap of one deal, each contract scored double dummy (no play)."""
    _, seed, index, model = job
    dseed = deal_seed(seed, index)
    t0 = time.process_time()
    start = new_game(RULES, dseed)
    base, calls = _auction_dd(
        start, [PimcBot() for _ in range(3)], [_rng(seed, index, s) for s in range(3)]
    )
    out: dict[str, Any] = {"index": index, "base": base, "seats": [], "times": []}
    order = [(start.first_bidder + k) % 3 for k in range(len(calls))]
    for s in range(3):
        bot = SwapBid(model)
        state = start
        same = True
        for seat, call in zip(order, calls, strict=True):
            if seat == s:
                mine = bot.act(view(state, s), _rng(seed, index, s))
                same = _call_number(mine) == call
                break
            state = _apply(state, _action_of(call))
        out["times"].extend(bot.call_times)
        if same:
            out["seats"].append(base)
            continue
        bots: list[Any] = [PimcBot() for _ in range(3)]
        bots[s] = SwapBid(model)
        hand, _ = _auction_dd(start, bots, [_rng(seed, index, k) for k in range(3)])
        out["seats"].append(hand)
    out["cpu"] = time.process_time() - t0
    return out


PairJob = tuple[int, int, tuple[str | None, str | None], tuple[str | None, str | None]]
"""A deal to measure by ``pair``: the seed, the deal's index, and the new and the old bot's
(models' file, correction)."""


def pair_deal(job: PairJob) -> dict[str, Any]:
    """Deal ``index`` with each seat the new bot, then the old one, against two ``pimc``."""
    seed, index, new, old = job
    dseed = deal_seed(seed, index)
    start = new_game(RULES, dseed)
    t0 = time.process_time()
    out: dict[str, Any] = {"index": index, "seats": []}
    for s in range(3):
        a = LearnedBot(models_file=new[0], correction=new[1])
        b = LearnedBot(models_file=old[0], correction=old[1])
        rngs = [_rng(seed, index, k) for k in range(3)]
        state = start
        pimc = PimcBot()
        while state.phase is Phase.BIDDING and state.hand_number == 1 and state.to_act != s:
            seat = state.to_act
            assert seat is not None
            state = _apply(state, pimc.act(view(state, seat), rngs[seat]))
        if state.phase is not Phase.BIDDING or state.hand_number != 1:
            out["seats"].append(None)  # a 21 closed the auction before the seat's call
            continue
        calls = [a.act(view(state, s), random.Random(0)), b.act(view(state, s), random.Random(0))]
        if calls[0] == calls[1]:
            out["seats"].append(None)
            continue
        hands = []
        for bot in (a, b):
            bots: list[Any] = [PimcBot() for _ in range(3)]
            bots[s] = bot
            played, _ = play_game(
                RULES, dseed, bots, [_rng(seed, index, k) for k in range(3)], max_hands=1
            )
            hands.append(_hand(played))
        out["seats"].append({"new": hands[0], "old": hands[1]})
    out["cpu"] = time.process_time() - t0
    return out


def pair(args: argparse.Namespace) -> None:
    new = (None if args.new_model is None else str(args.new_model), args.new_correction)
    old = (None if args.old_model is None else str(args.old_model), args.old_correction)
    jobs: list[PairJob] = [
        (args.seed, i, new, old) for i in range(args.start, args.start + args.deals)
    ]
    t0 = time.perf_counter()
    with args.out.open("a") as fh:
        for k, res in enumerate(map(pair_deal, jobs), 1):
            fh.write(json.dumps(res) + "\n")
            fh.flush()
            if k % 20 == 0:
                print(f"{k} deals {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    print(f"{args.deals} deals in {time.perf_counter() - t0:.0f}s", file=sys.stderr)


def _pair_gains(r: dict[str, Any]) -> tuple[float, float, float]:
    """A deal's new - old points a seat (the mean over the three seats), as bidder, as
    defender."""
    t = b = d = 0.0
    for s, seat in enumerate(r["seats"]):
        if seat is None:
            continue
        for h, sign in ((seat["new"], 1.0), (seat["old"], -1.0)):
            p = sign * h["points"][s]
            t += p
            if h["bidder"] == s:
                b += p
            elif h["bidder"] >= 0:
                d += p
    return t / 3, b / 3, d / 3


def pair_report(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for p in args.files for line in p.open()]
    gains = [_pair_gains(r) for r in rows]
    changed = [(s, seat) for r in rows for s, seat in enumerate(r["seats"]) if seat is not None]
    cpu = sum(r["cpu"] for r in rows)
    print(f"deals {len(rows)}, seat-hands whose call changed {len(changed)}, cpu {cpu:.0f}s")
    for k, label in enumerate(("points a hand", "  as bidder", "  as defender")):
        print(f"{label + ':':<15}{interval_text([g[k] for g in gains])} (new - old)")
    for who in ("new", "old"):
        bids = [(seat[who], s) for s, seat in changed if seat[who]["bidder"] == s]
        moons = [h for h, s in bids if h["bid"] == 21]
        made = sum(h["points"][s] > 0 for h, s in bids)
        mmade = sum(h["points"][s] > 0 for h, s in bids if h["bid"] == 21)
        print(
            f"{who}: in the changed seat-hands, {len(bids)} contracts won ({made} made), "
            f"{len(moons)} of them 21s ({mmade} made)"
        )


def moons(args: argparse.Namespace) -> None:
    """The bids and the 21s of a match log (``bench/bots.py match --log``) by bot, split by
    whether the hand may end the game (a side within 7 of the target before it: ``learned``
    then calls as ``strong``, by the chance to win the game) or not (its calls are the
    models'), and the games each bot won when it bid the hand that ended the game."""
    counts: dict[tuple[str, bool, bool], list[int]] = {}
    reach = 7
    for line in args.file.open():
        g = json.loads(line)
        scores = [0, 0, 0]
        for h in g["hands"]:
            late = max(scores) + reach >= RULES.target
            if h["bidder"] >= 0:
                for moon in {False, h["bid"] == 21}:
                    c = counts.setdefault((g["seats"][h["bidder"]], late, moon), [0, 0])
                    c[0] += 1
                    c[1] += bool(h["made"])
            scores = [a + b for a, b in zip(scores, h["seat_points"], strict=True)]
    for (bot, late, moon), (tried, made) in sorted(counts.items()):
        when = "hands that may end the game" if late else "other hands"
        what = "21s" if moon else "bids"
        print(f"{bot}: {when}: {what} tried {tried}, made {made} ({made / tried:.0%})")


def _learned_games(path: Path) -> dict[int, tuple[float, float]]:
    out = {}
    for line in path.open():
        g = json.loads(line)
        # the learned seat, its options (learned/late_calls=game) or not
        seat = next(i for i, n in enumerate(g["seats"]) if n.split("/")[0] == "learned")
        points = sum(h["seat_points"][seat] for h in g["hands"]) / len(g["hands"])
        out[g["index"]] = (float(g["winner"] == seat), points)
    return out


def games_compare(args: argparse.Namespace) -> None:
    """Two match logs of the same seeds (``bench/bots.py match --log``), the ``learned`` seat's
    games won and points a hand game by game (new - old)."""
    a, b = _learned_games(args.new), _learned_games(args.old)
    common = sorted(a.keys() & b.keys())
    if not common:
        sys.exit("no game in common")
    print(f"games in common {len(common)}")
    for k, label in enumerate(("games won", "points a hand")):
        print(f"{label + ':':<15}{interval_text([a[i][k] - b[i][k] for i in common])} (new - old)")
    print(f"same winner: {sum(a[i][0] == b[i][0] for i in common)}")


def _call_number(action: Action) -> int:
    from moonrules.bots.base import call_value

    return call_value(action)


def _action_of(call: int) -> Action:
    from moonrules.game import Bid, Pass

    return Pass() if call == 0 else Bid(call)


def _apply(state: GameState, action: Action) -> GameState:
    from moonrules.game import apply

    return apply(state, action)


def swap(args: argparse.Namespace) -> None:
    model = None if args.model is None else str(args.model)
    jobs: list[Job] = [
        (args.swap, args.seed, i, model) for i in range(args.start, args.start + args.deals)
    ]
    run = deal_dd if args.swap == "bid-dd" else deal
    t0 = time.perf_counter()
    with args.out.open("a") as fh:
        if args.workers <= 1:
            results = map(run, jobs)
            for k, res in enumerate(results, 1):
                fh.write(json.dumps(res) + "\n")
                fh.flush()
                if k % 20 == 0:
                    print(f"{k} deals {time.perf_counter() - t0:.0f}s", file=sys.stderr)
        else:
            with ProcessPoolExecutor(args.workers) as pool:
                for k, res in enumerate(pool.map(run, jobs, chunksize=2), 1):
                    fh.write(json.dumps(res) + "\n")
                    fh.flush()
                    if k % 20 == 0:
                        print(f"{k} deals {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    print(f"{args.deals} deals in {time.perf_counter() - t0:.0f}s", file=sys.stderr)


def _gains(r: dict[str, Any]) -> tuple[float, float, float, int]:
    """A deal's gain a seat (the mean over the three seats), as bidder, as defender, and
    the number of seats whose hand changed."""
    base = r["base"]
    t = b = d = 0.0
    changed = 0
    for s, hand in enumerate(r["seats"]):
        changed += hand != base
        for h, sign in ((hand, 1.0), (base, -1.0)):
            p = sign * h["points"][s]
            t += p
            if h["bidder"] == s:
                b += p
            elif h["bidder"] >= 0:
                d += p
    return t / 3, b / 3, d / 3, changed


def report(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for p in args.files for line in p.open()]
    gains = [_gains(r) for r in rows]
    total, bidding, defending = ([g[k] for g in gains] for k in range(3))
    changed = sum(g[3] for g in gains)
    times = sorted(x for r in rows for x in r["times"])
    cpu = sum(r["cpu"] for r in rows)
    print(f"deals {len(rows)}, seat-hands changed {changed}, cpu {cpu:.0f}s")
    print(f"points a hand: {interval_text(total)}")
    print(f"  as bidder:   {interval_text(bidding)}")
    print(f"  as defender: {interval_text(defending)}")
    if times:
        med = times[len(times) // 2]
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"decision time: median {med:.4f}s, p95 {p95:.4f}s over {len(times)} decisions")


def compare(args: argparse.Namespace) -> None:
    """Two swaps of the same deals (two models): the difference of their gains deal by deal."""
    a = {r["index"]: _gains(r) for r in map(json.loads, args.new.open())}
    b = {r["index"]: _gains(r) for r in map(json.loads, args.old.open())}
    common = sorted(a.keys() & b.keys())
    if not common:
        sys.exit("no deal in common")
    print(f"deals in common {len(common)}")
    for k, label in enumerate(("points a hand", "  as bidder", "  as defender")):
        print(f"{label + ':':<15}{interval_text([a[i][k] - b[i][k] for i in common])} (new - old)")
    diff = sum(a[i][:3] != b[i][:3] for i in common)
    print(f"deals whose gain differs: {diff}")


LEVELS = ("random", "basic", "pimc", "strong", "learned")


def _levels_job(job: tuple[int, tuple[str, ...], int]) -> dict[str, Any]:
    seed, seats, index = job
    from moonrules.bots.match import bot_by_name

    bots = [bot_by_name(n) for n in seats]
    rngs = [random.Random(f"moonrules/levels/{seed}/{index}/{s}/{n}") for s, n in enumerate(seats)]
    state, _ = play_game(RULES, deal_seed(seed, index), bots, rngs, max_hands=1)
    return {"index": index, "seats": list(seats), **_hand(state)}


def levels(args: argparse.Namespace) -> None:
    """A seeded all-bot round robin, duplicate: every three levels play each deal (the first
    hand of a seeded game) in all six seatings, and the deal is one game between the three,
    ranked by each level's points summed over the six seatings (so the cards a seat is dealt
    cancel out), rated with openskill."""
    import itertools

    from moonrules.tournament.ratings import Game, new_ratings, update

    jobs = [
        (args.seed, seats, i)
        for i in range(args.deals)
        for trio in itertools.combinations(LEVELS, 3)
        for seats in itertools.permutations(trio)
    ]
    t0 = time.perf_counter()
    if args.hands is not None:
        hands = [json.loads(line) for line in args.hands.open()]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            hands = list(pool.map(_levels_job, jobs, chunksize=4))
        if args.log is not None:
            args.log.write_text("".join(json.dumps(h) + "\n" for h in hands))
    took = time.perf_counter() - t0
    totals: dict[tuple[int, tuple[str, ...]], dict[str, int]] = {}
    points: dict[str, list[int]] = {n: [] for n in LEVELS}
    for h in hands:
        trio = tuple(sorted(h["seats"], key=LEVELS.index))
        game = totals.setdefault((h["index"], trio), dict.fromkeys(trio, 0))
        for s, n in enumerate(h["seats"]):
            game[n] += h["points"][s]
            points[n].append(h["points"][s])
    rated = new_ratings("moonrules levels")
    for game in totals.values():
        teams = tuple((n,) for n in game)
        bots = tuple((n, n) for n in game)
        rated = update(rated, Game(teams, tuple(game.values()), bots=bots))
    out = {
        "rules": "standard",
        "command": f"python bench/learned.py levels --deals {args.deals} --seed {args.seed}",
        "hands": len(hands),
        "games": len(totals),
        "seconds": round(took) if args.hands is None else args.seconds,
        "model": rated.model,
        "levels": [
            {
                "level": r.name,
                "rating": r.elo,
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "points_per_hand": round(sum(points[r.name]) / len(points[r.name]), 3),
            }
            for r in rated.ranked()
        ],
    }
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
    # each two levels compared deal by deal (duplicate), over the trios holding both
    for a, b in itertools.combinations(LEVELS, 2):
        per: dict[int, list[float]] = {}
        for (index, _), game in totals.items():
            if a in game and b in game:
                per.setdefault(index, []).append((game[b] - game[a]) / 6)
        diffs = [sum(v) / len(v) for v in per.values()]
        print(f"{b} - {a}: {interval_text(diffs)} points a hand over {len(diffs)} deals")


def late_timing(args: argparse.Namespace) -> None:
    """CPU time of ``learned``'s calls in hands that may end the game (one side within 7 of
    the target, the others anywhere, 0 to 2 calls before): seeded deals, each a fresh
    score, so the chance-to-win estimates are mostly worked out anew."""
    import statistics

    import attrs

    from moonrules.bots.value import HandValue
    from moonrules.game import Bid, apply, legal_actions

    bot = LearnedBot()
    rng = random.Random(args.seed)
    cpu: list[float] = []
    for i in range(args.deals):
        state = new_game(RULES, seed=args.seed * 10**6 + i)
        scores = [rng.randrange(0, RULES.target) for _ in range(3)]
        scores[rng.randrange(3)] = rng.randrange(RULES.target - 7, RULES.target)
        for _ in range(rng.randrange(3)):
            acts = [a for a in legal_actions(state) if not (isinstance(a, Bid) and a.amount == 21)]
            state = apply(state, rng.choice(acts))
        if state.phase is not Phase.BIDDING or state.to_act is None:
            continue
        v = attrs.evolve(view(state, state.to_act), scores=tuple(scores))
        assert HandValue.for_hand(v.rules, v.seat, v.scores, v.tricks_won, v.first_bidder).by_game
        t = time.process_time()
        bot.act(v, random.Random(i))
        cpu.append(time.process_time() - t)
    cpu.sort()
    print(
        f"{len(cpu)} late calls, CPU median {statistics.median(cpu):.3f} s, "
        f"p95 {cpu[int(0.95 * (len(cpu) - 1))]:.3f} s, max {cpu[-1]:.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python bench/learned.py")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("swap")
    s.add_argument("--swap", choices=("bid", "bid-dd", "play", "full"), default="bid")
    s.add_argument("--deals", type=int, default=100)
    s.add_argument("--start", type=int, default=0)
    s.add_argument("--seed", type=int, default=48)
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--model", type=Path, help="the models' npz file (default: the shipped models)")
    s.add_argument("--out", type=Path, required=True)
    s.set_defaults(run=swap)
    r = sub.add_parser("report")
    r.add_argument("files", type=Path, nargs="+")
    r.set_defaults(run=report)
    c = sub.add_parser("compare", help="the paired difference of two swaps of the same deals")
    c.add_argument("new", type=Path)
    c.add_argument("old", type=Path)
    c.set_defaults(run=compare)
    q = sub.add_parser("pair", help="two learned bots on the same deals, seat by seat")
    q.add_argument("--deals", type=int, default=100)
    q.add_argument("--start", type=int, default=0)
    q.add_argument("--seed", type=int, default=48)
    q.add_argument("--new-model", type=Path)
    q.add_argument("--new-correction", help='"shipped" or an npz of a correction')
    q.add_argument("--old-model", type=Path)
    q.add_argument("--old-correction", help='"shipped" or an npz of a correction')
    q.add_argument("--out", type=Path, required=True)
    q.set_defaults(run=pair)
    w = sub.add_parser("pair-report")
    w.add_argument("files", type=Path, nargs="+")
    w.set_defaults(run=pair_report)
    o = sub.add_parser("moons", help="the 21s of a match log, late hands apart")
    o.add_argument("file", type=Path)
    o.set_defaults(run=moons)
    gc = sub.add_parser("games-compare", help="two match logs of the same seeds, game by game")
    gc.add_argument("new", type=Path)
    gc.add_argument("old", type=Path)
    gc.set_defaults(run=games_compare)
    t = sub.add_parser("late-timing", help="CPU time of the calls in hands that may end the game")
    t.add_argument("--deals", type=int, default=300)
    t.add_argument("--seed", type=int, default=5)
    t.set_defaults(run=late_timing)
    v = sub.add_parser("levels")
    v.add_argument("--deals", type=int, default=6)
    v.add_argument("--seed", type=int, default=7)
    v.add_argument("--workers", type=int, default=1)
    v.add_argument("--out", type=Path, default=Path("moonrules/bots/levels.json"))
    v.add_argument("--log", type=Path, help="also write every hand played (JSON lines)")
    v.add_argument(
        "--hands", type=Path, help="rate the hands of an earlier --log instead of playing"
    )
    v.add_argument("--seconds", type=int, help="with --hands: the time the log's run took")
    v.set_defaults(run=levels)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
