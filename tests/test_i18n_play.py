"""``moonrules play --lang`` and ``moonrules tournament … --lang``: every sentence of the
screen from the catalogs.

* In the pseudo-locale ``en-XA`` every message id of the catalogs comes back accented
  (:class:`moonrules.i18n.words.PseudoTranslations`) and any other text as it is: a
  seeded bot-only game and a scripted game with a human seat (every prompt, refusal,
  command and mistake) show no ASCII letter outside the notation, so no sentence of the
  screen is written anywhere but in the catalogs.
* In each language the same games show no line left as the English one (and in the
  Cyrillic and Gurmukhi languages no Latin word at all), and the words a player types
  (``пас``, ``выйти``) are understood.
* Russian counts the hands of a game with CLDR's plural forms; the tournament's
  standings, plan and ratings print Russian headings, their JSON stays as it was.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import moonrules as m
from moonrules.bots import BasicBot
from moonrules.bots.base import Bot
from moonrules.cli.main import main
from moonrules.cli.play import Screen, Session
from moonrules.game import Discard, Phase, Play
from moonrules.i18n import messages as w
from moonrules.i18n.table_catalog import PSEUDO_LETTERS, pseudo
from moonrules.i18n.words import PSEUDO, Words

pytest.importorskip("babel")

ROOT = Path(__file__).resolve().parents[1]
EVENT_LOG = ROOT / "examples" / "tournament-bots.jsonl"
EVENT_FILE = ROOT / "examples" / "tournament-bots.toml"
LANGS = ("az", "be", "hu", "pa", "ru")
NOT_LATIN = ("be", "pa", "ru")
"""The languages whose words are written in another script than English's."""

_CLAUSE = re.compile(r"\b[A-Z]+-\d+\b")
_TILE = re.compile(r"\b\d-\d\b")
_LATIN = re.compile(r"[A-Za-z]+")


