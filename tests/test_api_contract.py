"""One contract for every public callable, checked by walking the public API.

The public API is ``moonrules.__all__`` and the ``__all__`` of each subpackage (rules,
kernel, game, records, analysis, bots, arbitration, conformance, study, verification), with
each module's function that is named like its module (``moonrules.conformance.fuzz.fuzz``:
a package cannot list a name its submodule already holds), and the static and class
methods of every class found there (``Tile.parse``). ``moonrules.cli`` is left out: its one
callable, ``main(argv)``, answers bad input with an exit status and a one-line message,
never an exception (``tests/test_hostile.py`` holds it to that). So are the adapters on top
of the layers (``table``, ``openspiel``, ``pettingzoo``): what they offer is called by their
frameworks (a server, OpenSpiel, PettingZoo) under those frameworks' own contracts.

For each callable the test reads the signature and the annotations
(:func:`inspect.signature`, :func:`typing.get_type_hints`) and makes, parameter by
parameter, every other argument valid (:func:`valid_arguments`) and this one:

- of a wrong type: each of :data:`STRANGERS` (and a container holding one) that the
  annotation does not admit must raise :class:`TypeError` whose message begins by naming
  the parameter (``hand[0]: expected …``);
- impossible: the values of :data:`IMPOSSIBLE` for a parameter of that name (and of
  :data:`IMPOSSIBLE_FOR` for one callable), of the annotated type, must raise
  :class:`ValueError` or a :class:`~moonrules.rules.errors.MoonError` naming it (or quoting
  the text at fault, for a parser of one argument);
- nothing else ever escapes: no ``AttributeError``, ``IndexError``, ``KeyError`` from deep inside.

Kinds of callable left out, by kind and never by name: exception classes (an error's
constructor takes what it reports; :func:`test_every_exception_survives_pickle_and_copies`
holds them to their own promise), enumerations (calling one looks a member up by value, as
:class:`enum.Enum` defines), protocols (they cannot be called). A value class is held to
the types of its fields; the ranges of its fields are the functions' business (``apply``
rules on a ``Bid(99)``), except the values listed in :data:`VALUE_CLASSES`, which refuse
an impossible field themselves.

:func:`test_the_walk_finds_a_missing_check` runs the same checks on two made-up functions
that check nothing, so a walk that stopped seeing a missing check would fail.
"""

from __future__ import annotations

import collections.abc
import copy
import enum
import importlib
import inspect
import io
import math
import os
import pickle
import pkgutil
import random
import re
import reprlib
import sys
import types
import typing
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest

import moonrules
from moonrules import (
    STANDARD,
    Auction,
    Bid,
    GameState,
    MoonError,
    Phase,
    Play,
    Tile,
    Trump,
    apply,
    legal_actions,
    new_game,
    seeded_deal,
    tiles,
    to_record,
    view,
)
from moonrules.game.claims import claim_holds

ROOT = Path(__file__).resolve().parents[1]

PACKAGES = (
    "moonrules",
    "moonrules.rules",
    "moonrules.kernel",
    "moonrules.game",
    "moonrules.records",
    "moonrules.analysis",
    "moonrules.bots",
    "moonrules.arbitration",
    "moonrules.conformance",
    "moonrules.study",
    "moonrules.verification",
)
"""The packages whose ``__all__`` make the public API (``moonrules.cli`` aside: see above)."""


# ---------------------------------------------------------------------------
# The walk


def _skipped_kind(obj: object) -> bool:
    """Exceptions, enumerations and protocols (see the module's docstring)."""
    return inspect.isclass(obj) and (
        issubclass(obj, BaseException)
        or issubclass(obj, enum.Enum)
        or getattr(obj, "_is_protocol", False)
    )


@cache
def public_api() -> dict[str, Callable[..., Any]]:
    """Every public callable, by the first name it is listed under."""
    found: dict[str, Callable[..., Any]] = {}
    seen: set[int] = set()

    def add(name: str, obj: object) -> None:
        if id(obj) in seen or not callable(obj) or _skipped_kind(obj):
            return
        seen.add(id(obj))
        found[name] = obj
        if inspect.isclass(obj):
            for attr, raw in vars(obj).items():
                if not attr.startswith("_") and isinstance(raw, (staticmethod, classmethod)):
                    add(f"{name}.{attr}", getattr(obj, attr))

    for package in PACKAGES:
        module = importlib.import_module(package)
        assert hasattr(module, "__all__"), f"{package} has no __all__"
        for name in module.__all__:
            add(f"{package}.{name}", getattr(module, name))
        if package == "moonrules":
            continue
        for info in pkgutil.iter_modules(module.__path__):
            sub = importlib.import_module(f"{package}.{info.name}")
            named = vars(sub).get(info.name)
            if inspect.isfunction(named) and info.name in getattr(sub, "__all__", ()):
                add(f"{package}.{info.name}.{info.name}", named)
    return found


