"""Running a study: seeded chunks of deals, solved on a process pool or a Dask cluster.

A study directory holds ``study.json`` (the settings and the version that wrote
them) and one file per finished chunk, ``chunk-000000.parquet`` (or ``.csv``).
Chunk ``c`` holds deals ``c * chunk + 1`` … ``(c + 1) * chunk`` (the last one
may be shorter), computed by :func:`moonrules.study.rows.chunk_rows`, so its
rows depend only on the settings: whatever ran them, and in whatever order,
the files are the same, byte for byte. Each chunk is written to a temporary
file and renamed into place once complete, with Ctrl-C held back meanwhile
(:func:`moonrules.records.files.write_atomically`): an interrupted study loses no
finished chunk and leaves no partial file, and running it again computes only the
missing ones. A chunk file is counted as done only once it is read back and
checked (its columns, its number of rows, every number in its range): one that
is not (a truncated or foreign file) is computed again. One run at a time writes
to a directory (a second is refused while the first holds its lock), and a run
removes what a killed one left half written.

Chunks run in this process (``workers=1``), on a local process pool
(``workers > 1``), or on a Dask distributed cluster (``scheduler="tcp://HOST:PORT"``,
whose workers must have moonrules installed); the rows come back here and are
written by this process, so the workers need no shared disk.
"""

from __future__ import annotations

import contextlib
import csv
import gc
import hashlib
import importlib
import io
import json
import multiprocessing
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import attrs

from moonrules import __version__
from moonrules.game.deal import SEED_LIMIT
from moonrules.records.files import OutputError, is_temporary, write_atomically
from moonrules.records.jsontext import TooLarge, loads, read_bounded, size_text
from moonrules.records.record import RecordError, rules_from_json
from moonrules.rules.contract import (
    check_callable,
    check_instance,
    check_int,
    check_number,
    check_str,
    typed,
)
from moonrules.rules.errors import MoonError, install_extra, quote, shown
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.study.rows import COLUMNS, chunk_rows

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "FORMAT_VERSION",
    "Progress",
    "ProgressPrinter",
    "StudyError",
    "StudySettings",
    "chunk_path",
    "missing_chunks",
    "open_study",
    "read_chunk",
    "read_rows",
    "run_study",
]

FORMAT_VERSION: Final = 1
"""The version of the study directory's layout and rows; a directory of another is refused."""

MANIFEST: Final = "study.json"

MAX_DEALS: Final = 10**9
"""The most deals in a study (and in a chunk)."""
MAX_CHUNKS: Final = 1_000_000
"""The most chunks in a study: a study of more deals needs larger chunks."""
MAX_MANIFEST_BYTES: Final = 1 << 20
"""A manifest larger than this is no manifest of this program's."""
_ROW_BYTES: Final = 128
"""More than any row of a chunk file takes (10 numbers of a few digits)."""


class StudyError(MoonError):
    """A study that cannot run: bad settings, a directory of another study, no cluster."""


