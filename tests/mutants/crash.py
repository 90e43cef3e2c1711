"""A target that crashes: asked for the legal plays of a hand holding a double, it dies.

The engine raises an exception (as a server, it exits with a traceback on stderr). Every
other request gets the reference's answer. The fuzzer must report the crash, restart the
target and go on; the shrunk case is a one-tile hand (a double) following a one-tile trick.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

SHOWS_IN = ("legal_plays",)


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    if isinstance(request, dict) and request.get("op") == "legal_plays":
        hand, trick = request.get("hand"), request.get("trick")
        if (
            isinstance(hand, list)
            and isinstance(trick, list)
            and trick
            and any(isinstance(t, str) and len(t) == 3 and t[0] == t[2] for t in hand)
        ):
            raise RuntimeError("lost track of a double while following suit")
    return _kernel.reference(request)


if __name__ == "__main__":
    _kernel.main(handle)