@cache
def _namespace() -> dict[str, Any]:
    """Every public name, for annotations that name what their module imports only for
    type checkers."""
    out: dict[str, Any] = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        out.update({n: getattr(module, n) for n in module.__all__})
    return out


def signature(obj: Callable[..., Any]) -> inspect.Signature:
    """``obj``'s signature; for a class of a compiled module (which has none to read), the
    signature of the same class in the module's source form."""
    try:
        return inspect.signature(obj)
    except ValueError:
        from moonrules.kernel.compiled import source_form

        source = source_form(obj.__module__)
        return inspect.signature(getattr(source, obj.__qualname__))


def parameters(obj: Callable[..., Any]) -> list[tuple[str, Any, Any]]:
    """``(name, annotation, default)`` of each parameter a caller may pass, in order;
    ``default`` is :data:`inspect.Parameter.empty` for a required one."""
    target = obj.__init__ if inspect.isclass(obj) else obj
    module = sys.modules[getattr(obj, "__module__", "moonrules")]
    if inspect.isclass(obj) and not hasattr(target, "__annotations__"):  # compiled: the source's
        from moonrules.kernel.compiled import source_form

        module = source_form(obj.__module__)
        target = getattr(module, obj.__qualname__).__init__
    hints = typing.get_type_hints(target, globalns={**_namespace(), **vars(module)})
    out = []
    for p in signature(obj).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        assert p.name in hints, f"{obj.__qualname__}: parameter {p.name!r} has no annotation"
        out.append((p.name, hints[p.name], p.default))
    return out


# ---------------------------------------------------------------------------
# Does a value have the annotated type? (The test's own reading, independent of the library's.)


def admits(hint: Any, value: object) -> bool:
    """Whether the annotation ``hint`` admits ``value``: ``int`` takes no ``bool``, ``float``
    takes an ``int``, a sequence never takes text, a container's items are checked."""
    if hint is Any or hint is object or isinstance(hint, typing.TypeVar):
        return True
    if hint is None or hint is type(None):
        return value is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(admits(a, value) for a in args)
    if origin is typing.Literal:
        return any(type(value) is type(a) for a in args)
    if origin is collections.abc.Callable:
        return callable(value)
    if hint is typing.IO or origin is typing.IO:
        return hasattr(value, "read") or hasattr(value, "write")
    if origin is None or origin is os.PathLike:
        return _admits_class(origin or hint, value)
    if not isinstance(value, origin) or (
        isinstance(value, (str, bytes)) and origin not in (str, bytes)
    ):
        return False
    return _items_admitted(origin, args, value)


def _admits_class(hint: Any, value: object) -> bool:
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return not isinstance(hint, type) or isinstance(value, hint)


def _items_admitted(origin: Any, args: tuple[Any, ...], value: object) -> bool:
    if origin is tuple and args and args[-1] is not Ellipsis:
        assert isinstance(value, tuple)
        return len(value) == len(args) and all(
            admits(a, v) for a, v in zip(args, value, strict=True)
        )
    if isinstance(value, collections.abc.Mapping) and len(args) == 2:
        return all(admits(args[0], k) and admits(args[1], v) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)) and args:
        return all(admits(args[0], v) for v in value)
    return True


def _item_hint(hint: Any) -> Any | None:
    """The item annotation of a container annotation (``Sequence[Tile]`` -> ``Tile``)."""
    for h in (
        typing.get_args(hint)
        if typing.get_origin(hint) in (typing.Union, types.UnionType)
        else (hint,)
    ):
        origin, args = typing.get_origin(h), typing.get_args(h)
        iterable = origin in (tuple, list, set, frozenset) or (
            isinstance(origin, type)
            and issubclass(origin, collections.abc.Iterable)
            and not issubclass(origin, collections.abc.Mapping)
        )
        if iterable and args and (origin is not tuple or args[-1] is Ellipsis):
            return args[0]
    return None


# ---------------------------------------------------------------------------
# Examples: valid arguments


@cache
def states() -> dict[str, GameState]:
    """Example states: bidding, naming trump, playing (two tricks before the end, one tile
    into the trick), over, and a renege available under renege = penalty."""
    out = {"bidding": new_game("standard", seed=11, first_bidder=0)}
    out["trump"] = _contract(out["bidding"])
    s = apply(out["trump"], moonrules.NameTrump(Trump.SIX))
    while len(s.tricks) < 5 or not s.trick:
        s = apply(s, legal_actions(s)[0])
    out["playing"] = s
    over = new_game("standard", seed=2)
    for _ in range(10_000):
        if over.is_over:
            break
        over = apply(over, legal_actions(over)[-1])
    out["over"] = over
    r = apply(
        _contract(new_game("renege-penalty", seed=1, first_bidder=0)),
        moonrules.NameTrump(Trump.SIX),
    )
    while not _can_renege(r):
        r = apply(r, legal_actions(r)[0])
    out["renege"] = r
    c = apply(out["trump"], moonrules.NameTrump(Trump.SIX))
    while not claim_holds(c, c.to_act or 0, 7 - len(c.tricks)):
        c = apply(c, legal_actions(c)[0])
    out["claiming"] = c
    return out


