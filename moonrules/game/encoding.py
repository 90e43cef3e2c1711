"""Numbers for learning programs: action ids, legal-action masks, observation vectors.

Game-AI frameworks (OpenSpiel, PettingZoo, any reinforcement-learning code) speak in
integers and fixed-size vectors. This module gives Moon's actions and views that form,
for one rule set, with nothing but plain Python tuples (the adapters in
:mod:`moonrules.openspiel` and :mod:`moonrules.pettingzoo` turn them into arrays).

**Action ids** (:class:`ActionSpace`). For a rule set with ``B`` bids, ``K`` trumps on
offer and ``T`` tiles, the ids run from 0 to ``size - 1`` in this order, which is the
order :func:`~moonrules.game.play.legal_actions` sorts actions in:

==========================  =====================================================
ids                         actions
==========================  =====================================================
``0``                       :class:`Pass`
``1 … B``                   :class:`Bid`, in ``rules.bids`` order (lowest first, 21 last)
next ``T`` (widow only)     :class:`Discard` of each tile, in tile order
next ``K``                  :class:`NameTrump`, in ``rules.trumps`` order
last ``T``                  :class:`Play` of each tile, in tile order
==========================  =====================================================

"Tile order" is the order of ``rules.tile_set.tiles`` (by high end, then low end).
Rule sets without a widow have no discard ids. The standard rules have 59 ids
(1 + 5 + 22 + 9 + 22), the partnership rules 43 (1 + 5 + 9 + 28).

>>> from moonrules import Bid, Play, Tile, new_game
>>> space = ActionSpace.of("standard")
>>> space.size, space.id_of(Bid(5)), space.action_of(58)
(59, 2, Play(tile=Tile(6, 6)))
>>> legal_action_ids(new_game("standard", seed=1))
(0, 1, 2, 3, 4, 5)

**Masks**: :func:`legal_action_mask` of a state (the seat to act) or of a seat's view
(all zeros when that seat is not to act) is a tuple of ``size`` zeros and ones.

**Observations** (:class:`ObservationLayout`): a seat's
:class:`~moonrules.game.views.PlayerView` as a tuple of floats of fixed size, built
from the view alone, so it cannot depend on a tile the seat does not see. Seats are
counted from the observing seat (0 = this seat, 1 = the next to play after it, …) and
scores from its side, so one network can play every seat. The sections, in order
(``n`` players, ``S`` sides, ``T`` tiles, ``B`` bids, ``K`` trumps):

================  ===========  ========================================================
section           floats       content (1.0 for yes, 0.0 for no unless said)
================  ===========  ========================================================
``phase``         5            bidding, discard, trump, play, done
``to_act``        ``n``        the seat to act (all 0 once the game is over)
``hand``          ``T``        this seat's tiles
``played``        ``n x T``    the tiles each seat has played in this hand
``trick``         ``n x T``    the tile each seat has played to the trick in progress
``leader``        ``n``        the seat that led (or leads) the trick in progress
``first_bidder``  ``n``        the seat that called first in this hand
``calls``         ``n x (1+B)`` each seat's call: pass, or one of the bids
``bidder``        ``n``        the auction's winner
``bid``           ``B``        the winning bid
``trump``         ``K``        the trump named
``widow``         ``T``        the widow, for the bidder once taken
``discard``       ``T``        the discard, for the bidder once made
``tricks_won``    ``n``        tricks won in this hand by each seat, divided by 7
``scores``        ``S``        each side's score clipped to ``[-target, target]``,
                               divided by ``target`` (so in ``[-1, 1]``)
================  ===========  ========================================================

The information-state layout (``ObservationLayout.of(rules, history=True)``) adds
``tricks``, ``7 x (n + n x T)`` floats: for each completed trick of the hand, its
leader and the tile each seat played to it. With it the vector says everything the
seat has seen in the hand, in order (perfect recall within a hand).
"""

from __future__ import annotations

import contextlib
import functools
import operator
from typing import Final, TypeVar