def latin_words(line: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """The Latin words of ``line`` once the notation (tiles, clause IDs) and ``allowed``
    (names a record brings: the rules' preset, a file) are taken out."""
    for text in sorted(allowed, key=len, reverse=True):
        line = line.replace(text, " ")
    return _LATIN.findall(_TILE.sub(" ", _CLAUSE.sub(" ", line)))


# -- games in the terminal ---------------------------------------------------------------


class Script:
    """A player at seat 0 who first makes every mistake and command the screen answers,
    then plays the first action listed (naming no trump, then doubles, when it names
    one), typing the words of ``lang``; each prompt it is asked is kept."""

    def __init__(self, lang: str, unsaved: str, saved: str) -> None:
        say = Words(lang) if lang != PSEUDO else Words()
        self.first = [
            say(w.PLAY_HELP_WORD),
            "?",
            "banana",
            "9",
            "3",  # a call no rule set allows: refused with its clause
            say(w.PLAY_SAVE_WORD),  # no file to save to
            f"{say(w.PLAY_SAVE_WORD)} {unsaved}",  # cannot be written
            f"{say(w.PLAY_SAVE_WORD)} {saved}",
            "",
        ]
        self.trumps = [say(w.NONE), say(w.DOUBLES)]
        self.prompts: list[str] = []
        self.session: Session | None = None
        self.reneged = False
        self.numbered = False

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.first:
            return self.first.pop(0)
        assert self.session is not None
        s = self.session.state
        if s.phase is Phase.TRUMP and self.trumps:
            return self.trumps.pop(0)
        if s.phase is Phase.PLAY and s.trick and not self.reneged:
            legal = {a.tile for a in m.legal_actions(s) if isinstance(a, Play | Discard)}
            wrong = [t for t in s.hands[0] if t not in legal]
            if wrong:  # a renege, refused with its clause
                self.reneged = True
                return str(wrong[0])
        if s.phase is Phase.PLAY and self.reneged and not self.numbered:
            self.numbered = True
            return "7"  # no tile has that number
        return "1"


def human_game(lang: str, tmp_path: Path, rules: str = "standard", seed: int = 5) -> list[str]:
    """A whole game with seat 0 played by :class:`Script`: the screen's lines, then the
    prompts it asked."""
    state = m.new_game(rules, seed)
    unsaved = str(tmp_path / "missing" / "game.json")
    saved = str(tmp_path / "game.json")
    script = Script(lang, unsaved, saved)
    out = io.StringIO()
    bots: dict[int, Bot] = {s: BasicBot() for s in range(1, state.rules.players)}
    session = Session(state, bots, 0, Screen(out), script, None, 3, lang=lang)
    script.session = session
    session.run()
    assert session.state.is_over
    return out.getvalue().splitlines() + script.prompts


def bot_game(lang: str, rules: str = "standard", seed: int = 11) -> list[str]:
    state = m.new_game(rules, seed)
    out = io.StringIO()
    bots: dict[int, Bot] = {s: BasicBot() for s in range(state.rules.players)}
    Session(state, bots, None, Screen(out), lambda _p: None, None, 4, lang=lang).run()
    return out.getvalue().splitlines()


def stopped(lang: str, tmp_path: Path) -> list[str]:
    """A game stopped at the first question, its record saved: the lines of the screen."""
    out = io.StringIO()
    session = Session(
        m.new_game("standard", 2),
        {1: BasicBot(), 2: BasicBot()},
        0,
        Screen(out),
        lambda _p: Words(lang if lang != PSEUDO else "en")(w.PLAY_QUIT_WORD),
        str(tmp_path / "kept.json"),
        1,
        lang=lang,
    )
    session.run()
    return out.getvalue().splitlines()


def _os_reason(tmp_path: Path) -> str:
    """What the system says of a file in a missing directory (in English, as every OS
    error moonrules passes on)."""
    try:
        (tmp_path / "missing" / "game.json").write_text("")
    except OSError as e:
        return str(e.strerror)
    raise AssertionError("the missing directory exists")


GAMES: dict[str, Callable[[str, Path], list[str]]] = {
    "bots only": lambda lang, _tmp: bot_game(lang),
    "bots only, partnerships": lambda lang, _tmp: bot_game(lang, "partnership", 3),
    "a human seat": lambda lang, tmp: human_game(lang, tmp),
    "a human seat, partnerships": lambda lang, tmp: human_game(lang, tmp, "partnership", 6),
    "stopped": stopped,
}


@pytest.mark.parametrize("game", GAMES)
def test_every_sentence_of_the_screen_comes_from_the_catalogs(game: str, tmp_path: Path) -> None:
    """In the pseudo-locale no ASCII letter is left on the screen but in the notation, a
    file's name, the OS's reason and a refusal's English text (the refusal's sentence is
    :func:`moonrules.i18n.render`'s, held to every language by test_i18n_refusals)."""
    lines = GAMES[game](PSEUDO, tmp_path)
    refused = pseudo(w.PLAY_REFUSED)
    allowed = _allowed(tmp_path)
    seen = "\n".join(lines)
    for line in lines:
        if refused in line:
            line = line.split(" — ", 1)[0]
        assert not latin_words(line, allowed), f"{game}: not from the catalogs: {line!r}"
    assert any(c in seen for c in PSEUDO_LETTERS)
    assert pseudo(w.PLAY_GAME) in seen
    assert pseudo(w.PLAY_GAME_OVER) in seen or game == "stopped"


def _allowed(tmp_path: Path) -> tuple[str, ...]:
    """What the screen shows as it is in every language: the preset's name, the file a
    game is saved in, the OS's reason it cannot be, ``--save``, what the player typed."""
    files = (tmp_path / "missing" / "game.json", tmp_path / "game.json", tmp_path / "kept.json")
    return ("standard", "partnership", *map(str, files), _os_reason(tmp_path), "--save", "banana")


def _games_and_languages() -> list[Any]:
    """Every game in every language: in the README's test command each game in one language
    and each language in one game (the pseudo-locale's tests see every sentence), the
    others in CI's step of slow checks."""
    return [
        pytest.param(game, lang, marks=() if (g - k) % len(LANGS) == 0 else pytest.mark.slow)
        for g, game in enumerate(GAMES)
        for k, lang in enumerate(LANGS)
    ]


@pytest.mark.parametrize(("game", "lang"), _games_and_languages())
def test_a_game_in_each_language_leaves_no_english_line(
    lang: str, game: str, tmp_path: Path
) -> None:
    """The same game in English and in ``lang``: as many lines, and every English line
    with a word in it is another line in ``lang``; in Cyrillic or Gurmukhi no Latin word
    is left but the preset's name, a file's, the OS's reason and ``--save``."""
    english = GAMES[game]("en", tmp_path)
    said = GAMES[game](lang, tmp_path)
    assert len(said) == len(english), "\n".join(said)
    allowed = _allowed(tmp_path)
    for en, line in zip(english, said, strict=True):
        if latin_words(en, allowed):
            assert line != en, f"{lang}: left in English: {line!r}"
        if lang in NOT_LATIN:
            assert not latin_words(line, allowed), f"{lang}: English words in {line!r}"
    # the words of the game are the glossary's (the header says the game's name)
    assert Words(lang)(w.PLAY_GAME) in said[0]


def test_english_is_what_the_screen_always_said(tmp_path: Path) -> None:
    """English needs no catalog: its sentences are the message ids themselves."""
    lines = human_game("en", tmp_path)
    text = "\n".join(lines)
    assert lines[0] == "Moon (standard), seed 5, 3 players; you are seat 0"
    for expected in (
        "  a tile (6-4) or its number, a call (pass, 5, 21), a trump (6, doubles, none);",
        "  save [FILE], quit",
        "  not a call: 'banana' (try pass, or a bid like 5); legal: ",
        "  refused — BID-4: ",
        "  no file to save to: type save FILE, or start with --save FILE",
        "  saved in ",
        "Your call (type it, or save / quit): ",
        "there is no tile number 7 (1 ",
    ):
        assert expected in text, expected
    assert re.search(r"^Game over after \d+ hands: seat \d wins; scores \[", text, re.M)
    assert re.search(r"^Hand 1 — scores \[0, 0, 0\]; seat \d bids first$", text, re.M)


def test_the_words_a_player_types_are_those_of_the_language(tmp_path: Path) -> None:
    """In Russian a player passes with «пас», names no trump with «ничего», asks for help
    with «помощь», saves with «сохранить ФАЙЛ» and stops with «выйти»."""
    from moonrules.cli.play import parse_choice

    say = Words("ru")
    answers = iter(["помощь", "Пас", f"сохранить {tmp_path / 'r.json'}", "выйти"])
    out = io.StringIO()
    state = m.new_game("standard", 1)
    bots: dict[int, Bot] = {1: BasicBot(), 2: BasicBot()}
    session = Session(state, bots, 0, Screen(out), lambda _p: next(answers), None, 1, lang="ru")
    session.run()
    text = out.getvalue()
    assert say(w.PLAY_HELP_1) in text
    seat_0 = (0 - state.first_bidder) % 3  # seat 0's place in the auction
    assert session.state.calls[seat_0] == m.Pass()  # «Пас» is a pass
    assert (tmp_path / "r.json").is_file()
    assert text.rstrip().endswith(say(w.PLAY_STOPPED_SAVED, path=tmp_path / "r.json"))
    nothing = parse_choice(session._typed("ничего"), (), Phase.TRUMP, say)
    assert nothing == m.NameTrump(m.Trump.NONE)


def test_play_speaks_the_language_on_the_command_line() -> None:
    """``moonrules play --lang be --watch`` prints Belarusian from its first line to its
    last, and nothing on stderr."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "moonrules", "play", "--lang", "be", "--seed", "2", "--watch"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PATH": "", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Месяц (standard), зерне 2, 3 гульцы")
    assert lines[-1].startswith("Гульня скончана пасля ")
    assert all(not latin_words(line, ("standard",)) for line in lines)


# -- plurals -----------------------------------------------------------------------------


def _russian_hands(count: int) -> str:
    """«сдачи» or «сдач» after «после», as CLDR's category of ``count`` in Russian says."""
    from babel import Locale

    return {"one": "сдачи", "few": "сдач", "many": "сдач"}[Locale("ru").plural_form(count)]


def test_russian_counts_the_hands_of_a_game_with_cldr_plurals() -> None:
    say = Words("ru")
    for count, word in ((1, "сдачи"), (2, "сдач"), (5, "сдач"), (11, "сдач"), (21, "сдачи")):
        said = say(w.PLAY_OVER_SEAT, title="Игра окончена", count=count, seat=1, scores="[]")
        assert f"после {count} {word}:" in said, said
    assert [say(w.T_ENTRIES, count=n) for n in (1, 3, 9, 21)] == [
        "1 участник",
        "3 участника",
        "9 участников",
        "21 участник",
    ]
    assert [say(w.PLAY_HEADER, game="Луна", rules="x", seed=1, count=n)[-9:] for n in (3, 5)] == [
        " 3 игрока",
        "5 игроков",
    ]
    lines = bot_game("ru")
    over = lines[-1]
    hands = int(re.search(r"после (\d+) ", over).group(1))  # type: ignore[union-attr]
    assert over.startswith(f"Игра окончена после {hands} {_russian_hands(hands)}: "), over


# -- the tournament's text ---------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    captured = capsys.readouterr()
    assert not captured.err, captured.err
    return captured.out


def _entries() -> tuple[str, ...]:
    from moonrules.tournament.event import load_tournament

    t = load_tournament(EVENT_FILE)
    return (t.name, *(e.name for e in t.entries))


def test_tournament_standings_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "tournament", "standings", "--lang", "ru", "--log", str(EVENT_LOG))
    lines = out.splitlines()
    assert lines[0] == (
        "Bots' night: трёхместный дубликат, 3 тура рассажено, 18 результатов; "
        "утверждённых туров нет"
    )
    assert lines[1] == (
        "равенство решается так: счёт, затем личная встреча, затем по последним турам, затем жребий"
    )
    assert lines[2].split() == ["№", "участник", "МП,", "%", "сдачи", "примечания"]
    assert "(впереди по критерию «по последним турам») бот" in out
    for line in lines:
        assert not latin_words(line, _entries()), line
    english = _run(capsys, "tournament", "standings", "--log", str(EVENT_LOG))
    assert len(english.splitlines()) == len(lines)
    assert _run(capsys, "tournament", "standings", "--lang", "en", "--log", str(EVENT_LOG)) == (
        english
    )
    for form in ("--json", "--csv"):
        plain = _run(capsys, "tournament", "standings", form, "--log", str(EVENT_LOG))
        assert _run(
            capsys, "tournament", "standings", form, "--lang", "ru", "--log", str(EVENT_LOG)
        ) == (plain)


