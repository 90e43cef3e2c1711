"""Mutant: the suit led is taken from the first number written on the tile.

Digest, "Mistakes seen": "The led suit taken from the first number written on a tile
instead of the higher number." The protocol accepts a tile written either way ("3-5" is
the 5-3), so this engine reads the request's text as written: "3-5" led calls 3s here, 5s
by LEAD-3. Shows in led_suit, legal_plays and trick_winner.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import Tile

BREAKS = ("LEAD-3",)
SHOWS_IN = ("led_suit", "legal_plays", "trick_winner")


class Mutant(_kernel.Kernel):
    def led_suit(self, t: Tile, text: str, trump: Trump) -> int:
        if self.is_trump(t, trump):
            return TRUMP_SUIT
        return int(text.strip().split("-")[0])  # should be t.high


handle = Mutant().handle

if __name__ == "__main__":
    _kernel.main(handle)
