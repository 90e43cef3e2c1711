"""MkDocs hooks for the moonrules documentation: pictures drawn at build time.

A page asks for a picture with a fenced block in the ``moon`` language::

    ```moon
    trick tiles="3-2 6-3 3-3" leader=1 trump=6
    ```

The first word names the picture; the rest are ``key=value`` options (quote a
value that holds spaces). The block is replaced, while the site is built, by SVG
drawn by :mod:`moonrules.arbitration.render`, so no picture is ever stored in the repository.
The pictures:

``tile T``
    One tile. Options: ``size``, ``orientation``.
``tiles T T …``
    A row of tiles. Options: ``size``, ``columns``, ``labels`` (``|``-separated),
    ``highlight``, ``dim``, ``end_first``, ``orientation``, ``caption``.
``set NAME``
    Every tile of a tile set (``moon-22``, ``double-six-28``, ``no-double-blank-21``).
``suits trump=T``
    Every suit under a trump, each ranked highest first. Option: ``set``.
``suit N trump=T``
    One suit (a number or ``trump``), ranked, numbered 1st, 2nd, …
``follow led=T hand="T T …" trump=T``
    A led tile and a hand: the tiles that may be played are ringed, the others faded.
``trick tiles="T T …" leader=S trump=T``
    A trick with its winner worked out (TRICK-2). Options: ``players``, ``labels``.
``hand seed=N``
    A whole hand played out by a simple strategy, trick by trick. Option: ``rules``.
``variants``
    The rule-set fields and presets tables of ``spec/variants.md`` (Markdown, not a picture).

An unknown picture or a bad option stops the build with an error naming the page.
"""

from __future__ import annotations

import contextlib
import html
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # build from a checkout without installing moonrules
    sys.path.insert(0, str(ROOT))

import griffe  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402

import moonrules  # noqa: E402
from moonrules.arbitration import render  # noqa: E402
from moonrules.game import GameState, Phase  # noqa: E402
from moonrules.rules.suits import TRUMP_SUIT, Trump, is_trump, led_suit, rank, suit_tiles  # noqa: E402
from moonrules.rules.tiles import Tile, TileSet, tiles  # noqa: E402
from moonrules.rules.tricks import legal_plays, trick_winner  # noqa: E402

_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```moon[ \t]*\n(?P<body>.*?)\n(?P=indent)```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_TOKEN = "MOONFIGURE{:04d}X"
_TOKEN_RE = re.compile(r"(?:<p>)?(MOONFIGURE\d{4}X)(?:</p>)?")

# Figures waiting to replace their tokens, per page.
_pending: dict[str, dict[str, str]] = {}


class _Html(str):
    """Output to put into the page as HTML, after Markdown is rendered."""


class _Markdown(str):
    """Output to put into the page as Markdown, before it is rendered."""


Options = dict[str, str]


# ---------------------------------------------------------------------------
# Reading options


def _trump(text: str) -> Trump:
    return Trump.parse(text)


def _int(opts: Options, key: str, default: int) -> int:
    return int(opts[key]) if key in opts else default


def _float(opts: Options, key: str, default: float) -> float:
    return float(opts[key]) if key in opts else default


def _tiles(opts: Options, key: str) -> tuple[Tile, ...]:
    return tiles(opts[key]) if opts.get(key) else ()


def _orientation(opts: Options) -> render.Orientation:
    value = opts.get("orientation", "vertical")
    if value == "horizontal":
        return "horizontal"
    if value == "vertical":
        return "vertical"
    raise ValueError(f"orientation is vertical or horizontal, not {value!r}")


def _suit_word(suit: int) -> str:
    return "trumps" if suit == TRUMP_SUIT else f"{suit}s"


def _trump_words(trump: Trump) -> str:
    if trump is Trump.NONE:
        return "nothing is trump"
    if trump is Trump.DOUBLES:
        return "doubles are trump"
    return f"{trump}s are trump"


def _figure(svg: str, caption: str | None, cls: str = "") -> _Html:
    cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return _Html(f'<figure class="{f"moon-figure {cls}".strip()}">{svg}{cap}</figure>')


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ---------------------------------------------------------------------------
# The pictures


def _tile(args: list[str], opts: Options) -> _Html:
    (t,) = tiles(args)
    svg = render.tile_svg(t, size=_float(opts, "size", 48), orientation=_orientation(opts))
    return _figure(svg, opts.get("caption"))


