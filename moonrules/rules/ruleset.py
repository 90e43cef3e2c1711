"""Rule sets: every house rule of the sources as a field of one typed value.

:class:`RuleSet` defaults to three-player Moon as the seeds give it; named
presets (:data:`PRESETS`, :func:`rules_by_name`) cover the variants the sources
describe. Every rule function of the library honours every field. A rule set
that cannot be played is refused when built (RULES-1, TRUMP-5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from types import MappingProxyType
from typing import Final, TypeVar

import attrs

from moonrules.rules.contract import typed
from moonrules.rules.errors import ParseError, RulesError, quote, shown, wrong_type
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import TileSet


class _Option(Enum):
    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


class AllPass(_Option):
    """What happens when every player passes (BID-7, BID-8)."""

    REDEAL = "redeal"
    """The hand is thrown in and redealt (BID-7)."""
    FORCE = "force"
    """The last player to call must bid when all before have passed (BID-8)."""


class WidowTiming(_Option):
    """When the bidder takes the widow (WIDOW-1, WIDOW-2)."""

    BEFORE_TRUMP = "before-trump"
    AFTER_TRUMP = "after-trump"


class FirstLead(_Option):
    """What the first lead of a hand may be (LEAD-1, LEAD-2)."""

    ANY = "any"
    TRUMP = "trump"


class MoonMade(_Option):
    """What a made bid of 21 is worth (SCORE-4, SCORE-5)."""

    WINS_GAME = "wins-game"
    SCORES_21 = "scores-21"


class Scoring(_Option):
    """Points to 21 (SCORE-2, SCORE-3) or marks to 7 (SCORE-6)."""

    POINTS = "points"
    MARKS = "marks"


class TieRule(_Option):
    """A tie at the top at the end (END-2, END-3)."""

    PLAY_ON = "play-on"
    BIDDER_OUT = "bidder-out"


class Renege(_Option):
    """What a recorded renege does (RENEGE-1, RENEGE-2)."""

    STOP = "stop"
    PENALTY = "penalty"


def _default_trump_numbers(self: RuleSet) -> tuple[int, ...]:
    mask = self.tile_set.mask
    from moonrules.rules.tiles import TILES

    return tuple(n for n in range(7) if any(mask >> t.index & 1 and t.has(n) for t in TILES))


def _sorted_numbers(value: Iterable[int]) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list, frozenset, set)):
        raise wrong_type("trump_numbers", "a collection of numbers 0 to 6 (e.g. [1, 2, 3])", value)
    for n in value:
        if type(n) is not int:
            raise wrong_type("trump_numbers", "numbers 0 to 6", n)
        if not 0 <= n <= 6:
            raise RulesError(
                f"trump numbers run from 0 to 6, not {shown(n)}", "TRUMP-5", "trump_numbers"
            )
    return tuple(sorted(set(value)))


_E = TypeVar("_E", bound=Enum)


def _option(kind: type[_E], field: str, value: object) -> _E:
    """``value`` as a member of ``kind``: a member, or its option string (``"penalty"``)."""
    if isinstance(value, kind):
        return value
    choices = ", ".join(repr(k.value) for k in kind)
    if not isinstance(value, str):
        raise wrong_type(field, f"one of {choices} (or a {kind.__name__})", value)
    for member in kind:
        if member.value == value:
            return member
    raise RulesError(f"{field} must be one of {choices} (or a {kind.__name__}), not {quote(value)}")


# One named converter per option field, so that type checkers see ``TileSet | str``.


def _tile_set(value: TileSet | str) -> TileSet:
    return _option(TileSet, "tile_set", value)


def _all_pass(value: AllPass | str) -> AllPass:
    return _option(AllPass, "all_pass", value)


def _widow_timing(value: WidowTiming | str) -> WidowTiming:
    return _option(WidowTiming, "widow_timing", value)


def _first_lead(value: FirstLead | str) -> FirstLead:
    return _option(FirstLead, "first_lead", value)


def _moon_made(value: MoonMade | str) -> MoonMade:
    return _option(MoonMade, "moon_made", value)


def _scoring(value: Scoring | str) -> Scoring:
    return _option(Scoring, "scoring", value)


def _tie(value: TieRule | str) -> TieRule:
    return _option(TieRule, "tie", value)


def _renege(value: Renege | str) -> Renege:
    return _option(Renege, "renege", value)


_BOOLEAN: Final = {"expected": "true or false (True or False)"}


@attrs.frozen(slots=True, kw_only=True, cache_hash=True, field_transformer=typed)
class RuleSet:
    """One complete choice of Moon's rules. Defaults: three-player Moon (the seeds).

    An option field takes its enum member or the same string a JSON record uses
    (``spec/variants.md``); another string is refused naming the field and its values,
    and a value of another type (any field) with a :class:`TypeError` naming the field.

    >>> RuleSet().players, RuleSet().min_bid, RuleSet().widow_size
    (3, 4, 1)
    >>> RuleSet(players=4, tile_set="double-six-28") == PARTNERSHIP
    True
    >>> RuleSet(renege="penalty").renege
    Renege.PENALTY
    >>> RuleSet(renege="fine")
    Traceback (most recent call last):
    ...
    moonrules.rules.errors.RulesError: renege must be one of 'stop', 'penalty' (or a Renege), \
