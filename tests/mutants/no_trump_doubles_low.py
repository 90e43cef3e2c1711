"""Mutant: at no-trump, doubles rank lowest in their suit.

A no-trump variant some players know (doubles low), not Moon's: TRUMP-4 keeps the ranks of
SUIT-3, where the double is the highest of its suit. With no-trump and the 1-1 led, the 2-1
wins the trick here. Breaks TRUMP-4 and SUIT-3. Shows in trick_winner.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.rules.suits import Trump
from moonrules.rules.tiles import Tile

BREAKS = ("TRUMP-4", "SUIT-3")
SHOWS_IN = ("trick_winner",)


class Mutant(_kernel.Kernel):
    def rank(self, t: Tile, suit: int, trump: Trump) -> int:
        if trump is Trump.NONE and t.is_double:
            return -1  # should be 7, the highest of the suit
        return super().rank(t, suit, trump)


handle = Mutant().handle

if __name__ == "__main__":
    _kernel.main(handle)
