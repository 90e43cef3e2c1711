"""Build step: ship the protocol's normative text, its schemas and its vectors in the package.

``spec/`` stays the one source of truth; building the package (a wheel, or the build
directory of an install) copies ``spec/protocol.md``, ``spec/schema/*.json`` and
``spec/vectors/*.jsonl`` under ``moonrules/conformance/data/``, where ``moonrules
conform`` finds them when moonrules is installed rather than run from a checkout.
``tests/test_packaging.py`` builds a wheel and checks the copies.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SPEC_FILES = ("protocol.md", "schema/*.json", "vectors/*.jsonl")
"""The files of ``spec/`` shipped in the package, as patterns."""


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


setup(cmdclass={"build_py": BuildWithSpec})
