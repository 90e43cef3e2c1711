"""Bidding tables and plots from a study's rows.

Every figure is a share of (deal, seat, trump) rows: "P(make 5) = 62% with 4
trumps" means that in 62% of the rows in which the bidder's seven dealt tiles
(before the widow) held 4 trumps of the trump named, the bidder took at least 5
tricks double-dummy. Each hand counts once per trump it is studied under.
The tables are written as Markdown (``tables.md``, ready to include in a page)
and CSV; the plots as PNG, drawn with matplotlib's Agg backend.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from moonrules.analysis.advise import wilson
from moonrules.kernel.tables import SUIT_MASK
from moonrules.records.files import OutputError, check_writable, write_atomically
from moonrules.rules.auction import MOON
from moonrules.rules.contract import check_bool, check_instance, check_int, typed
from moonrules.rules.errors import install_extra, wrong_type
from moonrules.rules.ruleset import RuleSet
from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.study.rows import COLUMNS
from moonrules.study.run import StudyError, read_rows

__all__ = ["Table", "build_tables", "write_report"]

_DOUBLES: Final = Trump.DOUBLES.value
_NONE: Final = Trump.NONE.value


@attrs.frozen(slots=True, field_transformer=typed)
class Table:
    """One bidding table: row labels, column labels, and cells (a share, or ``None``
    where fewer than the minimum count of hands fall)."""

    name: str
    title: str
    note: str
    row_label: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]

    def markdown(self) -> str:
        """The table as a Markdown section."""
        out = [f"### {self.title}", "", self.note, ""]
        out.append("| " + " | ".join((self.row_label, *self.columns)) + " |")
        out.append("|" + "---|" * (len(self.columns) + 1))
        for label, row in zip(self.rows, self.cells, strict=True):
            out.append("| " + " | ".join((label, *row)) + " |")
        return "\n".join(out) + "\n"

    def csv_text(self) -> str:
        """The table as CSV."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow((self.row_label, *self.columns))
        for label, row in zip(self.rows, self.cells, strict=True):
            w.writerow((label, *row))
        return buf.getvalue()

    def write_csv(self, path: Path) -> None:
        """Write the table as CSV to ``path`` (whole, or not at all)."""
        _write(path, self.csv_text())


def _write(path: Path, data: str | bytes) -> None:
    """Write one file of the report atomically; :class:`StudyError` when it cannot be."""
    try:
        write_atomically(path, data, sync=False)
    except OutputError as e:
        raise StudyError(str(e)) from None


def _need(bid: int) -> int:
    return 7 if bid == MOON else bid


def _bids(rules: RuleSet) -> tuple[int, ...]:
    """The bids with distinct trick counts (21 needs 7, like 7)."""
    return tuple(b for b in rules.bids if b != MOON or 7 not in rules.bids)


def _full_numbers(rules: RuleSet) -> tuple[int, ...]:
    """The trump numbers whose trump suit is as large as any number's in the set."""
    sizes = {
        n: (SUIT_MASK[n][TRUMP_SUIT] & rules.tile_set.mask).bit_count() for n in rules.trump_numbers
    }
    top = max(sizes.values(), default=0)
    return tuple(n for n, s in sizes.items() if s == top)


class _Groups:
    """Trick counts per group key."""

    def __init__(self) -> None:
        self.counts: dict[Any, list[int]] = {}

    def add(self, key: Any, tricks: int) -> None:
        c = self.counts.get(key)
        if c is None:
            c = self.counts[key] = [0] * 8
        c[tricks] += 1

    def get(self, key: Any) -> list[int]:
        return self.counts.get(key, [0] * 8)


def _pct(made: int, n: int, min_count: int) -> str:
    if n < min_count:
        return "-"
    return f"{100 * made / n:.0f}%"


