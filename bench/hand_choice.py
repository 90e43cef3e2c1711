"""Measure the learned discard and trump (:mod:`moonrules.bots.hand_choice`) against ``strong``'s.

For each deal (``deal_seed(seed, index)``, the standard rules) the auction is drawn from the
model of a competent player, as the model's data are (:func:`~moonrules.bots.hand_choice.
contract_state`; a hand everyone passes is skipped): the same bidder, contract and widow for
every chooser. From the bidder's view each chooser discards, then names trump:

* ``learned``: :func:`~moonrules.bots.hand_choice.learned_discard_and_trump` (both phases);
* ``strong``: the ``strong`` bot (its defaults: PIMC over deals drawn with inference, each
  phase its own decision, its random numbers seeded by the deal);
* ``basic``: the basic bot's rules of thumb (a reference);
* ``oracle``: the best of the 72 options double dummy (it sees every tile: a bound).

Each contract is scored double dummy from the opening lead: the bidder's points (the bid,
or minus it) and its relative points (its points minus the mean of the defenders', who
share their tricks evenly; a made 21 counts 21), not score-aware. The report gives the
mean difference of relative points per hand, learned minus strong, with a 95% interval
paired by deal, the make rates and the CPU time of each decision::

    python bench/hand_choice.py run --deals 600 --seed 48 --out hand_bench.jsonl
    python bench/hand_choice.py report hand_bench.jsonl

Measured (``run --deals 1000 --seed 48``, 1066 s of wall clock, one process; 994 contracts,
6 deals thrown in): learned minus strong **+0.305** relative points a hand [+0.115, +0.495]
(bidder's own points +0.272 [+0.090, +0.453]; same choice in 513); made 75.8% (learned),
73.4% (strong), 61.9% (basic), 79.7% (oracle); learned minus basic +2.117 [+1.709, +2.525];
the oracle over learned +0.540 [+0.363, +0.716], over strong +0.845 [+0.619, +1.070]. CPU a
decision: learned mean 0.033 s (median 0.046, p95 0.071), strong mean 0.40 s (median 0.41,
p95 0.54), over 1988 decisions each.

The played check (``played``: the deals where the two choices differ, each contract played
out by ``pimc`` at every seat with the same random numbers for both; a deal where they chose
alike counts 0)::

    python bench/hand_choice.py played hand_bench.jsonl --deals 500 --out played.jsonl
    python bench/hand_choice.py played-report played.jsonl

Measured on the 481 deals of the run above where the choices differ (718 s + 40 s of wall
clock): learned minus strong +0.082 [-0.335, +0.499] relative points a played hand (double
dummy on the same deals +0.630 [+0.239, +1.021]), made 318 against 315; over all 994
contracts +0.040 [-0.162, +0.242]. In play the gain is within noise: not worse, not shown
better.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from moonrules.analysis.solver import SolverCache, solve
from moonrules.bots.basic import BasicBot
from moonrules.bots.hand_choice import contract_state, learned_discard_and_trump, model
from moonrules.bots.match import deal_seed, interval_text
from moonrules.bots.sampled import fixed_discard
from moonrules.bots.strong import StrongBot
from moonrules.bots.worlds import complete_contract
from moonrules.game import Action, Discard, GameState, NameTrump, Phase, apply, view
from moonrules.rules.auction import MOON
from moonrules.rules.ruleset import as_rules
from moonrules.rules.tiles import TILES, indices_of

RULES = as_rules("standard")


def _points(bid: int, tricks: int) -> tuple[float, float, bool]:
    made = tricks >= (7 if bid == MOON else bid)
    mine = float(bid if made else -bid)
    return mine, mine - (7 - tricks) / 2, made


def _finish(state: GameState, choose: Any) -> tuple[GameState, list[float], list[str]]:
    """The discard and trump by ``choose(view) -> action``, timed (CPU) decision by decision."""
    times: list[float] = []
    actions: list[str] = []
    while state.phase in (Phase.DISCARD, Phase.TRUMP):
        seat = state.to_act
        assert seat is not None
        t0 = time.process_time()
        action: Action = choose(view(state, seat))
        times.append(time.process_time() - t0)
        actions.append(str(action))
        state = apply(state, action)
    return state, times, actions


def _learned(v: Any) -> Action:
    d, t = learned_discard_and_trump(v)
    return Discard(d) if v.phase is Phase.DISCARD else NameTrump(t)


def deal(seed: int, index: int) -> dict[str, Any] | None:
    """One deal measured (``None``: thrown in)."""
    state = contract_state(RULES, deal_seed(seed, index))
    if state is None:
        return None
    bidder, bid = state.bidder, state.bid
    assert bidder is not None and bid is not None
    out: dict[str, Any] = {"index": index, "bid": bid, "bidder": bidder}
    rng = random.Random(f"moonrules/bench/hand_choice/{seed}/{index}")
    strong = StrongBot()
    basic = BasicBot()
    choosers = {
        "learned": _learned,
        "strong": lambda v: strong.act(v, rng),
        "basic": lambda v: basic.act(v, rng),
    }
    for name, choose in choosers.items():
        final, times, actions = _finish(state, choose)
        tricks = solve(final)
        pts, rel, made = _points(bid, tricks)
        out[name] = {
            "actions": actions,
            "times": times,
            "tricks": tricks,
            "points": pts,
            "relative": rel,
            "made": made,
        }
    held = state.hand.hands[bidder]
    best: tuple[float, int, str] | None = None
    for t in RULES.trumps:
        cache = SolverCache()
        for d in indices_of(held):
            tricks = solve(complete_contract(state, bidder, None, t, fixed_discard(d)), cache)
            rel = _points(bid, tricks)[1]
            if best is None or rel > best[0]:
                best = (rel, tricks, f"{TILES[d]} {t}")
    assert best is not None
    pts, rel, made = _points(bid, best[1])
    out["oracle"] = {"actions": [best[2]], "tricks": best[1], "points": pts, "relative": rel}
    out["oracle"]["made"] = made
    return out


def run(args: argparse.Namespace) -> None:
    model()  # read once, outside the timed decisions
    t0 = time.perf_counter()
    done = 0
    with args.out.open("a") as fh:
        for index in range(args.start, args.start + args.deals):
            r = deal(args.seed, index)
            fh.write(json.dumps(r if r is not None else {"index": index, "thrown_in": True}))
            fh.write("\n")
            fh.flush()
            done += 1
            if done % 20 == 0:
                print(f"{done} deals {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    print(f"{args.deals} deals in {time.perf_counter() - t0:.0f}s", file=sys.stderr)


def report(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for p in args.files for line in p.open()]
    played = [r for r in rows if not r.get("thrown_in")]
    print(f"deals {len(rows)}, contracts {len(played)} (thrown in {len(rows) - len(played)})")
    names = ("learned", "strong", "basic", "oracle")
    for name in names:
        rel = [r[name]["relative"] for r in played]
        pts = [r[name]["points"] for r in played]
        made = sum(r[name]["made"] for r in played)
        print(
            f"{name:>8}: relative {interval_text(rel)}, "
            f"bidder's points {sum(pts) / len(pts):+.3f}, "
            f"made {made}/{len(played)} ({made / len(played):.1%})"
        )
    for other in ("strong", "basic"):
        diff = [r["learned"]["relative"] - r[other]["relative"] for r in played]
        same = sum(r["learned"]["actions"] == r[other]["actions"] for r in played)
        print(f"learned - {other}: {interval_text(diff)} points a hand (same choice in {same})")
    moon = [r for r in played if r["bid"] == MOON]
    if moon:
        diff = [r["learned"]["relative"] - r["strong"]["relative"] for r in moon]
        print(f"  of which 21s ({len(moon)}): {interval_text(diff)}")
        rest = [r for r in played if r["bid"] != MOON]
        diff = [r["learned"]["relative"] - r["strong"]["relative"] for r in rest]
        print(f"  other bids ({len(rest)}): {interval_text(diff)}")
    for name in ("learned", "strong"):
        times = sorted(t for r in played for t in r[name]["times"])
        med = times[len(times) // 2]
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"{name} CPU a decision: mean {sum(times) / len(times):.4f}s, median {med:.4f}s, "
            f"p95 {p95:.4f}s over {len(times)} decisions"
        )


def _strong(bot: StrongBot, rng: random.Random, v: Any) -> Action:
    return bot.act(v, rng)


def played(args: argparse.Namespace) -> None:
    """The played check: on the deals of a ``run`` file where learned and strong chose
    differently, each contract played out by ``pimc`` at every seat, the same random numbers
    for both (a deal where they chose alike plays the same hand twice: a difference of 0)."""
    from moonrules.bots.pimc import PimcBot

    rows = [json.loads(line) for line in args.run_file.open()]
    differ = [
        r
        for r in rows
        if not r.get("thrown_in") and r["learned"]["actions"] != r["strong"]["actions"]
    ][args.start : args.start + args.deals]
    t0 = time.perf_counter()
    with args.out.open("a") as fh:
        for k, r in enumerate(differ, args.start + 1):
            index = r["index"]
            state = contract_state(RULES, deal_seed(args.seed, index))
            assert state is not None and state.bidder == r["bidder"]
            rng = random.Random(f"moonrules/bench/hand_choice/{args.seed}/{index}")
            strong = StrongBot()
            out: dict[str, Any] = {"index": index, "bid": r["bid"], "bidder": r["bidder"]}
            for name, choose in (
                ("learned", _learned),
                ("strong", functools.partial(_strong, strong, rng)),
            ):
                final, _, actions = _finish(state, choose)
                assert actions == r[name]["actions"]
                bots = [PimcBot() for _ in range(3)]
                rngs = [
                    random.Random(f"moonrules/bench/hand_choice/play/{index}/{s}") for s in range(3)
                ]
                while final.hand_number == 1 and not final.is_over:
                    seat = final.to_act
                    assert seat is not None
                    final = apply(final, bots[seat].act(view(final, seat), rngs[seat]))
                hand = final.history[0] if final.history else final.hand
                tricks = hand.tricks_won[r["bidder"]]
                pts, rel, made = _points(r["bid"], tricks)
                out[name] = {"tricks": tricks, "points": pts, "relative": rel, "made": made}
            fh.write(json.dumps(out) + "\n")
            fh.flush()
            print(f"{k} deals {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)


def played_report(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for p in args.files for line in p.open()]
    diff = [r["learned"]["relative"] - r["strong"]["relative"] for r in rows]
    print(f"deals played (choices differ) {len(rows)}: learned - strong {interval_text(diff)}")
    for name in ("learned", "strong"):
        made = sum(r[name]["made"] for r in rows)
        print(f"{name:>8}: made in play {made}/{len(rows)}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python bench/hand_choice.py")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--deals", type=int, default=600)
    r.add_argument("--start", type=int, default=0)
    r.add_argument("--seed", type=int, default=48)
    r.add_argument("--out", type=Path, required=True)
    r.set_defaults(run=run)
    p = sub.add_parser("report")
    p.add_argument("files", type=Path, nargs="+")
    p.set_defaults(run=report)
    q = sub.add_parser("played", help="the deals where the choices differ, played by pimc")
    q.add_argument("run_file", type=Path)
    q.add_argument("--deals", type=int, default=100)
    q.add_argument("--start", type=int, default=0, help="skip this many deals")
    q.add_argument("--seed", type=int, default=48)
    q.add_argument("--out", type=Path, required=True)
    q.set_defaults(run=played)
    pr = sub.add_parser("played-report")
    pr.add_argument("files", type=Path, nargs="+")
    pr.set_defaults(run=played_report)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