@attrs.frozen(slots=True, field_transformer=typed)
class StudySettings:
    """What a study computes: the rule set, the seed, how many deals, in chunks of how many,
    and the file format (``"parquet"`` or ``"csv"``)."""

    rules: RuleSet
    seed: int = 0
    deals: int = 1000
    chunk: int = 100
    format: str = "parquet"

    def __attrs_post_init__(self) -> None:
        # Each field's type is checked before (moonrules.rules.contract.typed).
        if not -SEED_LIMIT < self.seed < SEED_LIMIT:
            raise StudyError(
                f"seed: a whole number of at most 4,300 digits, not {shown(self.seed)}"
            )
        if not 1 <= self.deals <= MAX_DEALS:
            raise StudyError(
                f"deals: a study needs at least 1 deal and at most {MAX_DEALS:,}, "
                f"not {shown(self.deals)}"
            )
        if not 1 <= self.chunk <= MAX_DEALS:
            raise StudyError(
                f"a chunk holds at least 1 deal and at most {MAX_DEALS:,}, not {shown(self.chunk)}"
            )
        if self.chunks > MAX_CHUNKS:
            raise StudyError(
                f"{self.deals:,} deals in chunks of {self.chunk:,} make {self.chunks:,} chunks; "
                f"a study has at most {MAX_CHUNKS:,} chunks (make them larger)"
            )
        if self.format not in ("parquet", "csv"):
            raise StudyError(f"the format is parquet or csv, not {self.format!r}")

    @property
    def chunks(self) -> int:
        """How many chunks the study has."""
        return -(-self.deals // self.chunk)

    def chunk_deals(self, c: int) -> tuple[int, int]:
        """Chunk ``c``'s first deal number and its number of deals."""
        first = c * self.chunk + 1
        return first, min(self.chunk, self.deals - c * self.chunk)

    def to_json(self) -> dict[str, Any]:
        """The manifest: these settings, the version of moonrules and of the format."""
        return {
            "moonrules": __version__,
            "format_version": FORMAT_VERSION,
            "rules": self.rules.to_json(),
            "rules_name": self.rules.name,
            "seed": self.seed,
            "deals": self.deals,
            "chunk": self.chunk,
            "format": self.format,
            "columns": list(COLUMNS),
        }


def _check_directory(directory: object, parameter: str = "directory") -> None:
    """:class:`TypeError` naming the parameter unless ``directory`` is a :class:`~pathlib.Path`."""
    check_instance(directory, Path, parameter, "a pathlib.Path")


def chunk_path(directory: Path, settings: StudySettings, c: int) -> Path:
    """Where chunk ``c`` is written."""
    return directory / f"chunk-{c:06d}.{settings.format}"


def open_study(directory: Path, settings: StudySettings) -> None:
    """Create the study directory, or check that the one there is this study.

    A directory written by another version of moonrules or of the study format,
    or with other settings, is refused with :class:`StudyError` naming the
    difference; a study may be extended to more deals (its chunks stay valid).
    """
    want = settings.to_json()
    path = directory / MANIFEST
    if path.exists():
        have = _read_manifest(path)
        for key in ("moonrules", "format_version", "columns"):
            if have.get(key) != want[key]:
                raise StudyError(
                    f"{directory} was written with {key} {have.get(key)!r}, not {want[key]!r}; "
                    "use another directory"
                )
        for key in ("rules", "seed", "chunk", "format"):
            if have.get(key) != want[key]:
                shown = "other rules" if key == "rules" else f"{key} {have.get(key)!r}"
                raise StudyError(
                    f"{directory} holds a study with {shown}, not {want[key]!r} as asked; "
                    "use another directory"
                )
        if have.get("deals") == want["deals"]:
            return
        if not isinstance(have.get("deals"), int) or have["deals"] > settings.deals:
            raise StudyError(
                f"{directory} holds a study of {have.get('deals')!r} deals; "
                f"it can be extended, not cut to {settings.deals}"
            )
        if have["deals"] % settings.chunk:
            # the old last chunk was short: it is computed again with its new deals
            last = (have["deals"] - 1) // settings.chunk
            chunk_path(directory, settings, last).unlink(missing_ok=True)
    directory.mkdir(parents=True, exist_ok=True)
    try:
        write_atomically(path, json.dumps(want, indent=2) + "\n")
    except OutputError as e:
        raise StudyError(str(e)) from None


def _sweep(directory: Path) -> None:
    """Remove the temporary files a run that was killed (not interrupted: it cleans up) left
    in ``directory``; the caller holds the directory's lock, so no run is writing them."""
    for entry in os.scandir(directory):
        name = entry.name
        ours = is_temporary(name) and name.startswith((".chunk-", f".{MANIFEST}."))
        old_style = name.endswith(".tmp") and (
            name.startswith("chunk-") or name == "study.json.tmp"
        )
        if (ours or old_style) and entry.is_file(follow_symlinks=False):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.path)


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold the study directory for this run: a second run on it is refused at once."""
    directory.mkdir(parents=True, exist_ok=True)
    if fcntl is None:  # pragma: no cover - not on Windows
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StudyError(
                f"another run is writing to {directory}; wait for it to end, or use another "
                "directory"
            ) from None
        yield
    finally:
        os.close(fd)  # and the lock with it


def _read_manifest(path: Path) -> dict[str, Any]:
    """The manifest at ``path``, read within limits; :class:`StudyError` if it is none."""
    try:
        with path.open("rb") as f:
            data = read_bounded(f, MAX_MANIFEST_BYTES)
        have = loads(data.decode("utf-8"))
    except TooLarge:
        raise StudyError(
            f"{path} is not a study manifest: larger than {size_text(MAX_MANIFEST_BYTES)}"
        ) from None
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as e:
        what = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise StudyError(f"{path} is not a study manifest: {quote(what, 200)}") from None
    if not isinstance(have, dict):
        raise StudyError(f"{path} is not a study manifest: not a JSON object")
    return have


def load_settings(directory: Path) -> StudySettings:
    """The settings of the study in ``directory`` (for the report)."""
    path = directory / MANIFEST
    try:
        have = _read_manifest(path)
    except FileNotFoundError:
        raise StudyError(f"{directory} holds no study (no {MANIFEST})") from None
    try:
        missing = [key for key in ("rules", "seed", "deals", "chunk") if key not in have]
        if missing:
            raise StudyError(f"it has no {missing[0]!r}")
        rules = rules_from_json(have["rules"], "rules")
        settings = StudySettings(
            rules, have["seed"], have["deals"], have["chunk"], have.get("format", "parquet")
        )
    except (RecordError, StudyError, TypeError) as e:  # TypeError: a field of the wrong type
        raise StudyError(f"{path} is not a study manifest: {e}") from None
    if have.get("format_version") != FORMAT_VERSION:
        raise StudyError(
            f"{directory} was written in study format {have.get('format_version')!r}, "
            f"not {FORMAT_VERSION}"
        )
    return settings


def missing_chunks(directory: Path, settings: StudySettings) -> list[int]:
    """The chunks not written yet, or written wrong: a chunk file counts as done only when it
    is read back and checked (:func:`chunk_problem`)."""
    return [c for c in range(settings.chunks) if chunk_problem(directory, settings, c) is not None]


def chunk_problem(directory: Path, settings: StudySettings, c: int) -> str | None:
    """Why chunk ``c`` in ``directory`` is not done (``"missing"``, or what is wrong with its
    file), or ``None`` when its file is there and holds the chunk's rows."""
    path = chunk_path(directory, settings, c)
    if not path.exists() and not path.is_symlink():
        return "missing"
    count = settings.chunk_deals(c)[1]
    per_deal = settings.rules.players * len(settings.rules.trumps)
    try:
        part = read_chunk(path, max_bytes=(count * per_deal + 1) * _ROW_BYTES + 4096)
        _check_chunk(path, settings, c, part)
    except StudyError as e:
        return str(e)
    return None


