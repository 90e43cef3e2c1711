"""``moonrules explain``: the ruling on one situation, with its clause chain.

- a play: ``--trump 6 --hand "5-3 6-6 1-1" --trick "3-2" --play 6-6`` (may it be
  played, and why: LEAD-3, SUIT-1/SUIT-2, FOLLOW-1 … FOLLOW-3);
- a trick: ``--trump 2 --trick "3-2 6-3 3-3"`` (who wins, and why: TRICK-2, SUIT-3/4);
- an auction: ``--calls "5,pass,6"`` (is it legal, where does it stand: BID-2 … BID-8;
  ``--bids`` is an older name of ``--calls``);
- a hand's result: ``--score --bidder 0 --bid 5 --tricks 4,2,1`` (SCORE-1 … SCORE-6).

``--rules NAME`` applies everywhere; ``--json`` prints the ruling as one JSON object
(``spec/schema/explain.schema.json``). A situation that cannot arise (a tile not of
the set, a tile twice, eight tiles in a hand, a seat that does not exist) is refused
as ``moonrules serve`` refuses it, naming the clause; an option that does not belong
to the question asked is refused too. Exit status 0, or 1 when the situation asked
about is illegal; 2 for a situation that cannot be read or cannot arise.
"""

from __future__ import annotations

import argparse
import json
import re

from moonrules.arbitration import (
    Explanation,
    explain_auction,
    explain_play,
    explain_score,
    explain_trick,
    parse_calls,
)
from moonrules.cli.lang import add_lang_argument, chosen_language, lines_in
from moonrules.rules import positions
from moonrules.rules.errors import ParseError, quote
from moonrules.rules.ruleset import RuleSet, rules_by_name
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import Tile, tiles

HELP = "explain the ruling on one situation: a play, a trick, an auction or a hand's score"

_OPTIONS = {
    "auction": ("calls", "first"),
    "score": ("score", "bidder", "bid", "tricks", "totals"),
    "play": ("trump", "play", "hand", "trick", "first_lead"),
    "trick": ("trump", "trick", "leader"),
}
"""The options each question takes (``--rules`` and ``--json`` go with every one)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="standard", help="a preset name (default standard)")
    p.add_argument("--trump", help="the trump: 0-6, doubles or none")
    p.add_argument("--hand", help='the player\'s tiles, e.g. "5-3 6-6 1-1"')
    p.add_argument("--trick", help='the trick so far, led tile first, e.g. "3-2"')
    p.add_argument("--play", help="the tile proposed (with --trick, or alone as a lead)")
    p.add_argument(
        "--leader", type=_seat, default=None, help="the seat that led the trick (default 0)"
    )
    p.add_argument(
        "--first-lead",
        action="store_true",
        default=None,
        help="the play is in the first trick of the hand (for first_lead = trump, LEAD-2)",
    )
    p.add_argument(
        "--calls",
        "--bids",
        dest="calls",
        metavar="CALLS",
        help='the calls of an auction in order, e.g. "5,pass,6" (--bids: an older name)',
    )
    p.add_argument(
        "--first", type=_seat, default=None, help="the seat that calls first (default 0)"
    )
    p.add_argument(
        "--score",
        action="store_true",
        default=None,
        help="score a hand (with --bidder, --bid, --tricks)",
    )
    p.add_argument("--bidder", type=_seat, help="the bidder's seat")
    p.add_argument("--bid", help="the contract (a number of tricks, or 21)")
    p.add_argument("--tricks", help="the tricks each seat took, e.g. 4,2,1")
    p.add_argument("--totals", help="the running totals before the hand, one per side")
    p.add_argument("--json", action="store_true", help="print the ruling as JSON")
    add_lang_argument(p, "the ruling")


def _whole(text: str) -> int:
    """A whole number in ASCII digits (at most 9 of them); :class:`ValueError` otherwise."""
    if re.fullmatch(r"[+-]?[0-9]{1,9}", text.strip()) is None:
        raise ValueError(text)
    return int(text)


def _seat(text: str) -> int:
    try:
        return _whole(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seat is a number, not {quote(text)}") from None


def _numbers(text: str, what: str) -> list[int]:
    parts = [p for p in re.split(r"[\s,]+", text) if p]
    try:
        return [_whole(p) for p in parts]
    except ValueError:
        raise ParseError(
            f"{what} are whole numbers separated by commas, not {quote(text)}"
        ) from None


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def question(args: argparse.Namespace) -> str:
    """Which question the options ask (``auction``, ``score``, ``play`` or ``trick``);
    :class:`ParseError` for none, or for an option that does not belong to it."""
    if args.calls is not None:
        kind = "auction"
    elif args.score:
        kind = "score"
    elif args.trump is None:
        raise ParseError(
            "say what to explain: --trump with --play (a play) or --trick (a trick), "
            "--calls (an auction) or --score (a hand's result)"
        )
    elif args.play is not None:
        kind = "play"
    elif args.trick:
        kind = "trick"
    else:
        raise ParseError("with --trump, give --play (a play) or --trick (a trick)")
    for other, names in _OPTIONS.items():
        for name in names:
            if name not in _OPTIONS[kind] and getattr(args, name) is not None:
                raise ParseError(
                    f"{_option(name)} does not go with {_asked(kind)}: it is for {_asked(other)}"
                )
    return kind


def _asked(kind: str) -> str:
    return {
        "auction": "an auction (--calls)",
        "score": "a hand's score (--score)",
        "play": "a play (--play)",
        "trick": "a trick (--trick without --play)",
    }[kind]


def _check_seats(args: argparse.Namespace, rules: RuleSet) -> None:
    for name in ("leader", "first", "bidder"):
        value = getattr(args, name)
        if value is not None:
            positions.check_seat(rules, value, _option(name))


def explanation(args: argparse.Namespace) -> Explanation:
    """The explanation the arguments ask for; :class:`ParseError` if they ask for none, and
    :class:`~moonrules.rules.errors.IllegalAction` for a situation that cannot arise."""
    rules = rules_by_name(args.rules)
    kind = question(args)
    _check_seats(args, rules)
    if kind == "auction":
        return explain_auction(rules, parse_calls(args.calls), args.first or 0)
    if kind == "score":
        if args.bidder is None or args.bid is None or args.tricks is None:
            raise ParseError("--score needs --bidder, --bid and --tricks")
        bid = _numbers(args.bid, "bids")
        if len(bid) != 1:
            raise ParseError(f"--bid is one number, not {quote(args.bid)}")
        totals = _numbers(args.totals, "totals") if args.totals else None
        return explain_score(
            rules, args.bidder, bid[0], _numbers(args.tricks, "tricks"), totals=totals
        )
    trump = Trump.parse(args.trump)
    positions.check_offered(rules, trump)
    trick = tiles(args.trick) if args.trick else ()
    if kind == "play":
        hand = tiles(args.hand) if args.hand is not None else None
        return explain_play(
            trump,
            Tile.parse(args.play),
            trick=trick,
            hand=hand,
            rules=rules,
            first_lead=bool(args.first_lead),
        )
    return explain_trick(trump, trick, leader=args.leader or 0, rules=rules)


def run(args: argparse.Namespace) -> int:
    e = explanation(args)
    if args.json:
        doc = {"question": question(args), "rules": args.rules, **e.to_json()}
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        for line in lines_in(e.lines(), chosen_language(args, "explain"), "explain"):
            print(line)
    return 1 if e.legal is False else 0
