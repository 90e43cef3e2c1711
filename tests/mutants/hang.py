"""A target that hangs: asked for the winner of a trick holding a double, it never answers.

Every other request gets the reference's answer. The fuzzer must report a timeout (after its
per-request timeout), stop and restart the target, and go on with the other ops.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import time

import _kernel

SHOWS_IN = ("trick_winner",)


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    if isinstance(request, dict) and request.get("op") == "trick_winner":
        trick = request.get("trick")
        if isinstance(trick, list) and any(
            isinstance(t, str) and len(t) == 3 and t[0] == t[2] for t in trick
        ):
            while True:  # a loop that never ends
                time.sleep(60)
    return _kernel.reference(request)


if __name__ == "__main__":
    _kernel.main(handle)