def _contract(s: GameState) -> GameState:
    """``s`` (a new hand) once seat 0 bid 4, the others passed and seat 0 discarded."""
    s = apply(apply(apply(s, Bid(4)), moonrules.Pass()), moonrules.Pass())
    return apply(s, legal_actions(s)[0])


def _renege_tile(s: GameState) -> Tile | None:
    """A tile the player to act holds and may not play (a renege), if any."""
    if s.phase is not Phase.PLAY or not s.trick:
        return None
    legal = {a.tile for a in legal_actions(s) if isinstance(a, Play)}
    return next((t for t in s.hands[s.to_act or 0] if t not in legal), None)


def _can_renege(s: GameState) -> bool:
    assert s.hand_number == 1, "no renege in the first hand: choose another seed"
    return _renege_tile(s) is not None


def _record_text(name: str) -> str:
    return (ROOT / "examples" / name).read_text(encoding="utf-8")


@cache
def instances() -> list[object]:
    """One value of each public class (and of the types the parameters take), made by the
    library itself: a class's example constructor arguments are an example's fields."""
    from moonrules import analysis, arbitration, bots, kernel, records, study, verification
    from moonrules.analysis.advise import advise
    from moonrules.analysis.review import review as review_game
    from moonrules.conformance import load_vectors
    from moonrules.records.notation import parse_notation

    st = states()
    playing = st["playing"]
    seat_view = view(playing, playing.to_act or 0)
    claim = arbitration.check(arbitration.read_record(_record_text("claim-holds.moon")))
    ruled = arbitration.check(arbitration.read_record(_record_text("renege-trump-follows.json")))
    renege = arbitration.check(arbitration.read_record(_record_text("renege-penalty.moon")))
    advice = advise(tiles("6-6 6-5 6-4 6-3 5-5 2-1 1-1"), samples=8, min_samples=8, batch=8)
    explanation = arbitration.explain_play(Trump.SIX, Tile(5, 3), trick=tiles("3-2"))
    prop = (
        verification.by_id(["TILE-SETS"])[0]
        if "TILE-SETS" in {p.id for p in verification.CATALOGUE}
        else verification.CATALOGUE[0]
    )
    replayed = records.replay(to_record(playing))
    violation = records.replay(
        arbitration.read_record(_record_text("renege-trump-follows.json")).record
    )
    hand_report = next(h for h in claim.hands if h.tricks)
    renege_report = next(h.renege for h in renege.hands if h.renege is not None)
    settings = study.StudySettings(STANDARD, deals=2, chunk=1, format="csv")
    reviewed = review_game(playing, samples=2, seed=1)
    decision = next(d for h in reviewed.hands for d in h.decisions if d.advice)
    return [
        STANDARD,
        Tile(6, 4),
        Trump.SIX,
        playing,
        playing.game,
        playing.hand,
        playing.hand.contract,
        playing.tricks[0],
        seeded_deal(STANDARD, 11, 1),
        seat_view,
        Auction(),
        Bid(5),
        moonrules.Pass(),
        Play(Tile(6, 4)),
        moonrules.Discard(Tile(6, 4)),
        moonrules.NameTrump(Trump.SIX),
        moonrules.score_hand(STANDARD, 0, 5, [4, 2, 1]),
        analysis.verify_claim(playing, playing.to_act or 0),
        analysis.SolverCache(),
        advice,
        advice.trumps[0],
        advice.trumps[0].bids[0],
        advice.best,
        kernel.Kernel.live(),
        kernel.Mismatch("FOLLOW-2", "a case", "1-1", "2-2"),
        bots.knowledge(seat_view),
        bots.BasicBot(),
        bots.RandomBot(),
        claim,
        claim.claim,
        ruled.ruling,
        hand_report,
        hand_report.tricks[0],
        renege_report,
        explanation,
        explanation.reasons[0],
        arbitration.read_record(_record_text("claim-holds.moon")),
        parse_notation(_record_text("claim-holds.moon")),
        replayed,
        replayed.hands[0],
        violation.violation,
        prop,
        verification.Outcome(1, "note"),
        verification.Result(prop, verification.Outcome(1, "note"), 0.0, True, 0.0),
        settings,
        study.Progress(1, 2, 1, 0.5),
        study.Table("t", "title", "note", "row", ("a",), ("b",), (("1",),)),
        load_vectors()[0],
        random.Random(7),
        reviewed,
        reviewed.hands[0],
        reviewed.players[0],
        decision,
        decision.alternatives[0],
        decision.advice[0],
    ]


