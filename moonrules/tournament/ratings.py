"""Ratings: each player's skill, recomputed from the event log alone (openskill, Plackett-Luce).

A rating is a Gaussian belief about a player's skill, ``mu`` (its mean) and ``sigma`` (its
standard deviation), updated by openskill's Plackett-Luce model (Weng and Lin 2011,
Algorithm 4) once for each result of the log, in the log's order:

- a three-player game is three one-player teams ranked by the points each seat won on
  the board; a partnership game is two teams of two (the sides), ranked by the side's
  points; equal points are a tie (the teams share the rank);
- a **substitute** (a ``substitute`` action of the log) is never rated: in each game a
  substitute played, the place is held by a stand-in at the model's prior (``mu`` 25,
  ``sigma`` 25/3, an unknown player), used for that game's update and then forgotten, so
  that the others' game still counts;
- **bots** are rated like people, under their names, and flagged as bots (``bot`` is the
  bot's level): an all-bot event has ratings too, and a director can leave the flagged
  lines out;
- director's adjustments change the standings, not the ratings: a rating moves only by
  games played (every result in the log is a legal game, checked by
  :func:`~moonrules.tournament.log.fold`).

The model's parameters are fixed here (:data:`PARAMETERS`, openskill's defaults written
out), and the extra pins openskill (``pip install 'moonrules[ratings]'``), so the same log
gives the same ratings, float for float, wherever it is read: a pure left fold
(:func:`ratings`) of :func:`update` over the log's results (:func:`games`). Each rating
carries the model it was computed with (``openskill 6.2.0 PlackettLuce``).

The rating shown is Elo-like (:func:`elo`): ``1000 + 30 * (mu - 3 * sigma)``, rounded.
``mu - 3 * sigma`` is the conservative estimate (the skill the player has at least, with
99.7% confidence; 0 for a newcomer, who shows 1000). 30 a unit of ``mu`` is Elo's scale:
between two established players (``sigma`` near 0) the model gives the first the chance
``logistic(dmu / (sqrt(2) * beta))`` of finishing ahead (``beta`` = 25/6), Elo gives
``logistic(d * ln(10) / 400)``, so one unit of ``mu`` is ``400 / (ln(10) * sqrt(2) * beta)``,
about 29.5 Elo points. A rating is **provisional** while ``sigma`` is above
:data:`PROVISIONAL_SIGMA` (6, against 8.33 at the start: some 15 to 20 games).

openskill is imported only here, when ratings are computed; without it,
:class:`RatingsUnavailable` says which extra to install.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from moonrules.rules.errors import MoonError
from moonrules.tournament.log import EventState, Result, fold

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

__all__ = [
    "ELO_BASE",
    "ELO_SCALE",
    "MODEL",
    "PARAMETERS",
    "PROVISIONAL_SIGMA",
    "Game",
    "Rating",
    "Ratings",
    "RatingsUnavailable",
    "elo",
    "game_of",
    "games",
    "new_ratings",
    "ratings",
    "update",
]

MODEL: Final = "PlackettLuce"
PARAMETERS: Final[Mapping[str, float]] = {
    "mu": 25.0,
    "sigma": 25.0 / 3.0,
    "beta": 25.0 / 6.0,
    "kappa": 0.0001,
    "tau": 25.0 / 300.0,
}
"""The model's parameters (openskill's defaults, written out so that a new default of the
library cannot change the ratings unseen); no margin, no balance, sigma not limited."""
PROVISIONAL_SIGMA: Final = 6.0
ELO_BASE: Final = 1000
ELO_SCALE: Final = 30
Z: Final = 3
EXTRA: Final = "ratings"


class RatingsUnavailable(MoonError):
    """openskill is not installed: the message says which extra to install."""

    def __init__(self) -> None:
        super().__init__(
            f"ratings need openskill, which is not installed: pip install 'moonrules[{EXTRA}]' "
            f"(in a checkout: pip install -e '.[{EXTRA}]')"
        )


def _openskill() -> tuple[PlackettLuce, str]:
    """The model, with :data:`PARAMETERS`, and openskill's version."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise RatingsUnavailable() from None
    try:
        version = importlib.metadata.version("openskill")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a copied tree
        import openskill

        version = str(getattr(openskill, "__version__", "unknown"))
    model = PlackettLuce(
        mu=PARAMETERS["mu"],
        sigma=PARAMETERS["sigma"],
        beta=PARAMETERS["beta"],
        kappa=PARAMETERS["kappa"],
        tau=PARAMETERS["tau"],
        margin=0.0,
        limit_sigma=False,
        balance=False,
    )
    return model, version


def elo(mu: float, sigma: float) -> int:
    """The Elo-like number shown for a rating: ``1000 + 30 * (mu - 3 sigma)``, rounded.

    >>> elo(25.0, 25.0 / 3.0)
    1000
    >>> elo(30.0, 4.0)
    1540
    """
    return round(ELO_BASE + ELO_SCALE * (mu - Z * sigma))


