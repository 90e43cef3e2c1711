"""The keeper of a target: runs it, and leaves no process of it behind (Linux).

:class:`moonrules.conformance.target.Target` starts this script (``python -I -S
keeper.py FD COMMAND…``, standard library only) in a session of its own, with the
target's pipes as its standard input, output and error and one end of a socket pair
as ``FD``. The keeper makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``):
every process the target starts that loses its parent, one that called ``setsid`` or
daemonized included, becomes the keeper's child instead of the system's. It starts the
target on those pipes (and lets go of them itself), writes ``ok PID`` or ``error ERRNO
MESSAGE`` on the socket, then waits for the first of:

- the target exits: the keeper kills every process left under it, and exits the way
  the target did (the same status, or killed by the same signal);
- the socket ends (the caller stopped the target, or died): the keeper kills the
  target and every process under it, and exits.

Killing goes by the process tree of ``/proc``: every descendant is sent ``SIGKILL``,
orphans come back to the keeper, which reaps them, round after round, until it has no
child left. The caller is never made a subreaper, and only the keeper reaps, so a
program that uses moonrules as a library keeps its own children to itself.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
_ROUNDS = 200
"""Rounds of killing and reaping at most (each a few milliseconds): a descendant that
forks as fast as it is killed cannot keep the keeper for ever."""


def become_subreaper() -> bool:
    """Make this process a child subreaper; whether the system allowed it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def descendants(root: int) -> list[int]:
    """The processes under ``root`` (its children, theirs, …), read from ``/proc``."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    out: list[int] = []
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            out.append(child)
            stack.append(child)
    return out


def reap(target: int, status: list[int]) -> bool:
    """Reap every child that has ended; ``status`` gets the target's wait status.
    Whether any child is left."""
    while True:
        try:
            pid, wait_status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
        if pid == target:
            status.append(wait_status)


def kill_all(target: int, status: list[int]) -> None:
    """SIGKILL every process under this one, round after round, reaping them."""
    me = os.getpid()
    for _ in range(_ROUNDS):
        found = descendants(me)
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if not reap(target, status) and not found:
            return
        time.sleep(0.005)


def _exit_as(wait_status: int | None) -> None:
    """Exit the way the target did (its exit status, or its signal)."""
    if wait_status is None:
        os._exit(0)
    if os.WIFSIGNALED(wait_status):
        number = os.WTERMSIG(wait_status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(wait_status))


def main(argv: list[str]) -> None:
    control = int(argv[0])
    command = argv[1:]
    os.set_inheritable(control, False)
    become_subreaper()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    for number in (signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    stopping: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        target = os.posix_spawnp(command[0], command, os.environ)
    except OSError as e:
        message = f"error {e.errno or 0} {e.strerror or e}\n"
        with contextlib.suppress(OSError):
            os.write(control, message.encode("utf-8", "replace"))
        os._exit(127)
    # the target holds the pipes now: the caller sees their end when the target's side ends
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    with contextlib.suppress(OSError):
        os.write(control, f"ok {target}\n".encode())
    status: list[int] = []
    while not status and not stopping:
        try:
            ready, _, _ = select.select([control, wake_r], [], [], 1.0)
        except InterruptedError:
            continue
        if wake_r in ready:
            with contextlib.suppress(OSError):
                os.read(wake_r, 4096)
        reap(target, status)
        if control in ready:
            try:
                if os.read(control, 4096) == b"":
                    break  # the caller stopped the target, or went away
            except OSError:
                break
    kill_all(target, status)
    _exit_as(status[0] if status else None)


if __name__ == "__main__":
    main(sys.argv[1:])