@cache
def by_name() -> dict[str, object]:
    """Valid arguments by parameter name, where the name says more than the type."""
    st = states()
    playing = st["playing"]
    record = to_record(playing)
    return {
        "state": playing,
        "seat": playing.to_act,
        "tile": Tile(6, 6),
        "led": Tile(3, 2),
        "play": Tile(5, 3),
        "hand": tiles("5-3 6-6 1-1 4-4 2-1 6-1 5-5"),
        "trick": tiles("3-2"),
        "suit": 3,
        "bidder": 0,
        "bid": 5,
        "tricks": [4, 2, 1],
        "scores": [21, 3, 4],
        "side": 0,
        "first_bidder": 0,
        "seed": 11,
        "hand_number": 1,
        "call": 5,
        "action": legal_actions(playing)[0],
        "deal": seeded_deal(STANDARD, 11, 1),
        "name": "standard",
        "record": record,
        "source": _record_text("claim-holds.moon"),
        "text": "6-4",
        "texts": "6-4 3-3",
        "index": 27,
        "number": 5,
        "high": 6,
        "low": 4,
        "players": 3,
        "line": [],
        "calls": [5, 0],
        "ids": ["TILE-SETS"],
        "clauses": ["FOLLOW-2"],
        "properties": [],
        "argv": [sys.executable, "-c", "pass"],
        "vectors": [],
        "first": 1,
        "count": 1,
        "cols": {},
        "request": {"op": "is_trump", "tile": "6-4", "trump": 4},
        "sink": io.BytesIO(),
        "target": "true",
        "amount": 5,
        "max_entries": 1024,
    }


def _by_type(hint: Any, tmp: Path) -> object:
    """A valid argument of annotation ``hint``: an example instance, else a plain value."""
    for value in instances():
        if admits(hint, value):
            return value
    plain: list[object] = [
        1,
        1.0,
        True,
        "x",
        b"x",
        (),
        [],
        {},
        tmp,
        io.BytesIO(b""),
        lambda *args: None,
    ]
    for value in plain:
        if admits(hint, value):
            return value
    raise AssertionError(f"no example of {hint}: add one to instances()")


OVERRIDES: dict[str, dict[str, Callable[[], object]]] = {
    "moonrules.with_deal": {"state": lambda: states()["bidding"]},
    "moonrules.apply_renege": {
        "state": lambda: states()["renege"],
        "tile": lambda: _renege_tile(states()["renege"]),
    },
    "moonrules.apply": {"seat": lambda: states()["playing"].to_act},
    "moonrules.apply_claim": {
        "state": lambda: states()["claiming"],
        "seat": lambda: states()["claiming"].to_act,
        "tricks": lambda: None,
        "budget": lambda: None,
    },
    "moonrules.Tile.parse": {"text": lambda: "6-4"},
    "moonrules.rank": {"tile": lambda: Tile(5, 3)},
    "moonrules.Trump.parse": {"text": lambda: "doubles"},
    "moonrules.rules.check_call": {"auction": lambda: Auction(), "call": lambda: 5},
    "moonrules.verification.by_id": {"ids": lambda: [moonrules.verification.CATALOGUE[0].id]},
    "moonrules.arbitration.read_record": {"text": lambda: _record_text("claim-holds.moon")},
    "moonrules.arbitration.parse_calls": {"text": lambda: "pass 5"},
    "moonrules.records.load_record": {"text": lambda: '{"hands": []}'},
    "moonrules.conformance.handle_line": {"line": lambda: '{"op": "version"}'},
    "moonrules.verification.spec_clauses": {"text": lambda: "FOLLOW-2"},
    "moonrules.study.build_tables": {
        "cols": lambda: {name: [] for name in moonrules.study.rows.COLUMNS}
    },
    "moonrules.study.chunk_rows": {"count": lambda: 0},
    "moonrules.analysis.advise.advise": {
        "samples": lambda: 8,
        "min_samples": lambda: 8,
        "batch": lambda: 8,
    },
    "moonrules.conformance.fuzz.fuzz": {
        "target": lambda: moonrules.conformance.handle,
        "examples": lambda: 2,
        "shrink_seconds": lambda: 1.0,
    },
    "moonrules.conformance.serve.serve": {"source": lambda: io.BytesIO(b"")},
    "moonrules.conformance.conform.conform": {"directory": lambda: Path(".")},
    "moonrules.arbitration.check": {
        "source": lambda: moonrules.arbitration.read_record(_record_text("claim-holds.moon"))
    },
}
"""Valid arguments of one callable, where neither the name nor the type gives one."""

