"""Build steps: ship the protocol's normative text, its schemas and its vectors in the package;
compile the solver's search with mypyc when asked.

``spec/`` stays the one source of truth; building the package (a wheel, or the build
directory of an install) copies ``spec/protocol.md``, ``spec/schema/*.json`` and
``spec/vectors/*.jsonl`` under ``moonrules/conformance/data/``, where ``moonrules
conform`` finds them when moonrules is installed rather than run from a checkout.
``tests/test_packaging.py`` builds a wheel and checks the copies.

With ``MOONRULES_COMPILE=1`` in the environment, the modules of :data:`COMPILED` are
also compiled with mypyc (from the same source: the build needs mypy, which it
fetches, and a C compiler). Without a compiler the build goes on with the source
alone (``pip install -v`` shows why; ``moonrules.analysis.solver.COMPILED`` tells).
See ``docs/guides/solver-speed.md``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SPEC_FILES = ("protocol.md", "schema/*.json", "vectors/*.jsonl")
"""The files of ``spec/`` shipped in the package, as patterns."""


COMPILE = os.environ.get("MOONRULES_COMPILE", "") not in ("", "0")
"""Whether this build compiles :data:`COMPILED` (``MOONRULES_COMPILE=1``)."""


def _compiled_modules() -> tuple[str, ...]:
    """The source files of ``moonrules.kernel.compiled.COMPILED_MODULES``, read from that file."""
    spec = importlib.util.spec_from_file_location(
        "moonrules_compiled_list", ROOT / "moonrules" / "kernel" / "compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(
        str(module.source_path(name).relative_to(ROOT)) for name in module.COMPILED_MODULES
    )


COMPILED = _compiled_modules()
"""The modules compiled with mypyc: the legal-play masks and the solver's search."""
COMPILE_NEEDS = ["mypy>=1.10", "attrs>=23.1"]
"""What compiling needs in the build environment (mypy type-checks what it compiles)."""


def compiled_extensions() -> list[Extension]:
    """The mypyc extensions of :data:`COMPILED`, or none when not asked for.

    setuptools runs this file once to learn the build's requirements, before mypy is
    installed: then there is nothing to compile yet. Each extension is optional, so
    a machine without a C compiler builds the pure-Python package with a warning.
    """
    if not COMPILE:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        # The first run (learning the requirements) has no mypy yet; a build without
        # isolation may have none at all: say so, the build goes on with the source.
        print("MOONRULES_COMPILE=1: mypy (mypyc) is not installed here; nothing compiled")
        return []
    extensions: list[Extension] = mypycify(list(COMPILED), opt_level="3", debug_level="0")
    for extension in extensions:
        extension.optional = True
    return extensions


class BuildWithSpec(build_py):
    """``build_py``, then the files of :data:`SPEC_FILES` copied into the package's data."""

    def run(self) -> None:
        super().run()
        data = Path(self.build_lib) / "moonrules" / "conformance" / "data"
        for pattern in SPEC_FILES:
            for source in sorted((ROOT / "spec").glob(pattern)):
                target = data / source.relative_to(ROOT / "spec")
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)


setup(
    cmdclass={"build_py": BuildWithSpec},
    ext_modules=compiled_extensions(),
    setup_requires=COMPILE_NEEDS if COMPILE else [],
)
