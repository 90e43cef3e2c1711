"""The compiled forms (moonrules.kernel.compiled): which form runs, and only a build that can.

An install with ``MOONRULES_COMPILE=1`` compiles the modules of ``COMPILED_MODULES``
with mypyc. Each check here runs Python in a subprocess, on this checkout or on a
copy of the package whose files' times are set to make a compiled module current
or stale, or with made-up compiled files that cannot run (a shared library missing or
unloadable, an extension of an older layout): then the source runs and one line says
why. The checks that need a compiled module are skipped, visibly, when the install did
not build one (no ``MOONRULES_COMPILE=1``, or no C compiler). ``tests/test_install.py``
installs a checkout plain and compiled, in either order.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import moonrules
from moonrules.kernel.compiled import (
    COMPILED_MODULES,
    NOTICE_VARIABLE,
    SHARED_LIBRARY,
    extension_path,
    is_compiled,
    source_form,
    source_path,
    stale_build,
)

PACKAGE = Path(moonrules.__file__).resolve().parent
BUILT = [name for name in COMPILED_MODULES if extension_path(name) is not None]
needs_build = pytest.mark.skipif(
    len(BUILT) != len(COMPILED_MODULES) or stale_build() is not None,
    reason="no current compiled build here (install with MOONRULES_COMPILE=1)",
)

REPORT = (
    "import moonrules.analysis.solver as s, moonrules.kernel.masks as m;"
    "print(s.COMPILED, m.__file__.endswith('.py'))"
)
"""A program that prints whether the search runs compiled and whether the masks run as source."""


SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
LIBRARY_FILE = "/".join(SHARED_LIBRARY.split(".")) + SUFFIX
"""Where the shared library of the compiled modules is, from the checkout's root."""
NOTICE_END = (
    ": the compiled modules run from source "
    "(install again with MOONRULES_COMPILE=1 to compile them again)"
)
"""How the one line ends that says the compiled modules run from source."""


def run(code: str, root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    unset = ("MOONRULES_PURE_PYTHON", NOTICE_VARIABLE)
    environment = {k: v for k, v in os.environ.items() if k not in unset}
    environment.update(env, PYTHONPATH=str(root))
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        cwd=root,
        check=False,
    )


def test_every_compiled_module_has_a_source_file() -> None:
    for name in COMPILED_MODULES:
        assert source_path(name).is_file(), name


def test_the_source_form_is_python_source_loaded_once() -> None:
    """(tests/test_solver.py runs every solver test on each form against the minimax.)"""
    search = source_form("moonrules.analysis.search")
    assert not is_compiled(search)
    assert search.__file__ is not None and search.__file__.endswith("search.py")
    assert source_form("moonrules.analysis.search") is search