NOT_RUN: dict[str, str] = {
    "moonrules.kernel.kernel_mismatches": "it compares the kernel over a rule set's whole domain "
    "(tests/test_kernel_check.py runs it)",
    "moonrules.conformance.conform.conform": "it runs the vectors against a target process",
    "moonrules.study.run_study": "it solves deals on a process pool",
    "moonrules.study.read_rows": "it needs a study directory",
    "moonrules.study.write_report": "it needs a study directory",
}
"""Callables whose example call is not run (only refused calls are): why not."""


def valid_arguments(name: str, obj: Callable[..., Any], tmp: Path) -> dict[str, object]:
    """Valid keyword arguments for ``obj``: every required parameter, from an example of the
    class itself, :data:`OVERRIDES`, :func:`by_name` or the type; the rest take their
    defaults."""
    out: dict[str, object] = {}
    own = next(
        (v for v in instances() if inspect.isclass(obj) and type(v) is obj and attrs.has(obj)),
        None,
    )
    for param, hint, default in parameters(obj):
        if param in OVERRIDES.get(name, {}):
            out[param] = OVERRIDES[name][param]()
        elif own is not None:
            field = next(f for f in attrs.fields(type(own)) if f.alias == param)  # type: ignore[arg-type]
            out[param] = getattr(own, field.name)
        elif default is not inspect.Parameter.empty:
            continue
        elif param in by_name() and admits(hint, by_name()[param]):
            out[param] = by_name()[param]
        else:
            out[param] = _by_type(hint, tmp)
    return out


# ---------------------------------------------------------------------------
# Wrong and impossible arguments


class _Opaque:
    """An object of no type any parameter takes."""

    def __repr__(self) -> str:
        return "<opaque>"


STRANGERS: tuple[object, ...] = (
    None,
    True,
    7,
    2.5,
    "x",
    b"x",
    (),
    [],
    {},
    _Opaque(),
    Tile(1, 1),
    Trump.ONE,
    STANDARD,
)
"""Values of every common type; each one a parameter's annotation does not admit must be
refused with a :class:`TypeError` naming the parameter."""


def wrong_values(hint: Any) -> list[object]:
    """The values of :data:`STRANGERS` that ``hint`` does not admit, and containers of the
    admitted kind holding one item the item annotation does not admit."""
    out = [v for v in STRANGERS if not admits(hint, v)]
    item = _item_hint(hint)
    if item is not None and item is not Any:
        bad: object = None if not admits(item, None) else _Opaque()
        for empty, container in (([], [bad]), ((), (bad,))):
            if admits(hint, empty) and not admits(hint, container):
                out.append(container)
    return out


_SEATS: list[object] = [-1, 3, 10**50]
_COUNTS: list[object] = [0, -1]
_SECONDS: list[object] = [-1.0, math.nan, math.inf]
IMPOSSIBLE: dict[str, list[object]] = {
    "seat": _SEATS,
    "bidder": _SEATS,
    "first_bidder": _SEATS,
    "leader": _SEATS,
    "side": _SEATS,
    "bidder_side": _SEATS,
    "seed": [10**5000],
    "hand_number": [0, -3],
    "bid": [99, 2, -1],
    "suit": [-1, 8],
    "tricks": [[9, -1, -1], [8, 0, 0], [5, 1], [-1, 4, 4], -1, 99],
    "scores": [[], [0, 0], [0, 0, 0, 0]],
    "totals": [[], [0, 0, 0, 0]],
    "hand": [tiles("6-6 6-6")],
    "trick": [tiles("6-6 6-5 6-4 6-3 6-2 6-1 5-5 5-4 5-3 5-2"), tiles("3-2 3-2")],
    "players": [2, 5],
    "min_bid": [2, 6],
    "target": [0, -1],
    "trump_numbers": [[7], [-1]],
    "index": [-1, 28],
    "number": [-1, 7],
    "high": [-1, 7],
    "low": [-1, 7],
    "samples": _COUNTS,
    "min_samples": _COUNTS,
    "workers": _COUNTS,
    "batch": _COUNTS,
    "limit": [-1],
    "max_entries": _COUNTS,
    "max_length": _COUNTS,
    "max_line_bytes": _COUNTS,
    "max_findings": [-1],
    "examples": [-1],
    "count": [-1],
    "first": [0],
    "min_count": [-1],
    "deals": _COUNTS,
    "chunk": _COUNTS,
    "timeout": [0.0, *_SECONDS],
    "seconds": _SECONDS,
    "shrink_seconds": _SECONDS,
    "half_width": [0.0, 1.5, *_SECONDS],
    "name": ["no-such-rules"],
    "compare": ["everything"],
    "format": ["xlsx"],
}
"""Impossible values by parameter name (each tried where the annotation admits it)."""

