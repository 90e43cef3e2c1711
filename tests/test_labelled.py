"""The training data files shared by ``train data``, ``train played`` and ``hand_choice data``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from moonrules.bots import labelled


def _row(seed: int) -> dict[str, Any] | None:
    """A made-up row: every third deal is thrown in; the calls before the seat vary in number."""
    if seed % 3 == 2:
        return None
    calls = tuple(range(4, 4 + seed % 3))
    return {"held": seed * 7, "position": len(calls), "calls": calls, "tricks": seed % 8}


def test_columns_pad_the_calls_and_keep_each_labels_type() -> None:
    rows, deals = labelled.seeded_rows(_row, 4, 0)
    assert deals == 5 and [r["held"] for r in rows] == [0, 7, 21, 28]
    cols = labelled.columns(rows, {"tricks": np.int8})
    assert list(cols) == ["held", "position", "calls", "tricks"]
    assert cols["calls"].tolist() == [[-1, -1, -1], [4, -1, -1], [-1, -1, -1], [4, -1, -1]]
    assert cols["tricks"].dtype == np.int8 and cols["tricks"].tolist() == [0, 1, 3, 4]


def test_a_run_saved_every_few_rows_leaves_what_a_shorter_run_writes(tmp_path: Path) -> None:
    """Saved every 2 rows, the file after 4 rows (of 5) is the file a run of 4 writes; the
    number of deals the rows took is kept; no temporary file is left behind."""
    long, short = tmp_path / "long.npz", tmp_path / "short.npz"
    snapshots = []

    def watching(seed: int) -> dict[str, Any] | None:
        if long.exists():
            snapshots.append(long.read_bytes())
        return _row(seed)

    labels = {"tricks": np.int8}
    assert labelled.generate(watching, 5, 0, long, labels, every=2) == 5
    assert labelled.generate(_row, 4, 0, short, labels, every=2) == 4
    assert short.read_bytes() in snapshots
    with np.load(long) as f:
        assert int(f["deals"][0]) == 7 and f["held"].tolist() == [0, 7, 21, 28, 42]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.npz", "short.npz"]