def test_pure_python_can_be_asked_for() -> None:
    result = run(REPORT, PACKAGE.parent, MOONRULES_PURE_PYTHON="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]
    assert "older than" not in result.stderr


@needs_build
def test_the_compiled_forms_run_when_built() -> None:
    result = run(REPORT, PACKAGE.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False"]


def _copy_with_times(tmp_path: Path, newer: tuple[str, ...], checkout: bool = True) -> Path:
    """A copy of the package with the built extensions, every source older than them but
    those of the modules ``newer``; in a checkout (beside a ``pyproject.toml``) or as
    installed (without)."""
    root = tmp_path / "checkout"
    shutil.copytree(PACKAGE, root / "moonrules", ignore=shutil.ignore_patterns("__pycache__"))
    if checkout:
        shutil.copyfile(PACKAGE.parent / "pyproject.toml", root / "pyproject.toml")
    built = [extension_path(name) for name in COMPILED_MODULES]
    base = min(p.stat().st_mtime for p in built if p is not None)
    for source in (root / "moonrules").rglob("*.py"):
        os.utime(source, (base - 10, base - 10))
    for name in newer:
        copy = root / source_path(name).relative_to(PACKAGE.parent)
        os.utime(copy, (base + 10, base + 10))
    return root


@needs_build
def test_a_current_build_runs_compiled(tmp_path: Path) -> None:
    result = run(REPORT, _copy_with_times(tmp_path, newer=()))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False"]
    assert "older than" not in result.stderr


@needs_build
def test_an_installed_package_runs_compiled_whatever_its_files_times(tmp_path: Path) -> None:
    """pip may write a wheel's sources after its extensions: no false staleness there."""
    result = run(REPORT, _copy_with_times(tmp_path, newer=COMPILED_MODULES, checkout=False))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False"]
    assert "older than" not in result.stderr


@needs_build
@pytest.mark.parametrize(
    "newer", [(name,) for name in COMPILED_MODULES] + [("moonrules.rules.suits",)]
)
def test_a_stale_build_does_not_run_and_says_so(tmp_path: Path, newer: tuple[str, ...]) -> None:
    """One newer source, even of a module not compiled, runs every compiled module
    from source: they call each other directly, and hold constants of other modules."""
    result = run(REPORT, _copy_with_times(tmp_path, newer=newer))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]
    newer_file = source_path(newer[0]).relative_to(PACKAGE.parent).as_posix()
    assert result.stderr.splitlines() == [
        f"moonrules: {newer_file} is newer than the compiled modules{NOTICE_END}"
    ]
    probe = "import moonrules.analysis.search as s, moonrules.kernel.masks as m; print(s, m)"
    loaded = run(probe, tmp_path / "checkout")
    assert ".so" not in loaded.stdout and "search.py" in loaded.stdout, loaded.stdout


SHIM = b"\x7fELF a shim that loads " + SHARED_LIBRARY.encode()
"""Stands for a module's extension of this layout: it names the shared library."""


def _fake_build(tmp_path: Path, shims: dict[str, bytes], library: bytes | None) -> Path:
    """A checkout's copy of the package (no compiled file of this install) with made-up
    compiled files: ``shims``, the extension of each module named, and the shared
    library (``None``: none). Every source is older than them."""
    root = tmp_path / "checkout"
    ignore = shutil.ignore_patterns("__pycache__", "*.so")
    shutil.copytree(PACKAGE, root / "moonrules", ignore=ignore)
    shutil.copyfile(PACKAGE.parent / "pyproject.toml", root / "pyproject.toml")
    for source in (root / "moonrules").rglob("*.py"):
        os.utime(source, (1_000_000_000, 1_000_000_000))
    for name, content in shims.items():
        (root / source_path(name).relative_to(PACKAGE.parent)).with_suffix(SUFFIX).write_bytes(
            content
        )
    if library is not None:
        (root / LIBRARY_FILE).write_bytes(library)
    return root


@pytest.mark.parametrize(
    ("shims", "library", "why"),
    [
        pytest.param(
            dict.fromkeys(COMPILED_MODULES, SHIM),
            None,
            f"{LIBRARY_FILE} is missing",
            id="no-shared-library",
        ),
        pytest.param(
            dict.fromkeys(COMPILED_MODULES, SHIM),
            b"not a shared library",
            f"{LIBRARY_FILE} does not load (",
            id="library-does-not-load",
        ),
        pytest.param(
            dict.fromkeys(COMPILED_MODULES, b"\x7fELF loads abcdef0123__mypyc"),
            b"",
            "moonrules/kernel/masks" + SUFFIX + " was compiled for another layout",
            id="older-layout",
        ),
        pytest.param(
            {COMPILED_MODULES[0]: SHIM},
            b"",
            COMPILED_MODULES[1].replace(".", "/") + SUFFIX + " is missing",
            id="a-module-not-compiled",
        ),
    ],
)
def test_a_build_that_cannot_run_here_is_left_aside_in_one_line(
    tmp_path: Path, shims: dict[str, bytes], library: bytes | None, why: str
) -> None:
    """An unusable build (e.g. one whose shared library only another install could find)
    never fails an import: the source runs, and one line on stderr says why, once for
    the command and the processes it starts."""
    root = _fake_build(tmp_path, shims, library)
    program = (
        REPORT + ";import subprocess,sys;subprocess.run([sys.executable,'-c','import moonrules'])"
    )
    result = run(program, root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]
    [line] = result.stderr.splitlines()
    assert line.startswith(f"moonrules: {why}"), line
    assert line.endswith(NOTICE_END), line
    quiet = run(REPORT, root, MOONRULES_PURE_PYTHON="1")
    assert quiet.returncode == 0, quiet.stderr
    assert (quiet.stdout.split(), quiet.stderr) == (["False", "True"], "")


def test_compiled_modules_hold_no_doctests_and_are_not_collected() -> None:
    """A compiled module cannot be imported from its .py file for doctest collection, so
    pytest's options leave each out (pyproject.toml): it must hold no doctests."""
    options = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    addopts = options["tool"]["pytest"]["ini_options"]["addopts"].split()
    for name in COMPILED_MODULES:
        assert ">>>" not in source_path(name).read_text(encoding="utf-8"), name
        relative = source_path(name).relative_to(PACKAGE.parent).as_posix()
        assert f"--ignore={relative}" in addopts, name
