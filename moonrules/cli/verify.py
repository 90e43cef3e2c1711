"""``moonrules verify``: run the proof catalogue and print what holds.

One line per property: its ID, the clauses it covers, the method, the cases checked (elements,
states, or symbolic paths), the seconds taken and the result. ``--quick`` checks the smaller
domains; ``--only ID[,ID]`` some properties; ``--jobs N`` N at a time, each in a process of its
own; ``--json`` prints one JSON document instead (``spec/schema/cli/verify.schema.json``). Progress
lines go to stderr (``--quiet``: none). Exit status 0 when every property holds, 1 when one
fails (its counterexample is printed), 2 for bad input (an unknown property) or when the proofs'
packages are missing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time

from moonrules.cli.progress import ProgressLine
from moonrules.rules.errors import MoonError, install_extra, quote
from moonrules.verification import CATALOGUE, Result, by_id
from moonrules.verification import run as run_catalogue
from moonrules.verification.runner import MAX_JOBS

HELP = "prove and check the rules: run the catalogue of properties (spec/proofs.md)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--quick", action="store_true", help="check the smaller domains (about half a minute)"
    )
    p.add_argument(
        "--only", metavar="ID[,ID]", help="check only these properties (see --list)", default=None
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the results as JSON (spec/schema/cli/verify.schema.json)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="check N properties at a time, each in a process of its own (default 1)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--list", action="store_true", help="list the properties and exit")


def _clauses(clauses: tuple[str, ...], width: int = 34) -> str:
    text = " ".join(clauses)
    return text if len(text) <= width else text[: width - 1] + "…"


def _row(cells: tuple[str, ...], widths: tuple[int, ...]) -> str:
    return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()


def run(args: argparse.Namespace) -> int:
    props = CATALOGUE
    if args.only is not None:
        ids = [i.strip() for i in args.only.split(",") if i.strip()]
        try:
            props = by_id(ids)
        except KeyError as e:
            known = ", ".join(p.id for p in CATALOGUE)
            raise MoonError(f"no property is called {quote(e.args[0])}; known: {known}") from None
        if not props:
            raise MoonError("--only names no property")
    if args.list:
        for p in props:
            print(f"{p.id}: {p.method} ({' '.join(p.clauses)}) {p.statement}")
        return 0
    missing = sorted({m for p in props for m in p.needs if importlib.util.find_spec(m) is None})
    if missing:
        raise MoonError(
            f"the proofs need {', '.join(missing)}: {install_extra('proofs')}; "
            "or --only the properties that do not"
        )
    if not 1 <= args.jobs <= MAX_JOBS:
        raise MoonError(f"--jobs: a number of processes from 1 to {MAX_JOBS}, not {args.jobs}")
    widths = (16, 34, 19, 10, 8, 6)
    results: list[Result] = []
    if not args.json:
        print(_row(("property", "clauses", "method", "cases", "seconds", "result"), widths))
    start = time.perf_counter()
    with ProgressLine("verify", "properties", total=len(props), quiet=args.quiet) as progress:
        progress.update(0, note=f"checking {props[0].id}")
        for r in run_catalogue(props, quick=args.quick, jobs=args.jobs):
            results.append(r)
            _show(r, args.json, widths, progress)
            k = len(results)
            progress.update(k, note=f"checking {props[k].id}" if k < len(props) else "")
    return _summary(args, results, time.perf_counter() - start)


def _show(r: Result, as_json: bool, widths: tuple[int, ...], progress: ProgressLine) -> None:
    """One property's row (the text output only)."""
    if as_json:
        return
    cells = (
        r.prop.id,
        _clauses(r.prop.clauses),
        str(r.prop.method),
        f"{r.outcome.cases:,}",
        f"{r.seconds:.1f}",
        "pass" if r.ok else "FAIL",
    )
    progress.hide()
    print(_row(cells, widths), flush=True)


def _summary(args: argparse.Namespace, results: list[Result], total: float) -> int:
    """The last line (or the JSON document); ``total`` is the run's wall-clock seconds."""
    failed = [r for r in results if not r.ok]
    cpu = sum(r.cpu_seconds for r in results)
    if args.json:
        doc = {
            "quick": args.quick,
            "passed": not failed,
            "seconds": round(total, 3),
            "cpu_seconds": round(cpu, 3),
            "properties": [r.to_json() for r in results],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print(
            f"{len(results) - len(failed)} of {len(results)} properties hold "
            f"({total:.1f} s, {cpu:.1f} s of CPU)"
        )
        for r in failed:
            print(f"\n{r.prop.id} fails: {r.outcome.counterexample}", file=sys.stderr)
    return 1 if failed else 0