IMPOSSIBLE_FOR: dict[str, dict[str, list[Callable[[], object]]]] = {
    "moonrules.solve": {"state": [lambda: states()["bidding"], lambda: states()["over"]]},
    "moonrules.play_values": {"state": [lambda: states()["bidding"]]},
    "moonrules.analysis.describe_line": {"line": [lambda: [(9, Tile(6, 6))]]},
    "moonrules.legal_plays": {"trick": [lambda: tiles("6-6")]},  # a tile of the hand
    "moonrules.read_record": {"source": [lambda: "", lambda: "no-such-game.json"]},
    "moonrules.verification.by_id": {"ids": [lambda: ["NO-SUCH-PROPERTY"]]},
    "moonrules.rank": {"tile": [lambda: Tile(6, 6)]},  # not in the suit
    "moonrules.analysis.advise.advise": {
        "hand": [lambda: tiles("6-6 6-5 6-4 6-3 6-2 6-1 5-5 5-4"), lambda: tiles("6-6 6-5")]
    },
}
"""Impossible values of one callable's parameter (made when needed)."""

VALUE_CLASSES = (
    "moonrules.Tile",
    "moonrules.RuleSet",
    "moonrules.Auction",
    "moonrules.analysis.SolverCache",
    "moonrules.study.StudySettings",
)
"""The value classes that refuse an impossible field (not only a wrong type)."""


VALID_FOR: dict[str, dict[str, list[object]]] = {
    # a review with no sampled deal grades by double dummy alone
    "moonrules.analysis.review.review": {"samples": [0]},
}
"""Values :data:`IMPOSSIBLE` lists for a parameter's name that one function takes."""


def impossible_values(name: str, obj: Callable[..., Any], param: str, hint: Any) -> list[object]:
    if inspect.isclass(obj) and name not in VALUE_CLASSES:
        return []
    values = [v() for v in IMPOSSIBLE_FOR.get(name, {}).get(param, [])]
    valid = VALID_FOR.get(name, {}).get(param, [])
    values += [v for v in IMPOSSIBLE.get(param, []) if admits(hint, v) and v not in valid]
    return values


# ---------------------------------------------------------------------------
# Calling


def _call(obj: Callable[..., Any], kwargs: dict[str, object]) -> object:
    """Call ``obj``; an iterator it returns is drawn from once (a generator checks its
    arguments only when it first runs)."""
    positional = [p.name for p in signature(obj).parameters.values() if p.kind is p.POSITIONAL_ONLY]
    args = [kwargs.pop(p) for p in positional if p in kwargs]
    result = obj(*args, **kwargs)
    if isinstance(result, Iterator):
        next(result, None)
    return result


def _names(message: str, param: str) -> bool:
    """Whether an error message names the parameter: ``param`` as a word (``hand[0]``
    and ``deal.hands`` name ``hand`` and ``deal``)."""
    return re.search(rf"(?<![\w.]){re.escape(param)}\b", message) is not None


def _where(e: BaseException) -> str:
    tb = e.__traceback__
    frames = []
    while tb is not None:
        frames.append(f"{Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}")
        tb = tb.tb_next
    return " <- ".join(reversed(frames[-3:]))


def refusals(name: str, obj: Callable[..., Any], tmp: Path) -> tuple[int, list[str]]:
    """Call ``obj`` with each wrong and each impossible argument; ``(calls made, broken
    promises)``."""
    base = valid_arguments(name, obj, tmp)
    broken: list[str] = []
    calls = 0
    params = parameters(obj)
    for param, hint, _default in params:
        tries = [(v, "wrong") for v in wrong_values(hint)]
        tries += [(v, "impossible") for v in impossible_values(name, obj, param, hint)]
        for value, kind in tries:
            calls += 1
            huge = isinstance(value, int) and value.bit_length() > 1000
            text = "<a huge int>" if huge else reprlib.repr(value)
            shown = text if len(text) < 60 else f"{text[:57]}..."
            what = f"{name}({param}={shown})"
            try:
                _call(obj, {**base, param: value})
            except TypeError as e:
                if kind != "wrong":
                    broken.append(f"{what}: TypeError for a value of the right type: {e}")
                elif not str(e).startswith(param):
                    broken.append(f"{what}: TypeError not naming {param!r} first: {e}")
            except (ValueError, MoonError) as e:
                if kind == "wrong":
                    broken.append(f"{what}: {type(e).__name__} for a wrong type: {e}")
                elif not (
                    _names(str(e), param)
                    or (len(params) == 1 and isinstance(value, str) and value in str(e))
                ):
                    broken.append(f"{what}: {type(e).__name__} not naming {param!r}: {e}")
            except Exception as e:
                broken.append(f"{what}: {type(e).__name__} escaped ({_where(e)}): {e}")
            else:
                broken.append(f"{what}: accepted")
    return calls, broken