# ---------------------------------------------------------------------------
# Chunk files


def _chunk_bytes(cols: dict[str, list[int]], fmt: str) -> bytes:
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(COLUMNS)
        w.writerows(zip(*(cols[c] for c in COLUMNS), strict=True))
        return buf.getvalue().encode("ascii")
    pa, pq = _arrow()
    table = pa.table({c: pa.array(cols[c], type=pa.int32()) for c in COLUMNS})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    data: bytes = sink.getvalue().to_pybytes()
    return data


def _arrow() -> tuple[Any, Any]:
    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise StudyError(f"Parquet needs pyarrow: {install_extra('study')}; or use --csv") from None
    return pa, pq


def write_chunk(
    directory: Path, settings: StudySettings, c: int, cols: dict[str, list[int]]
) -> None:
    """Write chunk ``c`` atomically: a temporary file renamed into place, Ctrl-C held back
    until it is (:func:`~moonrules.records.files.write_atomically`)."""
    path = chunk_path(directory, settings, c)
    try:
        write_atomically(path, _chunk_bytes(cols, settings.format), sync=False)
    except OutputError as e:
        raise StudyError(str(e)) from None


_NUMBER: Final = re.compile(r"-?[0-9]{1,10}")


def read_chunk(path: Path, max_bytes: int = 256 << 20) -> dict[str, list[int]]:
    """The columns of one chunk file (:data:`~moonrules.study.rows.COLUMNS`, whole numbers).

    At most ``max_bytes`` are read; a file that is not a chunk (not a regular file,
    larger, not CSV or Parquet of these columns) raises :class:`StudyError`.
    """
    try:
        if not path.is_file():
            raise StudyError(f"{path} is not a chunk of rows: not a regular file")
        with path.open("rb") as f:
            data = read_bounded(f, max_bytes)
    except TooLarge:
        raise StudyError(
            f"{path} is not a chunk of rows: larger than {size_text(max_bytes)}"
        ) from None
    except OSError as e:
        raise StudyError(f"{path} cannot be read: {e.strerror or e}") from None
    if path.suffix == ".csv":
        try:
            header, *body = csv.reader(io.StringIO(data.decode("ascii"), newline=""))
        except (UnicodeDecodeError, csv.Error, ValueError) as e:  # ValueError: an empty file
            raise StudyError(f"{path} is not a chunk of rows: {quote(str(e), 80)}") from None
        if any(len(r) != len(header) or not all(map(_NUMBER.fullmatch, r)) for r in body):
            raise StudyError(
                f"{path} is not a chunk of rows: a row is not {len(header)} whole numbers"
            )
        cols = {name: [int(r[j]) for r in body] for j, name in enumerate(header)}
    else:
        pa, pq = _arrow()
        try:
            table = pq.read_table(pa.BufferReader(data))
            cols = {name: table.column(name).to_pylist() for name in table.column_names}
        except Exception as e:  # pyarrow's errors for a file that is no table
            raise StudyError(f"{path} is not a chunk of rows: {quote(str(e), 80)}") from None
    if list(cols) != list(COLUMNS) or any(type(v) is not int for c in cols.values() for v in c):
        raise StudyError(f"{path} is not a chunk of rows: its columns are not {', '.join(COLUMNS)}")
    return cols


