"""The review of a finished hand at the table (``moonrules.analysis.review`` for one hand).

A seat asks for the review of a hand that has ended (``{"type": "review", "hand": N}``,
``spec/table.md``). The review is worked out **once per hand**, for every seat at once,
**lazily**: on the first request for that hand (a hand nobody asks about costs nothing), in
a worker of the bot pool's ``slow`` pool (never on the event loop), not urgent (the bots of
games where a person waits go first). It is then stored with the room (the ``reviews``
table of the store), so that a second seat, a second tab, or the server after a restart
reads it instead of working it out again; requests that come while it is being worked out
wait for the same job.

What each listener gets is :func:`seat_review` of the stored review, a pure function of
the review, the listener's seat and whether the game is over:

- while the game goes on, a seat sees **its own decisions only** (in a partnership, not
  its partner's either: a partner's decisions list the partner's tiles as it held them, and
  its calls' chances, which are the partner's hand), and the summary of its own play. The
  *double-dummy* values of its calls are withheld (``null``): they are values of the deal as
  dealt, the widow and the others' whole hands included, which no seat has seen; and so are
  all double-dummy values of a hand not played to its seventh trick (thrown in, or ended by
  a renege), whose unplayed tiles nobody has seen. Every other value is either worked out
  from the seat's own view (the single-dummy values, the marks, bidding advice) or from
  tiles every seat saw played. No tile a seat did not see appears in its review: its own
  decisions list only its own tiles (and the widow and the discard, to the bidder who
  took and made them);
- a spectator sees nothing before the game is over;
- once the game is over (its record, every tile of every hand, is public then), everyone
  sees the whole table's review.

In a room whose hints are off (a tournament's), reviews wait for the game's end too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
import weakref
from typing import TYPE_CHECKING, Final

from moonrules.analysis.review import review, review_json
from moonrules.bots.inference import inferred_worlds
from moonrules.game import GameState, Hand, Phase
from moonrules.records.record import JSON, json_kind
from moonrules.table.botpool import HELP, BotFailed, BotPool
from moonrules.table.wire import encode, refused

if TYPE_CHECKING:
    from moonrules.table.room import HelpLoad
    from moonrules.table.rooms import Listener, Room
    from moonrules.table.storage import Storage
    from moonrules.table.storage_pg import PgStorage

log = logging.getLogger("moonrules.table")

REVIEW_SAMPLES: Final = 8
"""Deals each decision is valued over at the table (the command line's default is 16):
about a second of one worker for a three-player hand, three to six for a partnership hand,
from the pure-Python solver (measured in ``docs/guides/review.md``)."""

REVIEW_SEED: Final = 0
"""The review's seed: a hand's review is the same whoever asks, whenever."""


def compute(state: GameState, hand: int) -> JSON:
    """In a worker: the whole table's review of hand ``hand`` of ``state``'s game (every
    seat's decisions), as :func:`~moonrules.analysis.review.review_json` writes it, with
    :data:`REVIEW_SAMPLES` deals per decision weighed by the calls (as the command line)."""
    r = review(
        state,
        hand=hand,
        samples=REVIEW_SAMPLES,
        seed=REVIEW_SEED,
        worlds=inferred_worlds,
    )
    return review_json(r)


def finished_hand(state: GameState, number: int) -> Hand | None:
    """Hand ``number`` of the game, if it has ended (else ``None``)."""
    for h in state.history:
        if h.number == number:
            return h
    if state.hand.number == number and state.hand.phase is Phase.DONE:
        return state.hand
    return None


def played_out(h: Hand) -> bool:
    """Whether every tile of the hand was played (seven tricks): a hand thrown in, or ended
    by a renege, leaves tiles nobody but their holder saw."""
    return len(h.tricks) == 7


def seat_review(
    whole: JSON, seat: int | None, *, over: bool, all_played: bool
) -> dict[str, JSON] | None:
    """What ``seat`` (``None``: a spectator) may see of ``whole``, the stored review of one
    hand (:func:`compute`): everything once the game is ``over``; before, a seat's own
    decisions and summary, double-dummy values withheld for its calls and, unless the hand
    was ``all_played`` (:func:`played_out`), for every decision; a spectator nothing
    (``None``). A new value: ``whole`` is not changed."""
    if not isinstance(whole, dict):
        raise TypeError(f"whole: a review (a JSON object), not {type(whole).__name__}")
    if over:
        return {**whole, "scope": "table"}
    if seat is None:
        return None
    hands = whole.get("hands")
    players = whole.get("players")
    assert isinstance(hands, list) and isinstance(players, list)
    own_hands: list[JSON] = []
    for h in hands:
        assert isinstance(h, dict)
        decisions = h.get("decisions")
        assert isinstance(decisions, list)
        own: list[JSON] = []
        for d in decisions:
            assert isinstance(d, dict)
            if d.get("seat") != seat:
                continue
            hide = d.get("kind") == "call" or not all_played
            alternatives = d.get("alternatives")
            assert isinstance(alternatives, list)
            alts: list[JSON] = []
            for a in alternatives:
                assert isinstance(a, dict)
                alts.append({**a, "double_dummy": None} if hide else dict(a))
            own.append({**d, "alternatives": alts})
        own_hands.append({"number": h.get("number"), "decisions": own})
    return {
        **whole,
        "players": [p for p in players if isinstance(p, dict) and p.get("seat") == seat],
        "hands": own_hands,
        "scope": "own",
    }


class Reviews:
    """The reviews of a table's rooms: asked for, worked out once, stored, sent."""

    def __init__(
        self, storage: Storage | PgStorage, bots: BotPool, help_load: HelpLoad | None = None
    ) -> None:
        self.storage = storage
        self.bots = bots
        self.help = help_load
        """The table's count of help being worked out (a review is one job, counted for the
        address that asked first), or ``None``: not counted."""
        self._memory: weakref.WeakKeyDictionary[Room, dict[int, JSON]] = weakref.WeakKeyDictionary()
        """Reviews read or worked out, per room in memory (forgotten with the room)."""
        self._jobs: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._waiting: dict[tuple[str, int], list[tuple[Room, Listener]]] = {}
        self.computed = 0
        """Reviews worked out by this process (not read from the store)."""

    async def request(
        self, room: Room, listener: Listener, value: JSON, address: str = ""
    ) -> dict[str, JSON] | None:
        """A listener asks for the review of hand ``value``: the answer now (the review, or
        that it is being worked out: it then follows to this listener), or a refusal (among
        them, a new review over the help caps of ``address``, the client's)."""
        if type(value) is not int or value < 1:
            message = f"hand: a hand's number (1 or more), not {json_kind(value)}"
            return refused("bad-frame", message, [])
        h = finished_hand(room.state, value)
        if h is None:
            return refused("not-now", f"hand {value} has not ended: a review comes after", [])
        seat = listener.seat
        if not room.over:
            if seat is None:
                return refused("not-now", "a spectator sees the reviews once the game is over", [])
            if not room.options.get("hints", True):
                message = "reviews wait for the game's end in this room (hints are off)"
                return refused("off", message, [])
        known = self._memory.get(room, {}).get(value)
        if known is None and (room.id, value) not in self._jobs:
            with contextlib.suppress(sqlite3.Error):  # the store is read again by the job
                known = await self.storage.load_review(room.id, value)
            if known is not None:
                self._memory.setdefault(room, {})[value] = known
        if known is not None:
            return self.message(room, seat, value, known)
        key = (room.id, value)
        if key not in self._jobs and self.help is not None:
            no = self.help.refusal(address)
            if no is not None:
                return no
        self._waiting.setdefault(key, []).append((room, listener))
        if key not in self._jobs:
            if self.help is not None:
                self.help.take(address)
            task = asyncio.get_running_loop().create_task(self._work(room, value, address))
            self._jobs[key] = task
        return {"type": "review", "hand": value, "status": "computing", "scope": None,
                "review": None}  # fmt: skip

    def message(self, room: Room, seat: int | None, number: int, whole: JSON) -> dict[str, JSON]:
        """The ``review`` message for a listener at ``seat`` (filtered by :func:`seat_review`)."""
        h = finished_hand(room.state, number)
        assert h is not None
        shown = seat_review(whole, seat, over=room.over, all_played=played_out(h))
        return {
            "type": "review",
            "hand": number,
            "status": "ready",
            "scope": None if shown is None else shown.pop("scope"),
            "review": shown,
        }

    async def _work(self, room: Room, number: int, address: str = "") -> None:
        key = (room.id, number)
        answer: JSON = None
        try:
            answer = await self._stored_or_computed(room, number)
        except BotFailed as e:
            log.warning("room %s: the review of hand %d failed: %s", room.id, number, e)
        except Exception as e:  # the store failed: those waiting are told, the server goes on
            log.error(
                "room %s: the review of hand %d: %s: %s", room.id, number, type(e).__name__, e
            )
        finally:
            self._jobs.pop(key, None)
            waiting = self._waiting.pop(key, [])
            if self.help is not None:
                self.help.give(address)
        for r, listener in waiting:
            if listener not in r.listeners:
                continue
            if answer is None:
                text = encode(refused("unavailable", "the review could not be worked out; "
                                      "ask again", []))  # fmt: skip
            else:
                text = encode(self.message(r, listener.seat, number, answer))
            listener.send(text)

    async def _stored_or_computed(self, room: Room, number: int) -> JSON:
        stored = await self.storage.load_review(room.id, number)
        if stored is None:
            started = time.monotonic()
            stored = await self.bots.run(HELP, compute, (room.state, number), what="the review")
            self.computed += 1
            hands = stored.get("hands") if isinstance(stored, dict) else None
            decisions = hands[0].get("decisions", []) if isinstance(hands, list) and hands else []
            log.info(
                "room %s: hand %d reviewed in %.1f s (%d decisions, %d deals each)",
                room.id,
                number,
                time.monotonic() - started,
                len(decisions) if isinstance(decisions, list) else 0,
                REVIEW_SAMPLES,
            )
            await self.storage.store_review(room.id, number, stored)
        self._memory.setdefault(room, {})[number] = stored
        return stored

    async def close(self) -> None:
        """Stop the reviews being worked out (the server stops)."""
        tasks = list(self._jobs.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t


__all__ = [
    "REVIEW_SAMPLES",
    "REVIEW_SEED",
    "Reviews",
    "compute",
    "finished_hand",
    "played_out",
    "seat_review",
]
