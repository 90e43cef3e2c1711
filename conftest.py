"""Collection across the checkout (the doctests of ``moonrules/`` and README.md, and ``tests/``).

A module that runs compiled (``MOONRULES_COMPILE=1``; :mod:`moonrules.kernel.compiled`)
cannot also be imported from its ``.py`` file for doctest collection, so its source
is not collected: such modules hold no doctests (``tests/test_compiled.py`` checks).
"""

from __future__ import annotations

from pathlib import Path

from moonrules.kernel.compiled import COMPILED_MODULES, extension_path, source_path

_COMPILED_SOURCES = {
    source_path(name) for name in COMPILED_MODULES if extension_path(name) is not None
}


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    return True if collection_path.resolve() in _COMPILED_SOURCES else None
