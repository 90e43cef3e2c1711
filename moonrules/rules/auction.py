"""The auction (BID-2 … BID-8): one turn each, clockwise from the first bidder.

A call is an ``int``: :data:`PASS` (0) or a bid. The auction is an immutable
value; :func:`legal_calls` and :func:`apply_call` are its rules.
"""

from __future__ import annotations

from typing import Final

import attrs

from moonrules.rules.contract import typed
from moonrules.rules.errors import ArgumentError, IllegalAction, shown, wrong_type
from moonrules.rules.ruleset import STANDARD, AllPass, RuleSet

PASS: Final = 0
"""The call "pass"."""
MOON: Final = 21
"""The bid of 21, "shooting the moon"."""


def call_name(call: int) -> str:
    """``"pass"`` or the bid as text."""
    return "pass" if call == PASS else str(call)


def _check_first_bidder(instance: Auction, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(instance.rules, RuleSet) and not 0 <= value < instance.rules.players:
        raise ArgumentError(
            f"first_bidder: seats are numbered 0 to {instance.rules.players - 1}, "
            f"not {shown(value)}"
        )


@attrs.frozen(slots=True, field_transformer=typed)
class Auction:
    """The calls made so far in one hand's auction, first bidder first (BID-1, BID-2).

    Any calls may be written down (:func:`check_call` rules on each); ``first_bidder`` is
    a seat of the rules' players.

    >>> a = Auction().call(5).call(PASS)
    >>> a.is_over, legal_calls(a)
    (False, (0, 6, 7, 21))
    >>> a.call(21).is_over, a.call(21).winner, a.call(21).bid
    (True, 2, 21)
    """

    calls: tuple[int, ...] = ()
    first_bidder: int = attrs.field(default=0, validator=_check_first_bidder)
    rules: RuleSet = STANDARD

    @property
    def to_call(self) -> int | None:
        """The seat whose turn it is to call, or ``None`` once the auction is over."""
        if self.is_over:
            return None
        return (self.first_bidder + len(self.calls)) % self.rules.players

    @property
    def high_bid(self) -> int:
        """The highest bid so far, or 0."""
        return max(self.calls, default=PASS)

    @property
    def is_over(self) -> bool:
        """Whether every player has called, or 21 was bid (BID-5, BID-6)."""
        return len(self.calls) >= self.rules.players or MOON in self.calls

    @property
    def winner(self) -> int | None:
        """The seat of the highest bidder once over (BID-6); ``None`` if not over or all passed."""
        if not self.is_over or self.high_bid == PASS:
            return None
        return (self.first_bidder + self.calls.index(self.high_bid)) % self.rules.players

    @property
    def bid(self) -> int | None:
        """The winning bid once over, else ``None``."""
        return self.high_bid if self.is_over and self.high_bid != PASS else None

    @property
    def redeal(self) -> bool:
        """Whether every player passed and the hand is thrown in (BID-7)."""
        return self.is_over and self.high_bid == PASS

    def call(self, call: int) -> Auction:
        """This auction after ``call``; see :func:`apply_call`."""
        return apply_call(self, call)


def legal_calls(auction: Auction) -> tuple[int, ...]:
    """The calls the next bidder may make, pass first; ``()`` once over.

    BID-2 (one turn each), BID-3 (above every earlier bid), BID-4 (the bid
    values), BID-8 (under ``all_pass = force`` the last caller may not pass when
    everyone before passed).
    """
    if type(auction) is not Auction:
        raise wrong_type("auction", "an Auction", auction)
    if auction.is_over:
        return ()
    high = auction.high_bid
    bids = tuple(b for b in auction.rules.bids if b > high)
    forced = (
        auction.rules.all_pass is AllPass.FORCE
        and len(auction.calls) == auction.rules.players - 1
        and high == PASS
    )
    return bids if forced else (PASS, *bids)


def check_call(auction: Auction, call: int) -> None:
    """Raise :class:`IllegalAction` with the clause broken if ``call`` is not legal now.

    The error's ``seat`` is the seat to call, ``call`` the call, and
    ``allowed_calls`` the calls :func:`legal_calls` allows (``()`` once over).
    :class:`TypeError` names an argument that is not an auction or a call (an ``int``).
    """
    if type(auction) is not Auction:
        raise wrong_type("auction", "an Auction", auction)
    if type(call) is not int:
        raise wrong_type("call", "a call: 0 (pass) or a bid", call)
    rules = auction.rules
    said = call

    def illegal(rule: str, message: str) -> IllegalAction:
        return IllegalAction(
            rule, message, seat=auction.to_call, call=said, allowed_calls=legal_calls(auction)
        )

    if auction.is_over:
        if MOON in auction.calls:
            raise illegal("BID-5", "the auction ended when 21 was bid; no more calls")
        raise illegal("BID-2", "every player has had their one turn to call; the auction is over")
    if call == PASS:
        if PASS not in legal_calls(auction):
            raise illegal(
                "BID-8",
                f"everyone before passed, so the last player must bid at least {rules.min_bid}",
            )
        return
    if call not in rules.bids:
        allowed = ", ".join(map(str, rules.bids))
        raise illegal("BID-4", f"{call} is not a bid; a bid is one of {allowed}")
    if call <= auction.high_bid:
        raise illegal(
            "BID-3", f"a bid of {call} does not beat the earlier bid of {auction.high_bid}"
        )


def apply_call(auction: Auction, call: int) -> Auction:
    """The auction after ``call``, or :class:`IllegalAction` naming the clause broken."""
    check_call(auction, call)
    return Auction((*auction.calls, call), auction.first_bidder, auction.rules)


__all__ = ["MOON", "PASS", "Auction", "apply_call", "call_name", "check_call", "legal_calls"]
