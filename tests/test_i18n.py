"""The catalogs of ``moonrules.i18n`` and the refusals rendered from them (issue 49).

The catalogs are checked as a build would check them: every message id of
``moonrules/i18n/messages.py`` in every finished catalog, translated (no empty or fuzzy
entry), with the placeholders of its source and the plural forms of CLDR. ``render`` is
checked on refusals the library itself raises, each provoked in a seeded game, in every
language; and over random refusals, that it never raises and never answers in English for
another language.
"""

from __future__ import annotations

import functools
import gettext
import json
import random
import re
import string
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

import moonrules
from moonrules import (
    TILES,
    Auction,
    Bid,
    ClaimDoesNotHold,
    ClaimError,
    IllegalAction,
    Pass,
    Phase,
    Play,
    RuleSet,
    apply,
    apply_call,
    apply_claim,
    illegal_play_reason,
    legal_actions,
    new_game,
)
from moonrules.i18n import (
    LANGUAGES,
    SOURCE_LANGUAGE,
    catalog_path,
    render,
    translations,
    tricks,
)
from moonrules.i18n.messages import MESSAGES, Message
from moonrules.records import replay

OTHER_LANGUAGES = tuple(lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE)

COVERED = (
    "TRICK-1",
    "LEAD-2",
    "FOLLOW-1",
    "FOLLOW-2",
    "TURN-1",
    "BID-2",
    "BID-3",
    "BID-4",
    "BID-5",
    "BID-6",
    "BID-7",
    "BID-8",
    "CLAIM-1",
    "END-1",
)
"""The clauses ``render`` gives a sentence of their own."""

NAMES_THE_SEAT = {"TRICK-1", "LEAD-2", "FOLLOW-1", "FOLLOW-2", "TURN-1", "CLAIM-1"}
"""The clauses whose sentence names the seat (the auction's speak of the call)."""


@functools.cache
def catalog(lang: str) -> Catalog:
    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def msgid(message: Message) -> str:
    return message if isinstance(message, str) else message[0]


def texts(value: object) -> tuple[str, ...]:
    """A catalog entry's id or string as the tuple of its forms."""
    forms = tuple(value) if isinstance(value, tuple | list) else (value,)
    assert all(isinstance(f, str) for f in forms), forms
    return tuple(str(f) for f in forms)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


# The catalogs


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    """Exactly the message ids of the source, each with a non-empty, non-fuzzy string in
    every plural form; no obsolete entry left behind."""
    cat = catalog(lang)
    assert str(cat.locale) == lang
    entries = {m.id if isinstance(m.id, str) else m.id[0]: m for m in cat if m.id}
    assert set(entries) == {msgid(m) for m in MESSAGES}
    assert not cat.obsolete
    assert not cat.fuzzy, f"{lang}: the catalog's header is fuzzy"
    for message in MESSAGES:
        entry = entries[msgid(message)]
        assert not entry.fuzzy, f"{lang}: fuzzy: {msgid(message)!r}"
        assert isinstance(entry.id, tuple) == isinstance(message, tuple)
        forms = texts(entry.string)
        assert forms and all(forms), f"{lang}: untranslated: {msgid(message)!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_are_those_of_the_source(lang: str) -> None:
    """Every form of every string has the same ``{name}`` placeholders as its id (and, for a
    plural, the id's plural has the same as its singular); none is malformed."""
    for entry in catalog(lang):
        if not entry.id:
            continue
        ids = texts(entry.id)
        forms = texts(entry.string)
        wanted = fields(ids[0])
        assert all(fields(i) == wanted for i in ids), ids
        for form in forms:
            assert fields(form) == wanted, f"{lang}: {form!r} has not {sorted(wanted)}"
            assert form.format(**dict.fromkeys(wanted, "x"))  # well formed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_are_those_of_cldr(lang: str) -> None:
    """The catalog's Plural-Forms are CLDR's for the language: as many forms as CLDR has
    categories for whole numbers, and the form picked for each number from 0 to 1000 is
    one to one with the category CLDR gives that number; every plural entry has that many
    forms."""
    cat = catalog(lang)
    assert cat.num_plurals == get_plural(lang).num_plurals
    pick = gettext.c2py(cat.plural_expr)
    category = Locale.parse(lang).plural_form
    pairs = {(pick(n), category(n)) for n in range(1001)}
    assert len(pairs) == cat.num_plurals
    assert len({p for p, _ in pairs}) == len({c for _, c in pairs}) == cat.num_plurals
    for entry in cat:
        if isinstance(entry.id, tuple):
            assert len(texts(entry.string)) == cat.num_plurals, entry.id