API = public_api()


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("name", sorted(API))
def test_wrong_and_impossible_arguments_are_refused_by_name(name: str, tmp_path: Path) -> None:
    _calls, broken = refusals(name, API[name], tmp_path)
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("name", sorted(set(API) - set(NOT_RUN)))
def test_the_valid_example_call_succeeds(name: str, tmp_path: Path) -> None:
    """The arguments the refusals start from are valid: each refused call differs from a
    call that succeeds in one argument only."""
    _call(API[name], valid_arguments(name, API[name], tmp_path))


def test_the_walk_covers_the_public_api() -> None:
    """Every package is walked, and so is every function of their ``__all__``."""
    names = set(API)
    for package in PACKAGES:
        assert any(n.startswith(f"{package}.") for n in names), f"nothing walked in {package}"
    for expected in (
        "moonrules.seeded_deal",
        "moonrules.is_trump",
        "moonrules.legal_calls",
        "moonrules.solve",
        "moonrules.view",
        "moonrules.game_winner",
        "moonrules.read_record",
        "moonrules.Tile.parse",
        "moonrules.conformance.fuzz.fuzz",
        "moonrules.analysis.advise.advise",
    ):
        assert expected in names, f"{expected} is not walked"
    assert len(names) >= 100, f"only {len(names)} callables walked"


def _unchecked_seat(state: GameState, seat: int) -> int:
    return state.hand.hands[seat].bit_count()


def _unchecked_tiles(hand: collections.abc.Sequence[Tile], trump: Trump) -> int:
    return sum(t.high for t in hand if trump is not Trump.NONE)


def test_the_walk_finds_a_missing_check(tmp_path: Path) -> None:
    """Two functions that check nothing break the promise in every way the walk looks for."""
    _calls, broken = refusals("moonrules._unchecked_seat", _unchecked_seat, tmp_path)
    assert any("state=None): AttributeError escaped" in b for b in broken), broken
    assert any("seat=-1): accepted" in b for b in broken), broken
    assert any("seat=3): IndexError escaped" in b for b in broken), broken
    assert any("seat=2.5): TypeError not naming 'seat'" in b for b in broken), broken
    _calls, broken = refusals("moonrules._unchecked_tiles", _unchecked_tiles, tmp_path)
    assert any("hand=(Tile(6, 6), Tile(6, 6))): accepted" in b for b in broken), broken
    assert any("hand=[None]): AttributeError escaped" in b for b in broken), broken
    assert any("trump=7): accepted" in b for b in broken), broken


# ---------------------------------------------------------------------------
# Every exception class survives pickle, copy and deepcopy


def _modules() -> list[types.ModuleType]:
    """Every module of moonrules, imported (``__main__`` aside, which runs the command line;
    a module whose optional extra is not installed is left out)."""
    out = []
    for info in pkgutil.walk_packages(moonrules.__path__, "moonrules.", onerror=lambda _: None):
        if info.name.endswith("__main__"):
            continue
        try:
            out.append(importlib.import_module(info.name))
        except ModuleNotFoundError as e:
            if (e.name or "moonrules").startswith("moonrules"):
                raise
    return out


def exception_classes() -> list[type[BaseException]]:
    """Every exception class defined in moonrules, found by walking its modules; private
    ones (a leading underscore: control flow that never leaves its module) aside."""
    found: dict[str, type[BaseException]] = {}
    for module in _modules():
        for obj in vars(module).values():
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and obj.__module__ == module.__name__
                and not obj.__name__.startswith("_")
            ):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)]


def _error_example(cls: type[BaseException]) -> BaseException:
    """An instance of ``cls`` with every parameter of its constructor given a value."""
    kwargs: dict[str, object] = {}
    module = sys.modules[cls.__module__]
    if not any("__init__" in vars(k) for k in cls.__mro__ if k.__module__.startswith("moonrules")):
        return cls("something went wrong")
    hints = typing.get_type_hints(cls.__init__, globalns={**_namespace(), **vars(module)})
    for p in inspect.signature(cls).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            kwargs.setdefault("args", ("something went wrong",))
            continue
        hint = hints.get(p.name, Any)
        value: object
        if p.name in ("seat", "call"):
            value = 1
        elif p.name == "tile":
            value = Tile(6, 4)
        elif p.name == "trump":
            value = Trump.SIX
        elif p.name.startswith("allowed_"):
            value = {"allowed_tiles": (Tile(6, 4),), "allowed_calls": (0, 5)}.get(
                p.name, (Trump.SIX,)
            )
        elif (admits(hint, "FOLLOW-2") and not admits(hint, None)) or hint is str:
            value = f"the {p.name}"
        else:
            value = _by_type(hint, Path("."))
        kwargs[p.name] = value
    args = kwargs.pop("args", ())
    assert isinstance(args, tuple)
    return cls(*args, **kwargs)