not 'fine' (RULES-1)
    >>> RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21, trump_numbers=(0, 1))
    Traceback (most recent call last):
    ...
    moonrules.rules.errors.RulesError: trump_numbers: trump 0 names no tile of the \
no-double-blank-21 set: no tile bears a 0 (TRUMP-5)
    """

    players: int = attrs.field(default=3, metadata={"expected": "the number 3 or 4"})
    """3 (each for themself) or 4 (two teams, partners opposite: TEAM-1)."""
    tile_set: TileSet = attrs.field(default=TileSet.MOON_22, converter=_tile_set)
    """The tiles: 22 with a widow (TILE-2), 28 for four players (TILE-3), 21 (TILE-4)."""
    min_bid: int = attrs.field(default=4, metadata={"expected": "the number 3, 4 or 5"})
    """The lowest bid: 3, 4 or 5 (BID-4)."""
    moon: bool = attrs.field(default=True, metadata=_BOOLEAN)
    """Whether 21 ("shooting the moon") may be bid (BID-4, BID-5)."""
    all_pass: AllPass = attrs.field(default=AllPass.REDEAL, converter=_all_pass)
    """Every player passes: redeal (BID-7) or the last bidder is forced (BID-8)."""
    widow_timing: WidowTiming = attrs.field(
        default=WidowTiming.BEFORE_TRUMP, converter=_widow_timing
    )
    """Widow taken before naming trump (WIDOW-1) or after (WIDOW-2)."""
    doubles_trump: bool = attrs.field(default=True, metadata=_BOOLEAN)
    """Whether doubles may be named trump (TRUMP-3, TRUMP-5)."""
    no_trump: bool = attrs.field(default=True, metadata=_BOOLEAN)
    """Whether no-trump may be named (TRUMP-4, TRUMP-5)."""
    trump_numbers: tuple[int, ...] = attrs.field(
        default=attrs.Factory(_default_trump_numbers, takes_self=True),
        converter=_sorted_numbers,
    )
    """The numbers that may be named trump; default: every number on the set's tiles (TRUMP-5)."""
    first_lead: FirstLead = attrs.field(default=FirstLead.ANY, converter=_first_lead)
    """Any first lead (LEAD-1) or a trump if the leader holds one (LEAD-2)."""
    moon_made: MoonMade = attrs.field(default=MoonMade.WINS_GAME, converter=_moon_made)
    """A made 21 wins the game (SCORE-4) or scores 21 (SCORE-5)."""
    scoring: Scoring = attrs.field(default=Scoring.POINTS, converter=_scoring)
    """Points (SCORE-2, SCORE-3) or marks (SCORE-6)."""
    target: int = attrs.field(
        default=attrs.Factory(
            lambda self: 7 if self.scoring is Scoring.MARKS else 21, takes_self=True
        ),
        metadata={"expected": "a positive whole number"},
    )
    """The score that ends the game (END-1): 21 points or 7 marks by default."""
    tie: TieRule = attrs.field(default=TieRule.PLAY_ON, converter=_tie)
    """A tie at the top: play on (END-2) or the bidder goes out (END-3)."""
    renege: Renege = attrs.field(default=Renege.STOP, converter=_renege)
    """A recorded renege: stop and report (RENEGE-1) or penalise the hand (RENEGE-2)."""

    def __attrs_post_init__(self) -> None:
        _validate(self)

    # Derived facts -----------------------------------------------------

    @property
    def partnership(self) -> bool:
        """Whether players form two teams (TEAM-1)."""
        return self.players == 4

    @property
    def sides(self) -> int:
        """How many scores there are: players, or 2 teams."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        """The score index of a seat: the seat, or its team (seat 0+2 → 0, 1+3 → 1)."""
        return seat % 2 if self.players == 4 else seat

    @property
    def widow_size(self) -> int:
        """1 with three players and 22 tiles (DEAL-2), else 0."""
        return len(self.tile_set.tiles) - 7 * self.players

    @property
    def has_widow(self) -> bool:
        """Whether there is a widow (DEAL-2)."""
        return self.widow_size == 1

    @property
    def bids(self) -> tuple[int, ...]:
        """Every bid value allowed (BID-4), lowest first."""
        return tuple(range(self.min_bid, 8)) + ((21,) if self.moon else ())

    @property
    def trumps(self) -> tuple[Trump, ...]:
        """Every trump the bidder may name (TRUMP-1, TRUMP-5)."""
        out = [Trump.of_number(n) for n in self.trump_numbers]
        if self.doubles_trump:
            out.append(Trump.DOUBLES)
        if self.no_trump:
            out.append(Trump.NONE)
        return tuple(out)

    @property
    def name(self) -> str | None:
        """The name of the preset equal to this rule set, if any."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None

    def to_json(self) -> dict[str, object]:
        """Every field, in the protocol's spelling."""
        out: dict[str, object] = {}
        for f in attrs.fields(RuleSet):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, Enum) else list(v) if isinstance(v, tuple) else v
        return out


