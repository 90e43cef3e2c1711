"""The observation encoder as first written, kept as the reference for the fast one.

:func:`reference_encode` is the section-by-section encoder of
:mod:`moonrules.game.encoding` as it stood before it was rewritten for speed (commit
fd831b9): every write names its section, and every index is derived from the layout on
the spot. It is slow and plain on purpose; ``tests/test_encoding_pinned.py`` checks that
the library's encoder gives exactly its vectors (its digests, made with the library of
fd831b9, are also what this encoder gives: ``--reference`` prints them).
"""

from __future__ import annotations

from moonrules import Bid, Phase, PlayerView, Tile
from moonrules.game.encoding import ObservationLayout


class _Writer:
    """Writes one view into a vector of its layout, section by section (seats relative)."""

    def __init__(self, view: PlayerView, history: bool) -> None:
        rules = view.rules
        layout = ObservationLayout(rules, history=history)
        self.sections = {s.name: s.start for s in layout.sections}
        self.out = [0.0] * layout.size
        self.n = view.players
        self.me = view.seat
        self.t = len(rules.tile_set.tiles)
        self.b = len(rules.bids)
        pos = [-1] * 28
        for k, x in enumerate(rules.tile_set.tiles):
            pos[x.index] = k
        self.pos = tuple(pos)

    def rel(self, seat: int) -> int:
        """``seat`` counted from the observing seat."""
        return (seat - self.me) % self.n

    def put(self, name: str, offset: int, value: float = 1.0) -> None:
        """Set the float at ``offset`` in section ``name``."""
        self.out[self.sections[name] + offset] = value

    def tile(self, name: str, tile: Tile, seat: int = -1) -> None:
        """Mark ``tile`` in section ``name`` (in the row of ``seat``, for a per-seat section)."""
        row = 0 if seat < 0 else self.rel(seat) * self.t
        self.put(name, row + self.pos[tile.index])


def _call_value(call: object) -> int:
    return call.amount if isinstance(call, Bid) else 0


def _write_play(w: _Writer, view: PlayerView) -> None:
    """``hand``, ``played``, ``trick``, ``leader``, ``tricks_won``."""
    for x in view.hand:
        w.tile("hand", x)
    for tr in view.tricks:
        for k, x in enumerate(tr.tiles):
            w.tile("played", x, tr.leader + k)
    if view.trick:
        assert view.leader is not None
        for k, x in enumerate(view.trick):
            w.tile("played", x, view.leader + k)
            w.tile("trick", x, view.leader + k)
    if view.leader is not None and view.phase is Phase.PLAY:
        w.put("leader", w.rel(view.leader))
    for s, won in enumerate(view.tricks_won):
        w.put("tricks_won", w.rel(s), won / 7)


def _write_contract(w: _Writer, view: PlayerView) -> None:
    """``first_bidder``, ``calls``, ``bidder``, ``bid``, ``trump``, ``widow``, ``discard``."""
    rules = view.rules
    w.put("first_bidder", w.rel(view.first_bidder))
    for k, call in enumerate(view.calls):
        value = _call_value(call)
        column = rules.bids.index(value) + 1 if value else 0
        w.put("calls", w.rel(view.first_bidder + k) * (1 + w.b) + column)
    if view.bidder is not None:
        assert view.bid is not None
        w.put("bidder", w.rel(view.bidder))
        w.put("bid", rules.bids.index(view.bid))
    if view.trump is not None:
        w.put("trump", rules.trumps.index(view.trump))
    if view.widow is not None:
        w.tile("widow", view.widow)
    if view.discard is not None:
        w.tile("discard", view.discard)


def reference_encode(view: PlayerView, history: bool) -> tuple[float, ...]:
    """The observation (``history=False``) or information state of ``view``, as the first
    encoder wrote it."""
    rules = view.rules
    w = _Writer(view, history)
    w.put("phase", tuple(Phase).index(view.phase))
    if not view.is_over and view.to_act is not None and view.phase is not Phase.DONE:
        w.put("to_act", w.rel(view.to_act))
    _write_play(w, view)
    _write_contract(w, view)
    target = rules.target
    mine = rules.side_of(view.seat)
    for side, score in enumerate(view.scores):
        w.put("scores", (side - mine) % rules.sides, max(-target, min(target, score)) / target)
    if history:
        width = w.n + w.n * w.t
        for k, tr in enumerate(view.tricks):
            w.put("tricks", k * width + w.rel(tr.leader))
            for j, x in enumerate(tr.tiles):
                w.put("tricks", k * width + w.n + w.rel(tr.leader + j) * w.t + w.pos[x.index])
    return tuple(w.out)
