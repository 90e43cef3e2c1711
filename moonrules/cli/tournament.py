"""``moonrules tournament``: plan an event, run its all-bot tables, and read its standings.

- ``tournament plan FILE``: the movement of a tournament file, round by round (tables,
  seats, boards) and its check (seat balance, repeated table-mates, boards); exit status
  1, with the line and the reason, for a movement that cannot be played.
- ``tournament run FILE --log OUT.jsonl [--jobs N]``: play every table whose seats are all
  bots and write the event log (the same file gives the same log, byte for byte); tables
  with people are skipped, each with a line on standard error. ``--db DB [--event ID]``
  stores the log in a database instead (a SQLite file or a ``postgresql://`` URL, as the
  table's ``--db``): :mod:`moonrules.tournament.store`. ``--db DB --table URL`` runs the
  event with people: the tables with a person are played on that web table, one room per
  table and board, a link per seat printed, and each game's record kept in the log as it
  ends (:mod:`moonrules.tournament.live`); a record the log refuses is listed for the
  director (exit status 1).
- ``tournament standings --log FILE [--json | --csv]``: the standings from a log alone;
  ``--db DB [--event ID]`` from an event stored in a database.
- ``tournament ratings --log FILE [--json | --csv]``: the players' ratings (openskill,
  Plackett-Luce) recomputed from a log alone (or ``--db DB [--event ID]``); without
  openskill, one line naming the extra to install.
- ``tournament export --db DB [--event ID]``: a stored event's log as JSON lines on
  standard output (the bytes ``run --log`` writes for the same entries).
- ``tournament director-link --db DB [--event ID] [--table URL]``: a new link to the
  director's console of a stored event (the one printed when the event was created, by
  ``run --db``, stops working).

A file or log that cannot be read is refused in one line naming its line (exit status 2).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from moonrules.cli.lang import add_lang_argument, chosen_language
from moonrules.cli.options import check_output, check_workers, whole_number
from moonrules.i18n import messages as w
from moonrules.i18n.words import ENGLISH, Words
from moonrules.rules.errors import MoonError
from moonrules.tournament.event import Tournament, load_tournament
from moonrules.tournament.live import check_table, run_live
from moonrules.tournament.log import EventState, fold, read_log, write_log
from moonrules.tournament.movement import Movement, MovementCheck, MovementError, check_movement
from moonrules.tournament.ratings import PROVISIONAL_SIGMA, Ratings, ratings
from moonrules.tournament.run import run_event
from moonrules.tournament.scoring import TIE_BREAKS, Standings, standings, standings_csv
from moonrules.tournament.store import (
    EventStore,
    StoreError,
    check_event_id,
    create_event,
    event_id_of,
    open_store,
)

HELP = "plan a tournament's movement, run its all-bot tables, and print its standings"


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="tournament_command", metavar="ACTION")
    sub.required = True
    plan = sub.add_parser(
        "plan",
        help="print and check the movement of a tournament file",
        description="print the movement of a tournament file (per round: tables, seats, "
        "boards) and its check; exit status 1 for a movement that cannot be played",
    )
    plan.add_argument("file", metavar="FILE", type=Path, help="the tournament file (TOML)")
    plan.add_argument("--json", action="store_true", help="print the movement as JSON")
    add_lang_argument(plan, "the plan")
    plan.set_defaults(_tournament=_plan)
    run = sub.add_parser(
        "run",
        help="play the all-bot tables of a tournament and write its event log",
        description="play every table whose seats are all bots and write the event log "
        "(JSON lines); tables with people are skipped, or with --db and --table played on "
        "the web table",
    )
    run.add_argument("file", metavar="FILE", type=Path, help="the tournament file (TOML)")
    out = run.add_mutually_exclusive_group(required=True)
    out.add_argument("--log", metavar="OUT", help="the event log to write")
    out.add_argument("--db", metavar="DB", help=DB_HELP)
    run.add_argument(
        "--event", metavar="ID", help="with --db: the new event's id (default: from its name)"
    )
    run.add_argument("--jobs", type=whole_number, default=1, help="worker processes (default 1)")
    run.add_argument(
        "--table",
        metavar="URL",
        help="with --db: the web table (http://host:port) that plays the tables with people: "
        "one room per table and board, a link per seat printed; each game's record is kept "
        "in the log as it ends",
    )
    run.add_argument(
        "--resume",
        action="store_true",
        help="with --table: go on with the event --event names (or the file's), begun by an "
        "earlier run, where its log stands",
    )
    run.set_defaults(_tournament=_run)
    st = sub.add_parser(
        "standings",
        help="the standings of an event from its log",
        description="the standings recomputed from an event log alone",
    )
    source = st.add_mutually_exclusive_group(required=True)
    source.add_argument("--log", metavar="FILE", type=Path, help="the event log")
    source.add_argument("--db", metavar="DB", help=DB_HELP)
    st.add_argument("--event", metavar="ID", help=EVENT_HELP)
    form = st.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the standings as JSON")
    form.add_argument("--csv", action="store_true", help="print the standings as CSV")
    add_lang_argument(st, "the standings (not of --csv)")
    st.set_defaults(_tournament=_standings)
    rt = sub.add_parser(
        "ratings",
        help="the players' ratings from an event's log (the ratings extra)",
        description="each player's rating (openskill, Plackett-Luce: mu, sigma, and the "
        "Elo-like 1000 + 30 * (mu - 3 * sigma)) recomputed from an event log alone; bots are "
        "rated and flagged, substitutes never rated (pip install 'moonrules[ratings]')",
    )
    rsource = rt.add_mutually_exclusive_group(required=True)
    rsource.add_argument("--log", metavar="FILE", type=Path, help="the event log")
    rsource.add_argument("--db", metavar="DB", help=DB_HELP)
    rt.add_argument("--event", metavar="ID", help=EVENT_HELP)
    rform = rt.add_mutually_exclusive_group()
    rform.add_argument("--json", action="store_true", help="print the ratings as JSON")
    rform.add_argument("--csv", action="store_true", help="print the ratings as CSV")
    add_lang_argument(rt, "the ratings (not of --csv)")
    rt.set_defaults(_tournament=_ratings)
    ex = sub.add_parser(
        "export",
        help="print an event stored in a database as its log (JSON lines)",
        description="print the log of an event stored in a database as JSON lines on "
        "standard output: the bytes run --log writes for the same entries",
    )
    ex.add_argument("--db", required=True, metavar="DB", help=DB_HELP)
    ex.add_argument("--event", metavar="ID", help=EVENT_HELP)
    ex.set_defaults(_tournament=_export)
    dl = sub.add_parser(
        "director-link",
        help="make a new link to an event's director's console",
        description="make a new secret link to the director's console of an event stored in "
        "a database (GET /events/ID/director/SECRET on a table serving that database) and "
        "print it; the link printed before stops working",
    )
    dl.add_argument("--db", required=True, metavar="DB", help=DB_HELP)
    dl.add_argument("--event", metavar="ID", help=EVENT_HELP)
    dl.add_argument("--table", metavar="URL", help="the web table's address the link begins with")
    dl.set_defaults(_tournament=_director_link)


DB_HELP = "the database: a SQLite file or a postgresql:// URL (the postgres extra), as the table's"
EVENT_HELP = "the event's id (needed when the database holds several)"


def run(args: argparse.Namespace) -> int:
    status: int = args._tournament(args)
    return status


def plan_lines(
    movement: Movement,
    check: MovementCheck,
    forbidden: Sequence[tuple[str, str]] = (),
    say: Words = ENGLISH,
) -> list[str]:
    """What ``plan`` prints: each round's boards and tables, the pairs kept apart, then the
    check (in ``say``'s language; a note of the check no message id matches stays
    English)."""
    lines: list[str] = []
    places = 3 if movement.format in ("three-seat", "swiss") else 2
    place = w.T_SEAT_ENTRY if places == 3 else w.T_SIDE_ENTRY
    for rnd in movement.rounds:
        boards = _ranges(rnd.boards)
        lines.append(say(w.T_ROUND, round=rnd.number, boards=boards))
        for t in rnd.tables:
            seats = "  ".join(
                say(place, seat=s + 1, side=s + 1, entry=e) for s, e in enumerate(t.entries)
            )
            lines.append("  " + say(w.T_TABLE, table=t.number, seats=seats))
        if rnd.byes:
            lines.append("  " + say(w.T_SITTING_OUT, entries=", ".join(rnd.byes)))
    if movement.format == "swiss":
        lines.append(say(w.T_SWISS_LATER))
    if forbidden:
        kept = "; ".join(say(w.T_PAIR, a=a, b=b) for a, b in forbidden)
        lines.append(say(w.T_KEPT_APART, pairs=kept))
    lines.append(say(w.T_CHECK))
    entry = say(w.T_ENTRY)
    held_head = say(w.T_SEATS_HELD if places == 3 else w.T_SIDES_HELD)
    width = max((len(e) for e, _ in check.held), default=5)
    if say.lang != ENGLISH.lang:
        width = max(width, len(entry))
    lines.append(f"  {entry:<{width}}  {held_head}  {say(w.T_BOARDS)}")
    plays = dict(check.plays)
    for e, held in check.held:
        counts = "/".join(str(k) for k in held)
        lines.append(f"  {e:<{width}}  {counts:<{len(held_head)}}  {plays[e]}")
    for a, b, k in check.repeats:
        lines.append("  " + say(w.T_MEET, a=a, b=b, count=k))
    lines.append("  " + say(w.T_NO_BOARD_TWICE))
    lines.extend(f"  {_note(note, say)}" for note in check.notes)
    return lines


def _note(note: str, say: Words) -> str:
    """A note of a movement's check in ``say``'s language (English if no id matches it)."""
    if say.lang == ENGLISH.lang:
        return note
    from moonrules.i18n.sentences import translate

    return translate(note, say.lang, w.T_NOTES) or note


def _format(name: str, say: Words) -> str:
    """An event's format by name, in ``say``'s language."""
    return say(name) if name in w.FORMATS else name


def _ranges(boards: tuple[int, ...]) -> str:
    if boards == tuple(range(boards[0], boards[0] + len(boards))) and len(boards) > 2:
        return f"{boards[0]}-{boards[-1]}"
    return ", ".join(str(b) for b in boards)


def _words(args: argparse.Namespace, command: str) -> Words:
    """The words of ``--lang`` (or the environment's language) for a text output; English
    for ``--json`` and ``--csv``, or when Babel is missing (said on stderr)."""
    if getattr(args, "json", False) or getattr(args, "csv", False):
        return ENGLISH
    lang = chosen_language(args, f"tournament {command}")
    try:
        return Words(lang)
    except MoonError as e:  # Babel is not installed
        print(f"moonrules tournament {command}: speaking English: {e}", file=sys.stderr)
        return ENGLISH


def _plan(args: argparse.Namespace) -> int:
    prog = args._parser.prog
    say = _words(args, "plan")
    try:
        t = load_tournament(args.file)
        movement = t.movement()
        check = check_movement(movement, t.entry_names, t.forbidden)
    except MovementError as e:
        print(f"{prog}: impossible: {e}", file=sys.stderr)
        return 1
    if args.json:
        from moonrules.tournament.event import movement_json

        print(
            json.dumps(
                {
                    "name": t.name,
                    "format": t.format,
                    "movement": movement_json(movement),
                    "held": {e: list(h) for e, h in check.held},
                    "repeats": [list(r) for r in check.repeats],
                    "notes": list(check.notes),
                    "forbidden": [list(p) for p in t.forbidden],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    print(
        say(
            w.T_PLAN_HEAD,
            name=t.name,
            format=_format(t.format, say),
            entries=say(w.T_ENTRIES, count=len(t.entries)),
            rounds=say(w.T_ROUNDS, count=t.rounds),
            boards=say(w.T_BOARDS_EACH, count=t.boards_per_round),
            seed=t.seed,
        )
    )
    print("\n".join(plan_lines(movement, check, t.forbidden, say)))
    left = sum(_note(note, say) == note for note in check.notes)
    if left and say.lang != ENGLISH.lang:
        print(
            f"{prog}: {left} note(s) of the check have no translation yet and stay English",
            file=sys.stderr,
        )
    return 0


def _run(args: argparse.Namespace) -> int:
    prog = args._parser.prog
    check_workers(args.jobs, "--jobs")
    if args.db is None:
        if args.event is not None:
            args._parser.error("--event goes with --db")
        check_output(args.log, "--log")
    if args.table is not None and args.db is None:
        args._parser.error("--table goes with --db")
    if args.resume and args.table is None:
        args._parser.error("--resume goes with --db and --table")
    t = load_tournament(args.file)
    if args.db is not None:  # refused before any game is played: a bad database, an id taken
        event = check_event_id(args.event or event_id_of(t.name))
        with open_store(args.db) as store:
            there = event in store.events()
            if there and not args.resume:
                raise StoreError(
                    f"--event: {event!r} exists already in {store.where}"
                    + (" (--resume goes on with it)" if args.table is not None else "")
                )
            if args.resume and not there:
                raise StoreError(f"--resume: no event {event!r} in {store.where}")
    if args.table is not None:
        return _run_live(args, t, event)
    outcome = run_event(t, jobs=args.jobs)
    for message in outcome.skipped:
        print(f"{prog}: {message}", file=sys.stderr)
    results = sum(1 for e in outcome.entries if e["type"] == "result")
    if args.db is not None:
        with open_store(args.db) as store:
            made = store.create(event, outcome.entries)
            where = f"event {event!r} in {store.where}"
        print(f"{t.name}: {results} board(s) played; the log is {where}")
        if made.director is not None:
            print(director_line(None, event, made.director))
    else:
        write_log(args.log, outcome.entries)
        print(f"{t.name}: {results} board(s) played; the log is {args.log}")
    if not outcome.skipped:
        print("\n".join(standings_lines(standings(outcome.entries))))
    return 0


def _run_live(args: argparse.Namespace, t: Tournament, event: str) -> int:
    url = str(args.table)
    if not url.startswith(("http://", "https://")):
        args._parser.error(f"--table: an http:// or https:// address, not {url!r}")
    check_table(url, t)  # before anything is written
    with open_store(args.db) as store:
        made = None if args.resume else create_event(store, t, event)
        print(f"{t.name}: event {event!r} in {store.where}; tables with people on {url}")
        if made is not None and made.director is not None:
            print(director_line(url, event, made.director), flush=True)
        print(f"standings: {url.rstrip('/')}/events/{event} (a table serving {store.where})")
        outcome = run_live(t, store, event, url, jobs=args.jobs, say=_say, resume=args.resume)
        state = store.state(event)
    given_up = len(outcome.given_up)
    print(
        f"{t.name}: {outcome.results} board(s) kept, {len(outcome.rooms) - given_up} room(s) "
        f"played on the table"
        + (f", {given_up} left unplayed (the director adjusted their boards)" if given_up else "")
        + f"; {len(outcome.refused)} record(s) refused, for the director"
    )
    print("\n".join(standings_lines(standings(state))))
    return 1 if outcome.refused else 0


def director_link(table: str | None, event: str, secret: str) -> str:
    """The address of ``event``'s director's console (a path when no table is given)."""
    base = "" if table is None else table.rstrip("/")
    return f"{base}/events/{event}/director/{secret}"


def director_line(table: str | None, event: str, secret: str) -> str:
    where = "" if table is not None else " (on a table serving this database)"
    return (
        f"director's console{where}: {director_link(table, event, secret)} — keep it secret; "
        "moonrules tournament director-link makes a new one"
    )


def _director_link(args: argparse.Namespace) -> int:
    table = args.table
    if table is not None and not str(table).startswith(("http://", "https://")):
        args._parser.error(f"--table: an http:// or https:// address, not {table!r}")
    with open_store(args.db, create=False) as store:
        event = _stored(store, args.event)
        secret = store.new_director_secret(event)
    print(director_link(table, event, secret))
    print(
        "the link before this one no longer opens the console; keep this one secret",
        file=sys.stderr,
    )
    return 0


def _say(line: str) -> None:
    print(line, flush=True)


def standings_lines(
    s: Standings, say: Words = ENGLISH, state: EventState | None = None
) -> list[str]:
    """The standings as text: one ranking per field, in ``say``'s language (the notes
    told from ``state``, the event the standings are of, as the event page tells them;
    without it, in English as the standings give them)."""
    pct = s.scoring == "matchpoints"
    head = say(w.T_PERCENT if pct else w.T_TOTAL)
    approved = ", ".join(map(str, s.rounds_approved))
    lines = [
        say(
            w.T_STANDINGS_HEAD if approved else w.T_STANDINGS_HEAD_NONE,
            name=s.name,
            format=_format(s.format, say),
            seated=say(w.T_SEATED, count=s.rounds_seated),
            results=say(w.T_RESULTS, count=s.results),
            approved=approved,
        ),
        say(w.T_TIES, ties=_then([_named(t, say) for t in TIE_BREAKS], say)),
    ]
    english = say.lang == ENGLISH.lang
    notes_of = None if english or state is None else _notes(state, say)
    fields = list(dict.fromkeys(r.field for r in s.rows))
    width = max((len(r.entry) for r in s.rows), default=5)
    rank, entry, boards = say(w.T_RANK), say(w.T_ENTRY), say(w.T_BOARDS)
    if not english:
        width = max(width, len(entry))
    wide = (max(4, len(rank)), max(7, len(head)), max(6, len(boards)))
    for field in fields:
        if len(fields) > 1:
            lines.append(f"{_field(field, say)}:")
        lines.append(
            f"{rank:>{wide[0]}}  {entry:<{width}}  {head:>{wide[1]}}  {boards:>{wide[2]}}  "
            + say(w.T_NOTES_HEAD)
        )
        for r in s.rows:
            if r.field != field:
                continue
            value = f"{float(r.score):{wide[1]}.2f}"
            notes = "; ".join(r.flags if notes_of is None else notes_of.get(r.entry, ()))
            if r.by not in ("", "score"):
                notes = say(w.T_AHEAD_BY, tie_break=_named(r.by, say)) + " " + notes
            lines.append(
                f"{r.rank:>{wide[0]}}  {r.entry:<{width}}  {value}  {r.boards:>{wide[2]}}  "
                f"{notes}".rstrip()
            )
    return lines


def _named(name: str, say: Words) -> str:
    """A tie-break or an adjustment by name, in ``say``'s language."""
    return say(name) if name in w.TIE_BREAK_NAMES or name in w.ADJUSTMENT_NAMES else name