def _tiles_picture(args: list[str], opts: Options) -> _Html:
    ts = tiles(args)
    labels = opts["labels"].split("|") if "labels" in opts else None
    end_first = int(opts["end_first"]) if "end_first" in opts else None
    svg = render.hand_svg(
        ts,
        size=_float(opts, "size", 36),
        orientation=_orientation(opts),
        highlight=_tiles(opts, "highlight"),
        dim=_tiles(opts, "dim"),
        labels=labels,
        columns=_int(opts, "columns", 0) or None,
        end_first=end_first,
    )
    return _figure(svg, opts.get("caption"))


def _set(args: list[str], opts: Options) -> _Html:
    (name,) = args
    ts = TileSet(name).tiles
    svg = render.hand_svg(
        ts,
        size=_float(opts, "size", 30),
        columns=_int(opts, "columns", 11),
        labels=[str(t) for t in ts],
        title=f"The {name} tile set: {len(ts)} tiles",
    )
    return _figure(svg, opts.get("caption", f"The {name} set: {len(ts)} tiles."))


def _suits(args: list[str], opts: Options) -> _Html:
    trump = _trump(opts["trump"])
    ts = TileSet(opts.get("set", "moon-22")).tiles
    svg = render.suits_svg(trump, ts, size=_float(opts, "size", 28))
    default = f"The suits when {_trump_words(trump)}, each ranked highest first (left)."
    return _figure(svg, opts.get("caption", default))


def _suit(args: list[str], opts: Options) -> _Html:
    (which,) = args
    trump = _trump(opts["trump"])
    suit = TRUMP_SUIT if which == "trump" else int(which)
    ts = suit_tiles(suit, trump, TileSet(opts.get("set", "moon-22")).tiles)
    if not ts:
        raise ValueError(f"suit {which} has no tiles when {_trump_words(trump)}")
    first = trump.number if suit == TRUMP_SUIT else suit
    svg = render.hand_svg(
        ts,
        size=_float(opts, "size", 36),
        labels=[_ordinal(i + 1) for i in range(len(ts))],
        end_first=first,
        title=f"The {_suit_word(suit)}, highest first: " + ", ".join(map(str, ts)),
    )
    default = (
        f"The {_suit_word(suit)} when {_trump_words(trump)}, highest first: "
        + ", ".join(str(t) for t in ts)
        + "."
    )
    return _figure(svg, opts.get("caption", default))


