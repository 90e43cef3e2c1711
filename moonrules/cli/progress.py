"""Progress of a long command on standard error, the same way for every command.

On a terminal, one line rewritten in place (at most ten times a second) and erased at the
end; elsewhere (a pipe, a log file), whole lines: one each time another tenth of the work is
done, and one at least every :data:`EVERY` seconds while it goes on. Nothing is shown during
the first :data:`DELAY` seconds, so a short run prints nothing. A line names the command:

    study: 400/1,000 deals (40%), 12 s, 0:18 left

Use it as a context manager (the terminal line is erased on the way out, even on an error)::

    with ProgressLine("verify", "properties", total=len(props)) as progress:
        for k, prop in enumerate(props, 1):
            ...
            progress.update(k, note=prop.id)

The command's own output goes to standard output and is never mixed with these lines; a
command that prints on the terminal while progress is shown calls :meth:`ProgressLine.hide`
first. ``quiet=True`` (a command's ``--quiet``) shows nothing. Writing never fails the
command: a closed or full standard error only ends the display. A command with a line of
its own (``conform``, ``fuzz``) gives its text to :meth:`ProgressLine.update`, and its own
pace (``delay``, ``every``, ``redraw``); the display is the same.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Final, TextIO

DELAY: Final = 2.0
"""Seconds of work before the first line: a command quicker than this shows no progress."""
EVERY: Final = 10.0
"""Off a terminal, the most seconds between two lines while the work goes on."""
STEPS: Final = 10
"""Off a terminal, a line each time another ``1/STEPS`` of the work is done."""
_REDRAW: Final = 0.1
"""On a terminal, the fewest seconds between two redraws."""


def _clock_text(seconds: float) -> str:
    s = int(seconds)
    return (
        f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    )


class ProgressLine:
    """How far a long command is, on ``stream`` (default: standard error).

    ``label`` names the command (``"study"``), ``unit`` what is counted (``"deals"``),
    ``total`` how many there are (``None`` when unknown: then no share and no time left
    is shown). ``tty`` says whether ``stream`` is a terminal (default: asked of it).
    ``delay`` (default :data:`DELAY`), ``every`` (default :data:`EVERY`) and ``redraw``
    (default a tenth of a second, the fewest seconds between two redraws on a terminal)
    set the pace for a command that keeps its own; ``clock`` is for tests.
    """

    def __init__(
        self,
        label: str,
        unit: str,
        *,
        total: int | None = None,
        stream: TextIO | None = None,
        quiet: bool = False,
        tty: bool | None = None,
        delay: float | None = None,
        every: float | None = None,
        redraw: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.unit = unit
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.quiet = quiet or self.stream is None
        self.tty = self._isatty() if tty is None else tty
        self.delay = DELAY if delay is None else delay
        self.every = EVERY if every is None else every
        self.redraw = _REDRAW if redraw is None else redraw
        self.clock = clock
        self.started = clock()
        self._last = float("-inf")
        self._step = -1
        self._width = 0
        self._done = 0
        self._first = 0
        self.lines = 0
        """How many times a line was written (for tests)."""

    def _isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __call__(self, done: int, *, total: int | None = None, note: str = "") -> None:
        self.update(done, total=total, note=note)

    def start_count(self, done: int) -> None:
        """Count from ``done``: what was done before this run (a resumed study) does not count
        in the rate, nor in the time left."""
        self._first = self._done = done

    @property
    def elapsed(self) -> float:
        """Seconds since the display was made."""
        return self.clock() - self.started

    def text(self, done: int, note: str = "") -> str:
        """The line for ``done`` of the total, ``note`` (what is being done) at its end."""
        elapsed = self.elapsed
        count = f"{done:,}" if self.total is None else f"{done:,}/{self.total:,}"
        parts = [f"{self.label}: {count} {self.unit}"]
        if self.total:
            parts[0] += f" ({100 * done // self.total}%)"
        parts.append(f"{elapsed:.0f} s")
        new = done - self._first
        if self.total is not None and new > 0 and done < self.total and elapsed > 0:
            parts.append(f"{_clock_text((self.total - done) * elapsed / new)} left")
        if note:
            parts.append(note)
        return ", ".join(parts)

    def update(
        self, done: int, *, total: int | None = None, note: str = "", text: str | None = None
    ) -> None:
        """Say that ``done`` of the total are done (``total`` changes the total); ``text``,
        when given, is the line shown instead of :meth:`text`'s."""
        if total is not None:
            self.total = total
        self._done = done
        if self.quiet:
            return
        now = self.clock()
        if now - self.started < self.delay:
            return
        if self.tty:
            if now - self._last < self.redraw:
                return
        else:
            step = done * STEPS // self.total if self.total else -1
            if step == self._step and now - self._last < self.every:
                return
            self._step = step
        self._last = now
        self._write(self.text(done, note) if text is None else text)

    def _write(self, text: str) -> None:
        try:
            if self.tty:
                self.stream.write("\r" + text.ljust(self._width))
                self._width = len(text)
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
            self.lines += 1
        except (OSError, ValueError):  # stderr closed or full: the work goes on, unshown
            self.quiet = True

    def hide(self) -> None:
        """Erase the terminal line (before the command prints something of its own); the
        next update draws it again."""
        if self.tty and self._width and not self.quiet:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            self._width = 0
            self._last = float("-inf")

    def close(self) -> None:
        """End the display: the terminal line is erased (the command reports the result)."""
        self.hide()
        self.quiet = True


__all__ = ["DELAY", "EVERY", "STEPS", "ProgressLine"]
