"""Running an event's all-bot tables: the whole event log, reproducibly.

Board ``k`` of an event with seed ``s`` is the deal :func:`moonrules.bots.match.deal_seed`
gives ``match --duplicate --seed s`` for its deal ``k - 1`` (the tiles and the first
bidder), played for one hand; the bot at seat ``i`` draws on the generator that
``match --duplicate`` gives a bot of that name at that seat of that deal. So a table of
bots plays a board exactly as ``match --duplicate`` plays that deal in that seating.

Every table whose seats are all bots is played (on ``jobs`` worker processes, each
ending with its parent, even a killed one); a table with a person is skipped, with a
message: people play on the web table (later work). The log written is the same, byte
for byte, whatever the number of workers.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs

from moonrules.bots.match import bot_by_name, deal_seed, play_game
from moonrules.records import to_record
from moonrules.rules.ruleset import RuleSet
from moonrules.support.processes import end_with_parent, stop_pool
from moonrules.tournament.event import Tournament
from moonrules.tournament.log import EventState, fold, header, next_round, seating_entry
from moonrules.tournament.movement import Movement, Round, draw
from moonrules.tournament.scoring import standings

__all__ = ["BoardJob", "RunOutcome", "play_board", "run_event"]


@attrs.frozen(slots=True)
class BoardJob:
    """One board to play at one table: the bot level and the name at each seat."""

    rules: RuleSet
    seed: int
    round: int
    table: int
    board: int
    bots: tuple[str, ...]
    names: tuple[str, ...]


def board_rngs(seed: int, board: int, bots: Sequence[str]) -> list[random.Random]:
    """The generator of each seat's bot on ``board``: ``match --duplicate``'s for its deal
    ``board - 1`` (seeded by the deal, the seat and the bot's name)."""
    return [
        random.Random(f"moonrules/duplicate/{seed}/{board - 1}/{s}/{name}")
        for s, name in enumerate(bots)
    ]


def play_board(job: BoardJob) -> dict[str, Any]:
    """The ``result`` entry of ``job``: its board's hand played by the bots, and its record
    (one hand, the seats named)."""
    bots = [bot_by_name(b) for b in job.bots]
    state, _ = play_game(
        job.rules,
        deal_seed(job.seed, job.board - 1),
        bots,
        board_rngs(job.seed, job.board, job.bots),
        max_hands=1,
    )
    record = to_record(state, players=list(job.names))
    hands = record["hands"]
    assert isinstance(hands, list)
    record["hands"] = hands[:1]
    return {
        "type": "result",
        "round": job.round,
        "table": job.table,
        "board": job.board,
        "record": record,
    }


@attrs.frozen(slots=True)
class RunOutcome:
    """The log of a run and the messages about the tables it could not play."""

    entries: tuple[dict[str, Any], ...]
    skipped: tuple[str, ...]


class _Player:
    """Plays jobs in this process, or on a pool of ``jobs`` workers started on first use."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool: ProcessPoolExecutor | None = None

    def play(self, jobs: Sequence[BoardJob]) -> Iterator[dict[str, Any]]:
        if self.jobs <= 1 or len(jobs) <= 1:
            yield from map(play_board, jobs)
            return
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.jobs,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=end_with_parent,
            )
        yield from self.pool.map(play_board, jobs, chunksize=1)

    def close(self, failed: bool) -> None:
        if self.pool is not None:
            if failed:
                stop_pool(self.pool)
            else:
                self.pool.shutdown()


def _jobs(t: Tournament, state: EventState, rnd: Round, skipped: list[str]) -> list[BoardJob]:
    out = []
    for table in rnd.tables:
        bots = state.seat_bots(rnd.number, table)
        names = state.seat_names(rnd.number, table)
        people = [n for n, b in zip(names, bots, strict=True) if b is None]
        if people:
            skipped.append(
                f"round {rnd.number}, table {table.number}: {', '.join(people)} "
                f"{'is a person' if len(people) == 1 else 'are people'}: tables with people "
                "are played on the web table (run --db DB --table URL): skipped"
            )
            continue
        seated = tuple(b for b in bots if b is not None)
        for b in rnd.boards:
            out.append(BoardJob(t.rules, t.seed, rnd.number, table.number, b, seated, names))
    return out


def run_event(
    t: Tournament,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> RunOutcome:
    """Play every all-bot table of ``t``: the event log (header, each round's seating, each
    result), checked as it grows, and the messages about tables skipped.

    A Swiss event is paired round by round from the standings of the rounds before
    (:func:`~moonrules.tournament.movement.swiss_round`). ``progress(round, rounds)`` is
    called as each round is done.
    """
    planned = t.movement()
    entries: list[dict[str, Any]] = [header(t, planned)]
    skipped: list[str] = []
    state = fold(entries)
    player = _Player(jobs)
    failed = True
    try:
        for number in range(1, t.rounds + 1):
            rnd = next_seating(t, state, number)
            entries.append(seating_entry(rnd))
            state = fold(entries)
            entries.extend(player.play(_jobs(t, state, rnd, skipped)))
            state = fold(entries)
            if progress is not None:
                progress(number, t.rounds)
        failed = False
    finally:
        player.close(failed)
    return RunOutcome(tuple(entries), tuple(skipped))


def next_seating(t: Tournament, state: EventState, number: int) -> Round:
    """Round ``number``'s seating as the log stands
    (:func:`~moonrules.tournament.log.next_round`): the movement's round while it still
    fits, else seated again around the director's late entries, withdrawals and forbidden
    pairings. A Swiss round is paired from the standings of the rounds before (the first
    from the event's draw), entries not yet ranked last."""
    ranking: list[str] | None = None
    if t.format == "swiss":
        if number == 1:
            ranking = list(draw(t.entry_names, t.seed, "swiss"))
        else:
            ranking = [r.entry for r in standings(state).rows]
        ranking += [e for e in state.entry_names if e not in ranking]
    return next_round(state, number, ranking)


def plan_movement(t: Tournament) -> Movement:
    """The movement ``plan`` shows: the whole movement, or a Swiss event's first round."""
    return t.movement()
