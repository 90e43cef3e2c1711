"""``moonrules play``: a game of Moon in the terminal, against bots, or bots watched.

By default seat 0 is yours and the other seats are ``basic`` bots. Each turn
shows your tiles (pictures drawn with ``rich`` when it is installed: the
``play`` extra), the auction, the trump, the trick on the table and the
scores, and numbers the legal actions; answer with a tile (``6-4``), a call
(``pass``, ``5``, ``bid 5``, ``21``), a trump (``6``, ``doubles``, ``none``) or
the number of an action in the list (in the auction a number of 3 or more is the
bid itself, and in naming trump 0 to 6 is the trump). An illegal choice is
refused with the clause it breaks and the legal options, and the game goes on;
from input that is no terminal (a pipe, a file), after :data:`MAX_RETRIES`
answers in a row that take no action the game stops (exit status 2). ``save``
(or ``save FILE``) saves the game, ``quit`` stops. With ``--save FILE`` the
game's record (what ``check``, ``claim`` and ``solve`` read) is written after
every action, on ``quit``, on Ctrl-C and when the input ends; each write
replaces the file whole, and a file that cannot be written is refused before the
game starts (``save FILE`` to a file that cannot be written keeps the game where
it was saved).

With a bot named for every seat (``--bots basic,strong,random``, or
``--watch``) the bots play alone and a summary is printed hand by hand.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable
from typing import Final, TextIO

from moonrules.bots.base import Bot
from moonrules.bots.match import BOTS, UnknownBot, bot_by_name
from moonrules.cli.lang import add_lang_argument, chosen_language
from moonrules.cli.options import whole_number
from moonrules.game import (
    Action,
    Bid,
    Discard,
    GameState,
    Hand,
    NameTrump,
    Pass,
    Phase,
    Play,
    apply,
    illegal_play_reason,
    legal_actions,
    new_game,
    view,
)
from moonrules.records.files import OutputError, check_writable, write_atomically
from moonrules.records.record import to_record
from moonrules.rules.errors import IllegalAction, MoonError, ParseError, quote
from moonrules.rules.ruleset import RuleSet, as_rules
from moonrules.rules.suits import Trump, is_trump
from moonrules.rules.tiles import Tile

HELP = "play Moon in the terminal against bots (or watch bots play, hand by hand)"


class InputEnded(MoonError):
    """The input ended (or was closed) before the game did."""


class InputRefused(MoonError):
    """Input that is no terminal gave :data:`MAX_RETRIES` answers in a row that took no action
    (``yes 7`` where 7 is not a legal call): the game stops instead of asking for ever."""


MAX_RETRIES: Final = 10
"""Off a terminal, the most answers in a row that take no action before the game stops."""


class InputTooLong(MoonError):
    """A line of input longer than :data:`MAX_INPUT_LINE` (``/dev/zero``, a binary file)."""


MAX_INPUT_LINE: Final = 4096
"""The longest line of input read as an answer (in bytes); a longer one stops the game."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seed", type=whole_number, default=None, help="the game's seed (default: random)"
    )
    p.add_argument("--rules", default="standard", help="a preset name (default standard)")
    p.add_argument("--seat", type=whole_number, default=0, help="your seat (default 0)")
    p.add_argument(
        "--bots",
        default="basic",
        help="the bots, comma-separated: one name for every other seat, one per other seat "
        "(in seat order), or one per seat to watch them play. Known: "
        + ", ".join(BOTS)
        + " (default basic)",
    )
    p.add_argument("--watch", action="store_true", help="no human seat: bots at every seat")
    add_lang_argument(p, "a refusal of your move")
    p.add_argument("--save", metavar="FILE", help="keep the game's record in FILE (JSON)")
    p.add_argument(
        "--players-seed",
        type=whole_number,
        default=None,
        help="seed of the bots' choices (default: the game's seed)",
    )


# ---------------------------------------------------------------------------
# Output: rich when installed and the output is a terminal, plain text otherwise


