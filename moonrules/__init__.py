"""moonrules: the reference implementation of Moon, the Texas domino trick-taking game.

>>> import moonrules
>>> s = moonrules.new_game(seed=1)
>>> s.hand_number, s.phase, len(s.hands), s.to_act == s.first_bidder
(1, Phase.BIDDING, 3, True)
>>> moonrules.legal_actions(s)
(Pass(), Bid(amount=4), Bid(amount=5), Bid(amount=6), Bid(amount=7), Bid(amount=21))

A game is saved as a record and read back: :func:`to_record` gives the JSON record,
:func:`from_record` the state again (:mod:`moonrules.records.record`,
:mod:`moonrules.records.replay`), and :func:`read_record` reads a record from a path or from
its text, JSON or the text notation
(:mod:`moonrules.records.reading` says how a path and a text are told apart).

>>> moonrules.from_record(moonrules.to_record(s)) == s
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# First of all: no compiled module older than its source may run (see kernel.compiled).
from moonrules.kernel import compiled as _compiled  # noqa: F401  # isort: skip
from moonrules.analysis.solver import play_values, solve
from moonrules.game import (
    Action,
    Bid,
    Claim,
    ClaimDoesNotHold,
    ClaimError,
    ClaimUndecided,
    Contract,
    Deal,
    Discard,
    Game,
    GameState,
    Hand,
    NameTrump,
    Pass,
    Phase,
    Play,
    Trick,
    apply,
    apply_claim,
    apply_renege,
    check_deal,
    illegal_play_reason,
    legal_actions,
    new_game,
    seeded_deal,
    with_deal,
)
from moonrules.game.encoding import (
    ActionSpace,
    ObservationLayout,
    encode_information_state,
    encode_observation,
    legal_action_ids,
    legal_action_mask,
)
from moonrules.game.views import PlayerView, view
from moonrules.rules.auction import MOON, PASS, Auction, apply_call, legal_calls
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

from moonrules.kernel.lazy import exports  # isort: skip

if TYPE_CHECKING:
    from moonrules.records.reading import read_record
    from moonrules.records.record import to_record
    from moonrules.records.replay import from_record

# The records are read on first use: `import moonrules` stays quick.
if not TYPE_CHECKING:  # a type checker reads the imports above instead
    __getattr__, __dir__ = exports(
        __name__,
        {
            "from_record": "moonrules.records.replay",
            "read_record": "moonrules.records.reading",
            "to_record": "moonrules.records.record",
        },
    )

__version__ = "0.1.0"

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
    "Action",
    "ActionSpace",
    "AllPass",
    "ArgumentError",
    "Auction",
    "Bid",
    "Claim",
    "ClaimDoesNotHold",
    "ClaimError",
    "ClaimUndecided",
    "Contract",
    "Deal",
    "Discard",
    "FirstLead",
    "Game",
    "GameState",
    "Hand",
    "HandScore",
    "IllegalAction",
    "IllegalDeal",
    "MoonError",
    "MoonMade",
    "NameTrump",
    "ObservationLayout",
    "OutOfTurn",
    "ParseError",
    "Pass",
    "Phase",
    "Play",
    "PlayerView",
    "Renege",
    "RuleSet",
    "RulesError",
    "Scoring",
    "TieRule",
    "Tile",
    "TileSet",
    "Trick",
    "Trump",
    "WidowTiming",
    "__version__",
    "apply",
    "apply_call",
    "apply_claim",
    "apply_renege",
    "check_deal",
    "encode_information_state",
    "encode_observation",
    "follows",
    "from_record",
    "game_winner",
    "illegal_play_reason",
    "in_suit",
    "is_trump",
    "led_suit",
    "legal_action_ids",
    "legal_action_mask",
    "legal_actions",
    "legal_calls",
    "legal_plays",
    "new_game",
    "play_values",
    "preset",
    "rank",
    "read_record",
    "rules_by_name",
    "score_hand",
    "seeded_deal",
    "solve",
    "tile",
    "tiles",
    "to_record",
    "trick_winner",
    "view",
    "with_deal",
]
