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

``--lang LANG`` (or the environment's locale) tells the whole screen in one of the
catalogs' languages (:mod:`moonrules.i18n.words`): the numbers, tiles and seats stay as
they are, a refusal is :func:`moonrules.i18n.render`'s sentence, and a pass, doubles, none
or a command may be typed in the language's words as well as in English's.
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
from moonrules.i18n import messages as w
from moonrules.i18n.words import ENGLISH, PSEUDO, Words
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
    add_lang_argument(p, "the game's screen", has_json=False)
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


def parse_choice(
    text: str, legal: tuple[Action, ...], phase: Phase, say: Words = ENGLISH
) -> Action | str:
    """The action a player typed, or a message saying why it is not one (in ``say``'s
    language).

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
            return _placed(int(t), legal, "call", say)
        if words and words[0] == "bid":
            words = words[1:]
        if len(words) == 1 and words[0] in ("moon", "21"):
            return Bid(21)
        if len(words) == 1 and _NUMBER.fullmatch(words[0]):
            return Bid(int(words[0]))
        return say(w.PLAY_NOT_A_CALL, text=quote(text.strip()))
    if phase is Phase.TRUMP:
        if words and words[0] in ("trump", "trumps"):
            words = words[1:]
        try:
            return NameTrump(Trump.parse(" ".join(words)))
        except MoonError:
            return say(w.PLAY_NOT_A_TRUMP, text=quote(text.strip()))
    if _NUMBER.fullmatch(t):
        return _placed(int(t), legal, "tile", say)
    if words and words[0] in ("play", "discard", "lead"):
        words = words[1:]
    if len(words) == 1 and re.fullmatch(r"[0-6]-[0-6]", words[0]):
        a, b = (int(x) for x in words[0].split("-"))
        tile = Tile(max(a, b), min(a, b))
        return Play(tile) if phase is Phase.PLAY else Discard(tile)
    return say(w.PLAY_NOT_A_TILE, text=quote(text.strip()))


LOWEST_BID: Final = 3
"""No rule set has a bid below this (BID-4): in the auction, a smaller number is a place in
the list of legal calls."""


_NO_NUMBER: Final = {
    "call": (w.PLAY_NO_CALL_NUMBER, w.PLAY_NO_CALL_NUMBER_ONE, w.PLAY_NO_CALL_NUMBER_RANGE),
    "tile": (w.PLAY_NO_TILE_NUMBER, w.PLAY_NO_TILE_NUMBER_ONE, w.PLAY_NO_TILE_NUMBER_RANGE),
}


def _placed(n: int, legal: tuple[Action, ...], what: str, say: Words) -> Action | str:
    """The action at place ``n`` (from 1) of ``legal``, or why there is none."""
    if 1 <= n <= len(legal):
        return legal[n - 1]
    none, only_one, between = _NO_NUMBER[what]
    if not legal:
        return say(none, n=n)
    if len(legal) == 1:
        return say(only_one, n=n)
    return say(between, n=n, m=len(legal))


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


def side_name(rules: RuleSet, side: int, say: Words = ENGLISH) -> str:
    if rules.partnership:
        return say(w.PLAY_TEAM, team=side, a=side, b=side + 2)
    return say(w.SIDES[0], seat=side)


def _finished_hand(before: GameState, after: GameState) -> Hand | None:
    """The hand that ``before -> after`` finished, if any."""
    if after.hand.number != before.hand.number:
        return after.history[-1]
    if after.is_over and after.hand.phase is Phase.DONE:
        return after.hand
    return None


def trump_word(trump: Trump, say: Words = ENGLISH) -> str:
    """A trump as the screen shows it and a player types it: a number, or the language's
    word for doubles or for none."""
    if trump is Trump.DOUBLES:
        return say(w.DOUBLES)
    if trump is Trump.NONE:
        return say(w.NONE)
    return str(trump)


def hand_summary(
    h: Hand,
    rules: RuleSet,
    scores: tuple[int, ...],
    *,
    show_discard: bool = True,
    say: Words = ENGLISH,
) -> str:
    """One line for a finished hand (the discard only with ``show_discard``)."""
    if h.bidder < 0:
        return say(w.PLAY_THROWN_IN, hand=h.number)
    from moonrules.rules.tiles import TILES

    won = h.tricks_won
    per_side = (won[0] + won[2], won[1] + won[3]) if rules.partnership else won
    side = rules.side_of(h.bidder)
    deltas = h.deltas or ()
    made = bool(deltas) and deltas[side] > 0
    discard = ""
    if h.discard >= 0 and show_discard:
        discard = say(w.PLAY_SUMMARY_DISCARD, tile=TILES[h.discard])
    if h.renege >= 0:
        how = say(w.PLAY_MADE_RENEGE if made else w.PLAY_SET_RENEGE, seat=h.renege)
    else:
        how = say(w.PLAY_MADE if made else w.PLAY_SET)
    no_trump = h.trump >= 0 and Trump(h.trump) is Trump.NONE
    trump = trump_word(Trump(h.trump), say) if h.trump >= 0 else "-"
    return say(
        w.PLAY_SUMMARY_NO_TRUMP if no_trump else w.PLAY_SUMMARY,
        hand=h.number,
        seat=h.bidder,
        bid=h.bid,
        discard=discard,
        trump=trump,
        tricks="/".join(map(str, per_side)),
        result=how,
        scores=" ".join(map(str, scores)),
    )


def describe(seat: int, action: Action, human: int | None, say: Words = ENGLISH) -> str:
    """What ``seat`` did, as the screen tells it (``you`` for the human seat)."""
    you = seat == human
    if isinstance(action, Pass):
        return say(w.PLAY_YOU_PASS) if you else say(w.PLAY_SEAT_PASSES, seat=seat)
    if isinstance(action, Bid):
        if you:
            return say(w.PLAY_YOU_BID, call=action.amount)
        return say(w.PLAY_SEAT_BIDS, seat=seat, call=action.amount)
    if isinstance(action, Discard):
        return say(w.PLAY_YOU_DISCARD) if you else say(w.PLAY_SEAT_DISCARDS, seat=seat)
    if isinstance(action, NameTrump):
        if action.trump is Trump.NONE:
            return say(w.PLAY_YOU_NAME_NONE) if you else say(w.PLAY_SEAT_NAMES_NONE, seat=seat)
        trump = trump_word(action.trump, say)
        if you:
            return say(w.PLAY_YOU_NAME, trump=trump)
        return say(w.PLAY_SEAT_NAMES, seat=seat, trump=trump)
    assert isinstance(action, Play)
    if you:
        return say(w.PLAY_YOU_PLAY, tile=action.tile)
    return say(w.PLAY_SEAT_PLAYS, seat=seat, tile=action.tile)


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
        """The language of the screen (``--lang``): every sentence it shows, a refusal too."""
        self.say = Words(lang)
        """The screen's words in that language (:mod:`moonrules.i18n.words`)."""
        self.keywords = _keywords(self.say)
        """What a player types in that language (``пас``, ``выйти``), each with the English
        word it stands for; English words are understood in every language."""
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
        say = self.say
        r = self.state.rules
        header = w.PLAY_HEADER
        if self.human is not None:
            header = w.PLAY_HEADER_PARTNER if r.partnership else w.PLAY_HEADER_SEAT
        show(
            say.markup(
                header,
                game=f"[bold]{_escape(say(w.PLAY_GAME))}[/]",
                rules=_escape(r.name or say(w.PLAY_CUSTOM_RULES)),
                seed=self.state.seed,
                count=r.players,
                seat=self.human,
                partner=None if self.human is None else (self.human + 2) % 4,
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
                summary = hand_summary(done, r, self.state.scores, show_discard=seen, say=say)
                show(_escape(summary))
        winner = self.state.winner
        assert winner is not None
        show(
            say.markup(
                w.PLAY_OVER_TEAM if r.partnership else w.PLAY_OVER_SEAT,
                title=f"[bold]{_escape(say(w.PLAY_GAME_OVER))}[/]",
                count=self.state.hand_number,
                seat=winner,
                team=winner,
                a=winner,
                b=winner + 2,
                scores=list(self.state.scores),
            )
        )

    def _hand_header(self) -> None:
        s = self.state
        say = self.say
        self.screen.line("")
        self.screen.line(
            say.markup(
                w.PLAY_HAND_HEADER,
                title=f"[bold]{_escape(say(w.PLAY_HAND_TITLE, hand=s.hand_number))}[/]",
                scores=list(s.scores),
                seat=s.first_bidder,
            )
        )

    def _tell(self, before: GameState, seat: int, action: Action) -> None:
        show = self.screen.line
        if seat != self.human:
            show(f"  {_escape(describe(seat, action, self.human, self.say))}")
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
                won = (
                    self.say.markup(w.PLAY_YOU_WIN_TRICK)
                    if trick.winner == self.human
                    else self.say.markup(w.PLAY_SEAT_WINS_TRICK, seat=trick.winner)
                )
                show(f"  [cyan]{won}[/] ({' '.join(map(str, trick.tiles))})")

    def _status(self) -> None:
        s = self.state
        say = self.say.markup
        show = self.screen.line
        v = view(s, self.human or 0)
        calls = ", ".join(
            say(w.PLAY_CALL_PASS, seat=(s.first_bidder + i) % s.rules.players)
            if isinstance(c, Pass)
            else say(w.PLAY_CALL_BID, seat=(s.first_bidder + i) % s.rules.players, call=c.amount)
            for i, c in enumerate(s.calls)
        )
        show("  " + (say(w.PLAY_AUCTION, calls=calls) if calls else say(w.PLAY_NO_CALLS)))
        if s.bidder is not None:
            if s.trump is None:
                contract = w.PLAY_CONTRACT_NOT_NAMED
            elif s.trump is Trump.NONE:
                contract = w.PLAY_CONTRACT_NO_TRUMP
            else:
                contract = w.PLAY_CONTRACT
            trump = None if s.trump is None else trump_word(s.trump, self.say)
            show("  " + say(contract, seat=s.bidder, bid=s.bid, trump=trump))
        if v.widow is not None:
            if v.discard:
                show("  " + say(w.PLAY_WIDOW_DISCARDED, tile=v.widow, discard=v.discard))
            else:
                show("  " + say(w.PLAY_WIDOW, tile=v.widow))
        if s.phase is Phase.PLAY:
            show("  " + say(w.PLAY_TRICKS_WON, tricks=list(s.tricks_won), scores=list(s.scores)))
            if s.trick:
                on_table = ", ".join(
                    say(w.PLAY_ON_TABLE_ITEM, seat=(s.hand.leader + i) % s.rules.players, tile=t)
                    for i, t in enumerate(s.trick)
                )
                show("  " + say(w.PLAY_ON_TABLE, plays=on_table))

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
        say = self.say
        if s.phase in (Phase.PLAY, Phase.DISCARD):
            options = "  ".join(f"{i}) {_short(a, say)}" for i, a in enumerate(legal, 1))
        else:
            options = ", ".join(_short(a, say) for a in legal)
        if s.phase is Phase.BIDDING:  # 1 and 2 are places in the list; 3 or more is a bid
            places = [
                say(w.PLAY_PLACE, n=i, call=_short(a, say))
                for i, a in enumerate(legal[: LOWEST_BID - 1], 1)
            ]
            options += " " + say(w.PLAY_PLACES, places=", ".join(places))
        options = _escape(options)
        show("  " + say.markup(w.PLAY_LEGAL, options=options))
        return options

    def _command(self, text: str) -> bool | None:
        """Run ``quit``, ``save [FILE]`` or ``help``: ``False`` to stop the game, ``True`` to
        ask again, ``None`` when the text is no command."""
        t = text.strip().lower()
        show = self.screen.line
        say = self.say.markup
        if t in ("quit", "q", "exit"):
            self.save()
            if self.save_path:
                show(say(w.PLAY_STOPPED_SAVED, path=_escape(self.save_path)))
            else:
                show(say(w.PLAY_STOPPED))
            return False
        if t == "save" or t.startswith("save "):
            parts = text.split(None, 1)
            path = parts[1].strip() if len(parts) == 2 else self.save_path
            if path is None:
                show(f"  [red]{say(w.PLAY_NO_FILE)}[/] {say(w.PLAY_NO_FILE_HOW)}")
                return True
            try:
                save(self.state, path)
            except SaveError as e:
                kept = ""
                if self.save_path is not None and self.save_path != path:
                    kept = say(w.PLAY_STILL_SAVED, path=_escape(self.save_path))
                where = _escape(quote(e.path, 240))
                said = say(w.PLAY_NOT_SAVED, path=where, reason=_escape(e.reason))
                show(f"  [red]{said}[/]{kept}")
                return True
            self.save_path = path  # a file that was written: the game is kept there from now
            show("  " + say(w.PLAY_SAVED, path=_escape(path)))
            return True
        if t in ("help", "?"):
            show("  " + say(w.PLAY_HELP_1))
            show("  " + say(w.PLAY_HELP_2))
            return True
        return None

    def _typed(self, text: str) -> str:
        """What the player typed, a word of the language (a pass, a trump, a command)
        read as the English word it stands for."""
        if not self.keywords:
            return text
        said = text.strip()
        whole = self.keywords.get(said.lower())
        if whole is not None:
            return whole
        first, space, rest = said.partition(" ")
        word = self.keywords.get(first.lower())
        return word + space + rest if word is not None else text

    def _ask(self) -> Action | None:
        s = self.state
        legal = legal_actions(s)
        tiles_phase = s.phase in (Phase.PLAY, Phase.DISCARD)
        if tiles_phase:
            legal = tuple(reversed(legal))  # numbered as the tiles are drawn, highest first
        options = self._show_turn(legal)
        say = self.say
        what = say(
            {
                Phase.BIDDING: w.PLAY_YOUR_CALL,
                Phase.DISCARD: w.PLAY_YOUR_DISCARD,
                Phase.TRUMP: w.PLAY_NAME_TRUMP,
                Phase.PLAY: w.PLAY_YOUR_LEAD if not s.trick else w.PLAY_YOUR_PLAY,
            }[s.phase]
        )
        hint = say(w.PLAY_HINT_TILE if tiles_phase else w.PLAY_HINT_TYPE)
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
                text = self.read(say(w.PLAY_PROMPT, what=what, hint=hint))
            except InputTooLong as e:
                self.save()
                raise InputTooLong(f"{e}{saved}") from None
            if text is None:
                self.save()
                raise InputEnded("the input ended before the game did" + saved)
            idle += 1
            if not text.strip():
                continue
            typed = self._typed(text)
            command = self._command(typed)
            if command is False:
                return None
            if command:
                continue
            choice = parse_choice(typed, legal, s.phase, say)
            if isinstance(choice, str):
                legal_now = say.markup(w.PLAY_LEGAL, options=options)
                self.screen.line(f"  [red]{_escape(choice)}[/]; {legal_now}")
                continue
            if choice not in legal:
                err = refusal(s, choice)
                why = _refusal_text(err, self.lang) if err is not None else say(w.PLAY_NOT_LEGAL)
                self.screen.line(f"  [red]{say.markup(w.PLAY_REFUSED)}[/] — {_escape(why)}")
                self.screen.line("  " + say.markup(w.PLAY_LEGAL, options=options))
                continue
            return choice


def _refusal_text(err: IllegalAction, lang: str) -> str:
    """A refusal as the player reads it: in English the clause and the error's message, in
    another language the sentence :func:`moonrules.i18n.render` builds from its fields."""
    if lang in ("en", PSEUDO):
        return f"{err.rule}: {err.message}"
    from moonrules.i18n import render

    try:
        return render(err, lang)
    except MoonError:  # Babel is not installed
        return f"{err.rule}: {err.message}"


def _escape(text: str) -> str:
    return text.replace("[", "\\[")


def _short(a: Action, say: Words = ENGLISH) -> str:
    if isinstance(a, Play | Discard):
        return str(a.tile)
    if isinstance(a, NameTrump):
        return trump_word(a.trump, say)
    if isinstance(a, Bid):
        return str(a.amount)
    assert isinstance(a, Pass)
    return say(w.PASS)


def _keywords(say: Words) -> dict[str, str]:
    """The words a player types in ``say``'s language, lowercased, each with the English
    word it stands for (none in English)."""
    if say.lang == ENGLISH.lang:
        return {}
    english = {
        w.PASS: "pass",
        w.DOUBLES: "doubles",
        w.NONE: "none",
        w.PLAY_SAVE_WORD: "save",
        w.PLAY_QUIT_WORD: "quit",
        w.PLAY_HELP_WORD: "help",
    }
    return {say(message).lower(): word for message, word in english.items()}


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
    lang = chosen_language(args, "play")
    try:
        Words(lang)
    except MoonError as e:  # Babel is not installed
        print(f"moonrules play: speaking English: {e}", file=sys.stderr)
        lang = "en"
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
        lang=lang,
    )
    try:
        session.run()
    except KeyboardInterrupt:
        session.save()
        saved = f"; the game so far is saved in {session.save_path}" if session.save_path else ""
        print(f"\nmoonrules play: interrupted{saved}", file=sys.stderr)
        return 130
    return 0