def _check_chunk(path: Path, settings: StudySettings, c: int, cols: dict[str, list[int]]) -> None:
    """Refuse chunk ``c`` of a study unless it has its rows (one per deal, seat and trump) and
    every number in its column's range."""
    first, count = settings.chunk_deals(c)
    rules = settings.rules
    trumps = {t.value for t in rules.trumps}
    rows = count * rules.players * len(trumps)
    if len(cols["deal"]) != rows:
        raise StudyError(f"{path} holds {len(cols['deal'])} rows, not {rows}: not chunk {c}")
    ranges = {
        "deal": range(first, first + count),
        "seat": range(rules.players),
        "trump": trumps,
        "tricks": range(8),
        "widow": range(-1, 28),
        "discard": range(-1, 28),
    }
    for name, values in cols.items():
        allowed = ranges.get(name, range(9))
        if not all(v in allowed for v in values):
            raise StudyError(f"{path} holds a {name} out of range: not chunk {c} of this study")


def read_rows(directory: Path) -> tuple[StudySettings, dict[str, list[int]]]:
    """The settings and every finished chunk's rows, in chunk order.

    Each chunk is checked (:func:`read_chunk`, and its rows' number and ranges):
    :class:`StudyError` names the first that is not one of this study's.
    """
    _check_directory(directory)
    settings = load_settings(directory)
    cols: dict[str, list[int]] = {name: [] for name in COLUMNS}
    per_deal = settings.rules.players * len(settings.rules.trumps)
    for c in range(settings.chunks):
        path = chunk_path(directory, settings, c)
        if path.exists() or path.is_symlink():
            count = settings.chunk_deals(c)[1]
            part = read_chunk(path, max_bytes=(count * per_deal + 1) * _ROW_BYTES + 4096)
            _check_chunk(path, settings, c, part)
            for name in COLUMNS:
                cols[name].extend(part[name])
    return settings, cols