def _validate(r: RuleSet) -> None:
    """RULES-1, TRUMP-5: refuse a rule set that cannot be played.

    Each field's type is checked before (:func:`~moonrules.rules.contract.typed`), and the
    option fields are converted (or refused) field by field; see :func:`_option`.
    """
    if r.players not in (3, 4):
        raise RulesError(
            f"Moon is played by 3 players, or 4 in partnerships, not {shown(r.players)}",
            field="players",
        )
    n = len(r.tile_set.tiles)
    if r.players == 4 and r.tile_set is not TileSet.DOUBLE_SIX_28:
        raise RulesError(
            f"four players need all 28 tiles, 7 each with no widow; the {r.tile_set.value} "
            f"set has {n}",
            field="tile_set",
        )
    if r.players == 3 and r.tile_set is TileSet.DOUBLE_SIX_28:
        raise RulesError(
            "three players cannot share the 28-tile set: 7 each leaves 7 over, and a widow "
            "is one tile; use the 22- or 21-tile set",
            field="tile_set",
        )
    if r.min_bid not in (3, 4, 5):
        raise RulesError(
            f"the minimum bid is 3, 4 or 5, not {shown(r.min_bid)}", "BID-4", "min_bid"
        )
    if r.widow_timing is WidowTiming.AFTER_TRUMP and not r.has_widow:
        raise RulesError(
            f"widow_timing=after-trump needs a widow, and the {r.tile_set.value} set with "
            f"{r.players} players has none",
            field="widow_timing",
        )
    mask = r.tile_set.mask
    from moonrules.rules.tiles import TILES

    for num in r.trump_numbers:
        if not any(mask >> t.index & 1 and t.has(num) for t in TILES):
            raise RulesError(
                f"trump {num} names no tile of the {r.tile_set.value} set: no tile bears a {num}",
                "TRUMP-5",
                "trump_numbers",
            )
    if not r.trumps:
        raise RulesError("the rule set offers no trump at all for the bidder to name", "TRUMP-5")
    if r.target < 1:
        raise RulesError(
            f"the target score must be a positive whole number, not {shown(r.target)}",
            field="target",
        )