class Screen:
    """Where the game is shown: a ``rich`` console, or plain lines with the markup removed."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._console = None
        try:
            from rich.console import Console

            self._console = Console(file=out, highlight=False, soft_wrap=True)
        except ImportError:  # pragma: no cover - without the play extra
            pass

    def line(self, text: str = "") -> None:
        if self._console is not None:
            self._console.print(text)
        else:  # pragma: no cover - without the play extra
            print(_MARKUP.sub("", text).replace("\\[", "["), file=self.out)
        self.out.flush()


_NUMBER = re.compile(r"[0-9]{1,9}")
"""A number typed as an answer: ASCII digits, at most nine (``str.isdigit`` takes ``²``)."""

_MARKUP = re.compile(r"(?<!\\)\[/?[a-z #0-9_]*\]")


def picture(tiles: tuple[Tile, ...], trump: Trump | None, numbers: dict[Tile, int]) -> list[str]:
    """Tiles drawn side by side as three lines of text (trumps in yellow) and a line of the
    action numbers under the tiles that may be played."""
    rows = ["", "", "", ""]
    for t in tiles:
        style = "bold yellow" if trump is not None and is_trump(t, trump) else "bold white"
        rows[0] += f"[{style}]╭───┬───╮[/] "
        rows[1] += f"[{style}]│ {t.high} │ {t.low} │[/] "
        rows[2] += f"[{style}]╰───┴───╯[/] "
        n = numbers.get(t)
        rows[3] += f"{'(' + str(n) + ')' if n else '':^9} "
    return [r.rstrip() for r in rows if r.strip()]


# ---------------------------------------------------------------------------
# Reading the human's choice


def parse_choice(text: str, legal: tuple[Action, ...], phase: Phase) -> Action | str:
    """The action a player typed, or a message saying why it is not one.

    A number is the place of an action in ``legal`` (``1`` the first), with two exceptions:
    in the auction a number of 3 or more is the bid itself (no rule set has a bid below 3,
    so ``1`` and ``2`` are always places: ``1`` is the first call listed), and in naming
    trump a number from 0 to 6 is the trump.
    """
    t = text.strip().lower()
    words = t.replace(",", " ").split()
    if phase is Phase.BIDDING:
        if t in ("pass", "p", "no"):
            return Pass()
        if _NUMBER.fullmatch(t) and int(t) < LOWEST_BID:
            return _placed(int(t), legal, "call")
        if words and words[0] == "bid":
            words = words[1:]
        if len(words) == 1 and words[0] in ("moon", "21"):
            return Bid(21)
        if len(words) == 1 and _NUMBER.fullmatch(words[0]):
            return Bid(int(words[0]))
        return f"not a call: {quote(text.strip())} (try pass, or a bid like 5)"
    if phase is Phase.TRUMP:
        if words and words[0] in ("trump", "trumps"):
            words = words[1:]
        try:
            return NameTrump(Trump.parse(" ".join(words)))
        except MoonError:
            return f"not a trump: {quote(text.strip())} (try 0-6, doubles or none)"
    if _NUMBER.fullmatch(t):
        return _placed(int(t), legal, "tile")
    if words and words[0] in ("play", "discard", "lead"):
        words = words[1:]
    if len(words) == 1 and re.fullmatch(r"[0-6]-[0-6]", words[0]):
        a, b = (int(x) for x in words[0].split("-"))
        tile = Tile(max(a, b), min(a, b))
        return Play(tile) if phase is Phase.PLAY else Discard(tile)
    return f"not a tile: {quote(text.strip())} (type it like 6-4, or its number)"


LOWEST_BID: Final = 3
"""No rule set has a bid below this (BID-4): in the auction, a smaller number is a place in
the list of legal calls."""


def _placed(n: int, legal: tuple[Action, ...], what: str) -> Action | str:
    """The action at place ``n`` (from 1) of ``legal``, or why there is none."""
    if 1 <= n <= len(legal):
        return legal[n - 1]
    if not legal:
        return f"there is no {what} number {n}"
    if len(legal) == 1:
        return f"there is no {what} number {n} (1 is the only one)"
    return f"there is no {what} number {n} (1 to {len(legal)})"


def refusal(state: GameState, action: Action) -> IllegalAction | None:
    """Why ``action`` is refused now (its clause), or ``None`` if it is legal."""
    if isinstance(action, Play) and state.phase is Phase.PLAY:
        return illegal_play_reason(state, action.tile)
    try:
        apply(state, action)
    except IllegalAction as e:
        return e
    return None


# ---------------------------------------------------------------------------
# Saving


class SaveError(OutputError):
    """The record cannot be saved where asked: ``path``, ``reason``, and a message naming both."""

    def __str__(self) -> str:
        return f"cannot save to {quote(self.path, 240)}: {self.reason}"


def check_save(path: str) -> None:
    """Raise :class:`SaveError` unless a game can be saved at ``path`` (nothing is written)."""
    try:
        check_writable(path)
    except OutputError as e:
        raise SaveError(e.path, e.reason) from None


def save(state: GameState, path: str) -> None:
    """Write the record of ``state`` to ``path``, replacing the file whole (never truncated).

    Only a regular file (or a new one) is replaced: never ``/dev/null`` or a directory. A new
    file's mode follows the umask, as every file moonrules writes. Raises :class:`SaveError`
    naming the file when it cannot be written; the file then keeps what it held.
    """
    text = json.dumps(to_record(state), indent=1) + "\n"
    try:
        write_atomically(path, text)
    except OutputError as e:
        raise SaveError(e.path, e.reason) from None


# ---------------------------------------------------------------------------
# Telling what happens


def side_name(rules: RuleSet, side: int) -> str:
    return f"team {side} (seats {side}+{side + 2})" if rules.partnership else f"seat {side}"


def _finished_hand(before: GameState, after: GameState) -> Hand | None:
    """The hand that ``before -> after`` finished, if any."""
    if after.hand.number != before.hand.number:
        return after.history[-1]
    if after.is_over and after.hand.phase is Phase.DONE:
        return after.hand
    return None


def hand_summary(
    h: Hand, rules: RuleSet, scores: tuple[int, ...], *, show_discard: bool = True
) -> str:
    """One line for a finished hand (the discard only with ``show_discard``)."""
    if h.bidder < 0:
        return f"Hand {h.number}: all pass, thrown in."
    from moonrules.rules.tiles import TILES

    won = h.tricks_won
    per_side = (won[0] + won[2], won[1] + won[3]) if rules.partnership else won
    side = rules.side_of(h.bidder)
    deltas = h.deltas or ()
    made = bool(deltas) and deltas[side] > 0
    trump = str(Trump(h.trump)) if h.trump >= 0 else "-"
    discard = f", discards {TILES[h.discard]}" if h.discard >= 0 and show_discard else ""
    how = "made" if made else "set"
    if h.renege >= 0:
        how += f" (renege by seat {h.renege})"
    return (
        f"Hand {h.number}: seat {h.bidder} bids {h.bid}{discard}, trump {trump}; "
        f"tricks {'/'.join(map(str, per_side))}: {how}; "
        f"scores {' '.join(map(str, scores))}"
    )


def describe(seat: int, action: Action, human: int | None) -> str:
    who = "you" if seat == human else f"seat {seat}"
    if isinstance(action, Pass):
        return f"{who} pass" if seat == human else f"{who} passes"
    if isinstance(action, Bid):
        return f"{who} bid {action.amount}" if seat == human else f"{who} bids {action.amount}"
    if isinstance(action, Discard):
        return f"{who} take the widow and discard" if seat == human else f"{who} takes the widow"
    if isinstance(action, NameTrump):
        return f"{who} {'name' if seat == human else 'names'} trump: {action.trump}"
    assert isinstance(action, Play)
    return f"{who} {'play' if seat == human else 'plays'} {action.tile}"


# ---------------------------------------------------------------------------
# The game loop


class Session:
    """One game in the terminal: the bots, the human seat (or none), the screen, the save file."""

    def __init__(
        self,
        state: GameState,
        bots: dict[int, Bot],
        human: int | None,
        screen: Screen,
        read: Callable[[str], str | None],
        save_path: str | None,
        bot_seed: int,
        retries: int | None = None,
        lang: str = "en",
    ) -> None:
        self.lang = lang
        """The language a refusal is told in (``--lang``); the rest of the screen is English."""
        self.retries = retries
        """The most answers in a row that take no action (refused, empty, a command) before
        the game stops; ``None``: no limit (a person at a terminal)."""
        self.state = state
        self.bots = bots
        self.human = human
        self.screen = screen
        self.read = read
        self.save_path = save_path
        self.rngs = {
            s: random.Random(f"moonrules/play/{bot_seed}/seat/{s}")
            for s in range(state.rules.players)
        }

    def save(self) -> None:
        if self.save_path is not None:
            save(self.state, self.save_path)

    def run(self) -> None:
        show = self.screen.line
        r = self.state.rules
        show(
            f"[bold]Moon[/] ({r.name or 'custom rules'}), seed {self.state.seed}, "
            f"{r.players} players"
            + (f"; you are seat {self.human}" if self.human is not None else "")
            + (
                f", your partner seat {(self.human + 2) % 4}"
                if self.human is not None and r.partnership
                else ""
            )
        )
        self.save()
        while not self.state.is_over:
            before = self.state
            if (
                before.hand.phase is Phase.BIDDING
                and not before.hand.calls
                and self.human is not None
            ):
                self._hand_header()
            seat = before.to_act
            assert seat is not None
            if seat == self.human:
                action = self._ask()
                if action is None:
                    return
            else:
                action = self.bots[seat].act(view(before, seat), self.rngs[seat])
            self.state = apply(before, action)
            self.save()
            if self.human is not None:
                self._tell(before, seat, action)
            done = _finished_hand(before, self.state)
            if done is not None:
                seen = self.human is None or self.human == done.bidder
                show(hand_summary(done, r, self.state.scores, show_discard=seen))
        assert self.state.winner is not None
        show(
            f"[bold]Game over[/] after {self.state.hand_number} hands: "
            f"{side_name(r, self.state.winner)} wins; scores {list(self.state.scores)}"
        )

    def _hand_header(self) -> None:
        s = self.state
        self.screen.line("")
        self.screen.line(
            f"[bold]Hand {s.hand_number}[/] — scores {list(s.scores)}; "
            f"seat {s.first_bidder} bids first"
        )

    def _tell(self, before: GameState, seat: int, action: Action) -> None:
        show = self.screen.line
        if seat != self.human:
            show(f"  {describe(seat, action, self.human)}")
        after = self.state
        if isinstance(action, Play):
            finished_trick = len(after.tricks) != len(before.tricks) or (
                after.hand.number != before.hand.number
            )
            if finished_trick:
                hand = after.history[-1] if after.hand.number != before.hand.number else after.hand
                if after.is_over:
                    hand = after.hand
                trick = hand.tricks[-1]
                won = "you win" if trick.winner == self.human else f"seat {trick.winner} wins"
                show(f"  [cyan]{won} the trick[/] ({' '.join(map(str, trick.tiles))})")

    def _status(self) -> None:
        s = self.state
        show = self.screen.line
        v = view(s, self.human or 0)
        calls = ", ".join(
            f"seat {(s.first_bidder + i) % s.rules.players} {c}" for i, c in enumerate(s.calls)
        )
        show(f"  auction: {calls or 'no calls yet'}")
        if s.bidder is not None:
            trump = f"trump {s.trump}" if s.trump is not None else "trump not named yet"
            show(f"  contract: seat {s.bidder} bid {s.bid}; {trump}")
        if v.widow is not None:
            show(f"  widow: {v.widow}" + (f", discarded {v.discard}" if v.discard else ""))
        if s.phase is Phase.PLAY:
            show(f"  tricks won: {list(s.tricks_won)}; scores {list(s.scores)}")
            if s.trick:
                on_table = ", ".join(
                    f"seat {(s.hand.leader + i) % s.rules.players}: {t}"
                    for i, t in enumerate(s.trick)
                )
                show(f"  on the table: {on_table}")

    def _show_turn(self, legal: tuple[Action, ...]) -> str:
        """Show the table and the human's tiles; return the legal options as text."""
        s = self.state
        assert self.human is not None
        show = self.screen.line
        show("")
        self._status()
        hand = tuple(reversed(view(s, self.human).hand))
        numbers = {a.tile: i for i, a in enumerate(legal, 1) if isinstance(a, Play | Discard)}
        for row in picture(hand, s.trump, numbers):
            show("  " + row)
        if s.phase in (Phase.PLAY, Phase.DISCARD):
            options = "  ".join(f"{i}) {_short(a)}" for i, a in enumerate(legal, 1))
        else:
            options = ", ".join(_short(a) for a in legal)
        if s.phase is Phase.BIDDING:  # 1 and 2 are places in the list; 3 or more is a bid
            places = [f"{i} for {_short(a)}" for i, a in enumerate(legal[: LOWEST_BID - 1], 1)]
            options += f" (or {', '.join(places)})"
        show(f"  legal: {options}")
        return options

    def _command(self, text: str) -> bool | None:
        """Run ``quit``, ``save [FILE]`` or ``help``: ``False`` to stop the game, ``True`` to
        ask again, ``None`` when the text is no command."""
        t = text.strip().lower()
        show = self.screen.line
        if t in ("quit", "q", "exit"):
            self.save()
            saved = f" The game is saved in {self.save_path}." if self.save_path else ""
            show("Stopped." + saved)
            return False
        if t == "save" or t.startswith("save "):
            parts = text.split(None, 1)
            path = parts[1].strip() if len(parts) == 2 else self.save_path
            if path is None:
                show("  [red]no file to save to:[/] type save FILE, or start with --save FILE")
                return True
            try:
                save(self.state, path)
            except SaveError as e:
                kept = (
                    f"; the game is still saved in {self.save_path}"
                    if self.save_path is not None and self.save_path != path
                    else ""
                )
                show(f"  [red]not saved: {_escape(str(e))}[/]{_escape(kept)}")
                return True
            self.save_path = path  # a file that was written: the game is kept there from now
            show(f"  saved in {_escape(path)}")
            return True
        if t in ("help", "?"):
            show("  a tile (6-4) or its number, a call (pass, 5, 21), a trump (6, doubles, none);")
            show("  save [FILE], quit")
            return True
        return None

    def _ask(self) -> Action | None:
        s = self.state
        legal = legal_actions(s)
        tiles_phase = s.phase in (Phase.PLAY, Phase.DISCARD)
        if tiles_phase:
            legal = tuple(reversed(legal))  # numbered as the tiles are drawn, highest first
        options = self._show_turn(legal)
        what = {
            Phase.BIDDING: "Your call",
            Phase.DISCARD: "Your discard (you took the widow)",
            Phase.TRUMP: "Name trump",
            Phase.PLAY: "Your lead" if not s.trick else "Your play",
        }[s.phase]
        hint = "tile or number" if tiles_phase else "type it"
        idle = 0  # answers in a row that took no action
        text: str | None = ""
        while True:
            saved = f"; the game so far is saved in {self.save_path}" if self.save_path else ""
            if self.retries is not None and idle >= self.retries:
                self.save()
                last = quote((text or "").strip())
                raise InputRefused(
                    f"{idle} answers in a row took no action (the last: {last}); "
                    f"the input does not answer the game's questions{saved}"
                )
            try:
                text = self.read(f"{what} ({hint}, or save / quit): ")
            except InputTooLong as e:
                self.save()
                raise InputTooLong(f"{e}{saved}") from None
            if text is None:
                self.save()
                raise InputEnded("the input ended before the game did" + saved)
            idle += 1
            if not text.strip():
                continue
            command = self._command(text)
            if command is False:
                return None
            if command:
                continue
            choice = parse_choice(text, legal, s.phase)
            if isinstance(choice, str):
                self.screen.line(f"  [red]{_escape(choice)}[/]; legal: {options}")
                continue
            if choice not in legal:
                err = refusal(s, choice)
                why = _refusal_text(err, self.lang) if err is not None else "not legal now"
                self.screen.line(f"  [red]refused[/] — {_escape(why)}")
                self.screen.line(f"  legal: {options}")
                continue
            return choice


