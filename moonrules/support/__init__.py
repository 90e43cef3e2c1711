"""Support of no rule, for several subpackages: worker processes that end with their parent.

What the proof catalogue's runner, the tournament's runs and the table's bot pool would
otherwise each write out."""

from __future__ import annotations

from moonrules.support.processes import end_with_parent, stop_pool

__all__ = ["end_with_parent", "stop_pool"]
