"""Hidden information is the server's to keep: no message tells a seat what it may not see.

Whole games are played over real WebSockets against a server in a subprocess: people's
seats by test clients playing random legal moves (and now and then a refused one), the
other seats by bots, with a spectator watching. Every frame any client received is then
checked against the game as the server stored it, replayed with the library at the
step the frame describes:

- a seat's ``view`` is exactly :func:`moonrules.conformance.protocol.view_json` of that
  seat, and ``legal`` exactly its legal actions (none when it is not its turn);
- no frame to a seat names a tile it may not know: another seat's tile before it is
  played, the widow or the discard unless it is the bidder who took it. A spectator's
  frames name played tiles only;
- every kind of frame (type, refusal code, phase, …) is valid under the protocol's JSON
  Schema (``spec/schema/table/server-message.schema.json``): every frame with
  ``MOONRULES_DEEP=1``;
- each finished game's record (``GET /rooms/{room}/record``) replays as valid.

The quick profile plays its games to a target of 7, so that each lasts a hand or a few (a
whole game to 21 with random players can run to dozens of hands); ``MOONRULES_DEEP=1`` plays
many more games, to the presets' own target.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from depth import DEEP
from table_support import Player, Server, states_of, validator

from moonrules import PARTNERSHIP, STANDARD, GameState, legal_actions
from moonrules.conformance.protocol import view_json
from moonrules.records.replay import replay
from moonrules.records.values import rules_json
from moonrules.table.wire import legal_json

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parents[1]
GAMES = 40 if DEEP else 4
TILE = re.compile(r"(?<![0-9])([0-6])-([0-6])(?![0-9])")
ROOM_IDS = ("room", "next")
"""The members whose text is a room's id (this room's, its rematch's), not words."""


SERVER_SCHEMA = validator("table/server-message")


def tiles_in(value: Any) -> set[str]:
    """Every tile any string of a message names, written high end first."""
    out: set[str] = set()
    if isinstance(value, str):
        for a, b in TILE.findall(value):
            hi, lo = max(a, b), min(a, b)
            out.add(f"{hi}-{lo}")
    elif isinstance(value, list):
        for v in value:
            out |= tiles_in(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in ROOM_IDS and isinstance(v, str):
                continue  # an id of random URL-safe characters can hold "5-0"
            out |= tiles_in(k) | tiles_in(v)
    return out


def public_tiles(state: GameState) -> set[str]:
    """The tiles everyone has seen: those played in this hand and in the hand before."""
    seen = {str(t) for tr in state.tricks for t in tr.tiles} | {str(t) for t in state.trick}
    if state.history:
        seen |= {str(t) for tr in state.history[-1].tricks for t in tr.tiles}
    return seen


def known_to(state: GameState, seat: int | None) -> set[str]:
    """What ``seat`` may know of the tiles (``None``: a spectator)."""
    known = public_tiles(state)
    if seat is None:
        return known
    known |= {str(t) for t in state.hands[seat]}
    if state.bidder == seat and state.hand.widow_taken and state.widow is not None:
        known.add(str(state.widow))
    if state.bidder == seat and state.discard is not None:
        known.add(str(state.discard))
    return known


def check_frames(frames: list[str], states: list[GameState], seat: int | None) -> int:
    """Check every frame one client received; returns how many were checked."""
    seq = 0
    shapes: set[tuple[object, ...]] = set()
    for text in frames:
        msg = json.loads(text)
        # every kind of frame against the schema (validating each would be slow)
        shape = (msg["type"], msg.get("code"), msg.get("view", {}).get("phase"),
                 msg.get("last_hand") is None, msg.get("table", {}).get("over"))  # fmt: skip
        if shape not in shapes or DEEP:
            shapes.add(shape)
            SERVER_SCHEMA.validate(msg)
        if msg["type"] == "state":
            seq = msg["seq"]
            state = states[seq]
            if seat is not None:
                assert msg["view"] == view_json(state, seat)
                mine = msg["table"]["started"] and state.to_act == seat
                assert msg["legal"] == (legal_json(legal_actions(state)) if mine else [])
            else:
                assert msg["view"]["hand"] == [] and msg["legal"] == []
                assert msg["view"]["widow"] is None and msg["view"]["discard"] is None
        # a refusal answers the seat's own move in the state it last received
        leaked = tiles_in(msg) - known_to(states[seq], seat)
        assert not leaked, f"seat {seat} was told {sorted(leaked)} at step {seq}: {text[:300]}"
    return len(frames)


def _rules(preset: Any) -> Any:
    """A preset's name, or (quick profile) its rule object with a target of 7."""
    return preset.name if DEEP else rules_json(attrs.evolve(preset, target=7))


GAME_SETUPS = [
    (_rules(STANDARD), {"1": "basic"}, (0, 2)),
    (_rules(PARTNERSHIP), {"2": "basic", "3": "random"}, (0, 1)),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with Server(tmp_path_factory.mktemp("hidden") / "table.sqlite3") as s:
        yield s


@pytest.mark.parametrize("game", range(GAMES))
def test_no_frame_tells_a_seat_what_it_may_not_see(server: Server, game: int) -> None:
    rules, bots, people = GAME_SETUPS[game % len(GAME_SETUPS)]
    room = server.create(rules, bots)
    tokens = {s["seat"]: s["token"] for s in room["seats"]}
    assert sorted(tokens) == list(people)
    watcher = Player(server, room["room"], None, seed=game)
    # short games: more refused moves, so that every game has some, and mostly passes, so
    # that the bots bid (random bids are mostly set, and a game to 7 can then run on)
    mischief, pass_rate = (0.1, 0.0) if DEEP else (0.5, 0.8)
    players = [
        Player(
            server,
            room["room"],
            tokens[s],
            seed=100 * game + s,
            mischief=mischief,
            pass_rate=pass_rate,
        )
        for s in people
    ]
    watcher.start()
    for p in players:
        p.start()
    for p in (*players, watcher):
        p.join(180)
        assert p.error is None, repr(p.error)
        assert not p.is_alive()
    status, record, _ = server.request("GET", f"/rooms/{room['room']}/record")
    assert status == 200
    assert replay(record).valid
    states = states_of(server.db, room["room"])
    assert states[-1].is_over
    checked = check_frames(watcher.frames, states, None)
    for seat, p in zip(people, players, strict=True):
        checked += check_frames(p.frames, states, seat)
    # the clients saw the game through: the last frame each got is the end of the game
    assert all(json.loads(p.frames[-1])["table"]["over"] for p in (*players, watcher))
    assert any(json.loads(f)["type"] == "refused" for p in players for f in p.frames)
    assert checked > 50


def test_the_checker_sees_a_leak() -> None:
    """The check itself: a frame naming another seat's unplayed tile is caught."""
    from moonrules import new_game

    state = new_game("standard", seed=3)
    other = str(state.hands[1][0])
    fine = json.dumps({"type": "refused", "code": "illegal", "rule": "FOLLOW-2", "message": "m",
                       "reason": "m", "legal": []})  # fmt: skip
    assert check_frames([fine], [state], 0) == 1
    leak = json.dumps({"type": "refused", "code": "illegal", "rule": "FOLLOW-2",
                       "message": f"you do not hold {other[::-1]}",
                       "reason": "", "legal": []})  # fmt: skip
    with pytest.raises(AssertionError, match=other):
        check_frames([leak], [state], 0)
    widow = json.dumps({"type": "refused", "code": "illegal", "rule": "FOLLOW-2",
                        "message": str(state.widow),
                        "reason": "", "legal": []})  # fmt: skip
    with pytest.raises(AssertionError):
        check_frames([widow], [state], None)