# ---------------------------------------------------------------------------
# Running


@attrs.frozen(slots=True, field_transformer=typed)
class Progress:
    """How far a run is: deals finished (this run and before), the total, and the rate."""

    done: int
    total: int
    new: int
    """Deals finished by this run."""
    elapsed: float
    """Seconds since this run started."""

    @property
    def rate(self) -> float:
        """Deals per second in this run."""
        return self.new / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at this rate, if known."""
        return (self.total - self.done) / self.rate if self.rate > 0 else None

    def line(self) -> str:
        """A progress bar line: ``[#####-----] 500/1000 deals  12.3 deals/s  0:40 left``."""
        width = 24
        filled = width * self.done // self.total if self.total else width
        eta = self.eta
        left = "--:--" if eta is None else f"{int(eta) // 60}:{int(eta) % 60:02d}"
        return (
            f"[{'#' * filled}{'-' * (width - filled)}] {self.done}/{self.total} deals  "
            f"{self.rate:.1f} deals/s  {left} left"
        )


_ADDRESS: Final = re.compile(r"^tcp://([A-Za-z0-9.\-\[\]:]+):(\d{1,5})$")


def _check_address(address: str) -> None:
    if not _ADDRESS.match(address):
        raise StudyError(f"a scheduler address looks like tcp://HOST:PORT, not {quote(address)}")


def _dask_client(address: str, timeout: float) -> Any:
    """A client of the Dask scheduler at ``address``; :class:`StudyError` in one line when
    nothing answers there within ``timeout`` seconds, or something that is no scheduler."""
    _check_address(address)
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise StudyError(
            f"running on a Dask cluster needs distributed: {install_extra('study')}"
        ) from None
    # A client that failed to connect complains as it is collected ("Exception ignored in
    # Client.__del__"): the one line below says what went wrong.
    hook = sys.unraisablehook
    sys.unraisablehook = lambda _: None
    try:
        try:
            return distributed.Client(address, timeout=f"{timeout}s", set_as_default=False)
        except (OSError, TimeoutError) as e:  # nothing answered
            why = (str(e).splitlines() or [type(e).__name__])[0]
        except Exception as e:  # something answered, and it is no Dask scheduler
            why = f"what answers there is no Dask scheduler ({type(e).__name__})"
        gc.collect()
    finally:
        sys.unraisablehook = hook
    raise StudyError(f"cannot reach the Dask scheduler at {address}: {why[:200]}")


def _dask_results(
    client: Any, settings: StudySettings, todo: list[int]
) -> Iterator[tuple[int, dict[str, list[int]]]]:
    distributed: Any = importlib.import_module("distributed")
    tag = hashlib.sha256(json.dumps(settings.to_json(), sort_keys=True).encode()).hexdigest()
    futures = {}
    for c in todo:
        first, count = settings.chunk_deals(c)
        fut = client.submit(
            chunk_rows,
            settings.rules,
            settings.seed,
            first,
            count,
            key=f"moonrules-study-{tag[:16]}-{c}",
        )
        futures[fut] = c
    with client.as_current():
        done = distributed.as_completed(list(futures))
    for fut in done:
        c = futures[fut]
        try:
            cols = fut.result()
        except Exception as e:
            raise StudyError(
                f"a Dask worker failed on chunk {c}: {type(e).__name__}: {e} "
                f"(is moonrules {__version__} installed on every worker?)"
            ) from None
        yield c, cols


def run_study(
    directory: Path,
    settings: StudySettings,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[Progress], None] | None = None,
    timeout: float = 10.0,
    warn: Callable[[str], None] | None = None,
) -> Progress:
    """Compute the study's missing chunks and write them to ``directory``.

    ``workers``: processes of a local pool (1: this process). ``scheduler``: the
    address of a Dask scheduler, ``tcp://HOST:PORT``, instead of the local pool.
    ``progress`` is called after each chunk. A chunk file that is there but is not the
    chunk (:func:`chunk_problem`) is computed again, and ``warn`` told why; one that is no
    regular file is refused with :class:`StudyError`. Returns the final progress.
    """
    _check_directory(directory)
    check_instance(settings, StudySettings, "settings")
    check_int(workers, "workers", what="a number of processes")
    if scheduler is not None:
        check_str(scheduler, "scheduler", "a scheduler's address (text) or None")
    check_callable(progress, "progress", optional=True)
    check_callable(warn, "warn", optional=True)
    check_number(timeout, "timeout", low=0)
    if timeout <= 0:
        raise StudyError(f"timeout: a number of seconds above 0, not {timeout!r}")
    if workers < 1:
        raise StudyError(f"workers must be at least 1, not {workers}")
    # the scheduler first: one that cannot be reached leaves no directory and no progress line
    client = None if scheduler is None else _dask_client(scheduler, timeout)
    try:
        with _locked(directory):
            return _run_locked(directory, settings, workers, client, progress, warn)
    finally:
        if client is not None:
            client.close()