def _fields(e: BaseException) -> dict[str, object]:
    return {k: v for k, v in vars(e).items()}


@pytest.mark.parametrize(
    "cls", exception_classes(), ids=lambda c: f"{c.__module__}.{c.__qualname__}"
)
def test_every_exception_survives_pickle_and_copies(cls: type[BaseException]) -> None:
    error = _error_example(cls)
    for copied in (
        pickle.loads(pickle.dumps(error)),
        copy.copy(error),
        copy.deepcopy(error),
    ):
        assert type(copied) is cls
        assert str(copied) == str(error) and copied.args == error.args
        assert _fields(copied) == _fields(error), f"{cls.__name__} lost a field"


def test_the_exception_walk_finds_the_library_errors() -> None:
    names = {c.__name__ for c in exception_classes()}
    for expected in (
        "IllegalAction",
        "OutOfTurn",
        "IllegalDeal",
        "ParseError",
        "RulesError",
        "RecordError",
        "RecordViolation",
        "NotationError",
        "TargetError",
        "UnknownBot",
        "ProtocolError",
        "JSONTextError",
    ):
        assert expected in names


# ---------------------------------------------------------------------------
# moonrules.read_record: a path or a record's text, JSON or the notation


def test_read_record_takes_a_path_or_the_text_in_either_form(tmp_path: Path) -> None:
    """A ``str`` with a line break or opening with ``{`` is text, any other ``str`` and any
    ``os.PathLike`` a path; the text is JSON or the notation, whichever it is."""
    import json

    from moonrules.records.notation import write_notation

    state = states()["playing"]
    record = to_record(state)
    as_json, as_notation = json.dumps(record), write_notation(record)
    (tmp_path / "game.json").write_text(as_json, encoding="utf-8")
    (tmp_path / "game.moon").write_text(as_notation, encoding="utf-8")
    (tmp_path / "{odd").write_text("\ufeff" + as_json, encoding="utf-8")  # a BOM is allowed
    for source in (
        as_json,
        f"  \n{as_json}",
        as_notation,
        "\ufeff" + as_notation,
        str(tmp_path / "game.json"),
        tmp_path / "game.moon",
        "game.json",  # relative to the working directory
        tmp_path / "{odd",  # a Path is a path, whatever its name
    ):
        assert moonrules.read_record(source) == state, source
    # A str that opens with "{" is text, even where a file of that name exists.
    with pytest.raises(moonrules.records.RecordError, match="not valid JSON"):
        moonrules.read_record("{odd")


def test_read_record_refuses_by_name_what_it_cannot_read(tmp_path: Path) -> None:
    from moonrules.records import NotationError, RecordError, RecordViolation

    (tmp_path / "binary.json").write_bytes(b"\xff\xfe{}")
    big = " " * 100 + _record_text("clean-game.json")
    (tmp_path / "big.json").write_text(big, encoding="utf-8")
    (tmp_path / "empty.moon").write_text("\n\n", encoding="utf-8")
    refused: list[tuple[object, type[BaseException], str]] = [
        ("no-such-game.json", RecordError, "^source: no file 'no-such-game.json'"),
        (tmp_path, RecordError, "^source: cannot read"),  # a directory
        (tmp_path / "binary.json", RecordError, "is not UTF-8"),
        (tmp_path / "empty.moon", RecordError, "^source: the record is empty"),
        ("", RecordError, "^source: no file ''"),
        ("\n", RecordError, "^source: the record is empty"),
        ("rules standard\nhand one\n", NotationError, "^line 2: "),
        ('{"hands": 5}', RecordError, "^hands: "),
        (b"{}", TypeError, "^source: expected a path"),
        (None, TypeError, "^source: expected a path"),
    ]
    for source, kind, pattern in refused:
        with pytest.raises(kind, match=pattern):
            moonrules.read_record(source)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="longer than 64 bytes"):
        moonrules.read_record(tmp_path / "big.json", max_length=64)
    assert moonrules.read_record(tmp_path / "big.json", max_length=None) is not None
    bad = _record_text("renege-trump-follows.json")
    with pytest.raises(RecordViolation) as e:
        moonrules.read_record(bad)
    assert e.value.rule == "FOLLOW-2"


def test_every_checked_field_has_an_annotation_that_resolves() -> None:
    """Each field :func:`~moonrules.rules.contract.typed` checks names types defined when it
    is first built (a name imported only for type checkers would leave it unchecked)."""
    from moonrules.rules import contract

    checked = 0
    for module in _modules():
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and attrs.has(cls) and cls.__module__ == module.__name__):
                continue
            for field in attrs.fields(cls):
                check = field.validator
                checks = getattr(check, "_validators", (check,))
                for c in checks:
                    if isinstance(c, contract._FieldCheck):
                        c.resolve()  # raises NameError if it cannot
                        checked += 1
    assert checked > 150, checked