def _by_one(
    groups: _Groups,
    keys: Sequence[int],
    bids: tuple[int, ...],
    min_count: int,
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    columns = ("hands", "mean tricks", *(f"P(make {b})" for b in bids))
    cells = []
    for k in keys:
        c = groups.get(k)
        n = sum(c)
        mean = "-" if n < min_count else f"{sum(i * c[i] for i in range(8)) / n:.2f}"
        cells.append((str(n), mean, *(_pct(sum(c[_need(b) :]), n, min_count) for b in bids)))
    return columns, tuple(cells)


def _check_tables_input(rules: object, cols: object, min_count: object) -> None:
    """:func:`build_tables`'s arguments: a rule set, a study's columns, a count."""
    check_instance(rules, RuleSet, "rules")
    if not isinstance(cols, dict):
        raise wrong_type("cols", "the study's columns: a dict of lists of whole numbers", cols)
    missing = [name for name in COLUMNS if name not in cols]
    if missing:
        raise StudyError(f"cols: the rows have no column {missing[0]!r}")
    for name in COLUMNS:
        if not isinstance(cols[name], list):
            raise wrong_type(f"cols[{name!r}]", "a list of whole numbers", cols[name])
    _check_min_count(min_count)


def _check_min_count(min_count: object) -> None:
    if check_int(min_count, "min_count", what="a number of hands") < 1:
        raise StudyError(f"min_count must be at least 1, not {min_count}")


def build_tables(
    rules: RuleSet, cols: dict[str, list[int]], min_count: int = 30
) -> tuple[list[Table], dict[str, Any]]:
    """The bidding tables of a study's rows, and the series the plots draw."""
    _check_tables_input(rules, cols, min_count)
    bids = _bids(rules)
    numbers = _full_numbers(rules)
    by_trumps = _Groups()
    by_trumps_doubles = _Groups()
    by_trumps_top = _Groups()
    by_doubles_dt = _Groups()
    by_doubles_nt = _Groups()
    widow_gain = _Groups()
    trump_col = cols["trump"]
    for j in range(len(trump_col)):
        t = trump_col[j]
        tricks = cols["tricks"][j]
        if t in numbers:
            k = cols["trumps"][j]
            by_trumps.add(k, tricks)
            by_trumps_doubles.add((k, cols["doubles"][j]), tricks)
            by_trumps_top.add((k, min(cols["top_trumps"][j], 3)), tricks)
            widow_gain.add(k, min(7, cols["trumps_after"][j] - k + 1))
        elif t == _DOUBLES:
            by_doubles_dt.add(cols["doubles"][j], tricks)
        elif t == _NONE:
            by_doubles_nt.add(cols["doubles"][j], tricks)
    nums = ", ".join(map(str, numbers))
    tables: list[Table] = []
    columns, cells = _by_one(by_trumps, range(8), bids, min_count)
    tables.append(
        Table(
            "numbers-by-trumps",
            "A number as trump: by trumps held",
            f"Trump one of the numbers {nums}; rows: how many of its trumps the bidder's "
            "seven dealt tiles hold (before the widow).",
            "trumps held",
            tuple(map(str, range(8))),
            columns,
            cells,
        )
    )
    for b in bids:
        grid = []
        for k in range(8):
            row = []
            for d in range(8):
                c = by_trumps_doubles.get((k, d))
                row.append(_pct(sum(c[_need(b) :]), sum(c), min_count))
            grid.append(tuple(row))
        tables.append(
            Table(
                f"numbers-bid{b}-by-trumps-and-doubles",
                f"P(make {b}) with a number as trump: by trumps and doubles held",
                f"Trump one of the numbers {nums}; rows: trumps held, columns: doubles held "
                f"(the trump double counts in both); -: fewer than {min_count} hands.",
                "trumps \\ doubles",
                tuple(map(str, range(8))),
                tuple(map(str, range(8))),
                tuple(grid),
            )
        )
    grid = []
    top_labels = ("no top trump", "top 1", "top 2", "top 3+")
    for k in range(8):
        row = []
        for top in range(4):
            c = by_trumps_top.get((k, top))
            row.append(_pct(sum(c[_need(5 if 5 in bids else bids[0]) :]), sum(c), min_count))
        grid.append(tuple(row))
    b5 = 5 if 5 in bids else bids[0]
    tables.append(
        Table(
            f"numbers-bid{b5}-by-trumps-and-top",
            f"P(make {b5}) with a number as trump: by trumps held and the top trumps among them",
            "Columns: how many of the highest trumps (the trump double first) the hand holds in "
            "an unbroken run from the top.",
            "trumps held",
            tuple(map(str, range(8))),
            top_labels,
            tuple(grid),
        )
    )
    if Trump.DOUBLES in rules.trumps:
        columns, cells = _by_one(by_doubles_dt, range(8), bids, min_count)
        tables.append(
            Table(
                "doubles-by-doubles",
                "Doubles as trump: by doubles held",
                "Trump doubles (TRUMP-3); rows: doubles among the seven dealt tiles.",
                "doubles held",
                tuple(map(str, range(8))),
                columns,
                cells,
            )
        )
    if Trump.NONE in rules.trumps:
        columns, cells = _by_one(by_doubles_nt, range(8), bids, min_count)
        tables.append(
            Table(
                "notrump-by-doubles",
                "No-trump: by doubles held",
                "No trump (TRUMP-4); rows: doubles among the seven dealt tiles "
                "(each double is the top of its suit).",
                "doubles held",
                tuple(map(str, range(8))),
                columns,
                cells,
            )
        )
    if rules.has_widow:
        rows = []
        for k in range(8):
            c = widow_gain.get(k)
            n = sum(c)
            if n < min_count:
                rows.append((str(n), "-", "-", "-"))
                continue
            rows.append(
                (
                    str(n),
                    f"{100 * c[0] / n:.0f}%",
                    f"{100 * c[1] / n:.0f}%",
                    f"{100 * sum(c[2:]) / n:.0f}%",
                )
            )
        tables.append(
            Table(
                "widow-trumps",
                "What the widow and discard do to the trump count",
                f"Trump one of the numbers {nums}; the bidder takes the widow and discards by "
                "the documented rule (a trump is discarded only from an all-trump hand).",
                "trumps held",
                tuple(map(str, range(8))),
                ("hands", "one fewer", "as many", "one more"),
                tuple(rows),
            )
        )
    series: dict[str, Any] = {
        "bids": bids,
        "panels": [
            ("A number as trump", "trumps held (of the trump named)", by_trumps.counts),
            ("Doubles as trump", "doubles held", by_doubles_dt.counts),
            ("No-trump", "doubles held", by_doubles_nt.counts),
        ],
        "grid": {k: v for k, v in by_trumps_doubles.counts.items()},
        "grid_bid": b5,
    }
    return tables, series


def _plot(series: dict[str, Any], out: Path, min_count: int) -> list[Path]:
    try:
        mpl: Any = importlib.import_module("matplotlib")
    except ImportError:
        raise StudyError(f"plots need matplotlib: {install_extra('study')}") from None
    mpl.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")
    mpl.rcParams["svg.hashsalt"] = "moonrules"
    written = []
    bids: tuple[int, ...] = series["bids"]
    panels = [p for p in series["panels"] if p[2]]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), sharey=True)
    if len(panels) == 1:
        axes = [axes]
    for ax, (title, xlabel, counts) in zip(axes, panels, strict=True):
        for b in bids:
            xs, ys, lo, hi = [], [], [], []
            for k in sorted(counts):
                c = counts[k]
                n = sum(c)
                if n < min_count:
                    continue
                made = sum(c[_need(b) :])
                low, high = wilson(made, n)
                xs.append(k)
                ys.append(100 * made / n)
                lo.append(100 * low)
                hi.append(100 * high)
            (line,) = ax.plot(xs, ys, marker="o", label=f"make {b}")
            ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.15, linewidth=0)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_xticks(range(8))
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("chance of making the bid (%), double dummy")
    axes[0].set_ylim(0, 100)
    axes[-1].legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    path = out / "p-make.png"
    _save_figure(fig, path)
    plt.close(fig)
    written.append(path)
    grid: dict[tuple[int, int], list[int]] = series["grid"]
    b = series["grid_bid"]
    values = [[float("nan")] * 8 for _ in range(8)]
    for (k, d), c in grid.items():
        if sum(c) >= min_count:
            values[k][d] = 100 * sum(c[_need(b) :]) / sum(c)
    fig, ax = plt.subplots(figsize=(5.6, 4.6))
    im = ax.imshow(values, origin="lower", cmap="RdYlGn", vmin=0, vmax=100)
    for k in range(8):
        for d in range(8):
            v = values[k][d]
            if v == v:
                ax.text(d, k, f"{v:.0f}", ha="center", va="center", fontsize=8)
    ax.set_xlabel("doubles held")
    ax.set_ylabel("trumps held (a number as trump)")
    ax.set_xticks(range(8))
    ax.set_yticks(range(8))
    ax.set_title(f"P(make {b}) %, double dummy")
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    path = out / f"p-make-{b}-grid.png"
    _save_figure(fig, path)
    plt.close(fig)
    written.append(path)
    return written


