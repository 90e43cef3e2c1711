"""The modules that may run compiled, and the guard that keeps a stale build from running.

The modules of :data:`COMPILED_MODULES` are plain, strictly typed Python; an install
with ``MOONRULES_COMPILE=1`` also compiles them with mypyc into C extensions from
that same source (``setup.py``; ``docs/guides/solver-speed.md``). Python then
imports the extension in place of the source.

In a checkout (the package beside its ``pyproject.toml``) the source can change
after an in-place build. :func:`guard`, run when ``moonrules/__init__.py`` imports
this module, before any other module of the package, then runs every compiled
module from its source when any source file of the package is newer than the
build (with a warning). An installed package
is not a checkout: its files are as the wheel made them, whatever their times. With
``MOONRULES_PURE_PYTHON=1`` the source runs instead of every extension.
Only the standard library is used here: ``setup.py`` reads this file too, under
another name, which does not run the guard.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Final

COMPILED_MODULES: Final = ("moonrules.kernel.masks", "moonrules.analysis.search")
"""The modules an install may compile: the legal-play masks and the solver's search,
the library's hot loop (about three times as fast compiled)."""

_PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent


def source_path(name: str) -> Path:
    """The Python source file of module ``name`` (a name of :data:`COMPILED_MODULES`)."""
    return _PACKAGE_DIR.joinpath(*name.split(".")[1:]).with_suffix(".py")


def extension_path(name: str) -> Path | None:
    """The compiled extension of module ``name`` beside its source, if there is one."""
    source = source_path(name)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` runs from a compiled extension rather than Python source."""
    file = str(getattr(module, "__file__", "") or "")
    return file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def load_source(name: str, alias: str | None = None) -> ModuleType:
    """Module ``name`` run from its Python source, registered as ``alias`` (default: ``name``).

    With an alias the source runs beside the compiled module (tests and benchmarks compare the two).
    """
    key = alias or name
    spec = importlib.util.spec_from_file_location(key, source_path(name))
    if spec is None or spec.loader is None:  # pragma: no cover - a .py path always has a spec
        raise ImportError(f"no source for {name}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[key]
        raise
    if alias is None:
        parent, _, child = name.rpartition(".")
        setattr(importlib.import_module(parent), child, module)
    return module


def source_form(name: str) -> ModuleType:
    """Module ``name`` as Python source, beside its compiled form if that is what runs.

    The module itself when it runs from source; else its source, loaded once under
    the name ``<package>._<module>_source``. Tests run the source form of the
    search, and patch the source form of a module's functions; benchmarks time it.
    """
    module = importlib.import_module(name)
    if not is_compiled(module):
        return module
    package, _, last = name.rpartition(".")
    alias = f"{package}._{last}_source"
    return sys.modules.get(alias) or load_source(name, alias)


def pure_python_requested() -> bool:
    """Whether ``MOONRULES_PURE_PYTHON`` asks for the source of every compiled module."""
    return os.environ.get("MOONRULES_PURE_PYTHON", "") not in ("", "0")


def stale_build() -> Path | None:
    """In a checkout, a source file of the package newer than the oldest compiled module.

    Any source counts, not only those of :data:`COMPILED_MODULES`: mypyc builds the
    constants the compiled modules import (``Final`` values) into them. ``None``
    outside a checkout, with nothing compiled, or when the build is current.
    """
    if not (_PACKAGE_DIR.parent / "pyproject.toml").is_file():
        return None
    built = [p for p in map(extension_path, COMPILED_MODULES) if p is not None]
    if not built:
        return None
    oldest = min(p.stat().st_mtime for p in built)
    newest = max(_PACKAGE_DIR.rglob("*.py"), key=lambda p: p.stat().st_mtime)
    return newest if newest.stat().st_mtime > oldest else None


def guard() -> None:
    """Run every module of :data:`COMPILED_MODULES` from source if the build is stale
    (:func:`stale_build`, with a warning) or pure Python is asked for.

    The modules go together: compiled modules call each other directly, so one
    stale module would still run through the others. Called once, before the
    package imports any of them.
    """
    if not any(extension_path(name) for name in COMPILED_MODULES):
        return
    pure = pure_python_requested()
    newer = None if pure else stale_build()
    if newer is not None:
        warnings.warn(
            f"{newer.relative_to(_PACKAGE_DIR.parent)} is newer than the compiled modules: "
            f"running {' and '.join(COMPILED_MODULES)} from their source "
            "(install again with MOONRULES_COMPILE=1 to compile them again)",
            stacklevel=3,
        )
    if pure or newer is not None:
        for name in COMPILED_MODULES:
            if name not in sys.modules:
                load_source(name)


__all__ = [
    "COMPILED_MODULES",
    "extension_path",
    "guard",
    "is_compiled",
    "load_source",
    "pure_python_requested",
    "source_form",
    "source_path",
    "stale_build",
]


if __name__ == "moonrules.kernel.compiled":
    guard()
