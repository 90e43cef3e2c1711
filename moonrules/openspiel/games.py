"""The OpenSpiel games ``moonrules_hand`` and ``moonrules_game``, on the engine.

See :mod:`moonrules.openspiel` for what each game is; this module holds the
implementation: the game, its states (each holds an :class:`~moonrules.engine.Engine`,
cloned with the state), and the observer that writes the engine's observation vectors
(:mod:`moonrules.game.encoding`'s) into OpenSpiel's tensors. The reference
:class:`~moonrules.game.state.GameState` is worked out only where it is needed: for the
strings, ``moon_state`` and ``moon_view``, serialization and resampling.
"""

from __future__ import annotations

import copy
import random
from array import array
from collections.abc import Sequence
from struct import Struct
from typing import Any, Final

import numpy as np
import pyspiel

from moonrules.bots.resample import resample
from moonrules.engine import Engine
from moonrules.game.deal import new_game, with_deal
from moonrules.game.encoding import (
    ActionSpace,
    ObservationLayout,
    state_string,
    view_string,
)
from moonrules.game.play import apply
from moonrules.game.state import Deal, GameState, make_state
from moonrules.game.views import PlayerView, view
from moonrules.rules.errors import wrong_type
from moonrules.rules.ruleset import RuleSet, Scoring, rules_by_name
from moonrules.rules.tiles import TILES

HAND_GAME: Final = "moonrules_hand"
"""The short name of the one-hand game."""
WHOLE_GAME: Final = "moonrules_game"
"""The short name of the whole-game game."""
DEFAULT_MAX_HANDS: Final = 100
"""``max_hands`` of ``moonrules_game`` when not given."""

_CHANCE_OUTCOMES: Final = 28
"""A chance outcome is a tile index, 0-27."""


def _game_type(short_name: str, long_name: str, whole: bool) -> pyspiel.GameType:
    params: dict[str, object] = {"rules": "standard"}
    if whole:
        params["max_hands"] = DEFAULT_MAX_HANDS
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if whole else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


HAND_TYPE: Final = _game_type(HAND_GAME, "Moon, one hand (moonrules)", whole=False)
WHOLE_TYPE: Final = _game_type(WHOLE_GAME, "Moon, a whole game (moonrules)", whole=True)


def hand_utility_range(rules: RuleSet) -> tuple[float, float]:
    """The least and the most a side can score in one hand (SCORE-2, SCORE-3, SCORE-6)."""
    if rules.scoring is Scoring.MARKS:
        return 0.0, 1.0
    top = max(rules.bids)
    return float(-top), float(max(top, 7))


def hand_length(rules: RuleSet) -> int:
    """The most decisions in one hand: every call, a discard, the trump, every play."""
    return rules.players + (1 if rules.has_widow else 0) + 1 + 7 * rules.players


def standings_returns(rules: RuleSet, scores: tuple[int, ...]) -> tuple[float, ...]:
    """Each player's return when the sides at the top of ``scores`` share the win.

    With ``S`` sides and ``W`` of them tied at the top, each top side gets
    ``(S - W) / (W (S - 1))`` and each other side ``-1 / (S - 1)``: a lone winner gets
    1, the sum is 0, and an all-round tie gives everyone 0. A player gets its side's.
    """
    sides = rules.sides
    top = max(scores)
    winners = [s for s in range(sides) if scores[s] == top]
    w = len(winners)
    win = (sides - w) / (w * (sides - 1))
    lose = -1 / (sides - 1)
    side_value = [win if s in winners else lose for s in range(sides)]
    return tuple(side_value[rules.side_of(p)] for p in range(rules.players))


def _rules_param(params: dict[str, Any]) -> RuleSet:
    name = params.get("rules", "standard")
    if not isinstance(name, str):
        raise wrong_type("rules", "a preset name", name)
    return rules_by_name(name)