import attrs

from moonrules.game.actions import (
    BID_ACTIONS,
    DISCARD_ACTIONS,
    PASS_ACTION,
    PLAY_ACTIONS,
    TRUMP_ACTIONS,
    Action,
    Bid,
    Phase,
)
from moonrules.game.play import legal_play_mask
from moonrules.game.state import GameState
from moonrules.game.views import PlayerView
from moonrules.kernel.masks import NO_LEAD, legal_mask
from moonrules.kernel.memo import calls_after
from moonrules.rules.errors import shown, wrong_type
from moonrules.rules.ruleset import RuleSet, rules_by_name
from moonrules.rules.suits import Trump
from moonrules.rules.tiles import Tile, mask_of

_PHASES: Final = tuple(Phase)
"""The phases in the order of the ``phase`` section."""

_T = TypeVar("_T")


def _as_rules(rules: object) -> RuleSet:
    """``rules`` as a :class:`RuleSet` (a value or a preset name), or ``TypeError``."""
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return rules_by_name(rules)
    raise wrong_type("rules", "a RuleSet or a preset name", rules)


@attrs.frozen(slots=True)
class _Numbering:
    """The tables behind one rule set's :class:`ActionSpace`."""

    actions: tuple[Action, ...]
    ids: dict[Action, int]
    call_ids: dict[int, int]
    """The id of each call (0 for pass, else the bid)."""
    discard_ids: tuple[int, ...]
    """By tile index: the id of discarding it (-1 off the set, or without a widow)."""
    trump_ids: dict[int, int]
    """By ``Trump.value``."""
    play_ids: tuple[int, ...]
    """By tile index: the id of playing it (-1 off the set)."""


@functools.lru_cache(maxsize=64)
def _numbering(rules: RuleSet) -> _Numbering:
    tiles = rules.tile_set.tiles
    actions: list[Action] = [PASS_ACTION]
    actions += [BID_ACTIONS[b] for b in rules.bids]
    if rules.has_widow:
        actions += [DISCARD_ACTIONS[t.index] for t in tiles]
    actions += [TRUMP_ACTIONS[t] for t in rules.trumps]
    actions += [PLAY_ACTIONS[t.index] for t in tiles]
    ids = {a: i for i, a in enumerate(actions)}
    discard = [-1] * 28
    play = [-1] * 28
    for t in tiles:
        play[t.index] = ids[PLAY_ACTIONS[t.index]]
        if rules.has_widow:
            discard[t.index] = ids[DISCARD_ACTIONS[t.index]]
    return _Numbering(
        tuple(actions),
        ids,
        {0: 0, **{b: ids[BID_ACTIONS[b]] for b in rules.bids}},
        tuple(discard),
        {t.value: ids[TRUMP_ACTIONS[t]] for t in rules.trumps},
        tuple(play),
    )


