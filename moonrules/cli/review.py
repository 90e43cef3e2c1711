"""``moonrules review RECORD``: every decision of a game graded against its alternatives.

Each call, discard, trump and tile played is valued double dummy and single dummy (over
deals consistent with what the seat could see, weighted by the calls it had seen:
:func:`moonrules.bots.inference.inferred_worlds`), the loss of the choice marked ``?!``,
``?`` or ``??`` (:mod:`moonrules.analysis.review` defines the values, the thresholds and
the accuracy).
Exit status: 0 reviewed, 1 the record breaks a rule (arbitration's ruling is printed, then
the review of the legal part before it), 2 it cannot be read or an option is wrong.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path

from moonrules.analysis.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    SAMPLES,
    Review,
    action_json,
    review,
    review_json,
)
from moonrules.arbitration import check
from moonrules.arbitration.review_html import review_html
from moonrules.bots.inference import inferred_worlds
from moonrules.cli.check import add_max_bytes, load, ruled_in, unreadable
from moonrules.cli.lang import add_lang_argument, chosen_language, lines_in, page_in
from moonrules.cli.main import error
from moonrules.cli.options import check_output, check_workers, whole_number
from moonrules.cli.progress import ProgressLine
from moonrules.i18n import SOURCE_LANGUAGE
from moonrules.i18n.report import PageWords
from moonrules.records.record import RecordError

HELP = "review a game record: every call, discard, trump and tile against the alternatives"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "record", metavar="RECORD", help="the record file (JSON or notation); - for stdin"
    )
    p.add_argument("--seat", type=whole_number, metavar="S", help="only seat S's decisions")
    p.add_argument("--hand", type=whole_number, metavar="K", help="only hand K (from 1)")
    p.add_argument(
        "--samples",
        type=whole_number,
        default=SAMPLES,
        metavar="N",
        help=f"deals per decision for the single-dummy values (default {SAMPLES}; "
        "0: double dummy only)",
    )
    p.add_argument("--seed", type=whole_number, default=0, metavar="N", help="default 0")
    p.add_argument(
        "--jobs",
        type=whole_number,
        default=1,
        metavar="N",
        help="processes sharing the decisions (the result is the same for any N)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the review as JSON (spec/schema/cli/review.schema.json)",
    )
    p.add_argument("--html", metavar="FILE", help="also write the review as one HTML page")
    p.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    add_lang_argument(p, "the report and the review")
    add_max_bytes(p)


def run(args: argparse.Namespace) -> int:
    prog = "moonrules review"
    check_workers(args.jobs, "--jobs")
    if args.html:
        check_output(args.html, "--html")
    try:
        source, name = load(args.record, args.max_bytes)
    except RecordError as e:
        return unreadable("review", args.record, e)
    report = check(source)
    state = report.state
    players = state.rules.players
    if args.seat is not None and args.seat >= players:
        return error(prog, f"--seat: a seat from 0 to {players - 1}, not {args.seat}")
    lang = chosen_language(args, "review") if not args.json else SOURCE_LANGUAGE
    if report.status:
        text, notice = ruled_in(report, lang)
        print(text)
        if notice:
            print(f"moonrules review: {notice}", file=sys.stderr)
        print()
        print(*lines_in(["The review of the legal part before the ruling:"], lang, "review"))
    with ProgressLine("review", "decisions", quiet=args.quiet) as progress:
        result = review(
            state,
            seat=args.seat,
            hand=args.hand,
            samples=args.samples,
            seed=args.seed,
            jobs=args.jobs,
            worlds=inferred_worlds,
            progress=lambda done, total: progress(done, total=total),
        )
    if args.json:
        print(json.dumps(review_json(result), indent=2))
    else:
        print("\n".join(lines_in(format_review(result).splitlines(), lang, "review")))
    if args.html:
        Path(args.html).write_text(review_page(result, Path(name).name, lang), encoding="utf-8")
    return report.status


def review_page(result: Review, name: str, lang: str) -> str:
    """The review of the record file ``name`` as an HTML page in ``lang``; a one-line notice
    on stderr says how many of its sentences have no translation yet and stay English."""
    return page_in(
        lang,
        "review",
        "review",
        "Moon game review: {name}",
        name,
        functools.partial(review_html, result),
        lambda: PageWords(lang),
    )


def format_review(r: Review) -> str:
    """The review as text: each player's summary, then each marked decision."""
    lines = [
        f"Review: {r.samples} deals per decision, seed {r.seed}; marks by expected points "
        f"lost: ?! {INACCURACY}, ? {MISTAKE}, ?? {BLUNDER} (not within the noise)",
        "",
        "seat  decisions   ?!    ?   ??  points lost  accuracy",
    ]
    for p in r.players:
        acc = "-" if p.accuracy is None else f"{p.accuracy:.1f}%"
        lines.append(
            f"{p.seat:>4}  {p.decisions:>9}  {p.marks[0]:>3}  {p.marks[1]:>3}  {p.marks[2]:>3}"
            f"  {p.points_lost:>11.2f}  {acc:>8}"
        )
    for h in r.hands:
        marked = [d for d in h.decisions if d.mark]
        lines.append("")
        lines.append(f"Hand {h.number}: {len(h.decisions)} decisions, {len(marked)} marked")
        for d in marked:
            where = f"trick {d.trick} " if d.trick is not None else ""
            best = max(
                d.alternatives,
                key=lambda a: a.dd_points if a.sd_points is None else a.sd_points,
            )
            lines.append(
                f"  seat {d.seat} {where}{d.kind} {action_json(d.chosen)}{d.mark}: "
                f"loses {d.loss:.2f} points (± {d.noise:.2f}); best {action_json(best.action)}"
            )
    return "\n".join(lines)


__all__ = ["format_review", "review_page", "run"]
