"""The packages moonrules is shipped as: wheels, plain and compiled, and the source distribution.

Each build starts from a copy of the checkout's tracked files (as a fresh clone has them)
and runs offline, with the build tools of this environment (``--no-build-isolation``).
A wheel carries the protocol's normative text, schemas and vectors under
``moonrules/conformance/data/``, byte for byte those of ``spec/`` (``setup.py`` copies
them), and nothing from outside the package. A plain wheel is pure Python; a compiled
one (``MOONRULES_COMPILE=1``, a compile of its own: with ``MOONRULES_SLOW_BUILDS=1``,
set by ``.ci/run`` in a step of its own) holds each compiled module's extension and
their shared library inside the package, and runs compiled once installed. The source
distribution holds what a build from it needs: the build backend and ``spec/``.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from installhelpers import (
    PIP_OFFLINE,
    PROBE,
    ROOT,
    SLOW,
    SUFFIX,
    TIMEOUT,
    copy_checkout,
    environment,
    make_venv,
    tracked_files,
)

SPEC_FILES = ("protocol.md", "schema/*.json", "vectors/*.jsonl")
"""The files of ``spec/`` a wheel carries (``setup.py``)."""
COMPILED_FILES = {
    "moonrules/kernel/masks" + SUFFIX,
    "moonrules/analysis/search" + SUFFIX,
    "moonrules/game/shuffle" + SUFFIX,
    "moonrules/engine/tables" + SUFFIX,
    "moonrules/engine/hand" + SUFFIX,
    "moonrules/engine/core" + SUFFIX,
    "moonrules/kernel/native__mypyc" + SUFFIX,
}


def build_wheel(checkout: Path, out: Path, *, compiled: bool, source: Path | None = None) -> Path:
    """``pip wheel`` of ``source`` (default: the checkout) into ``out``; the wheel's path."""
    env = environment(MOONRULES_COMPILE="1") if compiled else environment()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            *PIP_OFFLINE,
            "-w",
            str(out),
            str(source or checkout),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env,
        cwd=checkout,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    [wheel] = out.glob("moonrules-*.whl")
    return wheel


def check_spec_data(wheel: zipfile.ZipFile) -> None:
    """Every file of :data:`SPEC_FILES` is in the wheel's package data, as in ``spec/``."""
    expected = [p for pattern in SPEC_FILES for p in sorted((ROOT / "spec").glob(pattern))]
    assert len(expected) > 10
    for path in expected:
        name = "moonrules/conformance/data/" + path.relative_to(ROOT / "spec").as_posix()
        assert wheel.read(name) == path.read_bytes(), name
    outside = [n for n in wheel.namelist() if not n.startswith(("moonrules/", "moonrules-"))]
    assert not outside, outside


def test_a_plain_wheel_is_pure_python_with_the_spec_files(tmp_path: Path) -> None:
    checkout = copy_checkout(tmp_path / "checkout")
    wheel = build_wheel(checkout, tmp_path / "dist", compiled=False)
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        check_spec_data(archive)
        assert not [n for n in archive.namelist() if n.endswith((".so", ".pyd", ".c"))]
        assert "moonrules/py.typed" in archive.namelist()


@pytest.mark.slow
def test_the_source_distribution_builds_a_wheel(tmp_path: Path) -> None:
    """The sdist holds the build backend pyproject.toml names (else no build from it
    starts) and spec/, which its wheel copies into the package."""
    checkout = copy_checkout(tmp_path / "checkout")
    backend = checkout / "build_backend"
    build = (
        f"import sys; sys.path.insert(0, {str(backend)!r}); import moonrules_build;"
        f"print(moonrules_build.build_sdist({str(tmp_path / 'sdist')!r}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", build],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=environment(),
        cwd=checkout,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    sdist = tmp_path / "sdist" / result.stdout.split()[-1]
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {"build_backend/moonrules_build.py", "setup.py", "spec/protocol.md"} <= names
    wheel = build_wheel(checkout, tmp_path / "dist", compiled=False, source=sdist)
    with zipfile.ZipFile(wheel) as archive:
        check_spec_data(archive)


def test_no_compiled_file_is_tracked() -> None:
    tracked = tracked_files()
    if tracked is None:
        pytest.skip("not a git checkout: its tracked files are unknown")
    assert not [n for n in tracked if n.endswith((".so", ".pyd", ".o"))]
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "*.so" in ignored


@pytest.mark.skipif(not SLOW, reason="compiles the modules: set MOONRULES_SLOW_BUILDS=1")
def test_a_compiled_wheel_holds_its_shared_library_and_runs_compiled(tmp_path: Path) -> None:
    checkout = copy_checkout(tmp_path / "checkout")
    wheel = build_wheel(checkout, tmp_path / "dist", compiled=True)
    assert not wheel.name.endswith("-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        check_spec_data(archive)
        built = {n for n in archive.namelist() if n.endswith(SUFFIX)}
    if not built:
        pytest.skip("the compiled build built nothing here (no C compiler?)")
    assert built == COMPILED_FILES
    python = make_venv(tmp_path / "venv")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", *PIP_OFFLINE, str(wheel)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=environment(),
        check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = subprocess.run(
        [str(python), "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=environment(),
        cwd=elsewhere,
        check=False,
    )
    assert (probe.returncode, probe.stderr) == (0, ""), probe.stderr
    form, file = probe.stdout.split()
    assert form == "True" and "site-packages" in file, probe.stdout
    assert not Path(file).is_relative_to(checkout), file