def _refusal_text(err: IllegalAction, lang: str) -> str:
    """A refusal as the player reads it: in English the clause and the error's message, in
    another language the sentence :func:`moonrules.i18n.render` builds from its fields."""
    if lang == "en":
        return f"{err.rule}: {err.message}"
    from moonrules.i18n import render

    try:
        return render(err, lang)
    except MoonError:  # Babel is not installed
        return f"{err.rule}: {err.message}"


def _escape(text: str) -> str:
    return text.replace("[", "\\[")


def _short(a: Action) -> str:
    if isinstance(a, Play | Discard):
        return str(a.tile)
    if isinstance(a, NameTrump):
        return str(a.trump)
    if isinstance(a, Bid):
        return str(a.amount)
    return str(a)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (ValueError, OSError):  # closed
        return False


def _reader(stdin: TextIO, stdout: TextIO) -> Callable[[str], str | None]:
    tty = stdin.isatty() and stdout.isatty()

    def read(prompt: str) -> str | None:
        if tty:
            try:
                return input(prompt)
            except EOFError:
                return None
        stdout.write(prompt)
        stdout.flush()
        raw = getattr(stdin, "buffer", None)
        if raw is not None:  # bytes, at most a line's worth; what is not UTF-8 is replaced
            data: bytes = raw.readline(MAX_INPUT_LINE + 1)
        else:
            data = stdin.readline(MAX_INPUT_LINE + 1).encode("utf-8", "replace")
        line = data.decode("utf-8", "replace")
        if len(data) > MAX_INPUT_LINE and not data.endswith(b"\n"):
            stdout.write("\n")
            raise InputTooLong(f"a line of input is longer than {MAX_INPUT_LINE} bytes")
        if not line:
            stdout.write("\n")
            return None
        stdout.write(line if line.endswith("\n") else line + "\n")
        return line

    return read


