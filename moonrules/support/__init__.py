"""Support of no rule, for several subpackages: worker processes and databases.

Worker processes that end with their parent (the proof catalogue's runner, the tournament's
runs, the table's bot pool) and the names and errors of the databases the table and the
tournament's event store share: what each would otherwise write out."""

from __future__ import annotations

from moonrules.support.databases import (
    describe_postgres,
    first_line,
    is_postgres,
    postgres_driver,
)
from moonrules.support.processes import end_with_parent, stop_pool

__all__ = [
    "describe_postgres",
    "end_with_parent",
    "first_line",
    "is_postgres",
    "postgres_driver",
    "stop_pool",
]
