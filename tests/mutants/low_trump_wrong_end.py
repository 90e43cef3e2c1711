"""Mutant: trumps ranked by the wrong end when trump is the lower number.

Digest, "Mistakes seen": "Over-trumping ranked by the wrong end when trump is the lower
number (2s trump: 2-6 must beat 2-3)." This engine ranks a trump by its low end, which is
its other end only when trump is the higher number: with 2s trump the 6-2 and the 3-2 both
rank "2", so the first played keeps the trick. Breaks SUIT-4. Shows in trick_winner.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import Tile

BREAKS = ("SUIT-4",)
SHOWS_IN = ("trick_winner",)


class Mutant(_kernel.Kernel):
    def rank(self, t: Tile, suit: int, trump: Trump) -> int:
        if suit == TRUMP_SUIT and trump.is_number and not t.is_double:
            return t.low  # should be t.other_end(trump number)
        return super().rank(t, suit, trump)


handle = Mutant().handle

if __name__ == "__main__":
    _kernel.main(handle)
