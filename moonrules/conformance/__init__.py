"""Conformance: the JSON-lines protocol, the target-engine runner, the vectors and the fuzzer.

:func:`handle` answers one protocol request and :func:`handle_line` one request line
(:mod:`moonrules.conformance.protocol`); :func:`load_vectors` and :func:`select` read and
filter the conformance vectors. The runner of the vectors against another engine and the
fuzzer share their modules' names (``moonrules.conformance.conform.conform``,
``moonrules.conformance.fuzz.fuzz``, ``moonrules.conformance.serve.serve``), so they are not
listed here. The names are imported on first use (:mod:`moonrules.kernel.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moonrules.kernel.lazy import exports

if TYPE_CHECKING:
    from moonrules.conformance.conform import ConformError, load_vectors, select
    from moonrules.conformance.fuzz import FuzzError
    from moonrules.conformance.protocol import ProtocolError, handle, handle_line
    from moonrules.conformance.target import TargetError

_MODULES = {
    "moonrules.conformance.conform": ("ConformError", "load_vectors", "select"),
    "moonrules.conformance.fuzz": ("FuzzError",),
    "moonrules.conformance.protocol": ("ProtocolError", "handle", "handle_line"),
    "moonrules.conformance.target": ("TargetError",),
}
if not TYPE_CHECKING:  # a type checker reads the imports above instead
    __getattr__, __dir__ = exports(
        __name__, {name: module for module, names in _MODULES.items() for name in names}
    )

__all__ = [
    "ConformError",
    "FuzzError",
    "ProtocolError",
    "TargetError",
    "handle",
    "handle_line",
    "load_vectors",
    "select",
]
