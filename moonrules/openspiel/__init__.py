"""OpenSpiel games for Moon: ``moonrules_hand`` and ``moonrules_game``, registered on import.

``import moonrules.openspiel`` registers two Python games with OpenSpiel (the extra
``moonrules[openspiel]`` installs the ``open_spiel`` package):

- ``moonrules_hand``: one hand. Returns are the hand's score changes, each player its
  side's (general-sum); a hand every player passed (BID-7) ends with returns 0.
- ``moonrules_game``: a whole game, zero-sum on the winner: the winning side's players
  get 1, the others ``-1 / (sides - 1)``. Truncation rule: after ``max_hands`` hands
  (default 100; thrown-in hands count) without a winner, the sides at the top of the
  scores share the win (see :func:`~moonrules.openspiel.games.standings_returns`).

Both take ``rules``, a preset name (default ``"standard"``). Chance deals tile by tile
(an outcome is a tile index, seat 0's seven tiles first, the widow last); seat 0 calls
first in the first hand, and the first call moves one seat on each hand (BID-1).
Player actions are :class:`~moonrules.game.encoding.ActionSpace` ids; the observation
and information-state tensors are :class:`~moonrules.game.encoding.ObservationLayout`'s,
their strings :func:`~moonrules.game.encoding.view_string`'s;
``state.resample_from_infostate`` draws with :func:`~moonrules.bots.resample.resample`;
states serialize through OpenSpiel's pickling of Python games. Each state holds a
:class:`~moonrules.engine.Engine` (``state.position.engine``): it is stepped by
``apply_action``, answers the legal actions and the tensors, and is cloned with the state;
the reference :class:`~moonrules.game.state.GameState` (``state.moon_state``) is worked
out from it when asked for.

>>> import pyspiel
>>> import moonrules.openspiel
>>> game = pyspiel.load_game("moonrules_hand(rules=partnership)")
>>> game.num_players(), game.num_distinct_actions(), game.observation_tensor_size()
(4, 43, 373)
"""

from __future__ import annotations

from moonrules.rules.errors import install_extra

try:
    import pyspiel  # noqa: F401
except ImportError as e:  # pragma: no cover - the extra is not installed
    raise ImportError(f"moonrules.openspiel needs OpenSpiel: {install_extra('openspiel')}") from e

from moonrules.openspiel.bots import MoonrulesBot
from moonrules.openspiel.games import (
    DEFAULT_MAX_HANDS,
    HAND_GAME,
    WHOLE_GAME,
    MoonGame,
    MoonObserver,
    MoonState,
    Position,
    standings_returns,
)

__all__ = [
    "DEFAULT_MAX_HANDS",
    "HAND_GAME",
    "WHOLE_GAME",
    "MoonGame",
    "MoonObserver",
    "MoonState",
    "MoonrulesBot",
    "Position",
    "standings_returns",
]