@attrs.frozen(slots=True)
class ActionSpace:
    """The numbering of one rule set's actions: ids ``0 … size - 1`` (see the module's table).

    The numbering is fixed by the rule set's fields, so it is the same in every version of
    moonrules that has the same rule set. Build it with :meth:`of` (a rule set or a
    preset name) or ``ActionSpace(rules)``.
    """

    rules: RuleSet = attrs.field(converter=_as_rules)

    @staticmethod
    def of(rules: RuleSet | str) -> ActionSpace:
        """The action space of ``rules`` (a :class:`RuleSet` or a preset name)."""
        return ActionSpace(rules)

    @property
    def size(self) -> int:
        """How many distinct action ids there are."""
        return len(_numbering(self.rules).actions)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action, by id."""
        return _numbering(self.rules).actions

    def id_of(self, action: Action) -> int:
        """The id of ``action``; ``ValueError`` for an action these rules never allow."""
        if not isinstance(action, Action):
            raise wrong_type("action", "an Action (Pass, Bid, Discard, NameTrump or Play)", action)
        found = _numbering(self.rules).ids.get(action)
        if found is None:
            raise ValueError(f"action: {action} is never legal under these rules, so has no id")
        return found

    def action_of(self, action_id: int) -> Action:
        """The action with id ``action_id``; ``ValueError`` outside ``0 … size - 1``."""
        if type(action_id) is not int:
            action_id = _whole_number(action_id)
        actions = _numbering(self.rules).actions
        if not 0 <= action_id < len(actions):
            raise ValueError(
                f"action_id: ids run from 0 to {len(actions) - 1}, not {shown(action_id)}"
            )
        return actions[action_id]


def _whole_number(action_id: object) -> int:
    """``action_id`` as an int: an int subclass or an integer of its own kind (numpy's, as
    Gymnasium's ``Discrete.sample`` gives), not a bool, a float or anything else."""
    if not isinstance(action_id, bool) and hasattr(type(action_id), "__index__"):
        with contextlib.suppress(TypeError):
            return operator.index(action_id)  # type: ignore[arg-type]
    raise wrong_type("action_id", "a whole number", action_id)


def _ids_of_mask(table: tuple[int, ...], mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(table[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _state_ids(state: GameState) -> tuple[int, ...]:
    if state.game.winner is not None:
        return ()
    h = state.hand
    rules = state.game.rules
    numbering = _numbering(rules)
    phase = h.phase
    if phase is Phase.PLAY:
        return _ids_of_mask(numbering.play_ids, legal_play_mask(state))
    if phase is Phase.BIDDING:
        call_ids = numbering.call_ids
        return tuple(call_ids[c] for c in calls_after(rules, h.contract.calls))
    if phase is Phase.DISCARD:
        return _ids_of_mask(numbering.discard_ids, h.hands[h.contract.bidder])
    if phase is Phase.TRUMP:
        return tuple(numbering.trump_ids[t.value] for t in rules.trumps)
    return ()  # pragma: no cover - a DONE hand never stays current in a live game


def _call_value(call: object) -> int:
    return call.amount if isinstance(call, Bid) else 0


def _view_ids(view: PlayerView) -> tuple[int, ...]:
    """The ids of what ``view``'s seat may do, from the view alone (as ``legal_actions``)."""
    if view.is_over or view.to_act != view.seat:
        return ()
    rules = view.rules
    numbering = _numbering(rules)
    phase = view.phase
    if phase is Phase.PLAY:
        assert view.trump is not None
        led = view.trick[0].index if view.trick else NO_LEAD
        legal = legal_mask(mask_of(view.hand), led, view.trump.value, rules, len(view.tricks))
        return _ids_of_mask(numbering.play_ids, legal)
    if phase is Phase.BIDDING:
        calls = tuple(_call_value(c) for c in view.calls)
        return tuple(numbering.call_ids[c] for c in calls_after(rules, calls))
    if phase is Phase.DISCARD:
        return _ids_of_mask(numbering.discard_ids, mask_of(view.hand))
    if phase is Phase.TRUMP:
        return tuple(numbering.trump_ids[t.value] for t in rules.trumps)
    return ()


def legal_action_ids(state: GameState | PlayerView) -> tuple[int, ...]:
    """The ids of the legal actions, ascending: of the seat to act in a state, or of the
    view's seat (``()`` when it is not that seat's turn, or the game is over).

    The same actions as :func:`~moonrules.game.play.legal_actions`, in the same order.
    """
    if isinstance(state, GameState):
        return _state_ids(state)
    if isinstance(state, PlayerView):
        return _view_ids(state)
    raise wrong_type("state", "a GameState or a PlayerView", state)


def legal_action_mask(state: GameState | PlayerView) -> tuple[int, ...]:
    """:func:`legal_action_ids` as a tuple of ``ActionSpace(rules).size`` zeros and ones."""
    ids = legal_action_ids(state)
    rules = state.rules
    mask = [0] * len(_numbering(rules).actions)
    for i in ids:
        mask[i] = 1
    return tuple(mask)


# ---------------------------------------------------------------------------
# Observations


@attrs.frozen(slots=True)
class Section:
    """One named part of an observation: ``length`` floats from ``start``, read as ``shape``."""

    name: str
    start: int
    shape: tuple[int, ...]

    @property
    def length(self) -> int:
        """How many floats the section holds."""
        out = 1
        for d in self.shape:
            out *= d
        return out

    @property
    def stop(self) -> int:
        """The index just past the section."""
        return self.start + self.length


def _sections(rules: RuleSet, history: bool) -> tuple[Section, ...]:
    n = rules.players
    t = len(rules.tile_set.tiles)
    b = len(rules.bids)
    shapes: list[tuple[str, tuple[int, ...]]] = [
        ("phase", (len(_PHASES),)),
        ("to_act", (n,)),
        ("hand", (t,)),
        ("played", (n, t)),
        ("trick", (n, t)),
        ("leader", (n,)),
        ("first_bidder", (n,)),
        ("calls", (n, 1 + b)),
        ("bidder", (n,)),
        ("bid", (b,)),
        ("trump", (len(rules.trumps),)),
        ("widow", (t,)),
        ("discard", (t,)),
        ("tricks_won", (n,)),
        ("scores", (rules.sides,)),
    ]
    if history:
        shapes.append(("tricks", (7, n + n * t)))
    out = []
    start = 0
    for name, shape in shapes:
        section = Section(name, start, shape)
        out.append(section)
        start = section.stop
    return tuple(out)


@attrs.frozen(slots=True)
class ObservationLayout:
    """The fixed layout of one rule set's observation vectors (see the module's table).

    ``history=False``: the observation (what is on the table now); ``history=True``: the
    information state, which adds every completed trick of the hand in order.
    """

    rules: RuleSet = attrs.field(converter=_as_rules)
    history: bool = attrs.field(default=False)

    @history.validator
    def _check_history(self, attribute: object, value: object) -> None:
        if type(value) is not bool:
            raise wrong_type("history", "True or False", value)

    @staticmethod
    def of(rules: RuleSet | str, *, history: bool = False) -> ObservationLayout:
        """The layout for ``rules`` (a :class:`RuleSet` or a preset name)."""
        return ObservationLayout(rules, history)

    @property
    def sections(self) -> tuple[Section, ...]:
        """The sections, in order; each starts where the one before stops."""
        return _layout_sections(self.rules, self.history)

    @property
    def size(self) -> int:
        """How many floats a vector holds."""
        return self.sections[-1].stop

    def section(self, name: str) -> Section:
        """The section called ``name``; ``ValueError`` for a name the layout lacks."""
        if not isinstance(name, str):
            raise wrong_type("name", "a section name", name)
        for s in self.sections:
            if s.name == name:
                return s
        names = ", ".join(s.name for s in self.sections)
        raise ValueError(f"name: the layout has no section {shown(name)}; it has {names}")

    def encode(self, view: PlayerView) -> tuple[float, ...]:
        """The vector of ``view``, read from the view alone."""
        if not isinstance(view, PlayerView):
            raise wrong_type("view", "a PlayerView (moonrules.view(state, seat))", view)
        if view.rules is not self.rules and view.rules != self.rules:
            raise ValueError("view: the view's rules are not the rules of this layout")
        return _encode(view, self.history)


@functools.lru_cache(maxsize=128)
def _layout_sections(rules: RuleSet, history: bool) -> tuple[Section, ...]:
    return _sections(rules, history)


# -- The encoder's tables ---------------------------------------------------------
#
# A vector is written with no look-up of a section by name and no arithmetic on its layout:
# for each rule set (and history or not), the layout is turned once, for each observing
# seat, into the index in the vector of each float a view can set (memoised, as the rule
# set is an immutable value). Writing a view is then one table read per float set. A tile's
# index is read from its slot, ``tile._index`` (what ``Tile.index`` returns, without the
# property call), as the game's hot paths do.

_TileRow = tuple[int, ...]
"""One row of a tile section: by tile index (0-27), the index in the vector of that tile's
float (-1 for a tile off the rule set's tiles, which no view holds)."""


@attrs.frozen(slots=True)
class _SeatTables:
    """Where the vector of one observing seat puts each float, as indices into the vector.

    Seats are the view's own (absolute) seat numbers; the tables count them from the
    observing seat, as the layout does. "In playing order from a leader": the entries of
    the seats in the order they play to a trick that seat leads (or call, from the first
    bidder), so that the ``k``-th tile of a trick goes with the ``k``-th entry.
    """

    to_act: tuple[int, ...]
    """By seat: the index of its float in ``to_act``."""
    leader: tuple[int, ...]
    """By seat: the index of its float in ``leader``."""
    first_bidder: tuple[int, ...]
    """By seat: the index of its float in ``first_bidder``."""
    bidder: tuple[int, ...]
    """By seat: the index of its float in ``bidder``."""
    tricks_won: tuple[int, ...]
    """By seat: the index of its float in ``tricks_won``."""
    scores: tuple[int, ...]
    """By side: the index of its float in ``scores``."""
    calls: tuple[tuple[int, ...], ...]
    """By first bidder, in calling order from it: the index of the first float (the pass)
    of each seat's row of ``calls``."""
    played: tuple[tuple[_TileRow, ...], ...]
    """By leader, in playing order from it: each seat's row of ``played``."""
    trick: tuple[tuple[_TileRow, ...], ...]
    """By leader, in playing order from it: each seat's row of ``trick``."""
    tricks_led: tuple[tuple[int, ...], ...]
    """With history, by completed trick (0-6) and then by seat: the index of the float
    saying that seat led it (empty without history)."""
    tricks_played: tuple[tuple[tuple[_TileRow, ...], ...], ...]
    """With history, by completed trick (0-6) and then by leader, in playing order from
    it: each seat's row of the tiles played to it (empty without history)."""


@attrs.frozen(slots=True)
class _Tables:
    """Everything the encoder reads of one layout, computed once (:func:`_tables`)."""

    size: int
    """How many floats a vector holds."""
    phase: int
    """The index of the ``phase`` float of the first phase (the others follow in order)."""
    hand: _TileRow
    """The row of ``hand``."""
    widow: _TileRow
    """The row of ``widow``."""
    discard: _TileRow
    """The row of ``discard``."""
    bid: int
    """The index of the ``bid`` float of the lowest bid (the others follow in order)."""
    trump: int
    """The index of the ``trump`` float of the first trump (the others follow in order)."""
    bids: tuple[int, ...]
    """``rules.bids``."""
    trumps: tuple[Trump, ...]
    """``rules.trumps``."""
    columns: dict[int, int]
    """By bid: its column in a row of ``calls`` (column 0 is the pass)."""
    target: int
    """``rules.target``, the scale of the scores."""
    seats: tuple[_SeatTables, ...]
    """By observing seat."""


@functools.lru_cache(maxsize=64)
def _tile_positions(rules: RuleSet) -> tuple[int, ...]:
    """By tile index: the tile's position in the rule set's tiles (-1 off the set)."""
    pos = [-1] * 28
    for k, t in enumerate(rules.tile_set.tiles):
        pos[t.index] = k
    return tuple(pos)


def _tile_row(start: int, rules: RuleSet) -> _TileRow:
    """The row of a tile section whose first float is at ``start``."""
    return tuple(start + k if k >= 0 else -1 for k in _tile_positions(rules))


def _in_order(by_seat: tuple[_T, ...]) -> tuple[tuple[_T, ...], ...]:
    """``by_seat`` (one entry per seat) by first seat, in playing order from it."""
    n = len(by_seat)
    return tuple(tuple(by_seat[(first + k) % n] for k in range(n)) for first in range(n))


def _seat_tables(rules: RuleSet, starts: dict[str, int], me: int, history: bool) -> _SeatTables:
    """The tables of observing seat ``me``, from the sections' starts."""
    n = rules.players
    t = len(rules.tile_set.tiles)
    rel = tuple((s - me) % n for s in range(n))  # by seat: counted from me

    def by_seat(name: str) -> tuple[int, ...]:
        return tuple(starts[name] + r for r in rel)

    def rows(start: int) -> tuple[_TileRow, ...]:
        """By seat: its row of the tile section of ``n`` rows starting at ``start``."""
        return tuple(_tile_row(start + r * t, rules) for r in rel)

    mine = rules.side_of(me)
    led: list[tuple[int, ...]] = []
    played: list[tuple[tuple[_TileRow, ...], ...]] = []
    if history:
        width = n + n * t  # one completed trick: its leader, then each seat's tile
        for k in range(7):
            block = starts["tricks"] + k * width
            led.append(tuple(block + r for r in rel))
            played.append(_in_order(rows(block + n)))
    return _SeatTables(
        to_act=by_seat("to_act"),
        leader=by_seat("leader"),
        first_bidder=by_seat("first_bidder"),
        bidder=by_seat("bidder"),
        tricks_won=by_seat("tricks_won"),
        scores=tuple(starts["scores"] + (side - mine) % rules.sides for side in range(rules.sides)),
        calls=_in_order(tuple(starts["calls"] + r * (1 + len(rules.bids)) for r in rel)),
        played=_in_order(rows(starts["played"])),
        trick=_in_order(rows(starts["trick"])),
        tricks_led=tuple(led),
        tricks_played=tuple(played),
    )


@functools.lru_cache(maxsize=128)
def _tables(rules: RuleSet, history: bool) -> _Tables:
    """The encoder's tables for ``rules`` (with ``history``, the information state)."""
    sections = _layout_sections(rules, history)
    starts = {s.name: s.start for s in sections}
    bids = rules.bids
    return _Tables(
        size=sections[-1].stop,
        phase=starts["phase"],
        hand=_tile_row(starts["hand"], rules),
        widow=_tile_row(starts["widow"], rules),
        discard=_tile_row(starts["discard"], rules),
        bid=starts["bid"],
        trump=starts["trump"],
        bids=bids,
        trumps=rules.trumps,
        columns={b: k + 1 for k, b in enumerate(bids)},
        target=rules.target,
        seats=tuple(_seat_tables(rules, starts, me, history) for me in range(rules.players)),
    )


# -- Writing a view ----------------------------------------------------------------


def _write_play(out: list[float], view: PlayerView, seat: _SeatTables, tables: _Tables) -> None:
    """``hand``, ``played``, ``trick``, ``leader``, ``tricks_won``."""
    hand = tables.hand
    for x in view.hand:
        out[hand[x._index]] = 1.0
    played = seat.played
    for tr in view.tricks:
        for row, x in zip(played[tr.leader], tr.tiles, strict=True):
            out[row[x._index]] = 1.0
    leader = view.leader
    if view.trick:
        assert leader is not None
        rows = zip(played[leader], seat.trick[leader], view.trick, strict=False)
        for row, trick_row, x in rows:  # the trick so far: its first tiles
            i = x._index
            out[row[i]] = 1.0
            out[trick_row[i]] = 1.0
    if leader is not None and view.phase is Phase.PLAY:
        out[seat.leader[leader]] = 1.0
    for i, won in zip(seat.tricks_won, view.tricks_won, strict=True):
        if won:  # no trick won: the float stays 0.0
            out[i] = won / 7


def _write_contract(out: list[float], view: PlayerView, seat: _SeatTables, tables: _Tables) -> None:
    """``first_bidder``, ``calls``, ``bidder``, ``bid``, ``trump``, ``widow``, ``discard``."""
    first = view.first_bidder
    out[seat.first_bidder[first]] = 1.0
    columns = tables.columns
    # one round of calls (BID-2): the calls so far, a seat each at most, from the first bidder
    for row, call in zip(seat.calls[first], view.calls, strict=False):
        column = columns[call.amount] if isinstance(call, Bid) else 0
        out[row + column] = 1.0
    if view.bidder is not None:
        assert view.bid is not None
        out[seat.bidder[view.bidder]] = 1.0
        out[tables.bid + tables.bids.index(view.bid)] = 1.0
    if view.trump is not None:
        out[tables.trump + tables.trumps.index(view.trump)] = 1.0
    if view.widow is not None:
        out[tables.widow[view.widow.index]] = 1.0
    if view.discard is not None:
        out[tables.discard[view.discard.index]] = 1.0


def _write_history(out: list[float], view: PlayerView, seat: _SeatTables) -> None:
    """``tricks``: each completed trick's leader and the tile each seat played to it."""
    blocks = zip(seat.tricks_led, seat.tricks_played, view.tricks, strict=False)
    for led, played, tr in blocks:  # the tricks completed so far: the first blocks
        out[led[tr.leader]] = 1.0
        for row, x in zip(played[tr.leader], tr.tiles, strict=True):
            out[row[x._index]] = 1.0


def _encode(view: PlayerView, history: bool) -> tuple[float, ...]:
    """The vector of ``view`` in its rules' layout (with ``history``, the information state)."""
    tables = _tables(view.rules, history)
    seat = tables.seats[view.seat]
    out = [0.0] * tables.size
    phase = view.phase
    out[tables.phase + _PHASES.index(phase)] = 1.0
    if not view.is_over and view.to_act is not None and phase is not Phase.DONE:
        out[seat.to_act[view.to_act]] = 1.0
    _write_play(out, view, seat, tables)
    _write_contract(out, view, seat, tables)
    target = tables.target
    for i, score in zip(seat.scores, view.scores, strict=True):
        out[i] = max(-target, min(target, score)) / target
    if history:
        _write_history(out, view, seat)
    return tuple(out)


def encode_observation(view: PlayerView) -> tuple[float, ...]:
    """``ObservationLayout(view.rules).encode(view)``: the seat's observation vector."""
    if not isinstance(view, PlayerView):
        raise wrong_type("view", "a PlayerView (moonrules.view(state, seat))", view)
    return _encode(view, False)


def encode_information_state(view: PlayerView) -> tuple[float, ...]:
    """``ObservationLayout(view.rules, history=True).encode(view)``: the observation and
    every completed trick of the hand, in order."""
    if not isinstance(view, PlayerView):
        raise wrong_type("view", "a PlayerView (moonrules.view(state, seat))", view)
    return _encode(view, True)


# ---------------------------------------------------------------------------
# Text


def _tiles_text(ts: tuple[Tile, ...]) -> str:
    return " ".join(str(x) for x in ts) or "-"


def _trick_text(leader: int, ts: tuple[Tile, ...], n: int) -> str:
    return " ".join(f"p{(leader + k) % n}:{x}" for k, x in enumerate(ts))


def view_string(view: PlayerView, *, history: bool = False) -> str:
    """``view`` as one line of text, read from the view alone.

    With ``history`` (the information state), every completed trick of the hand in order;
    without it, the tiles each seat has played. Equal views give equal text; with
    ``history``, views of different positions of a hand give different text.

    >>> from moonrules import new_game, view
    >>> view_string(view(new_game("standard", seed=1, first_bidder=0), 2))
    'p2 hand 1 scores 0 0 0 bidding to p0 | tiles 2-1 2-2 4-1 4-3 5-5 6-3 6-6 | calls -'
    """
    if not isinstance(view, PlayerView):
        raise wrong_type("view", "a PlayerView (moonrules.view(state, seat))", view)
    if type(history) is not bool:
        raise wrong_type("history", "True or False", history)
    n = view.players
    turn = "game over" if view.is_over else f"{view.phase.value} to p{view.to_act}"
    if view.phase is Phase.DONE and not view.is_over:
        turn = "hand over"
    parts = [
        f"p{view.seat} hand {view.hand_number} scores {' '.join(map(str, view.scores))} {turn}",
        f"tiles {_tiles_text(view.hand)}",
        "calls "
        + (
            " ".join(f"p{(view.first_bidder + k) % n}:{c}" for k, c in enumerate(view.calls)) or "-"
        ),
    ]
    if view.bidder is not None:
        parts.append(f"bidder p{view.bidder} bid {view.bid}")
    if view.widow is not None:
        parts.append(f"widow {view.widow}")
    if view.discard is not None:
        parts.append(f"discard {view.discard}")
    if view.trump is not None:
        parts.append(f"trump {view.trump}")
    if view.tricks:
        parts.append(f"won {' '.join(map(str, view.tricks_won))}")
        if history:
            parts.append(
                "tricks " + ", ".join(_trick_text(t.leader, t.tiles, n) for t in view.tricks)
            )
        else:
            played: list[list[Tile]] = [[] for _ in range(n)]
            for t in view.tricks:
                for k, x in enumerate(t.tiles):
                    played[(t.leader + k) % n].append(x)
            parts.append(
                "played "
                + " ".join(f"p{s}:{_tiles_text(tuple(sorted(played[s])))}" for s in range(n))
            )
    if view.trick:
        assert view.leader is not None
        parts.append(f"trick {_trick_text(view.leader, view.trick, n)}")
    if view.winner is not None:
        parts.append(f"winner {'team ' if view.rules.partnership else 'p'}{view.winner}")
    return " | ".join(parts)


def state_string(state: GameState) -> str:
    """The whole of ``state`` (every hand, the widow) as text, for people watching a game.

    >>> from moonrules import new_game
    >>> print(state_string(new_game("standard", seed=1, first_bidder=0)))
    hand 1, scores 0 0 0, bidding, p0 to act
    p0: 1-1 3-1 3-2 4-4 5-2 6-4 6-5
    p1: 0-0 3-3 4-2 5-1 5-3 6-1 6-2
    p2: 2-1 2-2 4-1 4-3 5-5 6-3 6-6
    widow: 5-4
    """
    if not isinstance(state, GameState):
        raise wrong_type("state", "a GameState", state)
    n = state.rules.players
    h = state.hand
    if state.is_over:
        head = f"hand {h.number}, scores {' '.join(map(str, state.scores))}, game over"
    elif h.phase is Phase.DONE:  # a finished hand shown before the next deal
        head = f"hand {h.number}, scores {' '.join(map(str, state.scores))}, hand over"
    else:
        head = (
            f"hand {h.number}, scores {' '.join(map(str, state.scores))}, "
            f"{h.phase.value}, p{state.to_act} to act"
        )
    lines = [head]
    lines += [f"p{s}: {_tiles_text(t)}" for s, t in enumerate(state.hands)]
    if state.widow is not None:
        taken = " (taken)" if h.widow_taken else ""
        lines.append(f"widow: {state.widow}{taken}")
    if h.calls:
        lines.append(
            "calls: "
            + " ".join(f"p{(h.first_bidder + k) % n}:{c}" for k, c in enumerate(state.calls))
        )
    if state.bidder is not None:
        lines.append(f"bidder: p{state.bidder}, bid {state.bid}")
    if state.discard is not None:
        lines.append(f"discard: {state.discard}")
    if state.trump is not None:
        lines.append(f"trump: {state.trump}")
    for k, t in enumerate(state.tricks):
        lines.append(f"trick {k + 1}: {_trick_text(t.leader, t.tiles, n)} -> p{t.winner}")
    if state.trick:
        assert state.leader is not None
        lines.append(f"trick {len(state.tricks) + 1}: {_trick_text(state.leader, state.trick, n)}")
    if state.is_over:
        side = "team " if state.rules.partnership else "p"
        lines.append(f"winner: {side}{state.winner}")
    return "\n".join(lines)


__all__ = [
    "ActionSpace",
    "ObservationLayout",
    "Section",
    "encode_information_state",
    "encode_observation",
    "legal_action_ids",
    "legal_action_mask",
    "state_string",
    "view_string",
]
