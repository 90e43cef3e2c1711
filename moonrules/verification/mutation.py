"""The catalogue under mutation: one-line mutants of the rules, each caught by ``verify --quick``.

A mutant (:class:`Mutant`) is one line of a source file of ``moonrules/rules/``,
``moonrules/kernel/`` or ``moonrules/game/`` replaced by another: a comparison flipped, an
off-by-one, a wrong seat, a constant changed. The list is data (``tests/rule_mutants.toml``):
for each, the file, the exact original line, its replacement, what it breaks, the clauses it
breaks and the properties of the catalogue that catch it.

:func:`run_all` copies the package once per mutant into a temporary directory (never touching
the working tree), applies the mutant to the copy, and runs ``python -m moonrules verify --quick
--json`` on it with ``PYTHONPATH`` pointing at the copy and ``MOONRULES_PURE_PYTHON=1`` (so that
no compiled module of the original shadows the mutated source). A mutant is *caught* when that
run reports failing properties, the ones the list names among them; the unmutated copy must
pass; and every original line must occur exactly once in its file, so that the list cannot rot
silently when the sources change.

The unmutated copy runs the whole catalogue. A mutant runs only the properties the list names
for it (:func:`checked_properties`): each property is checked on its own, from fixed seeds, so
whether it fails does not depend on which others run, and the verdict is the one the whole
catalogue would give, at a tenth of the cost. ``--every-property`` runs the whole catalogue on
each mutant, to see every property that catches it (when writing an entry of the list)::

    python -m moonrules.verification.mutation            # every mutant, two at a time
    python -m moonrules.verification.mutation --check    # only the list's validity (instant)
    python -m moonrules.verification.mutation --jobs 1 --only team-tricks,score-5-wins
    python -m moonrules.verification.mutation --every-property --only team-tricks
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

import attrs

import moonrules
from moonrules.verification.catalogue import CATALOGUE

PACKAGE_DIR: Final = Path(moonrules.__file__).resolve().parent
"""The package the mutants are applied to (a copy of it)."""
DEFAULT_LIST: Final = PACKAGE_DIR.parent / "tests" / "rule_mutants.toml"
"""The list of a checkout."""
MUTABLE: Final = (
    "moonrules/rules/",
    "moonrules/kernel/",
    "moonrules/game/",
    "moonrules/engine/",
)
"""The directories whose source files a mutant may change."""
TIMEOUT: Final = 900.0
"""Seconds one ``verify --quick`` run may take before it counts as a failure of the runner."""
_ID: Final = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_CLAUSE: Final = re.compile(r"[A-Z]+-\d+")
_FIELDS: Final = {"id", "file", "line", "replacement", "breaks", "clauses", "killed_by"}


class MutantListError(ValueError):
    """A mutant list that cannot be read: the message names the entry and the field."""


@attrs.frozen(slots=True)
class Mutant:
    """One one-line change to the rules, the kernel or the game."""

    id: str
    """A short lower-case name."""
    file: str
    """The file changed, relative to the package's parent (``moonrules/rules/scoring.py``)."""
    line: str
    """The original line, exactly (indentation included, no line end)."""
    replacement: str
    """The line put in its place."""
    breaks: str
    """What the change breaks, in words."""
    clauses: tuple[str, ...]
    """The clauses of ``spec/rules.md`` it breaks."""
    killed_by: tuple[str, ...]
    """The properties of the catalogue that must fail on it under ``--quick``."""

    def apply(self, text: str) -> str:
        """``text`` (the file's source) with the mutant's line replaced; :class:`ValueError`
        unless the line occurs exactly once."""
        lines = text.split("\n")
        where = [i for i, x in enumerate(lines) if x == self.line]
        if len(where) != 1:
            raise ValueError(f"{self.id}: the line occurs {len(where)} times in {self.file}")
        lines[where[0]] = self.replacement
        return "\n".join(lines)