def _follow(args: list[str], opts: Options) -> _Html:
    trump = _trump(opts["trump"])
    (led,) = tiles(opts["led"])
    hand = tiles(opts["hand"])
    legal = legal_plays(hand, [led], trump)
    suit = led_suit(led, trump)
    led_svg = render.hand_svg(
        [led], size=_float(opts, "size", 36), labels=["led"], title=f"{led} is led"
    )
    hand_svg = render.hand_svg(
        hand,
        size=_float(opts, "size", 36),
        highlight=legal if len(legal) < len(hand) else (),
        dim=[t for t in hand if t not in legal],
        labels=[str(t) for t in hand],
        title="The hand; may play " + ", ".join(map(str, legal)),
    )
    if len(legal) == len(hand):
        verdict = "the player cannot follow, so any tile may be played"
    else:
        verdict = "the player must play " + " or ".join(str(t) for t in legal)
    default = (
        f"{led} is led when {_trump_words(trump)}: it calls the {_suit_word(suit)}; {verdict}."
    )
    caption = opts.get("caption", default)
    return _Html(
        '<figure class="moon-figure moon-follow">'
        f'<div class="moon-row">{led_svg}<span class="moon-arrow">&rarr;</span>{hand_svg}</div>'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def _trick(args: list[str], opts: Options) -> _Html:
    trump = _trump(opts["trump"])
    ts = tiles(opts["tiles"])
    players = _int(opts, "players", len(ts))
    leader = _int(opts, "leader", 0)
    labels = opts["labels"].split("|") if "labels" in opts else None
    svg = render.trick_svg(
        ts, leader=leader, players=players, trump=trump, labels=labels,
        size=_float(opts, "size", 44),
    )  # fmt: skip
    win = trick_winner(ts, trump)
    how = "the highest trump" if is_trump(ts[win], trump) else "the highest tile of the suit led"
    default = (
        f"{_trump_words(trump).capitalize()}; {ts[0]} is led. "
        f"{ts[win]} wins: it is {how} (TRICK-2)."
    )
    return _figure(svg, opts.get("caption", default))


def _choose(state: GameState) -> moonrules.Action:
    """A simple, deterministic player, good enough to draw a believable hand."""
    actions = moonrules.legal_actions(state)
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    if state.phase is Phase.BIDDING:
        bids = [a for a in actions if isinstance(a, moonrules.Bid) and a.amount <= 7]
        counts = max(sum(t.has(n) for t in hand) for n in range(7))
        want = 4 + (counts >= 4) + (counts >= 5)
        fitting = [a for a in bids if a.amount <= want]
        return fitting[-1] if fitting else moonrules.Pass()
    best_number = max(range(7), key=lambda n: (sum(t.has(n) for t in hand), n))
    if state.phase is Phase.TRUMP:
        return moonrules.NameTrump(Trump.of_number(best_number))
    if state.phase is Phase.DISCARD:
        off = [t for t in hand if not t.has(best_number)] or list(hand)
        return moonrules.Discard(min(off, key=lambda t: (t.is_double, t.pips)))
    trump = state.trump
    assert trump is not None
    trick = list(state.trick)
    plays = [a for a in actions if isinstance(a, moonrules.Play)]

    def strength(t: Tile) -> tuple[bool, int, int]:
        trumpy = is_trump(t, trump)
        suit = TRUMP_SUIT if trumpy else (led_suit(trick[0], trump) if trick else t.high)
        try:
            r = rank(t, suit, trump)
        except ValueError:
            r = -1
        return (trumpy, r, t.pips)

    if not trick:
        return max(plays, key=lambda a: strength(a.tile))
    winning = [a for a in plays if trick_winner([*trick, a.tile], trump) == len(trick)]
    pool = winning or plays
    return min(pool, key=lambda a: strength(a.tile))


def _hand(args: list[str], opts: Options) -> _Html:
    seed = _int(opts, "seed", 1)
    state = moonrules.new_game(opts.get("rules", "standard"), seed=seed)
    dealt = state.hands
    while state.hand_number == 1 and not state.is_over:
        state = moonrules.apply(state, _choose(state))
    played = state.history[0] if state.history else state.hand
    if played.bidder < 0:
        raise ValueError(f"hand 1 of seed {seed} was thrown in; pick another seed")
    players = state.rules.players
    trump = Trump(played.trump)
    svg = render.hand_tricks_svg(played.tricks, players, size=_float(opts, "size", 28))
    won = sum(1 for t in played.tricks if state.rules.side_of(t.winner) ==
              state.rules.side_of(played.bidder))  # fmt: skip
    target = 7 if played.bid == 21 else played.bid
    result = "made" if won >= target else "set"
    hands = "".join(
        f'<div class="moon-seat"><span>Seat {s}{" (bidder)" if s == played.bidder else ""}'
        f"</span>{render.hand_svg(dealt[s], size=22, title=f'Seat {s} was dealt')}</div>"
        for s in range(players)
    )
    named = {Trump.NONE: "no-trump", Trump.DOUBLES: "doubles"}.get(trump, f"{trump}s")
    widow = ", took the widow" if state.rules.has_widow else ""
    caption = (
        f"Seat {played.bidder} bid {played.bid}{widow} and named {named} as trump, "
        f"then won {won} tricks: the contract is {result}. "
        "A triangle marks the tile led; a green ring and star the tile that won."
    )
    return _Html(
        '<figure class="moon-figure moon-hand">'
        f'<div class="moon-deal">{hands}</div>{svg}'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def _variants(args: list[str], opts: Options) -> _Markdown:
    """The Fields and Presets sections of spec/variants.md, headings moved down a level."""
    text = (ROOT / "spec" / "variants.md").read_text(encoding="utf-8")
    wanted = opts.get("sections", "Fields,Presets,Sources and aliases").split(",")
    sections = re.split(r"(?m)^## ", text)[1:]
    out = []
    for sec in sections:
        title, _, body = sec.partition("\n")
        if title.strip() in wanted:
            out.append(f"### {title.strip()}\n{body.strip()}\n")
    if len(out) != len(wanted):
        raise ValueError(f"spec/variants.md lacks a section among {wanted}")
    return _Markdown("\n".join(out))


_PICTURES: dict[str, Callable[[list[str], Options], str]] = {
    "tile": _tile,
    "tiles": _tiles_picture,
    "set": _set,
    "suits": _suits,
    "suit": _suit,
    "follow": _follow,
    "trick": _trick,
    "hand": _hand,
    "variants": _variants,
}


def draw(spec: str) -> str:
    """The HTML (or Markdown) for one ``moon`` block's text."""
    words = shlex.split(spec.replace("\n", " "))
    if not words:
        raise ValueError("an empty moon block")
    kind, rest = words[0], words[1:]
    args = [w for w in rest if "=" not in w]
    opts = dict(w.split("=", 1) for w in rest if "=" in w)
    if kind not in _PICTURES:
        raise ValueError(f"unknown picture {kind!r}; known: {', '.join(sorted(_PICTURES))}")
    return _PICTURES[kind](args, opts)


# ---------------------------------------------------------------------------
# Docstrings for mkdocstrings: the code's reST habits, made Markdown


_DOCTEST_START = re.compile(r"^(\s*)>>> ")
_ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|exc|obj):`(~?)([\w.]+)`")


def fence_doctests(text: str) -> str:
    """Put each run of ``>>>`` lines (with its output) into a ``pycon`` code block."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _DOCTEST_START.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent = m.group(1)
        block = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i].removeprefix(indent))
            i += 1
        if out and out[-1].strip():
            out.append("")
        out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```", ""]
    return "\n".join(out)


class ReSTDocstrings(griffe.Extension):
    """A griffe extension: doctest blocks fenced, ``:class:`X``` roles made cross-references.

    A role whose target is an object of the package becomes a link to its entry
    in the API reference; any other target (``random.Random``) stays code.
    """

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        objects: list[griffe.Object] = []
        stack: list[griffe.Object] = [pkg]
        while stack:
            obj = stack.pop()
            objects.append(obj)
            stack.extend(m for m in obj.members.values() if not m.is_alias)  # type: ignore[misc]
        for obj in objects:
            if obj.docstring is not None:
                obj.docstring.value = self._convert(obj, obj.docstring.value, pkg)

    def _convert(self, obj: griffe.Object, text: str, pkg: griffe.Module) -> str:
        def role(m: re.Match[str]) -> str:
            short, target = m.group(1) == "~", m.group(2)
            shown = target.rsplit(".", 1)[-1] if short else target
            path = self._resolve(obj, target, pkg)
            return f"[`{shown}`][{path}]" if path else f"`{shown}`"

        return _ROLE.sub(role, fence_doctests(text))

    @staticmethod
    def _resolve(obj: griffe.Object, target: str, pkg: griffe.Module) -> str | None:
        candidates = [target]
        with contextlib.suppress(Exception):
            candidates.insert(0, obj.resolve(target))
        for path in candidates:
            if not path.startswith(pkg.path + "."):
                continue
            try:
                found = pkg[path.removeprefix(pkg.path + ".")]
            except Exception:
                continue
            while found.is_alias:
                found = found.final_target
            if any(part.startswith("_") for part in found.path.split(".")):
                return None
            return str(found.path)
        return None


# ---------------------------------------------------------------------------
# MkDocs events


def on_page_markdown(markdown: str, *, page: Any, config: Any, files: Any) -> str:
    """Replace each ``moon`` block by Markdown or by a token for its HTML."""
    key = page.file.src_uri
    pending: dict[str, str] = {}
    _pending[key] = pending

    def replace(m: re.Match[str]) -> str:
        indent = m.group("indent")
        body = "\n".join(line.removeprefix(indent) for line in m.group("body").splitlines())
        try:
            out = draw(body)
        except Exception as exc:
            raise PluginError(f"{key}: cannot draw ```moon {body.strip()}```: {exc}") from exc
        if isinstance(out, _Markdown):
            return "\n".join(indent + line if line else line for line in out.splitlines())
        token = _TOKEN.format(len(pending))
        pending[token] = out
        return f"{indent}{token}"

    return _FENCE.sub(replace, markdown)


def on_page_content(html_text: str, *, page: Any, config: Any, files: Any) -> str:
    """Put each picture's HTML where its token was rendered."""
    pending = _pending.pop(page.file.src_uri, {})
    seen: set[str] = set()

    def replace(m: re.Match[str]) -> str:
        token = m.group(1)
        if token not in pending:
            return m.group(0)
        seen.add(token)
        return pending[token]

    out = _TOKEN_RE.sub(replace, html_text)
    missing = set(pending) - seen
    if missing:
        raise PluginError(f"{page.file.src_uri}: {len(missing)} picture(s) were lost in rendering")
    return out
