"""Writing a file so that no reader ever sees half of it, and checking first that it can be.

:func:`write_atomically` writes to a new temporary file beside the target and renames it over
the target once it is whole, so the target is either what it was or the new text, never a
mixture, and what was saved before is kept when the write fails. While it runs, Ctrl-C
(``SIGINT``) and ``SIGTERM`` are held back and take effect as soon as it is done: an interrupt
never leaves a temporary file behind. New files are created with mode ``0o666`` less the
umask, as every other program's; nothing here makes a file owner-only.

:func:`check_writable` says, before any work, whether a file could be written at a path, by
creating (and removing) a temporary file beside it: a missing or read-only directory, a
directory or device at the path, are found before a long run rather than after it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

from moonrules.rules.errors import MoonError, quote, wrong_type

TEMPORARY_SUFFIX = ".tmp"
"""Every temporary file of :func:`write_atomically` is named ``.NAME.XXXXXXXX.tmp``."""

_HELD = (signal.SIGINT, signal.SIGTERM)


class OutputError(MoonError):
    """A file cannot be written where asked: ``path`` and ``reason`` (why), and a message
    naming both."""

    path: str
    reason: str

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write to {quote(self.path, 240)}: {self.reason}"


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold back ``SIGINT`` and ``SIGTERM`` while the block runs, then act on them as they
    would have been (``KeyboardInterrupt``, the process ending) once it is done.

    Only the main thread receives signals in Python; elsewhere this does nothing, as it does
    for a signal whose handler was not set from Python.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    old: dict[int, Callable[[int, FrameType | None], object] | int] = {}
    try:
        for number in _HELD:
            previous = signal.getsignal(number)
            if previous is None:  # set outside Python: leave it alone
                continue
            signal.signal(number, hold)
            old[number] = previous
    except (ValueError, OSError):  # not the main interpreter
        pass
    try:
        yield
    finally:
        for held, handler in old.items():
            signal.signal(held, handler)
        for signum in dict.fromkeys(caught):
            handler = old[signum]
            if callable(handler):
                handler(signum, None)  # the default SIGINT handler raises KeyboardInterrupt
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), signum)


def _text_path(path: object) -> str:
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise wrong_type("path", "a path (str or os.PathLike)", path)
    if not path or "\x00" in path:
        raise ValueError(f"path: not a file name: {quote(path)}")
    return path


def _temporary_name(path: str) -> str:
    directory, name = os.path.split(path)
    return os.path.join(directory, f".{name[:200]}.{secrets.token_hex(4)}{TEMPORARY_SUFFIX}")


def _refuse_non_file(path: str) -> None:
    if os.path.lexists(path) and not os.path.isfile(path):
        what = "a directory" if os.path.isdir(path) else "not a regular file"
        raise OutputError(path, f"it is {what}")


def _reason(e: OSError) -> str:
    return e.strerror or str(e) or type(e).__name__


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise :class:`OutputError` (naming ``path`` and why) unless a file can be written at
    ``path``: its directory exists and takes a new file, and nothing but a regular file is
    there already. The check leaves nothing behind; a file already at ``path`` is not touched.
    """
    p = _text_path(path)
    _refuse_non_file(p)
    directory = os.path.dirname(os.path.abspath(p))
    if not os.path.isdir(directory):
        raise OutputError(p, f"no directory {quote(directory, 240)}")
    tmp = _temporary_name(p)
    try:
        with interrupts_held():
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
            os.close(fd)
            os.unlink(tmp)
    except OSError as e:
        raise OutputError(p, _reason(e)) from None


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def write_atomically(path: str | os.PathLike[str], data: bytes | str, *, sync: bool = True) -> None:
    """Replace the file at ``path`` with ``data`` (text is written as UTF-8) in one step.

    The file is written whole to a temporary file in the same directory, flushed to the disk
    (``sync``), and renamed over ``path``; on any failure the temporary file is removed and
    ``path`` keeps what it held. ``SIGINT`` and ``SIGTERM`` are held back meanwhile
    (:func:`interrupts_held`). A new file's mode is ``0o666`` less the umask. Raises
    :class:`OutputError` naming the file when it cannot be written (or when something other
    than a regular file is at ``path``).
    """
    p = _text_path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    elif not isinstance(data, bytes | bytearray | memoryview):
        raise wrong_type("data", "bytes or str", data)
    _refuse_non_file(p)
    tmp = _temporary_name(p)
    with interrupts_held():
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
        except OSError as e:
            raise OutputError(p, _reason(e)) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                if sync:
                    os.fsync(f.fileno())
            os.replace(tmp, p)
        except BaseException as e:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(e, OSError):
                raise OutputError(p, _reason(e)) from None
            raise


def is_temporary(name: str) -> bool:
    """Whether ``name`` (a file name, no directory) is one of :func:`write_atomically`'s
    temporary files."""
    return name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)


__all__ = [
    "OutputError",
    "check_writable",
    "interrupts_held",
    "is_temporary",
    "write_atomically",
]
