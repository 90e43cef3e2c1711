"""``moonrules study run DIR`` and ``moonrules study report DIR``: bidding studies.

``run`` deals ``--deals`` seeded hands, solves each for each seat as bidder under
each trump the rule set offers, and writes the rows to ``DIR`` in chunks
(Parquet, or CSV with ``--csv``), on ``--workers`` local processes or on a
Dask cluster (``--scheduler tcp://HOST:PORT``). Running it again continues an
interrupted study; a chunk file that does not hold its chunk's rows is computed
again, with a line on stderr. ``report`` writes bidding tables and plots from the
rows. Progress lines go to stderr (``--quiet``: none); ``--json`` prints the result
as JSON (``spec/schema/study-run.schema.json``, ``study-report.schema.json``).
Exit status 0, or 2 for bad settings, a directory holding another study (or being
written by another run), or a scheduler that cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from moonrules.cli.options import MAX_WORKERS, check_range, seconds, whole_number
from moonrules.cli.progress import ProgressLine

HELP = "bidding studies: double-dummy tricks over many seeded deals, and tables from them"


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="study_command", metavar="ACTION")
    sub.required = True
    r = sub.add_parser(
        "run",
        help="compute (or continue) a study",
        description="compute or continue a study: one row per deal, seat as bidder and trump",
    )
    r.add_argument("directory", metavar="DIR", type=Path, help="the study directory")
    r.add_argument("--deals", type=whole_number, default=1000, help="how many deals (default 1000)")
    r.add_argument(
        "--seed", type=whole_number, default=0, help="deal k is seeded_deal(rules, seed, k)"
    )
    r.add_argument("--rules", default="standard", help="a preset name (default standard)")
    r.add_argument("--chunk", type=whole_number, default=100, help="deals per chunk (default 100)")
    r.add_argument("--csv", action="store_true", help="write CSV instead of Parquet")
    r.add_argument(
        "--workers",
        type=whole_number,
        default=os.cpu_count() or 1,
        help="local processes (default: one per CPU)",
    )
    r.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT", help="run on this Dask distributed scheduler"
    )
    r.add_argument(
        "--timeout",
        type=seconds("the timeout"),
        default=10.0,
        help="seconds to wait for the scheduler to answer (default 10)",
    )
    r.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    r.add_argument("--json", action="store_true", help="print the result as JSON")
    r.set_defaults(_study=_run)
    rep = sub.add_parser(
        "report",
        help="bidding tables and plots from a study",
        description="write bidding tables (Markdown, CSV) and plots (PNG) from a study's rows",
    )
    rep.add_argument("directory", metavar="DIR", type=Path, help="the study directory")
    rep.add_argument("--out", type=Path, help="where to write (default DIR/report)")
    rep.add_argument(
        "--min-count",
        type=whole_number,
        default=30,
        help="cells with fewer hands are left blank (default 30)",
    )
    rep.add_argument("--json", action="store_true", help="print the files written as JSON")
    rep.set_defaults(_study=_report)


def run(args: argparse.Namespace) -> int:
    status: int = args._study(args)
    return status


def _no_stop() -> None:
    pass


def _run(args: argparse.Namespace) -> int:
    from moonrules.cli.conform import stopped_by_signals
    from moonrules.study.run import Progress, run_study, settings_for

    settings = settings_for(args.rules, args.seed, args.deals, args.chunk, args.csv)
    check_range(args.workers, "workers", 1, MAX_WORKERS)
    recomputed: list[str] = []

    def warn(message: str) -> None:
        recomputed.append(message)
        print(f"moonrules study run: warning: {message}", file=sys.stderr, flush=True)

    with ProgressLine("study", "deals", total=settings.deals, quiet=args.quiet) as line:
        started = False
        check = _no_stop

        def show(p: Progress) -> None:
            nonlocal started
            check()  # a Ctrl-C whose KeyboardInterrupt was lost (see stopped_by_signals)
            if not started:  # the deals of an earlier run count in the total, not the rate
                line.start_count(p.done)
                started = True
            line.update(p.done)

        try:
            # SIGINT, SIGTERM, SIGHUP: the pool is stopped
            with stopped_by_signals(interrupt=True) as check:
                final = run_study(
                    args.directory,
                    settings,
                    workers=args.workers,
                    scheduler=args.scheduler,
                    progress=show,
                    timeout=args.timeout,
                    warn=warn,
                )
                check()
        except KeyboardInterrupt:
            line.close()
            print(
                "moonrules study run: interrupted; run the same command again to continue",
                file=sys.stderr,
            )
            return 130
    where = args.scheduler or f"{args.workers} local worker(s)"
    if args.json:
        doc = {
            "directory": str(args.directory),
            "done": final.done,
            "total": final.total,
            "new": final.new,
            "seconds": round(final.elapsed, 3),
            "deals_per_second": round(final.rate, 3),
            "workers": None if args.scheduler else args.workers,
            "scheduler": args.scheduler,
            "recomputed": recomputed,
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0
    print(
        f"{final.done}/{final.total} deals in {args.directory} "
        f"({final.new} computed now on {where} in {final.elapsed:.1f} s, "
        f"{final.rate:.2f} deals/s)"
    )
    return 0


def _report(args: argparse.Namespace) -> int:
    from moonrules.study.report import write_report

    check_range(args.min_count, "--min-count", 1, 10**9)
    out = args.out or args.directory / "report"
    written = write_report(args.directory, out, min_count=args.min_count)
    if args.json:
        doc = {
            "directory": str(args.directory),
            "out": str(out),
            "written": list(map(str, written)),
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0
    for path in written:
        print(path)
    return 0
