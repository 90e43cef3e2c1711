"""``moonrules claim RECORD --seat S [--tricks K]``: does a claim hold (CLAIM-1)?

The record ends mid-hand, in the play phase. The seat claims all the remaining
tricks (or at least ``K`` of them for their side); the claim holds only if their
side wins them against every legal line of play by the others, which is found by
exhaustive search. Exit status 0 the claim holds, 1 it fails (a line of play that
defeats it is printed), 2 the record cannot be read or no claim can be made there.
A record in the notation may end with a ``claim`` line, used when ``--seat`` is
not given. ``--json`` prints the answer as one JSON object
(``spec/schema/claim.schema.json``), with the same exit status.
"""

from __future__ import annotations

import argparse
import json

from moonrules.analysis.claim import ClaimError, describe_line, verify_claim
from moonrules.arbitration import check, side_name
from moonrules.cli.check import add_max_bytes, load, unreadable
from moonrules.cli.lang import add_lang_argument, chosen_language, lines_in
from moonrules.cli.main import error
from moonrules.cli.options import whole_number
from moonrules.cli.solve import position_json
from moonrules.records.record import RecordError

HELP = "check a claim of the remaining tricks against every line of play (CLAIM-1)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", metavar="RECORD", help="the record (JSON or notation); - for stdin")
    add_max_bytes(p)
    p.add_argument(
        "--seat", type=whole_number, help="the claimant's seat (default: the record's claim)"
    )
    p.add_argument(
        "--tricks",
        type=whole_number,
        help="claim at least this many of the remaining tricks for the side (default: all)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the answer as JSON (spec/schema/claim.schema.json)",
    )
    add_lang_argument(p, "the answer")


def run(args: argparse.Namespace) -> int:
    try:
        source, _name = load(args.record, args.max_bytes)
        report = check(source)
    except RecordError as e:
        return unreadable("claim", args.record, e)
    ruling = report.ruling
    if ruling is not None and ruling.step != "claim":
        return error("moonrules claim", f"the record breaks a rule before the claim: {ruling.text}")
    seat, tricks = args.seat, args.tricks
    note = source.notation
    if seat is None:
        if note is None or note.claim is None:
            return error("moonrules claim", "say who claims with --seat S")
        seat = note.claim.seat
        tricks = note.claim.tricks if tricks is None else tricks
    state = report.state
    try:
        result = verify_claim(state, seat, tricks)
    except ClaimError as e:
        return error("moonrules claim", f"{e.message} ({e.rule})")
    rules = state.rules
    side = side_name(rules, rules.side_of(seat))
    wanted = (
        f"all {result.remaining} remaining tricks"
        if tricks is None
        else f"{result.claimed} of the {result.remaining} remaining tricks"
    )
    h = state.hand
    if args.json:
        doc = {
            **position_json(state),
            "seat": seat,
            "side": rules.side_of(seat),
            "claimed": result.claimed,
            "remaining": result.remaining,
            "guaranteed": result.guaranteed,
            "holds": result.holds,
            "defeating_line": None
            if result.holds
            else [{"seat": s, "tile": str(t)} for s, t in result.defeating_line],
        }
        print(json.dumps(doc, indent=2))
        return 0 if result.holds else 1
    lines = [f"Hand {h.number}, trick {len(h.tricks) + 1}: seat {seat} claims {wanted}."]
    for s, ts in enumerate(state.hands):
        lines.append(f"  seat {s}: {' '.join(str(t) for t in reversed(ts))}")
    if state.trick:
        lines.append(f"  trick so far: {' '.join(map(str, state.trick))} (seat {h.leader} led)")
    lines.append(f"  trump: {state.trump}")
    if result.holds:
        lines.append(
            f"The claim holds (CLAIM-1): {side} is sure of {result.guaranteed} of the "
            f"{result.remaining} remaining tricks against every line of play by the others."
        )
        if not rules.partnership and result.claimed < result.remaining:
            lines.append(
                "At the table, with three players, a claim is of every trick left (CLAIM-1): "
                f"this answers only whether {side} is sure of {result.claimed}."
            )
    else:
        lines.append(
            f"The claim fails (CLAIM-1): against the best defence {side} is sure of only "
            f"{result.guaranteed} of the {result.remaining} remaining tricks."
        )
        line = describe_line(state, result.defeating_line)
        lines.append(f"A line of play that defeats it: {line}")
    for said in lines_in(lines, chosen_language(args, "claim"), "claim"):
        print(said)
    return 0 if result.holds else 1