def _strings(entry: dict[str, object], key: str, where: str) -> tuple[str, ...]:
    value = entry[key]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise MutantListError(f"{where}: {key} must be a non-empty list of strings")
    return tuple(str(v) for v in value)


def parse(text: str, source: str = "the mutant list") -> tuple[Mutant, ...]:
    """The mutants of a TOML list (``[[mutant]]`` tables); :class:`MutantListError` names the
    entry and field that is wrong."""
    if not isinstance(text, str):
        raise TypeError(f"text: expected the TOML text of a mutant list, not {type(text).__name__}")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise MutantListError(f"{source} is not TOML: {e}") from None
    entries = doc.get("mutant")
    if set(doc) != {"mutant"} or not isinstance(entries, list):
        raise MutantListError(f"{source}: expected only [[mutant]] tables")
    out = []
    for n, entry in enumerate(entries, 1):
        where = f"{source}, mutant {n}"
        if set(entry) != _FIELDS:
            missing, extra = sorted(_FIELDS - set(entry)), sorted(set(entry) - _FIELDS)
            raise MutantListError(f"{where}: missing {missing}, unknown {extra}")
        for key in ("id", "file", "line", "replacement", "breaks"):
            if not isinstance(entry[key], str) or not entry[key]:
                raise MutantListError(f"{where}: {key} must be a non-empty string")
        out.append(
            Mutant(
                entry["id"],
                entry["file"],
                entry["line"],
                entry["replacement"],
                entry["breaks"],
                _strings(entry, "clauses", where),
                _strings(entry, "killed_by", where),
            )
        )
    return tuple(out)


def load(path: Path | str = DEFAULT_LIST) -> tuple[Mutant, ...]:
    """The mutants listed in the TOML file ``path``."""
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path: expected a path to a mutant list, not {type(path).__name__}")
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MutantListError(f"cannot read the mutant list {p}: {e}") from None
    return parse(text, str(p))


def problems(
    mutants: Sequence[Mutant], root: Path = PACKAGE_DIR.parent, clauses: Iterable[str] = ()
) -> list[str]:
    """Everything wrong with a list, checked against the sources under ``root`` (the package's
    parent): each line once in its file, each file one the mutants may change, ids unique, a
    real change, clauses known (when ``clauses`` is given) and properties of the catalogue."""
    out: list[str] = []
    known = {p.id for p in CATALOGUE}
    spec = set(clauses)
    seen: set[str] = set()
    for m in mutants:
        if not _ID.fullmatch(m.id) or m.id in seen:
            out.append(f"{m.id}: ids are lower-case words joined by '-', each used once")
        seen.add(m.id)
        if not m.file.startswith(MUTABLE) or not m.file.endswith(".py") or ".." in m.file:
            out.append(f"{m.id}: {m.file} is not a source file of {', '.join(MUTABLE)}")
            continue
        path = root / m.file
        if not path.is_file():
            out.append(f"{m.id}: {m.file} does not exist")
            continue
        count = path.read_text(encoding="utf-8").split("\n").count(m.line)
        if count != 1:
            out.append(f"{m.id}: its line occurs {count} times in {m.file}: {m.line.strip()!r}")
        if m.replacement == m.line or "\n" in m.replacement:
            out.append(f"{m.id}: the replacement must be one different line")
        bad = [c for c in m.clauses if not _CLAUSE.fullmatch(c) or (spec and c not in spec)]
        if bad:
            out.append(f"{m.id}: unknown clauses {bad}")
        unknown = [p for p in m.killed_by if p not in known]
        if unknown:
            out.append(f"{m.id}: unknown properties {unknown}")
    return out