def test_russian_and_belarusian_count_tricks_as_cldr_says() -> None:
    assert [tricks(n, "ru") for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 взятка",
        "2 взятки",
        "5 взяток",
        "11 взяток",
        "21 взятка",
        "22 взятки",
        "25 взяток",
    ]
    assert [tricks(n, "be") for n in (1, 3, 7)] == ["1 узятка", "3 узяткі", "7 узятак"]
    assert [tricks(n, "en") for n in (1, 2)] == ["1 trick", "2 tricks"]
    assert [tricks(n, "pa") for n in (0, 1, 2)] == ["0 ਚਾਲ", "1 ਚਾਲ", "2 ਚਾਲਾਂ"]


def test_the_catalogs_ship_in_the_package() -> None:
    """The ``.po`` files are package data (``pyproject.toml``), found through the package."""
    for lang in LANGUAGES:
        path = catalog_path(lang)
        assert path.is_file()
        assert str(path).endswith(f"i18n/locale/{lang}/LC_MESSAGES/moonrules.po")


# Refusals the library raises, one per clause


def _raised(thunk: object) -> IllegalAction:
    assert callable(thunk)
    with pytest.raises(IllegalAction) as info:
        thunk()
    return info.value


def _play_refusals() -> dict[str, IllegalAction]:
    """TRICK-1, LEAD-2, FOLLOW-1 and FOLLOW-2, as :func:`illegal_play_reason` gives them
    (and :func:`apply` raises them) in seeded random games of the ``standard`` and
    ``lead-trump`` presets: the first of each found."""
    found: dict[str, IllegalAction] = {}
    for preset in ("standard", "lead-trump"):
        for seed in range(60):
            rng = random.Random(seed)
            state = new_game(preset, seed=seed)
            while not state.is_over and state.hand_number < 3:
                if state.phase is Phase.PLAY:
                    for tile in TILES:
                        err = illegal_play_reason(state, tile)
                        if err is not None and err.rule not in found:
                            raised = _raised(lambda s=state, t=tile: apply(s, Play(t)))
                            assert raised.rule == err.rule
                            found[err.rule] = raised
                state = apply(state, rng.choice(legal_actions(state)))
            if len(found) == 4:
                return found
    raise AssertionError(f"only {sorted(found)} found")


def _claim_that_does_not_hold() -> IllegalAction:
    for seed in range(50):
        rng = random.Random(seed)
        state = new_game(seed=seed)
        while state.phase is not Phase.PLAY:
            state = apply(state, rng.choice(legal_actions(state)))
        seat = state.to_act
        assert seat is not None
        try:
            apply_claim(state, seat)
        except ClaimDoesNotHold as e:
            return e
    raise AssertionError("every claim held")


