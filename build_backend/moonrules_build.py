"""The build backend of moonrules: setuptools' own (``setuptools.build_meta``), with the
compiler's requirements added when the build compiles.

``pyproject.toml`` names this module (``build-backend``, ``backend-path``). Every hook is
setuptools', except the two that list what a wheel or an editable install needs to be
built: with ``MOONRULES_COMPILE=1`` they add :data:`COMPILE_REQUIRES` (mypy brings mypyc,
and type-checks what it compiles, so it needs ``attrs`` too). A plain build needs
setuptools alone, so it never fetches mypy. This is the way setuptools documents for
build requirements that depend on the build, in place of ``setup_requires``.

``setup.py`` does the compiling (it reads the same variable); see
``docs/guides/solver-speed.md``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

VARIABLE = "MOONRULES_COMPILE"
"""The environment variable that asks for a compiled build (any value but empty or ``0``)."""

COMPILE_REQUIRES = ["mypy>=1.17", "attrs>=23.1"]
"""What compiling needs in the build environment, beside setuptools (mypy 1.17 is the
first whose mypyc names a group of modules, so that their library sits in the package)."""

ConfigSettings = dict[str, str | list[str]] | None


def compiling() -> bool:
    """Whether this build compiles (``MOONRULES_COMPILE=1``)."""
    return os.environ.get(VARIABLE, "") not in ("", "0")


@contextmanager
def _plain() -> Iterator[None]:
    """The build as a plain one: setuptools runs ``setup.py`` to learn its own requirements,
    before mypy is there; the compile step is not part of that question."""
    saved = os.environ.pop(VARIABLE, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[VARIABLE] = saved


def _requires(ask: Callable[[ConfigSettings], list[str]], settings: ConfigSettings) -> list[str]:
    with _plain():
        requires = list(ask(settings))
    return requires + COMPILE_REQUIRES if compiling() else requires


def get_requires_for_build_wheel(config_settings: ConfigSettings = None) -> list[str]:
    """setuptools' requirements for a wheel, and the compiler's when compiling."""
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: ConfigSettings = None) -> list[str]:
    """setuptools' requirements for an editable install, and the compiler's when compiling."""
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)


__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]
