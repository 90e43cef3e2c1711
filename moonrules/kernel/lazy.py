"""Lazy exports: a package names its public API in ``__all__`` and imports each name on first use.

A package whose public names live in modules that cost time to import (the process pools of
the advice, the study and the conformance runner), or that must not be imported before
:mod:`moonrules.kernel.compiled` has chosen their form, lists them with :func:`exports`;
``from package import name``, ``package.name`` and ``from package import *`` then import the
module that defines the name when it is first asked for, once.

>>> getattr_, dir_ = exports("example", {"sqrt": "math"})
>>> getattr_("sqrt")(9.0), "sqrt" in dir_()
(3.0, True)
>>> getattr_("cube")
Traceback (most recent call last):
...
AttributeError: module 'example' has no attribute 'cube'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def exports(
    package: str, table: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``, whose names ``table`` maps to
    the modules defining them."""

    def __getattr__(name: str) -> object:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace = sys.modules.get(package)
        if namespace is not None:
            setattr(namespace, name, value)
        return value

    def __dir__() -> list[str]:
        namespace = sys.modules.get(package)
        return sorted({*(vars(namespace) if namespace is not None else ()), *table})

    return __getattr__, __dir__


__all__ = ["exports"]