@pytest.mark.parametrize("lang", LANGS)
def test_tournament_plan_in_each_language(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    english = _run(capsys, "tournament", "plan", str(EVENT_FILE)).splitlines()
    said = _run(capsys, "tournament", "plan", "--lang", lang, str(EVENT_FILE)).splitlines()
    assert len(said) == len(english)
    for en, line in zip(english, said, strict=True):
        if latin_words(en, _entries()):
            assert line != en, f"{lang}: left in English: {line!r}"
        if lang in NOT_LATIN:
            assert not latin_words(line, _entries()), line
    plain = _run(capsys, "tournament", "plan", "--json", str(EVENT_FILE))
    assert _run(capsys, "tournament", "plan", "--json", "--lang", lang, str(EVENT_FILE)) == plain


def test_the_notes_of_a_movement_check_are_told_in_russian(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A movement that cannot balance its seats nor avoid repeats: its notes, counted with
    Russian plurals."""
    file = tmp_path / "t.toml"
    bots = ", ".join(f'{{name = "{n}", bot = "random"}}' for n in "ABCDEF")
    file.write_text(
        'name = "Rep"\nformat = "three-seat"\nrules = "standard"\nseed = 5\n'
        f'scoring = "points"\nrounds = 5\nboards_per_round = 1\nplayers = [{bots}]\n'
    )
    out = _run(capsys, "tournament", "plan", "--lang", "ru", str(file))
    assert "места нельзя уравнять: число туров (5) не кратно 3" in out
    assert "(напр. 'A': место 1: " in out
    assert re.search(r"\d+ повторных встреч соседей по столу: при 6 игроках", out)
    assert re.search(r"встречаются \d раза", out)
    words = {x for line in out.splitlines() for x in latin_words(line, ("Rep",))}
    assert words <= set("ABCDEF")  # the entries' names


def test_tournament_ratings_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("openskill")
    out = _run(capsys, "tournament", "ratings", "--lang", "ru", "--log", str(EVENT_LOG))
    lines = out.splitlines()
    assert lines[0].startswith("Bots' night: учтено 18 игр; openskill ")
    assert lines[1] == "рейтинг = 1000 + 30 * (mu - 3 * sigma); предварительный, пока sigma > 6"
    assert lines[2].split() == ["№", "игрок", "рейтинг", "mu", "sigma", "игры", "примечания"]
    model = lines[0].split("; ", 1)[1]
    allowed = (*_entries(), model, "mu", "sigma", "pimc", "basic", "random")
    for line in lines:
        assert not latin_words(line, allowed), line
