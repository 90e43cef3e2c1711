"""``moonrules solve RECORD``: double-dummy values of the position a record ends in.

The record (JSON or the notation) must end mid-hand in the play phase. With every
hand known, prints the tricks the bidder's side ends the hand with under best
play by everyone, and the same figure after each legal play of the player to act;
``--json`` prints the same as one JSON object (``spec/schema/solve.schema.json``).
Exit status 0, or 2 for a record that cannot be read, breaks a rule, or does not
end in the play phase.
"""

from __future__ import annotations

import argparse
import json

from moonrules.analysis.solver import play_values, solve
from moonrules.arbitration import check
from moonrules.cli.check import add_max_bytes, load, unreadable
from moonrules.cli.main import error
from moonrules.game import GameState, Phase
from moonrules.records.record import RecordError
from moonrules.rules.tiles import Tile

HELP = "double-dummy: the value of each legal play in the position a record ends in"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", metavar="RECORD", help="the record (JSON or notation); - for stdin")
    add_max_bytes(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="print the values as JSON (spec/schema/solve.schema.json)",
    )


def position_json(state: GameState) -> dict[str, object]:
    """The position of a hand in play: what ``solve --json`` and ``claim --json`` show of it."""
    assert state.trump is not None and state.bid is not None
    return {
        "hand": state.hand_number,
        "trick": len(state.tricks) + 1,
        "bidder": state.bidder,
        "bid": state.bid,
        "trump": state.trump.to_json(),
        "tricks_won": list(state.tricks_won),
        "hands": [[str(t) for t in reversed(hand)] for hand in state.hands],
        "trick_so_far": [str(t) for t in state.trick],
        "leader": state.leader,
        "to_act": state.to_act,
    }


def run(args: argparse.Namespace) -> int:
    try:
        source, _name = load(args.record, args.max_bytes)
        report = check(source)
    except RecordError as e:
        return unreadable("solve", args.record, e)
    ruling = report.ruling
    if ruling is not None and ruling.step != "claim":
        return error("moonrules solve", f"the record breaks a rule: {ruling.text}")
    state = report.state
    if state.is_over or state.phase is not Phase.PLAY:
        return error(
            "moonrules solve",
            "the record must end mid-hand, while tiles are being played "
            f"(it ends in the {'end of the game' if state.is_over else state.phase.value} "
            "phase)",
        )
    rules = state.rules
    bidder = state.bidder
    assert bidder is not None and state.bid is not None and state.trump is not None
    side = f"team {rules.side_of(bidder)}" if rules.partnership else f"seat {bidder}"
    need = 7 if state.bid == 21 else state.bid
    value = solve(state)
    plays: list[tuple[Tile, int]] = sorted(
        play_values(state).items(), key=lambda kv: (-kv[1], kv[0])
    )
    if args.json:
        doc = {
            **position_json(state),
            "side": rules.side_of(bidder),
            "needed": need,
            "value": value,
            "makes": value >= need,
            "plays": [{"tile": str(tile), "value": after} for tile, after in plays],
        }
        print(json.dumps(doc, indent=2))
        return 0
    print(
        f"Hand {state.hand_number}: {side} bid {state.bid}, trump {state.trump}; "
        f"tricks so far {list(state.tricks_won)}"
    )
    for seat, hand in enumerate(state.hands):
        print(f"  seat {seat}: {' '.join(str(t) for t in reversed(hand))}")
    if state.trick:
        print(
            f"  trick in progress: {' '.join(str(t) for t in state.trick)} "
            f"(led by seat {state.leader})"
        )
    verdict = "makes" if value >= need else "is set"
    print(f"With best play the bidder's side takes {value} trick(s) and {verdict} ({need} needed).")
    print(f"Seat {state.to_act} to play:")
    for tile, after in plays:
        print(f"  {tile}: {after}")
    return 0