STANDARD: Final = RuleSet()
"""Three-player Moon as the seeds give it."""

PARTNERSHIP: Final = RuleSet(players=4, tile_set=TileSet.DOUBLE_SIX_28)
"""Four players in two teams with all 28 tiles (seed 003)."""

PRESETS: Final[Mapping[str, RuleSet]] = MappingProxyType(
    {
        "standard": STANDARD,
        "partnership": PARTNERSHIP,
        "partnership-forced": attrs.evolve(PARTNERSHIP, all_pass=AllPass.FORCE),
        "partnership-min3": attrs.evolve(PARTNERSHIP, min_bid=3),
        "partnership-min5": attrs.evolve(PARTNERSHIP, min_bid=5),
        "pagat": RuleSet(
            widow_timing=WidowTiming.AFTER_TRUMP,
            doubles_trump=False,
            moon_made=MoonMade.SCORES_21,
        ),
        "no-double-blank": RuleSet(tile_set=TileSet.NO_DOUBLE_BLANK_21),
        "marks": RuleSet(scoring=Scoring.MARKS),
        "lead-trump": RuleSet(first_lead=FirstLead.TRUMP),
        "bidder-out": RuleSet(tie=TieRule.BIDDER_OUT),
        "renege-penalty": RuleSet(renege=Renege.PENALTY),
    }
)
"""Every named preset, read-only; see ``spec/variants.md`` for the sources each follows."""

ALIASES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "3p": "standard",
        "three-player": "standard",
        "default": "standard",
        "4p": "partnership",
        "four-player": "partnership",
        "4p-forced": "partnership-forced",
        "21-tiles": "no-double-blank",
    }
)
"""Other names the presets answer to (read-only)."""

assert len(set(PRESETS.values())) == len(PRESETS), "two presets are the same rule set"


def rules_by_name(name: str) -> RuleSet:
    """The preset called ``name`` (or an alias of it), case-insensitive.

    >>> rules_by_name("4p") == PARTNERSHIP
    True
    """
    if not isinstance(name, str):
        raise wrong_type("name", "a rule set's name (text)", name)
    key = name.strip().lower().replace("_", "-")
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ParseError(f"no rule set is called {quote(name)}; known: {known}") from None


preset = rules_by_name
"""The same as :func:`rules_by_name`."""


def as_rules(rules: RuleSet | str | None) -> RuleSet:
    """A rule set given by value, by name, or ``None`` for the standard rules (RULES-1)."""
    if rules is None:
        return STANDARD
    if isinstance(rules, RuleSet):
        return rules
    if not isinstance(rules, str):
        raise wrong_type("rules", "a RuleSet, a preset's name or None", rules)
    return rules_by_name(rules)


__all__ = [
    "ALIASES",
    "PARTNERSHIP",
    "PRESETS",
    "STANDARD",
    "AllPass",
    "FirstLead",
    "MoonMade",
    "Renege",
    "RuleSet",
    "Scoring",
    "TieRule",
    "WidowTiming",
    "as_rules",
    "preset",
    "rules_by_name",
]
