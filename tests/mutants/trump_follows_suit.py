"""Mutant: a trump tile may follow the suit of its other number.

Digest, "Mistakes seen": "A trump tile allowed to follow the suit of its other number."
Breaks FOLLOW-2 and SUIT-2: with 6s trump and the 3-2 led, a hand of 6-3 and 1-1 must be
free to play either (it holds no 3), but here the 6-3 counts as a 3 and must be played.
Shows in legal_plays.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import Tile

BREAKS = ("FOLLOW-2", "SUIT-2")
SHOWS_IN = ("legal_plays",)


class Mutant(_kernel.Kernel):
    def in_suit(self, t: Tile, suit: int, trump: Trump) -> bool:
        if suit == TRUMP_SUIT:
            return self.is_trump(t, trump)
        return t.has(suit)  # a trump still counts for the numbers it bears


handle = Mutant().handle

if __name__ == "__main__":
    _kernel.main(handle)