class MoonGame(pyspiel.Game):  # type: ignore[misc]
    """``moonrules_hand`` or ``moonrules_game`` for one rule set (``params["rules"]``)."""

    def __init__(self, params: dict[str, Any] | None = None, *, whole: bool = False) -> None:
        params = dict(params or {})
        self.rules = _rules_param(params)
        self.whole = whole
        self.max_hands = 1
        if whole:
            max_hands = params.get("max_hands", DEFAULT_MAX_HANDS)
            if type(max_hands) is not int:
                raise wrong_type("max_hands", "a whole number", max_hands)
            if max_hands < 1:
                raise ValueError(f"max_hands: at least 1 hand, not {max_hands}")
            self.max_hands = max_hands
            low, high = -1.0, 1.0
            total: float | None = 0.0
        else:
            low, high = hand_utility_range(self.rules)
            total = None
        self.space = ActionSpace(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=_CHANCE_OUTCOMES,
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=hand_length(self.rules) * self.max_hands,
        )
        self.spec = Spec(self.rules, whole, self.max_hands)
        # the indices of the rule set's tiles, in tile order: the chance outcomes of a deal
        self.tile_indices = self.spec.tile_indices
        params["rules"] = params.get("rules", "standard")
        if whole:
            params["max_hands"] = self.max_hands
        super().__init__(WHOLE_TYPE if whole else HAND_TYPE, info, params)

    def new_initial_state(self) -> MoonState:
        """The state before the first tile is dealt."""
        return MoonState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> MoonObserver:
        """The observer of ``iig_obs_type``: the observation by default, the information
        state for ``perfect_recall=True``."""
        return MoonObserver(
            self.rules,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
            max_hands=self.max_hands if self.whole else None,
        )


class MoonHandGame(MoonGame):
    """``moonrules_hand``: one hand of Moon."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params, whole=False)


class MoonWholeGame(MoonGame):
    """``moonrules_game``: a whole game of Moon, to ``max_hands`` hands at most."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params, whole=True)


def _bounds(layout: ObservationLayout, name: str) -> tuple[int, int]:
    section = layout.section(name)
    return section.start, section.stop


_FLOAT32: Final[dict[float, float]] = {}
"""Each fraction met in a tensor, as the 4-byte float nearest it (what OpenSpiel's C++
tensors hold), read back as a Python float."""


def _float32(x: float) -> float:
    """``x`` rounded to the nearest 4-byte float (memoised: a tensor's fractions are few)."""
    y = _FLOAT32.get(x)
    if y is None:
        y = _FLOAT32[x] = array("f", (x,))[0]
    return y


class Spec:
    """What every state of one game needs to know of it, shared by its states."""

    __slots__ = (
        "fractions",
        "max_hands",
        "outcomes",
        "players",
        "rules",
        "space",
        "tile_indices",
        "tiles",
        "whole",
    )

    def __init__(self, rules: RuleSet, whole: bool, max_hands: int) -> None:
        self.rules = rules
        self.whole = whole
        self.max_hands = max_hands
        self.players = rules.players
        self.space = ActionSpace(rules)
        # the indices of the rule set's tiles, in tile order: the chance outcomes of a deal
        self.tile_indices = tuple(t.index for t in rules.tile_set.tiles)
        self.tiles = len(self.tile_indices)
        # by the number of tiles dealt, each tile's chance outcome: (its index, probability)
        self.outcomes = tuple(
            {i: (i, 1.0 / (self.tiles - k)) for i in self.tile_indices} for k in range(self.tiles)
        )
        # the floats of a tensor that may be fractions (``tricks_won`` and ``scores``, the
        # same in both layouts): the rest are 0 or 1, the same in 4 bytes as in 8
        layout = ObservationLayout(rules)
        self.fractions = tuple(
            i for name in ("tricks_won", "scores") for i in range(*_bounds(layout, name))
        )


class Anchor:
    """The reference :class:`~moonrules.game.state.GameState` where a position's moves start,
    for :meth:`Position.__getstate__`: a state given (the first deal, a resampled state), or
    the state after ``moves`` from an earlier anchor, dealt ``deal`` (the next hand). It is
    worked out by :func:`~moonrules.game.play.apply` when first asked for, then kept."""

    __slots__ = ("deal", "moves", "previous", "state")

    def __init__(
        self,
        state: GameState | None,
        previous: Anchor | None = None,
        moves: tuple[int, ...] = (),
        deal: Deal | None = None,
    ) -> None:
        self.state = state
        self.previous = previous
        self.moves = moves
        self.deal = deal

    def start(self, space: ActionSpace) -> GameState:
        """The reference state at this anchor (the anchors before it worked out first, in
        a loop: a game may be any number of hands long)."""
        pending = []
        anchor = self
        while anchor.state is None:
            pending.append(anchor)
            assert anchor.previous is not None
            anchor = anchor.previous
        state = anchor.state
        for a in reversed(pending):
            assert a.deal is not None
            for m in a.moves:
                state = apply(state, space.action_of(m))
            state = a.state = with_deal(state, a.deal)
        return state

    def after(self, space: ActionSpace, moves: Sequence[int]) -> GameState:
        """The reference state after ``moves`` (action ids) from this anchor."""
        state = self.start(space)
        for m in moves:
            state = apply(state, space.action_of(m))
        return state