@functools.cache
def refusals() -> tuple[IllegalAction, ...]:
    """One refusal of each covered clause (CLAIM-1 and TURN-1 in each of their forms),
    every one raised by the library on a seeded game, an auction or a record."""
    start = new_game(seed=1, first_bidder=0)
    after_5 = apply(start, Bid(5))
    standard = start.game.rules
    forced = RuleSet(all_pass="force")
    finished = new_game(seed=7)
    rng = random.Random(7)
    while not finished.is_over:
        finished = apply(finished, rng.choice(legal_actions(finished)))
    record = moonrules.to_record(start)
    hand = dict(record["hands"][0])
    short = {**record, "hands": [{**hand, "bids": [4], "discard": "6-6"}]}
    passed = {**record, "hands": [{**hand, "bids": ["pass"] * 3, "discard": "6-6"}]}
    found = [
        *_play_refusals().values(),
        _raised(lambda: apply(start, Play(TILES[0]))),  # TURN-1, out of phase
        _raised(lambda: apply(start, Pass(), seat=2)),  # TURN-1, out of turn
        _raised(lambda: apply_call(Auction((4, 0, 5), 0, standard), 6)),  # BID-2
        _raised(lambda: apply(after_5, Bid(4))),  # BID-3
        _raised(lambda: apply(start, Bid(3))),  # BID-4
        _raised(lambda: apply_call(Auction((21,), 0, standard), 4)),  # BID-5
        _raised(lambda: apply_call(Auction((0, 0), 0, forced), 0)),  # BID-8
        _raised(lambda: apply_claim(start, 0)),  # CLAIM-1, not in play
        _claim_that_does_not_hold(),  # CLAIM-1, a claim the others defeat
        _raised(lambda: apply(finished, Pass())),  # END-1
    ]
    for bad in (short, passed):  # BID-6, BID-7: a record that goes on after its auction
        violation = replay(bad).violation
        assert violation is not None and violation.error is not None
        found.append(violation.error)
    return tuple(found)


def test_every_covered_clause_is_raised() -> None:
    errors = refusals()
    assert {e.rule for e in errors} == set(COVERED)
    assert any(isinstance(e, ClaimDoesNotHold) for e in errors)
    assert any(isinstance(e, ClaimError) for e in errors)
    assert {e.seat is None for e in errors if e.rule == "TURN-1"} == {False}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_render_each_refusal_in_each_language(lang: str) -> None:
    """Each refusal, rendered: one line, ending with its clause, naming its seat and tile,
    every placeholder filled; in a language other than English, never the English sentence
    nor the error's own message; and the error itself unchanged (still English)."""
    for error in refusals():
        english = str(error)
        text = render(error, lang)
        assert text.endswith(f"({error.rule})"), text
        assert "\n" not in text and "{" not in text and "?" not in text, text
        if error.seat is not None and error.rule in NAMES_THE_SEAT:
            assert str(error.seat) in text
        if error.tile is not None:
            assert str(error.tile) in text
        if error.rule in ("BID-3", "BID-4"):  # the refusals about the call's value name it
            assert str(error.call) in text
        if lang != SOURCE_LANGUAGE:
            assert text != render(error, SOURCE_LANGUAGE)
            assert error.message not in text
        assert str(error) == english


def test_render_counts_with_the_plural_of_the_language() -> None:
    """A FOLLOW refusal counts the tiles that would have followed, in the plural form CLDR
    gives that count."""
    for error in refusals():
        if error.rule in ("FOLLOW-1", "FOLLOW-2"):
            count = len(error.allowed_tiles or ())
            for n, ru in ((1, "козырь"), (2, "козыря"), (5, "козырей")):
                fake = IllegalAction(
                    "FOLLOW-1", "x", seat=0, tile=error.tile, allowed_tiles=TILES[:n]
                )
                assert f"имея {n} {ru}:" in render(fake, "ru")
            assert f" {count} " in render(error, "ru")


def test_render_speaks_the_clause_it_does_not_cover() -> None:
    """A clause without a sentence of its own is named with its title from the rulebook in
    that language; a rule that is no clause of the rulebook, by its name alone."""
    error = IllegalAction("DEAL-3", "hands[0]: 6-6 appears twice", seat=0)
    assert render(error, "ru") == "Это действие нарушает правило DEAL-3: Правильная раздача."
    assert render(error, "en") == "This action breaks rule DEAL-3: A valid deal."
    unknown = IllegalAction("XYZ-9", "no such clause", seat=0)
    assert render(unknown, "ru") == "Это действие нарушает правило XYZ-9."


def test_an_unknown_language_is_a_one_line_argument_error() -> None:
    error = refusals()[0]
    for lang in ("xx", "", "RU", "ru_RU\nmore", None):
        with pytest.raises(moonrules.ArgumentError) as info:
            render(error, lang)  # type: ignore[arg-type]
        text = str(info.value)
        assert text.startswith("lang: no catalog for ") and "\n" not in text


