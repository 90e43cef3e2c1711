"""Mutant: every double is a trump, whatever trump was named.

Digest, "Mistakes seen": "Every double treated as a trump whatever the trump named."
Breaks TRUMP-2 and TRUMP-4 (a double is a trump only under its own number or doubles):
with 5s trump the 3-3 is led as a trump here, and with no-trump every double trumps.
Shows in led_suit, legal_plays and trick_winner.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kernel

from moonrules.rules.suits import TRUMP_SUIT, Trump
from moonrules.rules.tiles import Tile

BREAKS = ("TRUMP-2", "TRUMP-4")
SHOWS_IN = ("led_suit", "legal_plays", "trick_winner")


class Mutant(_kernel.Kernel):
    def is_trump(self, t: Tile, trump: Trump) -> bool:
        return t.is_double or super().is_trump(t, trump)

    def rank(self, t: Tile, suit: int, trump: Trump) -> int:
        if suit == TRUMP_SUIT and t.is_double and not super().is_trump(t, trump):
            # the extra trumps: below the named trump suit, by number
            return t.high - 8 if trump.is_number else t.high
        return super().rank(t, suit, trump)


handle = Mutant().handle

if __name__ == "__main__":
    _kernel.main(handle)
