"""Bidding studies: double-dummy tricks over many seeded deals, and the tables drawn from them.

:mod:`moonrules.study.rows` turns deals into rows (pure, no optional dependency);
:mod:`moonrules.study.run` runs a study in chunks on a local process pool or a
Dask cluster and writes them to a directory (Parquet needs ``pyarrow``, Dask
``distributed``: ``pip install 'moonrules[study]'``); :mod:`moonrules.study.report`
turns the rows into bidding tables and plots (``matplotlib``).
Built on :mod:`moonrules.analysis`. The names are imported on first use
(:mod:`moonrules.kernel.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moonrules.kernel.lazy import exports

if TYPE_CHECKING:
    from moonrules.study.report import Table, build_tables, write_report
    from moonrules.study.rows import chunk_rows
    from moonrules.study.run import Progress, StudyError, StudySettings, read_rows, run_study

_MODULES = {
    "moonrules.study.report": ("Table", "build_tables", "write_report"),
    "moonrules.study.rows": ("chunk_rows",),
    "moonrules.study.run": ("Progress", "StudyError", "StudySettings", "read_rows", "run_study"),
}
if not TYPE_CHECKING:  # a type checker reads the imports above instead
    __getattr__, __dir__ = exports(
        __name__, {name: module for module, names in _MODULES.items() for name in names}
    )

__all__ = [
    "Progress",
    "StudyError",
    "StudySettings",
    "Table",
    "build_tables",
    "chunk_rows",
    "read_rows",
    "run_study",
    "write_report",
]