def test_render_is_given_an_illegal_action() -> None:
    with pytest.raises(TypeError, match=r"^error: expected an IllegalAction"):
        render(ValueError("x"), "ru")  # type: ignore[arg-type]


# Random refusals

_rules = st.sampled_from((*COVERED, "WIDOW-1", "TRUMP-5", "RENEGE-2", "SEAT-1")) | st.text(
    max_size=12
)
_tiles = st.sampled_from(TILES)


@st.composite
def random_refusals(draw: st.DrawFn) -> IllegalAction:
    kind = draw(st.sampled_from((IllegalAction, ClaimError, ClaimDoesNotHold)))
    return kind(
        draw(_rules),
        draw(st.text(max_size=40)),
        seat=draw(st.none() | st.integers(-3, 10)),
        tile=draw(st.none() | _tiles),
        call=draw(st.none() | st.integers(-5, 30)),
        allowed_tiles=draw(st.none() | st.lists(_tiles, max_size=8).map(tuple)),
        allowed_calls=draw(st.none() | st.lists(st.integers(0, 21), max_size=6).map(tuple)),
    )


@given(random_refusals(), st.sampled_from(OTHER_LANGUAGES))
def test_render_never_raises_nor_answers_in_english(error: IllegalAction, lang: str) -> None:
    english = render(error, SOURCE_LANGUAGE)
    text = render(error, lang)
    assert text and "\n" not in text
    assert text != english
    assert text != str(error)


# moonrules check --lang

RENEGE = "examples/renege-trump-follows.json"


def _check(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, env: str = ""
) -> tuple[int, str, str]:
    from moonrules.cli.main import main

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", env or "C.UTF-8")
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    status = main(["check", *args, RENEGE])
    out, err = capsys.readouterr()
    return status, out, err


def _ruling(out: str, lang: str = SOURCE_LANGUAGE) -> str:
    lines = out.splitlines()
    return lines[lines.index(translations(lang).gettext("RULING")) + 1]


_LETTERS = re.compile(r"[^\W\d_]{3,}")
"""Three letters in a row: a word (short ones, "is", "a", are words in other languages too)."""


