"""The modules that may run compiled, and the guard that runs only a build that can run.

The modules of :data:`COMPILED_MODULES` are plain, strictly typed Python; an install
with ``MOONRULES_COMPILE=1`` also compiles them with mypyc into C extensions from
that same source (``setup.py``; ``docs/guides/solver-speed.md``): one small extension
per module, beside its source, and the shared library of their code,
:data:`SHARED_LIBRARY`, in this package too, so that every install of a checkout
(another environment, or one made without the variable) finds the whole build.
Python then imports the extension in place of the source.

:func:`guard`, run when ``moonrules/__init__.py`` imports this module, before any
other module of the package, runs every compiled module from its source instead, and
says so in one line on stderr, when the build cannot run here (a part missing, or
built for another layout or interpreter: :func:`unusable_build`) or, in a checkout
(the package beside its ``pyproject.toml``), when any source file of the package is
newer than the build (:func:`stale_build`). An installed package is not checked for
staleness: its files are as the wheel made them, whatever their times. With
``MOONRULES_PURE_PYTHON=1`` the source runs instead of every extension, silently.
Only the standard library is used here: ``setup.py`` reads this file too, under
another name, which does not run the guard.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Final

COMPILED_MODULES: Final = (
    "moonrules.kernel.masks",
    "moonrules.game.shuffle",
    "moonrules.analysis.search",
    "moonrules.engine.tables",
    "moonrules.engine.hand",
    "moonrules.engine.core",
)
"""The modules an install may compile: the legal-play masks and the solver's search,
the library's hot loop (about three times as fast compiled), DEAL-1's shuffle, and the fast
engine (``moonrules.engine.Engine``) with its tables and its hand state. In this order: the
source form of each is loaded before any module of the package imports the next."""

GROUP: Final = "moonrules.kernel.native"
"""The name mypyc gives the modules compiled together (``setup.py``): their code is one
shared library, :data:`SHARED_LIBRARY`, that each module's extension loads."""

SHARED_LIBRARY: Final = f"{GROUP}__mypyc"
"""The module of the shared library, inside the package, so that every install of a
checkout finds it, whichever install compiled it."""

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


def _shared_library_stem() -> Path:
    """Where :data:`SHARED_LIBRARY` is, but for the file's suffix."""
    return _PACKAGE_DIR.joinpath(*SHARED_LIBRARY.split(".")[1:])


def shared_library_path() -> Path | None:
    """The file of :data:`SHARED_LIBRARY` (the compiled code of every module), if there is one."""
    stem = _shared_library_stem()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.exists():
            return candidate
    return None


def built_files() -> list[Path]:
    """The compiled files of this package: each module's extension and the shared library."""
    files = [*map(extension_path, COMPILED_MODULES), shared_library_path()]
    return [p for p in files if p is not None]


def stale_build() -> Path | None:
    """In a checkout, a source file of the package newer than the oldest compiled file.

    Any source counts, not only those of :data:`COMPILED_MODULES`: mypyc builds the
    constants the compiled modules import (``Final`` values) into them. ``None``
    outside a checkout, with nothing compiled, or when the build is current.
    """
    if not (_PACKAGE_DIR.parent / "pyproject.toml").is_file():
        return None
    built = built_files()
    if not built:
        return None
    oldest = min(p.stat().st_mtime for p in built)
    newest = max(_PACKAGE_DIR.rglob("*.py"), key=lambda p: p.stat().st_mtime)
    return newest if newest.stat().st_mtime > oldest else None


def unusable_build() -> str | None:
    """Why the compiled modules cannot run here, or ``None`` when they can.

    They cannot when one of them has no extension, when the shared library is missing
    or does not load in this interpreter, or when an extension was built to load
    another shared library (a build of an older layout, whose library only the install
    that compiled it could find). Importing the shared library runs none of the
    modules' code: it only makes their entry points available.
    """
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in COMPILED_MODULES:
        extension = extension_path(name)
        if extension is None:
            return f"{_shown(source_path(name).with_suffix(suffix))} is missing"
        if SHARED_LIBRARY.encode() not in extension.read_bytes():
            return f"{_shown(extension)} was compiled for another layout"
    library = shared_library_path()
    if library is None:
        stem = _shared_library_stem()
        return f"{_shown(stem.with_name(stem.name + suffix))} is missing"
    try:
        importlib.import_module(SHARED_LIBRARY)
    except ImportError as error:
        return f"{_shown(library)} does not load ({str(error).splitlines()[0]})"
    return None


def _shown(path: Path) -> str:
    """``path`` as the user knows it: from the checkout (or the install) root."""
    return path.relative_to(_PACKAGE_DIR.parent).as_posix()


NOTICE_VARIABLE: Final = "MOONRULES_SOURCE_NOTICE"
"""Set by :func:`guard` to the package's directory once it said which form runs, so that
the processes a command starts (workers, targets) do not say it again."""


def _notice(why: str) -> None:
    """Say once, in one line on stderr, that the compiled modules run from source, and why."""
    if os.environ.get(NOTICE_VARIABLE) == str(_PACKAGE_DIR) or sys.stderr is None:
        return
    os.environ[NOTICE_VARIABLE] = str(_PACKAGE_DIR)
    print(
        f"moonrules: {why}: the compiled modules run from source "
        "(install again with MOONRULES_COMPILE=1 to compile them again)",
        file=sys.stderr,
        flush=True,
    )


def guard() -> None:
    """Run every module of :data:`COMPILED_MODULES` from source when pure Python is asked
    for, or when the build is stale (:func:`stale_build`) or cannot run here
    (:func:`unusable_build`): then say so in one line on stderr.

    The modules go together: compiled modules call each other directly, so one
    stale module would still run through the others. Called once, before the
    package imports any of them.
    """
    if not built_files():
        return
    if pure_python_requested():
        why = None
    else:
        newer = stale_build()
        why = (
            f"{_shown(newer)} is newer than the compiled modules"
            if newer is not None
            else unusable_build()
        )
        if why is None:
            return
        _notice(why)
    for name in COMPILED_MODULES:
        if name not in sys.modules:
            load_source(name)


__all__ = [
    "COMPILED_MODULES",
    "GROUP",
    "NOTICE_VARIABLE",
    "SHARED_LIBRARY",
    "built_files",
    "extension_path",
    "guard",
    "is_compiled",
    "load_source",
    "pure_python_requested",
    "shared_library_path",
    "source_form",
    "source_path",
    "stale_build",
    "unusable_build",
]


if __name__ == "moonrules.kernel.compiled":
    guard()
