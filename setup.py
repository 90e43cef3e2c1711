"""Build steps: ship the protocol's normative text, its schemas and its vectors in the package;
compile the solver's search with mypyc when asked.

``spec/`` stays the one source of truth; building the package (a wheel, or the build
directory of an install) copies ``spec/protocol.md``, ``spec/schema/*.json`` and
``spec/vectors/*.jsonl`` under ``moonrules/conformance/data/``, where ``moonrules
conform`` finds them when moonrules is installed rather than run from a checkout.
``tests/test_packaging.py`` builds a wheel and checks the copies.

With ``MOONRULES_COMPILE=1`` in the environment, the modules of :data:`COMPILED` are
also compiled with mypyc (from the same source: the build needs mypy, which the build
backend, ``build_backend/moonrules_build.py``, then adds to the build's requirements,
and a C compiler). They are compiled together into one shared library that sits in the
package (``moonrules.kernel.compiled.SHARED_LIBRARY``), beside the extension of each
module, so that every install of the checkout finds it. Without a compiler the build
goes on with the source alone (``pip install -v`` shows why;
``moonrules.analysis.solver.COMPILED`` tells). See ``docs/guides/solver-speed.md``.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import shutil
import time
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SPEC_FILES = ("protocol.md", "schema/*.json", "vectors/*.jsonl")
"""The files of ``spec/`` shipped in the package, as patterns."""


COMPILE = os.environ.get("MOONRULES_COMPILE", "") not in ("", "0")
"""Whether this build compiles :data:`COMPILED` (``MOONRULES_COMPILE=1``)."""


def _compiled_list() -> ModuleType:
    """``moonrules.kernel.compiled``, read from its file without importing the package."""
    spec = importlib.util.spec_from_file_location(
        "moonrules_compiled_list", ROOT / "moonrules" / "kernel" / "compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_LIST = _compiled_list()
COMPILED = tuple(str(_LIST.source_path(n).relative_to(ROOT)) for n in _LIST.COMPILED_MODULES)
"""The modules compiled with mypyc: the legal-play masks and the solver's search."""
GROUP: str = _LIST.GROUP
"""mypyc's name for them together: their shared library is ``GROUP + "__mypyc"``."""


def compiled_extensions() -> list[Extension]:
    """The mypyc extensions of :data:`COMPILED`, or none when not asked for.

    The shared library is named for :data:`GROUP`, a module of the package, so it is
    built inside the package rather than at the root of the checkout. Each extension
    is optional, so a machine without a C compiler builds the pure-Python package
    with a warning.
    """
    if not COMPILE:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        # A build without isolation may have no mypy: say so, it goes on with the source.
        print("MOONRULES_COMPILE=1: mypy (mypyc) is not installed here; nothing compiled")
        return []
    if "group_name" not in inspect.signature(mypycify).parameters:
        print("MOONRULES_COMPILE=1: mypy 1.17 or later is needed to compile; nothing compiled")
        return []
    extensions: list[Extension] = mypycify(
        list(COMPILED), opt_level="3", debug_level="0", group_name=GROUP
    )
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


class BuildExtInPlace(build_ext):
    """``build_ext``, and each extension copied into the checkout (an editable install)
    dated now: a rebuild that left the compiled code as it was is current all the same
    (``moonrules.kernel.compiled.stale_build`` compares the times of the files)."""

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()
        now = time.time()
        for extension in self.extensions:
            target = ROOT / self.get_ext_filename(extension.name)
            if target.exists():
                os.utime(target, (now, now))


setup(
    cmdclass={"build_py": BuildWithSpec, "build_ext": BuildExtInPlace},
    ext_modules=compiled_extensions(),
)
