"""Pictures of tiles, hands and tricks as SVG text.

Every function here is pure and returns a complete ``<svg>`` document as a
string; nothing but the standard library is used. The pictures carry a
``viewBox``, so they scale cleanly from a 24-pixel icon to a full page width;
``size`` only sets the default width of one tile (its short side) in pixels.

The markup is meant to be read by programs as well as people:

- every tile is a ``<g class="tile" data-tile="6-4">``;
- its two halves are ``<g class="half half-high">`` and ``<g class="half half-low">``
  (the half showing the tile's high end and the half showing its low end, wherever
  they are drawn), each holding one ``<circle class="pip">`` per pip;
- in tricks, each play is a ``<g class="play" data-seat="…" data-position="…">``;
  the winning play also has the class ``winner`` and holds an element of class
  ``winner-mark``.

Text is drawn in ``currentColor``, so a picture inlined in a page takes the
page's text colour (light or dark theme); the tiles themselves are always ivory
with dark pips.

>>> from moonrules import Tile
>>> svg = tile_svg(Tile(6, 4))
>>> svg.startswith("<svg") and svg.count('class="pip"')
10
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from html import escape
from typing import Final, Literal

import attrs

from moonrules.game import Trick
from moonrules.rules.suits import TRUMP_SUIT, Trump, suit_tiles
from moonrules.rules.tiles import MOON_SET, Tile
from moonrules.rules.tiles import tile as as_tile
from moonrules.rules.tricks import trick_winner

Orientation = Literal["vertical", "horizontal"]
"""How a tile lies: ``"vertical"`` (high end on top) or ``"horizontal"`` (high end left)."""

IVORY: Final = "#fbf6e4"
"""The tile face."""
EDGE: Final = "#5a5245"
"""The tile's outline and divider."""
PIP_COLOUR: Final = "#1d1a16"
"""The pips."""
HIGHLIGHT_COLOUR: Final = "#e89a00"
"""The default ring drawn round a highlighted tile."""
WINNER_COLOUR: Final = "#23964a"
"""The ring and mark of a trick's winning tile."""

FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"

# Tile geometry, in tile units: a half is a 100 x 100 square, so a vertical
# tile is 100 wide and 200 tall.
_HALF: Final = 100.0
_STROKE: Final = 3.0
_RADIUS: Final = 12.0
_PIP_R: Final = 8.5
_RING: Final = 9.0
"""How far a highlight ring reaches outside the tile, in tile units."""
_A, _M, _Z = 25.0, 50.0, 75.0

# Pip layouts of one half, as (across, along) positions in a vertical tile:
# ``across`` runs left to right, ``along`` top to bottom.
_PIPS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    0: (),
    1: ((_M, _M),),
    2: ((_Z, _A), (_A, _Z)),
    3: ((_Z, _A), (_M, _M), (_A, _Z)),
    4: ((_A, _A), (_Z, _A), (_A, _Z), (_Z, _Z)),
    5: ((_A, _A), (_Z, _A), (_M, _M), (_A, _Z), (_Z, _Z)),
    6: ((_A, _A), (_A, _M), (_A, _Z), (_Z, _A), (_Z, _M), (_Z, _Z)),
}