def _run_locked(
    directory: Path,
    settings: StudySettings,
    workers: int,
    client: Any,
    progress: Callable[[Progress], None] | None,
    warn: Callable[[str], None] | None,
) -> Progress:
    open_study(directory, settings)
    _sweep(directory)
    todo = []
    for c in range(settings.chunks):
        problem = chunk_problem(directory, settings, c)
        if problem is None:
            continue
        todo.append(c)
        if problem != "missing":
            path = chunk_path(directory, settings, c)
            if path.is_symlink() or (path.exists() and not path.is_file()):
                raise StudyError(f"{problem}; remove it, and run again to compute it")
            if warn is not None:
                warn(f"{problem}; it is computed again")
    total = settings.deals
    done = total - sum(settings.chunk_deals(c)[1] for c in todo)
    start = time.perf_counter()
    new = 0
    state = Progress(done, total, 0, 0.0)
    if progress is not None:
        progress(state)
    for c, cols in _results(settings, todo, workers, client):
        write_chunk(directory, settings, c, cols)
        n = settings.chunk_deals(c)[1]
        done += n
        new += n
        state = Progress(done, total, new, time.perf_counter() - start)
        if progress is not None:
            progress(state)
    return state


def _results(
    settings: StudySettings, todo: list[int], workers: int, client: Any
) -> Iterator[tuple[int, dict[str, list[int]]]]:
    if not todo:
        return
    if client is not None:
        yield from _dask_results(client, settings, todo)
        return
    if workers == 1:
        for c in todo:
            first, count = settings.chunk_deals(c)
            yield c, chunk_rows(settings.rules, settings.seed, first, count)
        return
    # A multiprocessing pool, not concurrent.futures: on an interrupt it is terminated at
    # once (its workers ignore SIGINT, so only this process sees Ctrl-C).
    jobs = [(settings.rules, settings.seed, c, *settings.chunk_deals(c)) for c in todo]
    with multiprocessing.Pool(workers, initializer=_quiet_worker) as pool:
        yield from pool.imap_unordered(_chunk_job, jobs)


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunk_job(job: tuple[RuleSet, int, int, int, int]) -> tuple[int, dict[str, list[int]]]:
    rules, seed, c, first, count = job
    return c, chunk_rows(rules, seed, first, count)


class ProgressPrinter:
    """Shows progress on stderr: one line rewritten in place on a terminal, else a line
    every 5%."""

    def __init__(self) -> None:
        self._shown = -1

    def __call__(self, p: Progress) -> None:
        if sys.stderr.isatty():
            end = "\n" if p.done >= p.total else ""
            print("\r" + p.line(), end=end, file=sys.stderr, flush=True)
            return
        step = p.done * 20 // max(1, p.total)
        if step != self._shown:
            self._shown = step
            print(p.line(), file=sys.stderr, flush=True)


def settings_for(
    rules: str | RuleSet | None, seed: int, deals: int, chunk: int, csv_format: bool
) -> StudySettings:
    """Settings from command-line values."""
    return StudySettings(as_rules(rules), seed, deals, chunk, "csv" if csv_format else "parquet")
