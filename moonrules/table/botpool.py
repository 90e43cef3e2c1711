"""Bots thinking in worker processes, so that no bot ever holds up the event loop.

A bot sees only its seat's :class:`~moonrules.game.views.PlayerView` (VIEW-1), exactly
as in :mod:`moonrules.bots`: the view and a seed for its random generator are sent to a
worker process, which answers with the bot's action. Quick bots (``random``, ``basic``)
share one pool and ``strong`` bots have their own, so a strong bot thinking (for whole
seconds) delays neither the server nor the quick bots of other rooms; strong bots of
different rooms share the strong pool's workers (one per core by default).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import multiprocessing
import multiprocessing.pool
import os
import random
import signal
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from moonrules.bots import Bot
from moonrules.bots.match import BOTS
from moonrules.game import Action, PlayerView
from moonrules.rules.errors import MoonError, wrong_type


@attrs.frozen(slots=True)
class BotSpec:
    """A bot level of the table: how to make the bot, and which pool it thinks in.

    ``make`` must be picklable (a class or a function of a module, or a
    :func:`functools.partial` of one): it is called in the worker process.
    """

    make: Callable[[], Bot]
    pool: str = "quick"
    """``"quick"`` or ``"slow"``."""


DEFAULT_BOTS: Final[Mapping[str, BotSpec]] = {
    "random": BotSpec(BOTS["random"], "quick"),
    "basic": BotSpec(BOTS["basic"], "quick"),
    "strong": BotSpec(BOTS["strong"], "slow"),
}
"""The bots a room may seat: the levels of :data:`moonrules.bots.match.BOTS`."""


class BotFailed(MoonError):
    """A bot's worker failed or did not answer: the table falls back to another move."""


_BOT_CACHE: dict[Callable[[], Bot], Bot] = {}


def _worker_init() -> None:
    # the server handles Ctrl-C; a worker just stops when it is terminated
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _decide(make: Callable[[], Bot], view: PlayerView, seed: str) -> Action:
    """In the worker: the bot's action for ``view``, its generator seeded by ``seed``."""
    bot = _BOT_CACHE.get(make)
    if bot is None:
        bot = _BOT_CACHE[make] = make()
    return bot.act(view, random.Random(seed))


class _Slots:
    """The workers of one pool, handed out in turn: a decision for a room where a person
    sits before any for a room of bots alone (which could otherwise queue by the hundred
    ahead of it), each kind in the order asked."""

    def __init__(self, workers: int) -> None:
        self.free = workers
        self.waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(),
            deque(),
        )

    async def acquire(self, urgent: bool) -> None:
        if self.free > 0 and not (self.waiting[0] or self.waiting[1]):
            self.free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self.waiting[0 if urgent else 1]
        queue.append(turn)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.release()  # handed a worker just as it gave up: the next one has it
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(turn)
            raise

    def release(self) -> None:
        for queue in self.waiting:
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    return
        self.free += 1


class BotPool:
    """Worker processes for the table's bots (started at once, ended by :meth:`close`)."""

    def __init__(
        self,
        bots: Mapping[str, BotSpec] | None = None,
        *,
        quick_workers: int = 1,
        slow_workers: int | None = None,
        timeout: float = 300.0,
    ) -> None:
        self.bots: Mapping[str, BotSpec] = DEFAULT_BOTS if bots is None else dict(bots)
        for name, spec in self.bots.items():
            if not isinstance(spec, BotSpec):
                raise wrong_type(f"bots[{name!r}]", "a BotSpec", spec)
            if spec.pool not in ("quick", "slow"):
                raise ValueError(f"bots[{name!r}].pool: 'quick' or 'slow', not {spec.pool!r}")
        if slow_workers is None:
            slow_workers = max(1, os.cpu_count() or 1)
        for name, n in (("quick_workers", quick_workers), ("slow_workers", slow_workers)):
            if type(n) is not int:
                raise wrong_type(name, "a number of processes (int)", n)
            if n < 1:
                raise ValueError(f"{name}: at least 1 process, not {n}")
        self.timeout = timeout
        ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._pools: dict[str, multiprocessing.pool.Pool] = {
            "quick": ctx.Pool(quick_workers, initializer=_worker_init),
            "slow": ctx.Pool(slow_workers, initializer=_worker_init),
        }
        self._slots = {"quick": _Slots(quick_workers), "slow": _Slots(slow_workers)}
        self.thinking = 0
        """Decisions sent to the workers and not yet answered."""

    @property
    def names(self) -> tuple[str, ...]:
        """The bot levels a room may seat."""
        return tuple(self.bots)

    async def decide(
        self, level: str, view: PlayerView, seed: str, *, urgent: bool = False
    ) -> Action:
        """The action the bot ``level`` takes in ``view``, thought out in a worker process.

        ``urgent`` (a room where a person waits): it goes to the first free worker before
        every decision not urgent. Raises :class:`BotFailed` when the worker raises or
        does not answer within :attr:`timeout` seconds (waiting for a worker included).
        """
        spec = self.bots[level]
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Action] = loop.create_future()

        def done(value: Any) -> None:
            loop.call_soon_threadsafe(_resolve, future, True, value)

        def failed(error: BaseException) -> None:
            loop.call_soon_threadsafe(_resolve, future, False, error)

        slots = self._slots[spec.pool]
        self.thinking += 1
        try:
            async with asyncio.timeout(self.timeout):
                await slots.acquire(urgent)
                try:
                    self._pools[spec.pool].apply_async(
                        _decide, (spec.make, view, seed), callback=done, error_callback=failed
                    )
                    return await future
                finally:
                    slots.release()
        except TimeoutError:
            raise BotFailed(f"the {level} bot did not answer in {self.timeout:g} s") from None
        except Exception as e:  # whatever the bot raised, in its worker
            raise BotFailed(f"the {level} bot failed: {type(e).__name__}: {e}") from None
        finally:
            self.thinking -= 1

    def close(self) -> None:
        """End every worker at once, thinking or not."""
        for pool in self._pools.values():
            with contextlib.suppress(Exception):
                pool.terminate()
        for pool in self._pools.values():
            with contextlib.suppress(Exception):
                pool.join()
        # let go of the pools now, so that their queues' semaphores are released here and
        # not left to the resource tracker (which warns of them) when the server exits
        self._pools.clear()
        gc.collect()


def _resolve(future: asyncio.Future[Action], ok: bool, value: Any) -> None:
    if future.done():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


__all__ = ["DEFAULT_BOTS", "BotFailed", "BotPool", "BotSpec"]