@attrs.frozen(slots=True)
class Run:
    """One ``verify --quick`` run on a copy of the package, mutated or not."""

    mutant: Mutant | None
    """``None`` for the unmutated copy."""
    failed: tuple[str, ...]
    """The properties that failed."""
    seconds: float
    error: str | None = None
    """Why the run gave no verdict (it crashed, timed out, or ran another package)."""

    @property
    def ok(self) -> bool:
        """The unmutated copy passes; a mutant fails every property it names, and others may."""
        if self.error is not None:
            return False
        if self.mutant is None:
            return not self.failed
        return bool(self.failed) and set(self.mutant.killed_by) <= set(self.failed)

    def describe(self) -> str:
        """One line: the mutant (or the unmutated copy), the verdict and the properties."""
        name = "unmutated copy" if self.mutant is None else self.mutant.id
        if self.error is not None:
            return f"{name}: ERROR {self.error} ({self.seconds:.0f} s)"
        failed = ", ".join(self.failed) or "nothing"
        if self.mutant is None:
            verdict = "passes" if self.ok else f"FAILS {failed}"
        elif self.ok:
            verdict = f"caught by {failed}"
        elif not self.failed:
            verdict = "SURVIVES: every property holds"
        else:
            missed = ", ".join(p for p in self.mutant.killed_by if p not in self.failed)
            verdict = f"caught by {failed}, but NOT by {missed} as the list says"
        return f"{name}: {verdict} ({self.seconds:.0f} s)"


_LIVE: set[subprocess.Popen[str]] = set()
"""The verify runs under way (each in a session of its own), ended if the runner is stopped."""
_LOCK = threading.Lock()


def _end(proc: subprocess.Popen[str]) -> None:
    """End ``proc``'s whole process group, if it still runs, and reap it."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


def _copy_package(dest: Path) -> Path:
    """A copy of the package's Python sources under ``dest``; the directory to put on the path."""
    shutil.copytree(
        PACKAGE_DIR,
        dest / "moonrules",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.c", "build"),
    )
    return dest