def _words(line: str) -> set[str]:
    return set(_LETTERS.findall(re.sub(r"[A-Z]+-\d+", "", line)))


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_check_rules_in_the_language_asked(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole report in the language asked: the ruling rendered from the refusal the
    replay raised, with its clause; every line that has words has none of the English
    line's, the lines keep their order and count, the exit status is the same."""
    status_en, english, _ = _check(capsys, monkeypatch)
    status, out, err = _check(capsys, monkeypatch, "--lang", lang)
    assert status == status_en == 1 and err == ""
    error = replay(json.loads(Path(RENEGE).read_text(encoding="utf-8")))
    assert error.violation is not None and error.violation.error is not None
    ruling = _ruling(out, lang)
    assert ruling.endswith(render(error.violation.error, lang))
    assert "(FOLLOW-2)" in ruling and ruling != _ruling(english)
    from moonrules.i18n.report import quote_line

    quoted = quote_line("FOLLOW-2", lang)  # the clause, quoted from the rulebook in lang
    assert quoted is not None and out.splitlines().count("  " + quoted) == 1
    ours = [x for x in out.splitlines() if x != "  " + quoted]
    theirs = english.splitlines()
    assert len(ours) == len(theirs)
    for mine, source in zip(ours, theirs, strict=True):
        if _words(source) - {"RULING"}:
            assert not (_words(mine) & _words(source) - _KEPT), (mine, source)
    assert "(FOLLOW-2)" in ours[-1]


_KEPT = {"renege", "penalty", "standard"}
"""English words a translation keeps: an option (``renege = penalty``) and a preset
(``standard``) are named as written."""


def test_check_takes_the_language_of_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, russian, _ = _check(capsys, monkeypatch, "--lang", "ru")
    assert _check(capsys, monkeypatch, env="ru_RU.UTF-8")[1] == russian
    _, english, _ = _check(capsys, monkeypatch, "--lang", "en", env="ru_RU.UTF-8")
    assert _check(capsys, monkeypatch, env="fr_FR.UTF-8")[1] == english
    assert _check(capsys, monkeypatch)[1] == english


def test_check_falls_back_to_english_with_a_notice(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unknown ``--lang`` is not an error: one line on stderr, the ruling in English."""
    _, english, _ = _check(capsys, monkeypatch)
    status, out, err = _check(capsys, monkeypatch, "--lang", "xx")
    assert status == 1 and out == english
    assert err.count("\n") == 1 and err.startswith("moonrules check: no catalog for --lang 'xx'")


def test_check_json_stays_language_free(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        _check(capsys, monkeypatch, "--json", "--lang", "ru")[1]
        == _check(capsys, monkeypatch, "--json")[1]
    )


# The catalogs' check (python -m moonrules.i18n check), as a build runs it


def _copy_catalogs(tmp_path: Path) -> Path:
    from moonrules.i18n.check import LOCALE_DIR

    target = tmp_path / "locale"
    for lang in LANGUAGES:
        src = LOCALE_DIR / lang / "LC_MESSAGES" / "moonrules.po"
        dest = target / lang / "LC_MESSAGES" / "moonrules.po"
        dest.parent.mkdir(parents=True)
        dest.write_bytes(src.read_bytes())
    return target


def test_the_catalog_check_passes_on_the_shipped_catalogs() -> None:
    import subprocess
    import sys

    from moonrules.i18n.check import check_all

    assert check_all() == []
    done = subprocess.run(
        [sys.executable, "-m", "moonrules.i18n", "check"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every catalog is complete" in done.stderr


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("lang", "old", "new", "problem"),
    [
        ("ru", '"{call} — не ставка."', '""', "not translated"),
        (
            "hu",
            '#, python-brace-format\nmsgid "{call} is not a bid."',
            '#, fuzzy, python-brace-format\nmsgid "{call} is not a bid."',
            "fuzzy",
        ),
        ("be", "Дазволена: {allowed}.", "Дазволена: {allowd}.", "placeholders"),
        ("az", 'msgstr "{call} təklifi', 'msgstr "{cal} təklifi', "placeholders"),
        ("pa", 'msgstr[1] "{count} ਚਾਲਾਂ"\n', "", "plural forms"),
        ("ru", "nplurals=3;", "nplurals=2;", "Plural-Forms"),
        ("en", 'msgid "pass"\nmsgstr "pass"\n', "", "'pass': missing"),
    ],
)
def test_the_catalog_check_fails_on_a_broken_catalog(
    tmp_path: Path, lang: str, old: str, new: str, problem: str
) -> None:
    """Each kind of problem a build must stop on is found, in the file it is in, and
    ``python -m moonrules.i18n check`` exits 1 on it."""
    from moonrules.i18n.check import check_all, main

    target = _copy_catalogs(tmp_path)
    path = target / lang / "LC_MESSAGES" / "moonrules.po"
    _edit(path, old, new)
    problems = check_all(target)
    assert problems and all(p.startswith(f"{lang}/") for p in problems), problems
    assert any(problem in p for p in problems), problems
    assert main(["check", str(target)]) == 1


# The whole report of every example, in every language


def _example_reports() -> list[tuple[str, object]]:
    from moonrules.arbitration import check, read_record

    root = Path(__file__).resolve().parents[1] / "examples"
    found: list[tuple[str, object]] = []
    for path in sorted(root.iterdir()):
        if path.suffix not in (".json", ".moon") or path.name == "verdicts.json":
            continue
        found.append((path.name, check(read_record(path.read_text(encoding="utf-8")))))
    return found


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_line_of_every_example_report_is_translated(lang: str) -> None:
    """The reports of every example record (a renege in each rule, a wrong score, a failed
    and a held claim, a bid out of turn or twice, a clean game, a partnership game) have
    no line left in English: every sentence the arbitration prints there has a message id,
    and each ruling is told in ``lang``."""
    from moonrules.arbitration import Report, format_report
    from moonrules.i18n.report import report_in, ruling_text

    reports = _example_reports()
    assert len(reports) >= 8
    rulings = 0
    for name, report in reports:
        assert isinstance(report, Report)
        told = report_in(report, format_report(report), lang)
        assert told.untranslated == (), (name, told.untranslated)
        if report.ruling is not None:
            rulings += 1
            said = ruling_text(report, lang)
            assert said is not None and f"({report.ruling.rule})" in said, (name, said)
    assert rulings >= 5


# --lang on the other commands that print sentences: explain, claim, review

_EXPLAIN = (
    ["--trump", "6", "--trick", "4-4", "--hand", "6-4 4-2 3-1", "--play", "6-4"],
    ["--trump", "6", "--trick", "4-4", "--play", "5-4"],
    [
        "--trump",
        "doubles",
        "--hand",
        "6-6 5-4 3-1 2-2 1-1 4-3 5-2",
        "--play",
        "5-4",
        "--first-lead",
    ],
    ["--trump", "6", "--trick", "4-4 6-1 4-2", "--leader", "0"],
    ["--calls", "4 pass 5"],
    ["--calls", "4 3"],
    ["--calls", "4 5 6 7"],
    ["--calls", "pass"],
    ["--score", "--bidder", "1", "--bid", "5", "--tricks", "1 5 1", "--totals", "3 17 2"],
    ["--score", "--bidder", "0", "--bid", "21", "--tricks", "6 1 0"],
)


def _run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    from moonrules.cli.main import main

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _all_translated(english: str, out: str) -> None:
    """Same number of lines; every line with words shares none (of three letters or more)
    with its English line."""
    assert len(out.splitlines()) == len(english.splitlines())
    for mine, source in zip(out.splitlines(), english.splitlines(), strict=True):
        assert not (_words(mine) & _words(source) - _KEPT), (mine, source)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_explain_speaks_the_language_asked(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each kind of question (a play, a lead, a trick, an auction, a score) answered in
    ``lang``: verdict and every "why" step, no line left English (no notice on stderr), the
    same exit status; ``--json`` stays language-free."""
    for situation in _EXPLAIN:
        status_en, english, _ = _run(capsys, monkeypatch, "explain", *situation)
        status, out, err = _run(capsys, monkeypatch, "explain", "--lang", lang, *situation)
        assert (status, err) == (status_en, ""), (situation, err)
        _all_translated(english, out)
        assert (
            _run(capsys, monkeypatch, "explain", "--json", "--lang", lang, *situation)[1]
            == (_run(capsys, monkeypatch, "explain", "--json", *situation)[1])
        )


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_claim_speaks_the_language_asked(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for record in ("examples/failed-claim.moon", "examples/claim-holds.moon"):
        status_en, english, _ = _run(capsys, monkeypatch, "claim", record)
        status, out, err = _run(capsys, monkeypatch, "claim", "--lang", lang, record)
        assert (status, err) == (status_en, ""), (record, err)
        _all_translated(english, out)


def test_review_speaks_the_language_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ruling's report, the review's summary and its marked decisions in Russian."""
    args = ("review", "--samples", "1", "--hand", "2", "--quiet", RENEGE)
    status_en, english, _ = _run(capsys, monkeypatch, *args)
    status, out, err = _run(capsys, monkeypatch, "review", "--lang", "ru", *args[1:])
    assert (status, err) == (status_en, "") and status == 1
    from moonrules.i18n.report import quote_line

    quoted = f"  {quote_line('FOLLOW-2', 'ru')}\n"  # the clause, quoted in Russian
    assert out.count(quoted) == 1
    _all_translated(english, out.replace(quoted, ""))
    assert "РЕШЕНИЕ" in out.splitlines() and "Разбор допустимой части до решения:" in out


def test_an_unknown_lang_on_any_command_is_english_with_a_notice(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for command, args in (("explain", _EXPLAIN[0]), ("claim", ["examples/claim-holds.moon"])):
        status_en, english, _ = _run(capsys, monkeypatch, command, *args)
        status, out, err = _run(capsys, monkeypatch, command, "--lang", "tlh", *args)
        assert (status, out) == (status_en, english)
        assert err == f"moonrules {command}: no catalog for --lang 'tlh'; speaking English " + (
            "(en, az, be, hu, pa, ru)\n"
        )


@pytest.mark.parametrize("lang", ["ru", "pa"])
def test_play_refuses_a_move_in_the_language_asked(lang: str) -> None:
    """At the terminal, a refused call is told in ``lang``, rendered from the refusal."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "moonrules", "play", "--lang", lang, "--seed", "1", "--seat", "0"],
        input="3\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[1],
        env={"PATH": "", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"},
    )
    from moonrules.i18n import messages
    from moonrules.i18n.words import Words

    word = Words(lang)(messages.PLAY_REFUSED)  # the screen is in the language too
    refused = [line for line in done.stdout.splitlines() if word in line]
    assert len(refused) == 1, done.stdout + done.stderr
    error = IllegalAction("BID-4", "x", seat=0, call=3, allowed_calls=(0, 5, 6, 7, 21))
    assert refused[0].endswith(render(error, lang)), refused[0]


@pytest.mark.parametrize("preset", ["standard", "partnership", "marks", "renege-penalty", "pagat"])
def test_random_games_of_a_preset_are_told_whole(preset: str) -> None:
    """Seeded random games (to their end, or 400 actions), and each with two plays of a
    trick swapped so that the record breaks a rule: their reports have no line left in
    English in any language."""
    from moonrules.arbitration import check, format_report
    from moonrules.i18n.report import report_in

    rulings = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = new_game(preset, seed=seed)
        for _ in range(400):
            if state.is_over:
                break
            state = apply(state, rng.choice(legal_actions(state)))
        record = moonrules.to_record(state)
        records = [record]
        hands = record["hands"]
        played = [k for k, h in enumerate(hands) if len(h.get("plays", [])) > 3]
        if played:
            k = played[-1]
            plays = list(hands[k]["plays"])
            plays[2], plays[3] = plays[3], plays[2]
            records.append({**record, "hands": [*hands[:k], {**hands[k], "plays": plays}]})
        for rec in records:
            report = check(rec)
            rulings += report.ruling is not None
            for lang in OTHER_LANGUAGES:
                told = report_in(report, format_report(report), lang)
                assert told.untranslated == (), (preset, seed, lang, told.untranslated)
    assert rulings >= 1


@pytest.mark.parametrize("preset", ["standard", "lead-trump", "partnership", "no-double-blank"])
def test_every_explanation_of_random_plays_is_told_whole(preset: str) -> None:
    """Every tile of the hand to act, explained with and without the hand, and the trick so
    far, at every play of seeded random games: no line of the explanation lacks a
    catalog entry (a trump bearing the number led, a lead of doubles, a no-trump hand)."""
    from moonrules.arbitration.explain import explain_play, explain_trick
    from moonrules.i18n.report import line_in
    from moonrules.rules.tiles import tiles_of

    left: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(preset, seed=seed)
        while not state.is_over and state.hand_number <= 2:
            if state.phase is Phase.PLAY:
                h = state.hand
                seat = state.to_act
                assert seat is not None
                hand = tiles_of(h.hands[seat])
                trick = [TILES[i] for i in h.trick]
                trump = moonrules.Trump(h.trump)
                said = (
                    [explain_trick(trump, trick, leader=h.leader, rules=state.rules)]
                    if trick
                    else []
                )
                for tile in hand:
                    first = not h.tricks
                    said.append(
                        explain_play(
                            trump, tile, trick=trick, hand=hand, rules=state.rules, first_lead=first
                        )
                    )
                    said.append(explain_play(trump, tile, trick=trick, rules=state.rules))
                for e in said:
                    left |= {line for line in e.lines() if line_in(line, "ru") is None}
            state = apply(state, rng.choice(legal_actions(state)))
    assert not left, sorted(left)[:5]
