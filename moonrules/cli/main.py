"""The ``moonrules`` command line.

Each subcommand lives in its own module ``moonrules.cli.<name>`` exposing
``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``. A user
error (a bad record, an unknown rule set, a malformed tile, a usage error) prints
one clear line naming the subcommand, ``moonrules check: error: …``, and exits 2,
never a traceback; a command prints its own refusals with :func:`error`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from moonrules import __version__
from moonrules.rules.errors import MoonError

COMMANDS = (
    "play",
    "match",
    "check",
    "explain",
    "claim",
    "solve",
    "advise",
    "review",
    "serve",
    "conform",
    "fuzz",
    "verify",
    "study",
    "table",
    "tournament",
)


def _modules(names: Sequence[str] = COMMANDS) -> list[tuple[str, ModuleType]]:
    out = []
    for name in names:
        modname = f"moonrules.cli.{name}"
        if importlib.util.find_spec(modname) is not None:
            out.append((name, importlib.import_module(modname)))
    return out


def error(prog: str, message: str) -> int:
    """Print ``PROG: error: MESSAGE`` on stderr (the one format of every command's refusals,
    ``prog`` as ``moonrules solve``); returns 2, the exit status of a refusal."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


class _Parser(argparse.ArgumentParser):
    """A parser whose usage errors are one line (``--help`` still shows the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def command_named(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` runs: its first argument, when that is one of
    :data:`COMMANDS`; ``None`` otherwise (an option such as ``--help`` or ``--version``
    first, no argument, or a name that is no command)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def build_parser(command: str | None = None, *, commands: bool = True) -> argparse.ArgumentParser:
    """The parser of the command line: of every subcommand, or with ``command`` of that
    one alone (what :func:`main` builds when the arguments name it: the other
    subcommands' modules, and what they import, are then not loaded, so that a command
    starts sooner). Both parse that command's arguments the same way. With ``commands``
    false, of no subcommand: enough for ``--version``, which :func:`main` answers so."""
    parser = _Parser(
        prog="moonrules",
        description="Moon, the Texas domino game: play, check records, rule on disputes, "
        "and test other engines against the reference.",
    )
    parser.add_argument("--version", action="version", version=f"moonrules {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    chosen = (COMMANDS if command is None else (command,)) if commands else ()
    for name, module in _modules(chosen):
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    _name_parsers(parser)
    return parser


def _name_parsers(parser: argparse.ArgumentParser) -> None:
    """Let every (sub)command's arguments carry its parser (``args._parser``), so that an
    error names the subcommand: ``moonrules study run: error: …``."""
    parser.set_defaults(_parser=parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _name_parsers(child)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    given = sys.argv[1:] if argv is None else list(argv)
    named = command_named(given)
    parser = build_parser(named, commands=named is not None or given[:1] != ["--version"])
    args, extra = parser.parse_known_args(given)
    command: argparse.ArgumentParser = args._parser
    if extra:  # said by the subcommand's parser, with its usage, not the top one's
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    prog = command.prog
    if sys.stdout is None:  # started with its output closed (`moonrules … >&-`)
        return error(prog, "standard output is closed")
    try:
        status: int = args._run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk is reported here, not at exit
        return status
    except MoonError as e:
        return error(prog, str(e))
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        where = "" if e.filename is None else f": {e.filename}"
        what = e.strerror or str(e) or type(e).__name__
        error(prog, f"{what}{where}")
        if sys.stdout is not None and e.filename is None:
            with contextlib.suppress(OSError):  # let nothing more be written at exit
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
