"""Mutant: trump 0 is accepted in the 21-tile game.

Digest, "Mistakes seen": "Trump 0 accepted in the 21-tile game, where no tile bears a 0."
Under the no-double-blank preset trump 0 names no tile and is not offered (TRUMP-5); this
engine accepts it (as a trump with no tiles). Only refusals show it. Shows in led_suit,
legal_plays and trick_winner.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.conformance.protocol import ProtocolError, request_rules
from moonrules.rules.ruleset import PRESETS

BREAKS = ("TRUMP-5",)
SHOWS_IN = ("led_suit", "legal_plays", "trick_winner")


def handle(request: _kernel.JSON) -> dict[str, _kernel.JSON]:
    try:
        rules = request_rules(request) if isinstance(request, dict) else None
    except ProtocolError:
        rules = None
    if rules == PRESETS["no-double-blank"] and request.get("trump") == 0:
        # the same tiles and turns as the standard game, where trump 0 is the 0-0 alone
        return _kernel.reference({**request, "rules": "standard"})
    return _kernel.reference(request)


if __name__ == "__main__":
    _kernel.main(handle)