def _verify(root: Path, only: str | None, timeout: float) -> tuple[tuple[str, ...], str | None]:
    """Run ``verify --quick --json`` on the package under ``root``: the failed properties, or
    why there is no verdict. The process group is ended on a timeout."""
    env = {**os.environ, "PYTHONPATH": str(root), "MOONRULES_PURE_PYTHON": "1"}
    env.pop("PYTHONSTARTUP", None)
    script = (
        "import sys, moonrules, runpy; "
        f"assert moonrules.__file__.startswith({str(root)!r}), moonrules.__file__; "
        "sys.argv = ['moonrules', *sys.argv[1:]]; "
        "runpy.run_module('moonrules', run_name='__main__')"
    )
    args = [sys.executable, "-c", script, "verify", "--quick", "--json", "--quiet"]
    if only:
        args += ["--only", only]
    proc = subprocess.Popen(
        args,
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    with _LOCK:
        _LIVE.add(proc)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _end(proc)
        return (), f"no answer in {timeout:.0f} s"
    finally:
        _end(proc)
        with _LOCK:
            _LIVE.discard(proc)
    try:
        doc = json.loads(out)
        failed = tuple(str(p["id"]) for p in doc["properties"] if p["result"] != "pass")
    except (ValueError, KeyError, TypeError):
        tail = (err.strip().splitlines() or ["no output"])[-1]
        return (), f"verify exited {proc.returncode} without a report: {tail}"
    if (proc.returncode == 0) == bool(failed):
        return failed, f"verify exited {proc.returncode} with {len(failed)} failures"
    return failed, None


def run_one(mutant: Mutant | None, only: str | None = None, timeout: float = TIMEOUT) -> Run:
    """Copy the package, apply ``mutant`` (none: the unmutated copy) and run verify on it."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="moonrules-mutant-") as tmp:
        root = _copy_package(Path(tmp))
        if mutant is not None:
            path = root / mutant.file
            try:
                path.write_text(mutant.apply(path.read_text(encoding="utf-8")), encoding="utf-8")
            except ValueError as e:
                return Run(mutant, (), time.perf_counter() - start, str(e))
        failed, error = _verify(root, only, timeout)
    return Run(mutant, failed, time.perf_counter() - start, error)


def checked_properties(
    mutant: Mutant | None, only: str | None = None, every_property: bool = False
) -> str | None:
    """The properties a run checks, as ``verify --only`` takes them (``None``: all of them).

    ``only`` when given; else the whole catalogue for the unmutated copy and under
    ``every_property``, and the properties the list names for a mutant otherwise."""
    if only is not None:
        return only
    if mutant is None or every_property:
        return None
    return ",".join(mutant.killed_by)


def run_all(
    mutants: Sequence[Mutant],
    jobs: int = 2,
    only: str | None = None,
    timeout: float = TIMEOUT,
    report: bool = True,
    every_property: bool = False,
) -> list[Run]:
    """The unmutated copy and then every mutant, ``jobs`` at a time, each run checking
    :func:`checked_properties`; each line printed as it finishes when ``report`` is set."""
    todo: list[Mutant | None] = [None, *mutants]
    runs: list[Run] = []
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))

    def one(m: Mutant | None) -> Run:
        return run_one(m, checked_properties(m, only, every_property), timeout)

    try:
        for r in pool.map(one, todo):
            runs.append(r)
            if report:
                print(r.describe(), flush=True)
    except BaseException:  # Ctrl-C: no run is left behind
        pool.shutdown(wait=False, cancel_futures=True)
        with _LOCK:
            for proc in list(_LIVE):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
        raise
    pool.shutdown()
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's docstring); exit status 0 when every mutant is
    caught and the unmutated copy passes, 1 otherwise, 2 for an invalid list."""
    parser = argparse.ArgumentParser(
        prog="python -m moonrules.verification.mutation",
        description="Check that verify --quick catches every one-line mutant of the rules.",
    )
    parser.add_argument("--list", type=Path, default=DEFAULT_LIST, help="the mutant list (TOML)")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--only", metavar="ID[,ID]", help="only these mutants")
    parser.add_argument("--check", action="store_true", help="only check the list's validity")
    parser.add_argument(
        "--every-property",
        action="store_true",
        help="run the whole catalogue on each mutant, not only the properties the list names "
        "(about ten times longer; shows every property that catches it)",
    )
    args = parser.parse_args(argv)
    try:
        mutants = load(args.list)
    except MutantListError as e:
        print(f"mutation: {e}", file=sys.stderr)
        return 2
    spec = PACKAGE_DIR.parent / "spec" / "rules.md"
    clauses = (
        re.findall(r"^### ([A-Z]+-\d+) ", spec.read_text("utf-8"), re.M) if spec.exists() else []
    )
    found = problems(mutants, clauses=clauses)
    if found:
        print("\n".join(f"mutation: {p}" for p in found), file=sys.stderr)
        return 2
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {m.id for m in mutants}
        if unknown:
            print(f"mutation: no mutant is called {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        mutants = tuple(m for m in mutants if m.id in wanted)
    if args.check:
        print(f"{len(mutants)} mutants, each line found once")
        return 0
    start = time.perf_counter()
    try:
        runs = run_all(mutants, jobs=args.jobs, every_property=args.every_property)
    except KeyboardInterrupt:
        print("mutation: interrupted", file=sys.stderr)
        return 130
    caught = sum(1 for r in runs[1:] if r.ok)
    print(
        f"{caught} of {len(runs) - 1} mutants caught; the unmutated copy "
        f"{'passes' if runs[0].ok else 'FAILS'} ({time.perf_counter() - start:.0f} s)"
    )
    return 0 if caught == len(runs) - 1 and runs[0].ok else 1


__all__ = [
    "Mutant",
    "MutantListError",
    "Run",
    "checked_properties",
    "load",
    "main",
    "parse",
    "problems",
    "run_all",
]

if __name__ == "__main__":
    sys.exit(main())