@attrs.frozen(slots=True)
class Rating:
    """One player's rating: ``mu`` and ``sigma`` after ``games`` rated games, the model they
    were computed with, and the bot's level for a bot (``None`` for a person)."""

    name: str
    mu: float
    sigma: float
    games: int
    model: str
    bot: str | None = None

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma``."""
        return self.mu - Z * self.sigma

    @property
    def elo(self) -> int:
        return elo(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """Whether ``sigma`` is still above :data:`PROVISIONAL_SIGMA`."""
        return self.sigma > PROVISIONAL_SIGMA

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.name,
            "rating": self.elo,
            "provisional": self.provisional,
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
            "bot": self.bot,
            "model": self.model,
        }


@attrs.frozen(slots=True)
class Game:
    """One result as the ratings see it: the players of each team (position), each team's
    points, the substitutes among the players (each replaced by a stand-in at the prior,
    never rated) and the level of each bot among them."""

    teams: tuple[tuple[str, ...], ...]
    points: tuple[int, ...]
    substitutes: tuple[str, ...] = ()
    bots: tuple[tuple[str, str], ...] = ()
    where: tuple[int, int, int] = (0, 0, 0)
    """(round, table, board) of the result."""

    @property
    def ranks(self) -> tuple[int, ...]:
        """Each team's rank, 0 the best: the number of teams with more points (ties share
        a rank: points 5, 5, 2 rank 0, 0, 2)."""
        return tuple(sum(q > p for q in self.points) for p in self.points)


@attrs.frozen(slots=True)
class Ratings:
    """The ratings of an event's players after ``games`` rated games, in the order they
    were first rated (:meth:`ranked` for the order shown)."""

    event: str
    model: str
    players: tuple[Rating, ...] = ()
    games: int = 0
    substitutes: tuple[str, ...] = ()
    """The substitutes who played in the games rated (never rated themselves)."""

    def rating(self, name: str) -> Rating | None:
        return next((r for r in self.players if r.name == name), None)

    def ranked(self) -> tuple[Rating, ...]:
        """Best first: by ``mu - 3 sigma``, then ``mu``, then name."""
        return tuple(sorted(self.players, key=lambda r: (-r.ordinal, -r.mu, r.name)))

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "model": {"name": self.model, **PARAMETERS},
            "scale": f"{ELO_BASE} + {ELO_SCALE} * (mu - {Z} * sigma), rounded",
            "provisional_sigma": PROVISIONAL_SIGMA,
            "games": self.games,
            "substitutes_not_rated": list(self.substitutes),
            "ratings": [{"rank": k, **r.to_json()} for k, r in enumerate(self.ranked(), 1)],
        }


def new_ratings(event: str = "") -> Ratings:
    """No games yet (:class:`RatingsUnavailable` without openskill)."""
    _, version = _openskill()
    return Ratings(event, f"openskill {version} {MODEL}")


def game_of(state: EventState, result: Result) -> Game:
    """The :class:`Game` of one result of the event ``state``: one team per position (a
    seat, or a side of a partnership: seats ``p`` and ``p + 2``), its substitutes flagged."""
    positions = len(result.points)
    subs = {by for _, _, _, by in state.substitutes}
    levels = {p.name: p.bot for e in state.entries for p in e.players if p.bot is not None}
    teams = tuple(
        tuple(name for s, name in enumerate(result.players) if s % positions == p)
        for p in range(positions)
    )
    return Game(
        teams,
        result.points,
        tuple(n for n in result.players if n in subs),
        tuple((n, levels[n]) for n in result.players if n in levels and n not in subs),
        (result.round, result.table, result.board),
    )


def games(state: EventState) -> tuple[Game, ...]:
    """The games to rate, in the order of the log."""
    return tuple(game_of(state, x) for x in state.results)


def _update(model: PlackettLuce, before: Ratings, game: Game) -> Ratings:
    prior_mu, prior_sigma = PARAMETERS["mu"], PARAMETERS["sigma"]
    known = {r.name: r for r in before.players}
    subs = set(game.substitutes)
    teams = [
        [
            model.rating(
                mu=known[n].mu if n in known and n not in subs else prior_mu,
                sigma=known[n].sigma if n in known and n not in subs else prior_sigma,
            )
            for n in team
        ]
        for team in game.teams
    ]
    after = model.rate(teams, ranks=[float(r) for r in game.ranks])
    bots = dict(game.bots)
    new = dict(known)
    for names, rated in zip(game.teams, after, strict=True):
        for n, r in zip(names, rated, strict=True):
            if n in subs:
                continue
            old = known.get(n)
            new[n] = Rating(
                n,
                float(r.mu),
                float(r.sigma),
                (old.games if old else 0) + 1,
                before.model,
                bots.get(n, old.bot if old else None),
            )
    return attrs.evolve(
        before,
        players=tuple(new.values()),
        games=before.games + 1,
        substitutes=tuple(dict.fromkeys((*before.substitutes, *game.substitutes))),
    )


def update(before: Ratings, game: Game) -> Ratings:
    """The ratings after one more game: one Plackett-Luce update of its teams, ranked by
    their points (ties share a rank); a substitute's place is a stand-in at the prior."""
    model, _ = _openskill()
    return _update(model, before, game)


def ratings(log: EventState | Iterable[Mapping[str, Any]]) -> Ratings:
    """The ratings the log gives (a log's entries, or the :class:`EventState` they fold
    to): :func:`update` folded over its results from :func:`new_ratings`, in the log's
    order; a pure function of the log."""
    model, version = _openskill()
    state = log if isinstance(log, EventState) else fold(log)
    out = Ratings(state.name, f"openskill {version} {MODEL}")
    for game in games(state):
        out = _update(model, out, game)
    return out