def _then(items: list[str], say: Words) -> str:
    """``a, then b, then c`` in ``say``'s language."""
    said = items[0]
    for item in items[1:]:
        said = say(w.T_THEN, a=said, b=item)
    return said


def _field(field: str, say: Words) -> str:
    """A field of the standings (``all``, ``side 1``) in ``say``'s language."""
    if field == "all":
        return say(w.T_FIELD_ALL)
    number = field.removeprefix("side ")
    return say(w.T_FIELD_SIDE, side=number) if number.isdigit() else field


def _notes(state: EventState, say: Words) -> dict[str, tuple[str, ...]]:
    """Each entry's notes in ``say``'s language, in the order and with the values of the
    standings' flags (``moonrules.tournament.scoring``); a reason a director gave is
    shown as written."""
    out: dict[str, list[str]] = {}
    for e in state.entries:
        if e.all_bots:
            out.setdefault(e.name, []).append(say(w.T_BOT))
    for late, first, stated in state.late:
        out.setdefault(late, []).append(say(w.T_LATE, round=first, value=f"{stated:g}"))
    for gone, r in state.withdrawn:
        out.setdefault(gone, []).append(say(w.T_WITHDREW, round=r))
    for who, r, player, by in state.substitutes:
        out.setdefault(who, []).append(say(w.T_SUBSTITUTE, sub=by, player=player, round=r))
    for a in state.adjustments:
        value = "" if a.value is None else f" {a.value:g}"
        kind = _named(a.kind, say) + value
        out.setdefault(a.entry, []).append(
            say(w.T_ADJUSTED, kind=kind, board=a.board, reason=a.reason)
        )
    for rnd in state.seatings:
        for e_ in rnd.byes:
            out.setdefault(e_, []).append(say(w.T_BYE, round=rnd.number))
    return {e: tuple(v) for e, v in out.items()}


