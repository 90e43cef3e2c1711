"""The OpenSpiel games ``moonrules_hand`` and ``moonrules_game``, on moonrules' public API.

See :mod:`moonrules.openspiel` for what each game is; this module holds the
implementation: the game, its states, and the observer that writes
:mod:`moonrules.game.encoding`'s vectors into OpenSpiel's tensors.
"""

from __future__ import annotations

import random
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

from moonrules.bots.resample import resample
from moonrules.game.deal import new_game, with_deal
from moonrules.game.encoding import (
    ActionSpace,
    ObservationLayout,
    legal_action_ids,
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
        # the indices of the rule set's tiles, in tile order: the chance outcomes of a deal
        self.tile_indices = tuple(t.index for t in self.rules.tile_set.tiles)
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


@attrs.frozen(slots=True)
class Position:
    """Everything a :class:`MoonState` holds, as one immutable value (cloned by reference).

    ``state`` is the moonrules state (``None`` until the first hand is dealt);
    ``dealt`` the tile indices dealt so far while a hand is being dealt, else ``None``;
    ``finished`` the hands finished; ``shown``, once terminal, the state whose hand is
    the last one played (what the final observations show); ``returns`` the returns.
    """

    state: GameState | None
    dealt: tuple[int, ...] | None = ()
    finished: int = 0
    shown: GameState | None = None
    returns: tuple[float, ...] | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self  # immutable: OpenSpiel's clone copies the reference


_UNDEALT: Final = Position(None)
"""The position before the first tile is dealt, shared by every new state (a position is
immutable). OpenSpiel makes a new state each time it is asked for a tensor, to learn the
tensor's size, so a new state is kept cheap."""


def _with_state(p: Position, state: GameState) -> Position:
    """``p`` with the moonrules state ``state`` (``attrs.evolve(p, state=state)``, quicker)."""
    return Position(state, p.dealt, p.finished, p.shown, p.returns)


def _with_dealt(p: Position, dealt: tuple[int, ...] | None) -> Position:
    """``p`` with the tiles dealt ``dealt`` (``attrs.evolve(p, dealt=dealt)``, quicker)."""
    return Position(p.state, dealt, p.finished, p.shown, p.returns)


class MoonState(pyspiel.State):  # type: ignore[misc]
    """A state of ``moonrules_hand`` or ``moonrules_game``.

    Chance deals the tiles one at a time (an outcome is a tile index): seat 0's seven
    tiles first, then seat 1's, …, then the widow. The players' actions are the ids of
    :class:`~moonrules.game.encoding.ActionSpace`. :attr:`position` holds the
    moonrules :class:`~moonrules.game.state.GameState`.
    """

    def __init__(self, game: MoonGame) -> None:
        super().__init__(game)
        self.position = _UNDEALT

    # -- reading ------------------------------------------------------------

    @property
    def _game(self) -> MoonGame:
        game: MoonGame = self.get_game()
        return game

    @property
    def moon_state(self) -> GameState | None:
        """The moonrules state (``None`` before the first hand is dealt)."""
        return self.position.state

    def moon_view(self, player: int) -> PlayerView | None:
        """What ``player`` sees (``None`` while the first hand is being dealt)."""
        p = self.position
        if p.shown is not None:
            return view(p.shown, player)
        if p.state is None or p.dealt is not None:
            return None
        return view(p.state, player)

    def current_player(self) -> int:
        p = self.position
        if p.returns is not None:
            player = int(pyspiel.PlayerId.TERMINAL)
        elif p.dealt is not None:
            player = int(pyspiel.PlayerId.CHANCE)
        else:
            assert p.state is not None and p.state.to_act is not None
            player = p.state.to_act
        return player

    def is_terminal(self) -> bool:
        return self.position.returns is not None

    def returns(self) -> list[float]:
        r = self.position.returns
        return list(r) if r is not None else [0.0] * self._game.rules.players

    def _legal_actions(self, player: int) -> list[int]:
        state = self.position.state
        assert state is not None
        return list(legal_action_ids(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = self.position.dealt
        assert dealt is not None
        taken = set(dealt)
        left = [i for i in self._game.tile_indices if i not in taken]
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {TILES[action]}"
        return str(self._game.space.action_of(action))

    def __str__(self) -> str:
        p = self.position
        if p.dealt is not None:
            dealt = " ".join(str(TILES[i]) for i in p.dealt)
            return f"dealing hand {p.finished + 1}: {dealt}"
        assert p.state is not None
        return state_string(p.shown or p.state)

    # -- moving on -------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        p = self.position
        game = self._game
        if p.dealt is not None:
            self.position = _dealt(game.rules, p, action)
            return
        assert p.state is not None
        before = p.state
        after = apply(before, game.space.action_of(action))
        if after.game is before.game:  # the hand goes on
            self.position = _with_state(p, after)
            return
        finished = p.finished + 1
        done = after.hand if after.is_over else after.history[-1]
        shown = after if after.is_over else make_state(after.game, done)
        rules = game.rules
        if not game.whole:
            deltas = done.deltas or (0,) * rules.sides
            returns = tuple(float(deltas[rules.side_of(s)]) for s in range(rules.players))
            self.position = Position(after, None, finished, shown, returns)
        elif after.is_over:
            assert after.winner is not None
            winners = tuple(1 if s == after.winner else 0 for s in range(rules.sides))
            self.position = Position(
                after, None, finished, shown, standings_returns(rules, winners)
            )
        elif finished >= game.max_hands:
            returns = standings_returns(rules, after.scores)
            self.position = Position(after, None, finished, shown, returns)
        else:
            self.position = Position(after, (), finished)

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
        if p.returns is not None:
            out.position = p
        elif p.dealt is not None:
            out.position = attrs.evolve(p, dealt=_redeal(self._game.rules, p.dealt, player_id, rng))
        else:
            assert p.state is not None
            guess = resample(view(p.state, player_id), rng)
            out.position = attrs.evolve(p, state=guess)
        return out


def _dealt(rules: RuleSet, p: Position, tile: int) -> Position:
    """``p`` after chance deals tile index ``tile``; the hand starts once all are dealt."""
    assert p.dealt is not None
    dealt = (*p.dealt, tile)
    if len(dealt) < len(rules.tile_set.tiles):
        return _with_dealt(p, dealt)
    hands = [
        tuple(TILES[i] for i in sorted(dealt[7 * s : 7 * s + 7])) for s in range(rules.players)
    ]
    deal = Deal(tuple(hands), TILES[dealt[-1]] if rules.has_widow else None)
    if p.state is None:
        state = new_game(rules, 0, first_bidder=0, deal=deal)
    else:
        state = with_deal(p.state, deal)
    return attrs.evolve(p, state=state, dealt=None)


def _redeal(
    rules: RuleSet, dealt: tuple[int, ...], player: int, rng: random.Random
) -> tuple[int, ...]:
    """The tiles dealt so far, with those not dealt to ``player`` drawn again at random."""
    mine = range(7 * player, 7 * player + 7)
    own = {dealt[k] for k in mine if k < len(dealt)}
    pool = [t.index for t in rules.tile_set.tiles if t.index not in own]
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
        v = state.moon_view(player)
        if v is None:
            self.tensor.fill(0.0)
            self._dealing(state, player)
        else:
            self.tensor[: self.layout.size] = self.layout.encode(v)
        if self.max_hands is not None:
            self.tensor[-1] = state.position.finished / self.max_hands

    def _dealing(self, state: MoonState, player: int) -> None:
        """The player's tiles dealt so far and the scores, into the zeroed tensor."""
        p = state.position
        assert p.dealt is not None
        tensor = self.tensor
        dealt_at = self._dealt_at
        for i in p.dealt[7 * player : 7 * player + 7]:
            tensor[dealt_at[i]] = 1.0
        if p.state is None:  # the first hand is being dealt: every score is 0, as zeroed
            return
        target = self.layout.rules.target
        for at, score in zip(self._scores_at[player], p.state.scores, strict=True):
            tensor[at] = max(-target, min(target, score)) / target

    def string_from(self, state: MoonState, player: int) -> str:
        p = state.position
        v = state.moon_view(player)
        if v is None:
            assert p.dealt is not None
            own = " ".join(str(TILES[i]) for i in sorted(p.dealt[7 * player : 7 * player + 7]))
            scores = p.state.scores if p.state is not None else ()
            return f"p{player} dealing hand {p.finished + 1} scores {list(scores)} tiles {own}"
        return view_string(v, history=self.history)


pyspiel.register_game(HAND_TYPE, MoonHandGame)
pyspiel.register_game(WHOLE_TYPE, MoonWholeGame)
