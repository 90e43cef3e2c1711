"""An all-bot event, timed, and its agreement with ``moonrules match --duplicate``.

The default event is three bots (``random``, ``basic``, ``pimc``) on twelve boards as a
duplicate event of people would hold them: six copies of each bot, six tables a round, so
that every board is played in each of the six seatings of the three bots (the seatings of
``match --duplicate --bots random,basic,pimc``), three rounds of four boards, each copy
holding each seat for four boards; scored by points (each seat's points less the seat's
mean on the board). That is exactly ``match --duplicate --deals 12`` with the same seed:

- every result of the event is compared with the hand ``match --duplicate`` plays for that
  deal in that seating (bidder, bid, made, each seat's points): they must be the same;
- :func:`moonrules.bots.match.duplicate_summary` of the event's own hands (from its
  records, :func:`moonrules.tournament.scoring.duplicate_hands`) must equal the match's;
- the event's points, summed over a bot's six copies and divided by its 72 seat-hands, must
  be the match's mean points per deal for that bot less the three bots' average (the seat's
  mean the event subtracts is the three bots' mean on that deal).

``--file FILE`` runs another all-bot tournament file instead (e.g.
``examples/tournament-bots.toml``): each result is compared with the hand ``match
--duplicate`` plays for its deal and seating (the match's own per-hand code, for those hands
alone), and the two summaries of those hands must be equal.

Prints the event's time (wall clock and CPU, this process and its workers), the match's,
the standings, and the agreement, one line per bot. Exit status 1 if anything disagrees.

    python bench/tournament.py [--jobs 2] [--seed 2026] [--file FILE]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from moonrules.bots.match import (  # noqa: E402
    DuplicateHand,
    _HandJob,
    _play_hand,
    arrangements,
    bot_by_name,
    duplicate_summary,
    run_duplicate,
)
from moonrules.cli.tournament import standings_lines  # noqa: E402
from moonrules.tournament.event import Tournament, load_tournament, parse_tournament  # noqa: E402
from moonrules.tournament.log import EventState, fold  # noqa: E402
from moonrules.tournament.run import run_event  # noqa: E402
from moonrules.tournament.scoring import duplicate_hands, standings  # noqa: E402

T = TypeVar("T")
LEVELS = ("random", "basic", "pimc")
LETTER = {"random": "R", "basic": "B", "pimc": "P"}


def three_bots(seed: int, rounds: int = 3, boards_per_round: int = 4) -> str:
    """The default event's file (see the module): table ``k`` seats the ``k``-th seating of
    ``match --duplicate``, turned by one seat each round."""
    seatings = arrangements("standard", LEVELS)
    players = ", ".join(
        f'{{name = "{LETTER[lv]}{k + 1}", bot = "{lv}"}}' for lv in LEVELS for k in range(6)
    )
    rounds_text = []
    for r in range(rounds):
        tables = []
        for k, seating in enumerate(seatings):
            turned = seating[-r % 3 :] + seating[: -r % 3] if r % 3 else seating
            tables.append("[" + ", ".join(f'"{LETTER[lv]}{k + 1}"' for lv in turned) + "]")
        rounds_text.append(f"[[movement]]\ntables = [{', '.join(tables)}]\n")
    return (
        'name = "Three bots, twelve boards"\nformat = "three-seat"\nrules = "standard"\n'
        f'seed = {seed}\nscoring = "points"\nrounds = {rounds}\n'
        f"boards_per_round = {boards_per_round}\nplayers = [{players}]\n\n" + "\n".join(rounds_text)
    )


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    wall, used = time.perf_counter(), cpu()
    out = fn(*args, **kwargs)
    print(f"{what}: {time.perf_counter() - wall:.1f} s wall clock, {cpu() - used:.1f} s CPU")
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--seed", type=int, default=2026, help="the event's and match's seed")
    p.add_argument(
        "--boards-per-round", type=int, default=4, help="the default event's (default 4: 12 boards)"
    )
    p.add_argument("--file", type=Path, help="an all-bot tournament file instead")
    args = p.parse_args()
    t: Tournament = (
        load_tournament(args.file)
        if args.file
        else parse_tournament(three_bots(args.seed, 3, args.boards_per_round))
    )
    boards = t.rounds * t.boards_per_round
    print(f"{t.name}: {len(t.entries)} bots, {t.rounds} round(s) of {t.boards_per_round} boards")
    outcome = timed(f"the event ({args.jobs} job(s))", run_event, t, jobs=args.jobs)
    if outcome.skipped:
        print("not an all-bot event: " + "; ".join(outcome.skipped), file=sys.stderr)
        return 2
    state = fold(outcome.entries)
    ours = duplicate_hands(state)
    if args.file is None:
        matched = timed(
            f"match --duplicate --bots {','.join(LEVELS)} --deals {boards} --seed {t.seed}",
            run_duplicate,
            "standard",
            list(LEVELS),
            boards,
            seed=t.seed,
            workers=args.jobs,
        )
    else:
        wanted = sorted({(h.index, h.seats) for h in ours})
        jobs = [_HandJob(t.rules, t.seed, i, 0, seats, bot_by_name, False) for i, seats in wanted]
        matched = timed(
            f"match --duplicate's {len(jobs)} hands of the same deals and seatings",
            lambda: [_play_hand(j) for j in jobs],
        )
    print()
    print("\n".join(standings_lines(standings(state))))
    print()
    return agreement(t, state, ours, matched)


def agreement(
    t: Tournament, state: EventState, ours: list[DuplicateHand], matched: list[DuplicateHand]
) -> int:
    theirs = {(h.index, h.seats): h for h in matched}
    same = sum(1 for h in ours if theirs[(h.index, h.seats)].hand == h.hand)
    print(f"hands the same as match --duplicate's: {same} of {len(ours)}")

    def key(h: DuplicateHand) -> tuple[int, tuple[str, ...]]:
        return (h.index, h.seats)

    mine = duplicate_summary(t.rules, sorted(ours, key=key))
    match = duplicate_summary(t.rules, sorted((theirs[key(h)] for h in ours), key=key))
    print(f"duplicate summary the same: {'yes' if mine == match else 'NO'}")
    ok = same == len(ours) and mine == match
    if t.scoring == "points" and {b.name for b in match.bots} == set(LEVELS):
        total: dict[str, Fraction] = {}
        hands: dict[str, int] = {}
        levels = {p.name: p.bot or p.name for e in state.entries for p in e.players}
        for row in standings(state).rows:
            lv = levels[row.entry]
            total[lv] = total.get(lv, Fraction(0)) + Fraction(row.score)
            hands[lv] = hands.get(lv, 0) + row.boards
        field = sum(b.points_per_hand for b in match.bots) / len(match.bots)
        print(f"{'bot':<7}  {'event pts/hand':>14}  {'match pts/hand':>14}  {'less field':>10}")
        for b in match.bots:
            event = float(total[b.name] / hands[b.name])
            agree = abs(event - (b.points_per_hand - field)) < 1e-9
            ok = ok and agree
            relative = b.points_per_hand - field
            print(
                f"{b.name:<7}  {event:>14.4f}  {b.points_per_hand:>14.4f}  {relative:>10.4f}"
                f"  {'agrees' if agree else 'DISAGREES'}"
            )
    else:
        for b in match.bots:
            print(f"{b.name:<7}  mean points per deal {b.points_per_hand:.4f} (both)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