class Position:
    """Everything a :class:`MoonState` holds: an :class:`~moonrules.engine.Engine` and what
    OpenSpiel adds to it (the tiles dealt so far, the hands finished, the returns).

    ``engine`` is the game (``None`` until the first hand is dealt; while a later hand is
    dealt, the engine whose last hand is over); ``dealt`` the tile indices dealt so far
    while a hand is being dealt, else ``None``; ``finished`` the hands finished;
    ``returns`` the returns once terminal. The position changes in place as the state moves
    on; a clone (``copy.deepcopy``, as OpenSpiel clones a Python state) clones the engine.

    Pickled (OpenSpiel's ``serialize``), a position is the values ``state`` (the reference
    :class:`~moonrules.game.state.GameState`, ``None`` before the first deal), ``dealt``,
    ``finished``, ``shown`` (once terminal, the state whose hand is the last one played) and
    ``returns``, the reference states worked out by :func:`~moonrules.game.play.apply` from
    the hand's deal and moves (see :class:`Anchor`).
    """

    __slots__ = (
        "_shown",
        "_state",
        "anchor",
        "dealt",
        "engine",
        "finished",
        "moves",
        "number",
        "returns",
        "spec",
        "start",
    )

    def __init__(self, spec: Spec | None) -> None:
        self.spec = spec
        self.engine: Engine | None = None
        self.dealt: tuple[int, ...] | None = ()
        self.finished = 0
        self.returns: tuple[float, ...] | None = None
        self.number = 0
        """The hand number of the engine's hand in progress."""
        self.start: tuple[int, ...] = ()
        """The scores when the hand in progress was dealt."""
        self.anchor: Anchor | None = None
        self.moves: list[int] = []
        """The action ids taken since ``anchor``."""
        self._state: GameState | None = None
        self._shown: GameState | None = None

    # -- the reference states ---------------------------------------------------

    @property
    def state(self) -> GameState | None:
        """The reference state (``None`` before the first hand is dealt), worked out from
        the engine when first asked for after a move."""
        state = self._state
        if state is None and self.engine is not None:
            state = self._state = self.engine.to_state()
        return state

    @property
    def shown(self) -> GameState | None:
        """Once terminal, the state whose hand is the last one played (what the final
        observations show); else ``None``."""
        if self.returns is None:
            return None
        shown = self._shown
        if shown is None:
            state = self.state
            assert state is not None
            shown = self._shown = _shown(state)
        return shown

    # -- copying and pickling ---------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        c = Position.__new__(Position)
        c.spec = self.spec
        live = self.dealt is None and self.returns is None
        # only a position in play changes its engine and its moves in place
        c.engine = self.engine.clone() if live and self.engine is not None else self.engine
        c.moves = list(self.moves) if live else self.moves
        c.dealt = self.dealt
        c.finished = self.finished
        c.returns = self.returns
        c.number = self.number
        c.start = self.start
        c.anchor = self.anchor
        c._state = self._state
        c._shown = self._shown
        return c

    def __getstate__(self) -> dict[str, object]:
        state: GameState | None = None
        shown: GameState | None = None
        if self.anchor is not None:
            assert self.engine is not None
            space = self.spec.space if self.spec is not None else ActionSpace(self.engine.rules)
            state = self.anchor.after(space, self.moves)
            if self.returns is not None:
                shown = _shown(state)
        return {
            "state": state,
            "dealt": self.dealt,
            "finished": self.finished,
            "shown": shown,
            "returns": self.returns,
        }

    def __setstate__(self, values: dict[str, Any]) -> None:
        Position.__init__(self, None)
        state: GameState | None = values["state"]
        self.dealt = values["dealt"]
        self.finished = values["finished"]
        self.returns = values["returns"]
        if state is not None:
            self.anchor = Anchor(state)
            self.engine = Engine.from_state(state)
            self.number = state.hand_number
            self.start = state.scores
            self._state = state
            self._shown = values["shown"]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        mine = (self.state, self.dealt, self.finished, self.shown, self.returns)
        return mine == (other.state, other.dealt, other.finished, other.shown, other.returns)

    __hash__ = None  # type: ignore[assignment]