def _n(x: float) -> str:
    """A number for an attribute: at most two decimals, no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _tile_dims(orientation: Orientation) -> tuple[float, float]:
    """Width and height of a tile in tile units."""
    _check_orientation(orientation)
    return (_HALF, 2 * _HALF) if orientation == "vertical" else (2 * _HALF, _HALF)


def _check_orientation(orientation: str) -> None:
    if orientation not in ("vertical", "horizontal"):
        raise ValueError(f"orientation is 'vertical' or 'horizontal', not {orientation!r}")


def _half(number: int, which: str, offset: float, orientation: Orientation) -> str:
    pips = []
    for across, along in _PIPS[number]:
        if orientation == "vertical":
            cx, cy = across, along + offset
        else:
            cx, cy = along + offset, across
        pips.append(f'<circle class="pip" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(_PIP_R)}"/>')
    return (
        f'<g class="half half-{which}" data-pips="{number}" fill="{PIP_COLOUR}">'
        + "".join(pips)
        + "</g>"
    )


def _tile_group(
    t: Tile,
    x: float,
    y: float,
    scale: float,
    *,
    orientation: Orientation = "vertical",
    highlight: str | None = None,
    ring_class: str = "highlight",
    dim: bool = False,
    end_first: int | None = None,
) -> str:
    """One tile drawn with its top-left corner at (x, y) pixels, ``scale`` pixels per unit."""
    w, h = _tile_dims(orientation)
    low_first = end_first is not None and end_first == t.low and not t.is_double
    high_at, low_at = (_HALF, 0.0) if low_first else (0.0, _HALF)
    s = _STROKE
    parts = [
        f'<g class="tile{" dim" if dim else ""}" data-tile="{t}" '
        f'transform="translate({_n(x)} {_n(y)}) scale({_n(scale)})"'
        + (' opacity="0.32"' if dim else "")
        + ">"
    ]
    if highlight is not None:
        r = _RING - s
        parts.append(
            f'<rect class="{_attr(ring_class)}" x="{_n(-r)}" y="{_n(-r)}" '
            f'width="{_n(w + 2 * r)}" height="{_n(h + 2 * r)}" rx="{_n(_RADIUS + r)}" '
            f'fill="none" stroke="{_attr(highlight)}" stroke-width="{_n(2 * s)}"/>'
        )
    parts.append(
        f'<rect class="face" x="{_n(s / 2)}" y="{_n(s / 2)}" width="{_n(w - s)}" '
        f'height="{_n(h - s)}" rx="{_n(_RADIUS)}" fill="{IVORY}" stroke="{EDGE}" '
        f'stroke-width="{_n(s)}"/>'
    )
    inset = 14.0
    if orientation == "vertical":
        x1, y1, x2, y2 = inset, _HALF, _HALF - inset, _HALF
    else:
        x1, y1, x2, y2 = _HALF, inset, _HALF, _HALF - inset
    parts.append(
        f'<line class="divider" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
        f'stroke="{EDGE}" stroke-width="{_n(s)}" stroke-linecap="round"/>'
    )
    parts.append(_half(t.high, "high", high_at, orientation))
    parts.append(_half(t.low, "low", low_at, orientation))
    parts.append("</g>")
    return "".join(parts)


def _svg(width: float, height: float, title: str, body: Iterable[str], kind: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="moon-{kind}" '
        f'width="{_n(width)}" height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'role="img" aria-label="{_attr(title)}" font-family="{_attr(FONT)}">'
        f"<title>{escape(title, quote=False)}</title>" + "".join(body) + "</svg>"
    )


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float,
    anchor: str = "middle",
    cls: str = "label",
    fill: str = "currentColor",
    weight: str | None = None,
) -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text class="{cls}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" '
        f'text-anchor="{anchor}" fill="{_attr(fill)}"{bold}>{escape(text, quote=False)}</text>'
    )


def _text_width(text: str, font: float) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif font."""
    return len(text) * font * 0.62


def _font(size: float) -> float:
    """A label size that stays readable next to tiles of any size."""
    return max(11.0, min(16.0, size * 0.34))


def _tiles(items: Iterable[Tile | str]) -> tuple[Tile, ...]:
    return tuple(as_tile(t) for t in items)


# ---------------------------------------------------------------------------
# Public functions


def tile_svg(
    tile: Tile | str,
    *,
    size: float = 48,
    orientation: Orientation = "vertical",
    highlight: str | None = None,
    end_first: int | None = None,
    title: str | None = None,
) -> str:
    """One tile as an SVG document.

    ``size`` is the tile's short side in pixels (the long side is twice that).
    A vertical tile shows its high end on top, a horizontal one on the left;
    ``end_first`` names an end to show first instead (for example the suit's
    number). ``highlight`` is a CSS colour for a ring round the tile, such as
    :data:`HIGHLIGHT_COLOUR`.

    >>> svg = tile_svg("3-3", size=24, orientation="horizontal", highlight=HIGHLIGHT_COLOUR)
    >>> 'data-tile="3-3"' in svg, svg.count('class="pip"'), 'class="highlight"' in svg
    (True, 6, True)
    """
    tl = as_tile(tile)
    if size <= 0:
        raise ValueError(f"size must be positive, not {size!r}")
    w, h = _tile_dims(orientation)
    scale = size / _HALF
    pad = (_RING + 2) * scale
    body = _tile_group(
        tl, pad, pad, scale, orientation=orientation, highlight=highlight, end_first=end_first
    )
    return _svg(w * scale + 2 * pad, h * scale + 2 * pad, title or f"Tile {tl}", [body], "tile")