def seats_of(args: argparse.Namespace, rules: RuleSet) -> tuple[int | None, dict[int, Bot]]:
    """The human seat (``None`` to watch) and the bot at each other seat."""
    names = [n.strip().lower() for n in args.bots.split(",") if n.strip()]
    if not names:
        raise ParseError("--bots names no bot")
    for n in names:
        if n not in BOTS:
            raise UnknownBot(f"no bot is called {quote(n)}; known: {', '.join(BOTS)}")
    p = rules.players
    if not 0 <= args.seat < p:
        raise ParseError(f"there is no seat {args.seat}: seats are numbered 0 to {p - 1}")
    human: int | None = args.seat
    if args.watch or len(names) == p:
        human = None
        seats = list(range(p))
    else:
        seats = [s for s in range(p) if s != args.seat]
    if len(names) == 1:
        names = names * len(seats)
    if len(names) != len(seats):
        raise ParseError(
            f"--bots names {len(names)} bots; name 1, {p - 1} (the other seats) or {p} (to watch)"
        )
    return human, {s: bot_by_name(n) for s, n in zip(seats, names, strict=True)}


def run(args: argparse.Namespace) -> int:
    rules = as_rules(args.rules)
    human, bots = seats_of(args, rules)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    state = new_game(rules, seed)
    if args.save is not None:
        check_save(args.save)  # before the game: a file that cannot be written is said at once
    if human is not None and sys.stdin is None:
        raise InputEnded("standard input is closed: there is no one to play seat " + str(human))
    screen = Screen(sys.stdout)
    session = Session(
        state,
        bots,
        human,
        screen,
        _reader(sys.stdin, sys.stdout),
        args.save,
        seed if args.players_seed is None else args.players_seed,
        retries=None if human is None or _isatty(sys.stdin) else MAX_RETRIES,
        lang=chosen_language(args, "play"),
    )
    try:
        session.run()
    except KeyboardInterrupt:
        session.save()
        saved = f"; the game so far is saved in {session.save_path}" if session.save_path else ""
        print(f"\nmoonrules play: interrupted{saved}", file=sys.stderr)
        return 130
    return 0
