"""Training data files: seeded, labelled hands written as one numpy column each.

``train data``, ``train played`` and ``hand_choice data`` each make one row (a ``dict``) per
deal from the deal's seed, skipping deals thrown in, and save the rows so far every few
rows, so that a run stopped early leaves the file a shorter run writes. They share this.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

#: The calls before the seat's, padded with -1 (three-player rules: at most three).
CALLS = 3


def columns(
    rows: Sequence[Mapping[str, Any]], labels: Mapping[str, npt.DTypeLike]
) -> dict[str, npt.NDArray[Any]]:
    """The rows as columns: the seat's tiles (``held``), its ``position`` in the auction and
    the ``calls`` before it, then each of ``labels`` with its numpy type."""
    calls = np.full((len(rows), CALLS), -1, dtype=np.int16)
    for i, r in enumerate(rows):
        calls[i, : len(r["calls"])] = r["calls"]
    out: dict[str, npt.NDArray[Any]] = {
        "held": np.array([r["held"] for r in rows], dtype=np.int64),
        "position": np.array([r["position"] for r in rows], dtype=np.int8),
        "calls": calls,
    }
    for name, kind in labels.items():
        out[name] = np.array([r[name] for r in rows], dtype=kind)
    return out


def save_rows(
    rows: Sequence[Mapping[str, Any]],
    out: Path,
    labels: Mapping[str, npt.DTypeLike],
    deals: int,
) -> None:
    """Write :func:`columns` and the number of deals they came from to ``out`` (npz),
    replacing it whole (a temporary file, then a rename): a reader never sees half a file."""
    tmp = out.with_suffix(".tmp.npz")
    arrays = columns(rows, labels)
    np.savez_compressed(tmp, **arrays, deals=np.array([deals], dtype=np.int64))  # type: ignore[arg-type]
    tmp.replace(out)


def seeded_rows(
    make: Callable[[int], dict[str, Any] | None], count: int, first: int
) -> tuple[list[dict[str, Any]], int]:
    """The first ``count`` rows ``make`` gives for seeds ``first``, ``first + 1``, …
    (``None``, a deal thrown in, skipped) and the number of deals they took."""
    rows: list[dict[str, Any]] = []
    k = 0
    while len(rows) < count:
        row = make(first + k)
        k += 1
        if row is not None:
            rows.append(row)
    return rows, k


def generate(
    make: Callable[[int], dict[str, Any] | None],
    count: int,
    seed: int,
    out: Path,
    labels: Mapping[str, npt.DTypeLike],
    every: int,
    noun: str = "examples",
) -> int:
    """Write the first ``count`` rows of deals ``seed * 10**9 + k`` to ``out``, saving every
    ``every`` rows (the first ``j`` saved are those a run of ``count = j`` writes) and saying
    the pace on stderr. The number written."""
    rows: list[dict[str, Any]] = []
    k = 0
    start = time.perf_counter()
    while len(rows) < count:
        row = make(seed * 10**9 + k)
        k += 1
        if row is None:
            continue
        rows.append(row)
        if len(rows) % every == 0 or len(rows) == count:
            save_rows(rows, out, labels, k)
            rate = len(rows) / (time.perf_counter() - start)
            print(f"{len(rows)} {noun} of {k} deals, {rate:.2f}/s", file=sys.stderr, flush=True)
    return len(rows)