def hand_svg(
    tiles: Iterable[Tile | str],
    *,
    size: float = 36,
    orientation: Orientation = "vertical",
    highlight: Mapping[Tile, str] | Collection[Tile] = (),
    dim: Collection[Tile] = (),
    labels: Sequence[str] | None = None,
    columns: int | None = None,
    end_first: int | None = None,
    title: str | None = None,
) -> str:
    """A row of tiles (a hand, a suit, a set), left to right in the order given.

    ``highlight``: tiles to ring, in :data:`HIGHLIGHT_COLOUR`, or a mapping from
    tile to ring colour. ``dim``: tiles to draw faded (for example the tiles that
    may not be played). ``labels``: one caption under each tile. ``columns``:
    start a new row after that many tiles. ``end_first``: show this number's end
    first on every tile that has it.

    >>> svg = hand_svg(["6-4", "3-3"], highlight=[Tile(3, 3)], labels=["a", "b"])
    >>> svg.count('class="tile'), svg.count('class="highlight"')
    (2, 1)
    """
    ts = _tiles(tiles)
    if labels is not None and len(labels) != len(ts):
        raise ValueError(f"{len(labels)} labels for {len(ts)} tiles")
    if columns is not None and columns < 1:
        raise ValueError(f"columns must be at least 1, not {columns!r}")
    rings: dict[Tile, str] = (
        dict(highlight)
        if isinstance(highlight, Mapping)
        else dict.fromkeys(highlight, HIGHLIGHT_COLOUR)
    )
    faded = set(dim)
    w, h = _tile_dims(orientation)
    scale = size / _HALF
    tw, th = w * scale, h * scale
    pad = _RING * scale + 1
    gap = max(size * 0.22, 2 * _RING * scale + 2)
    font = _font(size)
    label_h = font * 1.5 if labels is not None else 0.0
    per_row = columns or max(len(ts), 1)
    rows = max(1, -(-len(ts) // per_row))
    cols = min(per_row, max(len(ts), 1))
    widest = max((_text_width(label, font) for label in labels or ()), default=0.0)
    slot = max(tw, widest + font * 0.6 - gap)
    width = 2 * pad + cols * slot + (cols - 1) * gap
    row_h = th + label_h
    height = 2 * pad + rows * row_h + (rows - 1) * gap
    body = []
    for i, t in enumerate(ts):
        r, c = divmod(i, per_row)
        x = pad + c * (slot + gap) + (slot - tw) / 2
        y = pad + r * (row_h + gap)
        body.append(
            _tile_group(
                t,
                x,
                y,
                scale,
                orientation=orientation,
                highlight=rings.get(t),
                dim=t in faded,
                end_first=end_first,
            )
        )
        if labels is not None:
            body.append(_text(x + tw / 2, y + th + font * 1.25, labels[i], size=font))
    names = " ".join(str(t) for t in ts) or "no tiles"
    return _svg(width, height, title or f"Tiles: {names}", body, "hand")


def _winner_position(ts: Sequence[Tile], winner_index: int | None, trump: Trump | None) -> int:
    if winner_index is not None:
        if not 0 <= winner_index < len(ts):
            raise ValueError(f"winner_index {winner_index} is not a position of the trick")
        return winner_index
    if trump is None:
        raise ValueError("give the trick's winner_index, or the trump to work it out")
    return trick_winner(ts, trump)


def trick_svg(
    trick: Trick | Sequence[Tile | str],
    *,
    leader: int | None = None,
    players: int = 3,
    winner_index: int | None = None,
    trump: Trump | None = None,
    labels: Sequence[str] | None = None,
    seat_names: Sequence[str] | None = None,
    size: float = 44,
    title: str | None = None,
) -> str:
    """One trick: the tiles left to right in the order played, the winner marked.

    ``trick`` is a :class:`~moonrules.game.state.Trick` (which knows its leader and
    winner) or the tiles played, led tile first, with ``leader`` the seat that
    led. The winner is ``winner_index`` (a position in the trick), else the
    trick's own winner, else worked out from ``trump`` (TRICK-2). Each tile is
    captioned with ``labels`` (one per position) or with its seat's name
    (``seat_names``, default "Seat N") and "led" for the first; the winning tile
    gets a green ring and "wins" underneath.

    >>> svg = trick_svg(["3-2", "6-3", "3-3"], leader=1, trump=Trump.SIX)
    >>> svg.count('class="play winner"'), 'data-seat="2"' in svg
    (1, True)
    """
    if isinstance(trick, Trick):
        ts: tuple[Tile, ...] = trick.tiles
        lead = trick.leader if leader is None else leader
        if winner_index is None:
            winner_index = (trick.winner - trick.leader) % players
    else:
        ts = _tiles(trick)
        if leader is None:
            raise ValueError("give the seat that led the trick (leader)")
        lead = leader
    if not ts:
        raise ValueError("a trick needs at least one tile")
    if labels is not None and len(labels) != len(ts):
        raise ValueError(f"{len(labels)} labels for {len(ts)} tiles")
    win = _winner_position(ts, winner_index, trump)
    names = _seat_names(seat_names, players)
    scale = size / _HALF
    tw, th = _HALF * scale, 2 * _HALF * scale
    font = _font(size)
    gap = max(size * 0.6, font * 3.2)
    pad = _RING * scale + 2
    slot = max(tw, font * 5.2)
    top = pad + font * 1.5
    width = 2 * pad + len(ts) * slot + (len(ts) - 1) * gap
    height = top + th + pad + font * 1.7
    body = []
    for i, t in enumerate(ts):
        seat = (lead + i) % players
        cx = pad + i * (slot + gap) + slot / 2
        x = cx - tw / 2
        label = labels[i] if labels is not None else names[seat] + (" led" if i == 0 else "")
        won = i == win
        body.append(
            f'<g class="play{" winner" if won else ""}" data-seat="{seat}" data-position="{i}">'
        )
        body.append(_text(cx, top - font * 0.55, label, size=font))
        body.append(
            _tile_group(
                t,
                x,
                top,
                scale,
                highlight=WINNER_COLOUR if won else None,
                ring_class="winner-mark",
            )
        )
        if won:
            body.append(
                _text(
                    cx,
                    top + th + pad + font * 1.05,
                    "\u2605 wins",
                    size=font,
                    cls="winner-label",
                    fill=WINNER_COLOUR,
                    weight="bold",
                )
            )
        body.append("</g>")
    if title is None:
        played = ", ".join(f"{names[(lead + i) % players]} {t}" for i, t in enumerate(ts))
        title = f"Trick: {played}; {names[(lead + win) % players]} wins with {ts[win]}"
    return _svg(width, height, title, body, "trick")


def _seat_names(seat_names: Sequence[str] | None, players: int) -> tuple[str, ...]:
    if players < 1:
        raise ValueError(f"players must be at least 1, not {players!r}")
    if seat_names is None:
        return tuple(f"Seat {s}" for s in range(players))
    if len(seat_names) != players:
        raise ValueError(f"{len(seat_names)} seat names for {players} players")
    return tuple(seat_names)


def hand_tricks_svg(
    tricks: Sequence[Trick],
    players: int = 3,
    *,
    seat_names: Sequence[str] | None = None,
    size: float = 22,
    title: str | None = None,
    words: Callable[[str], str] | None = None,
) -> str:
    """A whole hand's tricks as a table: one row per trick, one column per seat.

    ``words`` puts the table's own words ("Won by", "Tricks", "Trick 1") into a reader's
    language (the English sentence in, its translation out); without it they are English.

    Each seat's tile in a trick sits in that seat's column, lying horizontally;
    a small triangle marks the tile led, and a green ring and star the tile that
    won. The last column names each trick's winner, and the bottom row counts the
    tricks each seat took.

    >>> from moonrules import Trick, Tile
    >>> t = Trick(leader=0, tiles=(Tile(6, 6), Tile(6, 1), Tile(5, 2)), winner=0)
    >>> svg = hand_tricks_svg([t], 3)
    >>> svg.count('class="play winner"'), svg.count('class="leader-mark"')
    (1, 1)
    """
    names = _seat_names(seat_names, players)
    say = words if words is not None else _same
    g = _TrickTable.of(size, players)
    body = [
        _text(g.seat_x(s), g.pad + g.font * 1.1, names[s], size=g.font, weight="bold")
        for s in range(players)
    ]
    body.append(_text(g.won_x, g.pad + g.font * 1.1, say("Won by"), size=g.font, weight="bold"))
    won = [0] * players
    for k, tr in enumerate(tricks):
        if len(tr.tiles) > players:
            raise ValueError(f"trick {k + 1} has {len(tr.tiles)} tiles for {players} players")
        body.extend(_trick_row(g, k, tr, names, say))
        if 0 <= tr.winner < players:
            won[tr.winner] += 1
    y = g.row_y(len(tricks)) + g.row_h / 2 + g.font * 0.35
    body.append(_text(g.pad, y, say("Tricks"), size=g.font, anchor="start", weight="bold"))
    body.extend(
        _text(g.seat_x(s), y, str(won[s]), size=g.font, cls="tricks-won", weight="bold")
        for s in range(players)
    )
    width = 2 * g.pad + g.label_w + players * g.col_w + g.won_w
    height = 2 * g.pad + g.head_h + (len(tricks) + 1) * g.row_h
    return _svg(width, height, title or say(f"{len(tricks)} tricks"), body, "hand-tricks")


def _same(text: str) -> str:
    return text


@attrs.frozen(slots=True)
class _TrickTable:
    """The geometry of :func:`hand_tricks_svg`: one row per trick, one column per seat."""

    scale: float
    font: float
    pad: float
    ring: float
    players: int

    @classmethod
    def of(cls, size: float, players: int) -> _TrickTable:
        scale = size / _HALF
        return cls(scale, _font(size * 1.3), _RING * scale + 2, _RING * scale, players)

    @property
    def tw(self) -> float:
        """A horizontal tile's width."""
        return 2 * _HALF * self.scale

    @property
    def th(self) -> float:
        """A horizontal tile's height."""
        return _HALF * self.scale

    @property
    def label_w(self) -> float:
        return self.font * 4.4

    @property
    def mark_w(self) -> float:
        """Room for the triangle marking the tile led."""
        return self.font * 0.8

    @property
    def star_w(self) -> float:
        return self.font * 1.1

    @property
    def col_w(self) -> float:
        return self.mark_w + 2 * self.ring + self.tw + self.star_w + self.font * 0.4

    @property
    def tile_at(self) -> float:
        """Where a tile starts in its seat's column."""
        return self.mark_w + self.ring

    @property
    def won_w(self) -> float:
        return self.font * 5.5

    @property
    def row_h(self) -> float:
        return max(self.th + 2 * self.ring + 4, self.font * 1.6)

    @property
    def head_h(self) -> float:
        return self.font * 1.8

    @property
    def x0(self) -> float:
        """Where the first seat's column starts."""
        return self.pad + self.label_w

    @property
    def won_x(self) -> float:
        """The middle of the "Won by" column."""
        return self.x0 + self.players * self.col_w + self.won_w / 2

    def seat_x(self, seat: int) -> float:
        """The middle of a seat's tile in its column."""
        return self.x0 + seat * self.col_w + self.tile_at + self.tw / 2

    def row_y(self, k: int) -> float:
        """The top of row ``k`` (trick ``k + 1``; the totals row after the last)."""
        return self.pad + self.head_h + k * self.row_h


def _trick_row(
    g: _TrickTable, k: int, tr: Trick, names: Sequence[str], say: Callable[[str], str]
) -> list[str]:
    """Row ``k`` of :func:`hand_tricks_svg`: the trick's tiles in their seats' columns."""
    mid = g.row_y(k) + g.row_h / 2
    out = [
        f'<g class="trick" data-trick="{k + 1}" data-leader="{tr.leader}" '
        f'data-winner="{tr.winner}">',
        _text(g.pad, mid + g.font * 0.35, say(f"Trick {k + 1}"), size=g.font, anchor="start"),
    ]
    for i, t in enumerate(tr.tiles):
        out.extend(_trick_cell(g, mid, i, t, tr))
    if 0 <= tr.winner < g.players:
        out.append(
            _text(g.won_x, mid + g.font * 0.35, names[tr.winner], size=g.font, cls="trick-winner")
        )
    out.append("</g>")
    return out


def _trick_cell(g: _TrickTable, mid: float, i: int, t: Tile, tr: Trick) -> list[str]:
    """The ``i``-th tile of a trick in its seat's column: led mark, winner ring and star."""
    seat = (tr.leader + i) % g.players
    is_win = seat == tr.winner
    tx = g.x0 + seat * g.col_w + g.tile_at
    out = [f'<g class="play{" winner" if is_win else ""}" data-seat="{seat}" data-position="{i}">']
    if i == 0:
        mx, half = tx - g.ring - g.mark_w * 0.2, min(g.th * 0.25, g.font * 0.35)
        out.append(
            f'<path class="leader-mark" d="M{_n(mx - half * 1.5)} {_n(mid - half)} '
            f'L{_n(mx)} {_n(mid)} L{_n(mx - half * 1.5)} {_n(mid + half)} Z" '
            f'fill="currentColor"/>'
        )
    out.append(
        _tile_group(
            t,
            tx,
            mid - g.th / 2,
            g.scale,
            orientation="horizontal",
            highlight=WINNER_COLOUR if is_win else None,
            ring_class="winner-mark",
        )
    )
    if is_win:
        out.append(
            _text(
                tx + g.tw + g.ring + g.star_w / 2,
                mid + g.font * 0.35,
                "\u2605",
                size=g.font,
                cls="winner-star",
                fill=WINNER_COLOUR,
            )
        )
    out.append("</g>")
    return out


def suits_svg(
    trump: Trump,
    tiles: Iterable[Tile | str] = MOON_SET,
    *,
    size: float = 22,
    title: str | None = None,
) -> str:
    """Every suit under ``trump``: the trump suit (if any), then suits 6 down to 0.

    Each row holds the suit's tiles highest first (SUIT-1 … SUIT-4), lying
    horizontally with the suit's number on the left. A suit left with no tile
    says so.

    >>> svg = suits_svg(Trump.DOUBLES)
    >>> svg.count('data-suit="'), svg.count('class="tile"')
    (8, 37)
    """
    among = _tiles(tiles)
    scale = size / _HALF
    tw, th = 2 * _HALF * scale, _HALF * scale
    font = _font(size * 1.3)
    pad = _RING * scale + 2
    gap = max(size * 0.35, 2 * _RING * scale + 2)
    label_w = font * 5.2
    suits: list[int] = ([TRUMP_SUIT] if trump is not Trump.NONE else []) + list(range(6, -1, -1))
    rows = [(s, suit_tiles(s, trump, among)) for s in suits]
    most = max((len(ts) for _, ts in rows), default=1) or 1
    row_h = th + gap
    width = 2 * pad + label_w + most * tw + (most - 1) * gap
    height = 2 * pad + len(rows) * row_h - gap
    body = []
    for k, (suit, ts) in enumerate(rows):
        y = pad + k * row_h
        mid = y + th / 2 + font * 0.35
        name = "Trumps" if suit == TRUMP_SUIT else f"{suit}s"
        body.append(f'<g class="suit" data-suit="{"trump" if suit == TRUMP_SUIT else suit}">')
        body.append(
            _text(
                pad,
                mid,
                name,
                size=font,
                anchor="start",
                weight="bold" if suit == TRUMP_SUIT else None,
            )
        )
        if not ts:
            body.append(
                _text(
                    pad + label_w,
                    mid,
                    "no tiles",
                    size=font,
                    anchor="start",
                    cls="empty",
                    fill="#8a8a8a",
                )
            )
        first = trump.number if suit == TRUMP_SUIT else suit
        for i, t in enumerate(ts):
            body.append(
                _tile_group(
                    t,
                    pad + label_w + i * (tw + gap),
                    y,
                    scale,
                    orientation="horizontal",
                    end_first=first,
                )
            )
        body.append("</g>")
    return _svg(width, height, title or f"The suits when trump is {trump}", body, "suits")


__all__ = [
    "EDGE",
    "HIGHLIGHT_COLOUR",
    "IVORY",
    "PIP_COLOUR",
    "WINNER_COLOUR",
    "Orientation",
    "hand_svg",
    "hand_tricks_svg",
    "suits_svg",
    "tile_svg",
    "trick_svg",
]