def _check_out(out: Path) -> None:
    """Refuse, before any work, a report directory that cannot take the files."""
    if out.exists() and not out.is_dir():
        raise StudyError(f"cannot write the report to {out}: it is not a directory")
    parent = out if out.is_dir() else next((p for p in out.parents if p.exists()), Path("."))
    if not parent.is_dir():
        raise StudyError(f"cannot write the report to {out}: {parent} is not a directory")
    try:
        check_writable(parent / "tables.md")
    except OutputError as e:
        raise StudyError(f"cannot write the report to {out}: {e.reason}") from None


def _save_figure(fig: Any, path: Path) -> None:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    _write(path, buf.getvalue())


def write_report(
    directory: Path, out: Path, *, min_count: int = 30, plots: bool = True
) -> list[Path]:
    """Write the tables (``tables.md``, one CSV each), ``summary.json`` and the plots of the
    study in ``directory`` to ``out``; returns the files written."""
    check_instance(directory, Path, "directory", "a pathlib.Path")
    check_instance(out, Path, "out", "a pathlib.Path")
    _check_min_count(min_count)
    check_bool(plots, "plots")
    _check_out(out)
    settings, cols = read_rows(directory)
    n_rows = len(cols["deal"])
    if n_rows == 0:
        raise StudyError(f"{directory} holds no finished chunk yet")
    out.mkdir(parents=True, exist_ok=True)
    tables, series = build_tables(settings.rules, cols, min_count)
    deals = len(set(zip(cols["deal"], strict=True)))
    written: list[Path] = []
    rules = settings.rules.name or "custom"
    header = (
        f"From {deals:,} deals of the {rules} rules (seed {settings.seed}), each seat as "
        f"bidder under each of the {len(settings.rules.trumps)} trumps: {n_rows:,} double-dummy "
        "solves. Hands are the bidder's seven tiles as dealt, before the widow.\n"
    )
    md = out / "tables.md"
    _write(md, header + "\n" + "\n".join(t.markdown() for t in tables))
    written.append(md)
    for t in tables:
        path = out / f"{t.name}.csv"
        t.write_csv(path)
        written.append(path)
    summary = out / "summary.json"
    _write(
        summary,
        json.dumps(
            {
                "rules": rules,
                "seed": settings.seed,
                "deals": deals,
                "rows": n_rows,
                "tricks": [cols["tricks"].count(k) for k in range(8)],
            },
            indent=2,
        )
        + "\n",
    )
    written.append(summary)
    if plots:
        written.extend(_plot(series, out, min_count))
    return written
