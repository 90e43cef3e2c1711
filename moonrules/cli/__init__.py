"""The command line: one module per ``moonrules`` command, with ``main`` as the entry point."""

from __future__ import annotations

from moonrules.cli.main import main

__all__ = ["main"]
