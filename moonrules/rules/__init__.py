"""The rulebook: tiles, suits, tricks, rule sets, the auction and scoring, as pure functions.

The values are immutable ``attrs`` classes.

Everything else in moonrules is built on this package, and nothing here imports from outside it.
Each function names the clause of ``spec/rules.md`` it implements.
"""

from __future__ import annotations

from moonrules.rules.auction import MOON, PASS, Auction, apply_call, check_call, legal_calls
from moonrules.rules.errors import (
    ArgumentError,
    IllegalAction,
    IllegalDeal,
    MoonError,
    OutOfTurn,
    ParseError,
    RulesError,
)
from moonrules.rules.ruleset import (
    PARTNERSHIP,
    PRESETS,
    STANDARD,
    AllPass,
    FirstLead,
    MoonMade,
    Renege,
    RuleSet,
    Scoring,
    TieRule,
    WidowTiming,
    as_rules,
    preset,
    rules_by_name,
)
from moonrules.rules.scoring import HandScore, game_winner, score_hand
from moonrules.rules.suits import TRUMP_SUIT, Trump, in_suit, is_trump, led_suit, rank
from moonrules.rules.tiles import (
    DOUBLE_SIX_SET,
    MOON_SET,
    NO_DOUBLE_BLANK_SET,
    TILES,
    Tile,
    TileSet,
    tile,
    tiles,
)
from moonrules.rules.tricks import follows, legal_plays, trick_winner

__all__ = [
    "DOUBLE_SIX_SET",
    "MOON",
    "MOON_SET",
    "NO_DOUBLE_BLANK_SET",
    "PARTNERSHIP",
    "PASS",
    "PRESETS",
    "STANDARD",
    "TILES",
    "TRUMP_SUIT",
    "AllPass",
    "ArgumentError",
    "Auction",
    "FirstLead",
    "HandScore",
    "IllegalAction",
    "IllegalDeal",
    "MoonError",
    "MoonMade",
    "OutOfTurn",
    "ParseError",
    "Renege",
    "RuleSet",
    "RulesError",
    "Scoring",
    "TieRule",
    "Tile",
    "TileSet",
    "Trump",
    "WidowTiming",
    "apply_call",
    "as_rules",
    "check_call",
    "follows",
    "game_winner",
    "in_suit",
    "is_trump",
    "led_suit",
    "legal_calls",
    "legal_plays",
    "preset",
    "rank",
    "rules_by_name",
    "score_hand",
    "tile",
    "tiles",
    "trick_winner",
]