def _shown(state: GameState) -> GameState:
    """The state whose hand is the last one played, from the state after it."""
    return state if state.is_over else make_state(state.game, state.history[-1])


_UNDEALT: Final = Position(None)
"""The position before the first tile is dealt, shared by every new state until its first
chance outcome (OpenSpiel makes a new state each time it clones one, and each time it is
asked for a tensor's size, so a new state is kept cheap)."""

_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)


class MoonState(pyspiel.State):  # type: ignore[misc]
    """A state of ``moonrules_hand`` or ``moonrules_game``.

    Chance deals the tiles one at a time (an outcome is a tile index): seat 0's seven
    tiles first, then seat 1's, …, then the widow. The players' actions are the ids of
    :class:`~moonrules.game.encoding.ActionSpace`. :attr:`position` holds the game as an
    :class:`~moonrules.engine.Engine`; :attr:`moon_state` is its reference
    :class:`~moonrules.game.state.GameState`, worked out when asked for.
    """

    def __init__(self, game: MoonGame) -> None:
        super().__init__(game)
        self.position = _UNDEALT

    # -- reading ------------------------------------------------------------

    @property
    def _game(self) -> MoonGame:
        game: MoonGame = self.get_game()
        return game

    def _spec(self, p: Position) -> Spec:
        spec = p.spec
        if spec is None:  # an unpickled position: its game tells
            spec = self._game.spec
            if p is not _UNDEALT:
                p.spec = spec
        return spec

    @property
    def moon_state(self) -> GameState | None:
        """The moonrules state (``None`` before the first hand is dealt)."""
        return self.position.state

    def moon_view(self, player: int) -> PlayerView | None:
        """What ``player`` sees (``None`` while the first hand is being dealt)."""
        p = self.position
        if p.returns is not None:
            shown = p.shown
            assert shown is not None
            return view(shown, player)
        if p.engine is None or p.dealt is not None:
            return None
        state = p.state
        assert state is not None
        return view(state, player)

    def current_player(self) -> int:
        p = self.position
        if p.returns is not None:
            return _TERMINAL
        if p.dealt is not None:
            return _CHANCE
        assert p.engine is not None
        return p.engine.seat_to_act()

    def is_terminal(self) -> bool:
        return self.position.returns is not None

    def is_chance_node(self) -> bool:
        return self.position.dealt is not None

    def returns(self) -> list[float]:
        p = self.position
        r = p.returns
        return list(r) if r is not None else [0.0] * self._spec(p).players

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.position.engine
        assert engine is not None
        return engine.legal_ids()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions (OpenSpiel's ``legal_actions``, answered here without the
        round trip through OpenSpiel's C++ for a player to act)."""
        p = self.position
        engine = p.engine
        if (
            p.dealt is None
            and p.returns is None
            and engine is not None
            and (player is None or player == engine.seat_to_act())
        ):
            return engine.legal_ids()
        if player is None:
            return list(pyspiel.State.legal_actions(self))
        return list(pyspiel.State.legal_actions(self, player))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``observation_tensor`` (the default observer's), written from the
        engine for a player's turn without the round trip through OpenSpiel's C++."""
        return self._tensor(player, False)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``information_state_tensor``, as :meth:`observation_tensor`."""
        return self._tensor(player, True)

    def _tensor(self, player: int | None, history: bool) -> list[float]:
        p = self.position
        engine = p.engine
        if p.dealt is None and p.returns is None and engine is not None:
            spec = self._spec(p)
            if player is None:
                player = engine.seat_to_act()
            if type(player) is int and 0 <= player < spec.players:
                # OpenSpiel's tensors hold 4-byte floats: the fractions are rounded to them
                out = engine.observe(player, history)
                rounded = _FLOAT32
                for i in spec.fractions:
                    x = out[i]
                    if x:
                        out[i] = rounded.get(x) or _float32(x)
                if spec.whole:
                    out.append(_float32(p.finished / spec.max_hands))
                return out
        base = (
            pyspiel.State.information_state_tensor if history else pyspiel.State.observation_tensor
        )
        return list(base(self) if player is None else base(self, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = self.position
        dealt = p.dealt
        assert dealt is not None
        spec = self._spec(p)
        outcomes = spec.outcomes[len(dealt)]
        if not dealt:
            return list(outcomes.values())
        taken = set(dealt)
        return [o for i, o in outcomes.items() if i not in taken]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {TILES[action]}"
        return str(self._spec(self.position).space.action_of(action))

    def __str__(self) -> str:
        p = self.position
        if p.dealt is not None:
            dealt = " ".join(str(TILES[i]) for i in p.dealt)
            return f"dealing hand {p.finished + 1}: {dealt}"
        shown = p.shown or p.state
        assert shown is not None
        return state_string(shown)

    # -- moving on -------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        p = self.position
        if p.dealt is not None:
            if p is _UNDEALT:
                p = self.position = Position(self._game.spec)
            _deal(self._spec(p), p, action)
            return
        engine = p.engine
        assert engine is not None
        engine.step(action)
        p.moves.append(action)
        p._state = None
        if engine.hand_number != p.number or engine.is_over:
            _hand_over(self._spec(p), p, engine)

    # -- resampling ------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MoonState:
        """A state ``player_id`` cannot tell from this one, drawn uniformly
        (:func:`moonrules.bots.resample.resample`).

        ``probability_sampler``: a :class:`random.Random`, or OpenSpiel's sampler (a
        callable returning a number in ``[0, 1)``; one call seeds the draw). The state
        holds the position, not the moves that led to it: its ``history()`` is empty.
        """
        if isinstance(probability_sampler, random.Random):
            rng = probability_sampler
        else:
            rng = random.Random(int(float(probability_sampler()) * 2**53))
        out = self._game.new_initial_state()
        p = self.position
        q = copy.deepcopy(p)
        if p.returns is None and p.dealt is not None:
            q.dealt = _redeal(self._spec(p), p.dealt, player_id, rng)
        elif p.returns is None:
            state = p.state
            assert state is not None
            guess = resample(view(state, player_id), rng)
            q.engine = Engine.from_state(guess)
            q.anchor = Anchor(guess)
            q.moves = []
            q._state = guess
        out.position = q
        return out


def _deal(spec: Spec, p: Position, tile: int) -> None:
    """``p`` after chance deals tile index ``tile``; the hand starts once all are dealt."""
    assert p.dealt is not None
    dealt = (*p.dealt, tile)
    if len(dealt) < spec.tiles:
        p.dealt = dealt
        return
    rules = spec.rules
    hands = [
        tuple(TILES[i] for i in sorted(dealt[7 * s : 7 * s + 7])) for s in range(rules.players)
    ]
    deal = Deal(tuple(hands), TILES[dealt[-1]] if rules.has_widow else None)
    if p.engine is None:
        state = new_game(rules, 0, first_bidder=0, deal=deal)
        p.anchor = Anchor(state)
    else:
        state = with_deal(p.engine.to_state(), deal)
        p.anchor = Anchor(None, p.anchor, tuple(p.moves), deal)
    p.engine = Engine.from_state(state)
    p.moves = []
    p.dealt = None
    p.number = state.hand_number
    p.start = state.scores
    p._state = state


def _hand_over(spec: Spec, p: Position, engine: Engine) -> None:
    """``p`` once its engine's hand is over: the returns if the game ends, else the next
    hand is to be dealt."""
    p.finished += 1
    rules = spec.rules
    if not spec.whole:
        deltas = [a - b for a, b in zip(engine.scores, p.start, strict=True)]
        p.returns = tuple(float(deltas[rules.side_of(s)]) for s in range(rules.players))
    elif engine.is_over:
        won = engine.winner
        winners = tuple(1 if s == won else 0 for s in range(rules.sides))
        p.returns = standings_returns(rules, winners)
    elif p.finished >= spec.max_hands:
        p.returns = standings_returns(rules, engine.scores)
    else:
        p.dealt = ()


def _redeal(spec: Spec, dealt: tuple[int, ...], player: int, rng: random.Random) -> tuple[int, ...]:
    """The tiles dealt so far, with those not dealt to ``player`` drawn again at random."""
    mine = range(7 * player, 7 * player + 7)
    own = {dealt[k] for k in mine if k < len(dealt)}
    pool = [i for i in spec.tile_indices if i not in own]
    rng.shuffle(pool)
    it = iter(pool)
    return tuple(dealt[k] if k in mine else next(it) for k in range(len(dealt)))


class MoonObserver:
    """Writes a player's observation (or information state) into ``tensor`` and ``dict``.

    The vector is :class:`~moonrules.game.encoding.ObservationLayout`'s; ``dict`` names
    its sections, each reshaped. While a hand is being dealt only the player's tiles
    dealt so far and the scores are set. In ``moonrules_game`` (``max_hands`` given) one
    float follows, the section ``hands``: the hands finished so far over ``max_hands``
    (the game ends after ``max_hands`` hands, so states that differ in it are not the
    same to a player).
    """

    def __init__(
        self,
        rules: RuleSet,
        iig_obs_type: pyspiel.IIGObservationType,
        params: Any,
        *,
        max_hands: int | None = None,
    ) -> None:
        if params:
            raise ValueError(f"params: the observer takes no parameters, not {params!r}")
        private = iig_obs_type.private_info
        if private != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                "iig_obs_type: only a player's own observation is offered (public and "
                "single-player private information)"
            )
        self.history = bool(iig_obs_type.perfect_recall)
        self.layout = ObservationLayout(rules, history=self.history)
        self.max_hands = max_hands
        size = self.layout.size
        self.tensor = np.zeros(size + (max_hands is not None), np.float32)
        self.dict = {
            s.name: self.tensor[s.start : s.stop].reshape(s.shape) for s in self.layout.sections
        }
        if max_hands is not None:
            self.dict["hands"] = self.tensor[size : size + 1]
        self._floats = Struct(f"={size}f")  # writes the engine's vector into the tensor
        self._buffer = self.tensor.data
        # While a hand is dealt (see _dealing). By tile index: the float of ``hand`` that
        # marks the tile. By player, then by side: the float of ``scores`` holding that side's
        # score, counted from the player's side. OpenSpiel also asks for player -1 (its
        # default player, when it measures the tensor of a new state): that reads as the
        # last seat, which counts the sides alike (modulo their number).
        hand = self.layout.section("hand").start
        self._dealt_at = {t.index: hand + k for k, t in enumerate(rules.tile_set.tiles)}
        scores = self.layout.section("scores").start
        self._scores_at = tuple(
            tuple(scores + (side - rules.side_of(p)) % rules.sides for side in range(rules.sides))
            for p in range(rules.players)
        )

    def set_from(self, state: MoonState, player: int) -> None:
        p = state.position
        engine = p.engine
        if p.dealt is None and p.returns is None and engine is not None:
            self._floats.pack_into(self._buffer, 0, *engine.observe(player, self.history))
        elif p.returns is not None:
            shown = p.shown
            assert shown is not None
            self.tensor[: self.layout.size] = self.layout.encode(view(shown, player))
        else:
            self.tensor.fill(0.0)
            self._dealing(p, player)
        if self.max_hands is not None:
            self.tensor[-1] = p.finished / self.max_hands

    def _dealing(self, p: Position, player: int) -> None:
        """The player's tiles dealt so far and the scores, into the zeroed tensor."""
        assert p.dealt is not None
        tensor = self.tensor
        dealt_at = self._dealt_at
        for i in p.dealt[7 * player : 7 * player + 7]:
            tensor[dealt_at[i]] = 1.0
        if p.engine is None:  # the first hand is being dealt: every score is 0, as zeroed
            return
        target = self.layout.rules.target
        for at, score in zip(self._scores_at[player], p.engine.scores, strict=True):
            tensor[at] = max(-target, min(target, score)) / target

    def string_from(self, state: MoonState, player: int) -> str:
        p = state.position
        v = state.moon_view(player)
        if v is None:
            assert p.dealt is not None
            own = " ".join(str(TILES[i]) for i in sorted(p.dealt[7 * player : 7 * player + 7]))
            scores = p.engine.scores if p.engine is not None else ()
            return f"p{player} dealing hand {p.finished + 1} scores {list(scores)} tiles {own}"
        return view_string(v, history=self.history)


pyspiel.register_game(HAND_TYPE, MoonHandGame)
pyspiel.register_game(WHOLE_TYPE, MoonWholeGame)