def _stored(store: EventStore, event: str | None) -> str:
    """The event ``--event`` names (checked), or the database's only one."""
    return store.only_event() if event is None else check_event_id(event)


def _export(args: argparse.Namespace) -> int:
    with open_store(args.db, create=False) as store:
        lines = store.export(_stored(store, args.event))
        out = getattr(sys.stdout, "buffer", None)
        if out is None:  # a text stream without bytes underneath
            sys.stdout.writelines(lines)
            return 0
        sys.stdout.flush()
        for line in lines:  # UTF-8 whatever the locale: the bytes of the log file
            out.write(line.encode("utf-8"))
        out.flush()
    return 0


def _standings(args: argparse.Namespace) -> int:
    say = _words(args, "standings")
    if args.db is not None:
        with open_store(args.db, create=False) as store:
            state = store.state(_stored(store, args.event))
    else:
        if args.event is not None:
            args._parser.error("--event goes with --db")
        state = fold(read_log(args.log))
    s = standings(state)
    if args.json:
        print(json.dumps(s.to_json(), indent=2, ensure_ascii=False))
    elif args.csv:
        sys.stdout.write(standings_csv(s))
    else:
        print("\n".join(standings_lines(s, say, state)))
    return 0


def ratings_lines(r: Ratings, say: Words = ENGLISH) -> list[str]:
    """The ratings as text, best first, in ``say``'s language (``mu`` and ``sigma`` are
    openskill's names and stay as they are)."""
    lines = [
        say(w.T_RATED, event=r.event, count=r.games, model=r.model),
        say(w.T_RATING_FORMULA, sigma=f"{PROVISIONAL_SIGMA:g}"),
    ]
    if r.substitutes:
        lines.append(say(w.T_NOT_RATED, names=", ".join(r.substitutes)))
    rank, player, rating, games = say(w.T_RANK), say(w.T_PLAYER), say(w.T_RATING), say(w.T_GAMES)
    width = max((len(x.name) for x in r.players), default=6)
    if say.lang != ENGLISH.lang:
        width = max(width, len(player))
    wide = (max(4, len(rank)), max(6, len(rating)), max(5, len(games)))
    lines.append(
        f"{rank:>{wide[0]}}  {player:<{width}}  {rating:>{wide[1]}}  {'mu':>6}  {'sigma':>5}  "
        f"{games:>{wide[2]}}  {say(w.T_NOTES_HEAD)}"
    )
    for k, x in enumerate(r.ranked(), 1):
        notes = [say(w.T_PROVISIONAL)] if x.provisional else []
        notes += [say(w.T_BOT_NAMED, bot=x.bot)] if x.bot else []
        lines.append(
            f"{k:>{wide[0]}}  {x.name:<{width}}  {x.elo:>{wide[1]}}  {x.mu:>6.2f}  "
            f"{x.sigma:>5.2f}  {x.games:>{wide[2]}}  {'; '.join(notes)}".rstrip()
        )
    return lines


def _ratings(args: argparse.Namespace) -> int:
    say = _words(args, "ratings")
    if args.db is not None:
        with open_store(args.db, create=False) as store:
            r = ratings(store.state(_stored(store, args.event)))
    else:
        if args.event is not None:
            args._parser.error("--event goes with --db")
        r = ratings(read_log(args.log))
    if args.json:
        print(json.dumps(r.to_json(), indent=2, ensure_ascii=False))
    elif args.csv:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["rank", "player", "rating", "provisional", "mu", "sigma", "games", "bot"])
        for k, x in enumerate(r.ranked(), 1):
            w.writerow(
                [
                    k,
                    x.name,
                    x.elo,
                    str(x.provisional).lower(),
                    repr(x.mu),
                    repr(x.sigma),
                    x.games,
                    x.bot or "",
                ]
            )
        sys.stdout.write(out.getvalue())
    else:
        print("\n".join(ratings_lines(r, say)))
    return 0
