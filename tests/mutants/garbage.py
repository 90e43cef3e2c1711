"""A target that prints garbage: scoring a bid of 21, it writes a debugging line, not JSON.

In-process, its handle returns that text instead of an answer object. Every other request
gets the reference's answer. The fuzzer must report the garbage, restart the target and go on.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import json

import _kernel

SHOWS_IN = ("score_hand",)


def _debug(request: _kernel.JSON) -> str | None:
    if isinstance(request, dict) and request.get("op") == "score_hand" and request.get("bid") == 21:
        return f"DEBUG shooting the moon: tricks {request.get('tricks')}"
    return None


def handle(request: _kernel.JSON) -> _kernel.JSON:
    return _debug(request) or _kernel.reference(request)


def main() -> None:
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        text = _debug(request)
        if text is None:
            from moonrules.conformance.protocol import handle_line

            text = handle_line(line.rstrip("\n"))
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
