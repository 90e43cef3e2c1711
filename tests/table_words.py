"""The message ids the table's pages and server use, read from their sources: the static
JavaScript (Babel's JavaScript extractor: ``_``, ``N_``, ``_n``), the static HTML (each
text and label, as ``i18n.js`` looks them up), and ``moonrules/table/wire.py``'s
``SERVER_TEXTS``, ``GENERIC_TEXTS`` and ``table_text(...)`` calls (read from its syntax
tree, without importing the table), and the pages the server writes itself (the event page,
the director's console: ``_``, ``_n`` and ``N_`` calls, read likewise). The ``table``
catalogs must hold exactly these."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "moonrules" / "table" / "static"
SCRIPTS = ("i18n.js", "table.js", "review.js", "lobby.js")
PAGES = ("room.html", "lobby.html")
SERVER_PAGES = ("events.py", "director.py", "page_words.py")
"""The pages the server writes itself, in the reader's language (``_``, ``_n``, ``N_``)."""
LABELS = ("title", "aria-label", "placeholder", "alt")

MessageId = str | tuple[str, str]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        for k, v in attrs:
            if k in LABELS and v and re.search("[A-Za-z]", v):
                self.found.append(" ".join(v.split()))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not self.skip and text and re.search("[A-Za-z]", text):
            self.found.append(text)


def page_texts(name: str) -> list[str]:
    """Every text and label of a static page."""
    p = _Page()
    p.feed((STATIC / name).read_text(encoding="utf-8"))
    return p.found


def script_ids(name: str) -> list[MessageId]:
    from babel.messages.extract import extract

    out: list[MessageId] = []
    with open(STATIC / name, "rb") as f:
        for _line, msg, _comments, _context in extract(
            "javascript",
            f,
            {"_": (1,), "N_": (1,), "_n": (1, 2), "Nn_": (1, 2)},
            strip_comment_tags=True,
        ):
            out.append((str(msg[0]), str(msg[1])) if isinstance(msg, tuple) else str(msg))
    return out


def _strings(node: ast.AST) -> str:
    value = ast.literal_eval(node)
    assert isinstance(value, str)
    return value


def server_ids() -> list[MessageId]:
    tree = ast.parse((ROOT / "moonrules" / "table" / "wire.py").read_text(encoding="utf-8"))
    out: list[MessageId] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.target.id == "SERVER_TEXTS" and node.value is not None:
                for pair in ast.literal_eval(node.value):
                    out.append(pair[1])
            if node.target.id == "GENERIC_TEXTS" and node.value is not None:
                out.extend(ast.literal_eval(node.value).values())
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "table_text"
            and node.args
        ):
            arg = node.args[0]
            if isinstance(arg, ast.Tuple):
                one, many = (_strings(e) for e in arg.elts)
                out.append((one, many))
            elif isinstance(arg, ast.Constant):
                out.append(_strings(arg))
    return out


def page_ids(name: str) -> list[MessageId]:
    """The message ids of a page the server writes (``moonrules/table/<name>``): the
    constant arguments of its ``_``, ``N_`` and ``_n`` calls, read from its syntax tree."""
    tree = ast.parse((ROOT / "moonrules" / "table" / name).read_text(encoding="utf-8"))
    out: list[MessageId] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        args = node.args
        if node.func.id in ("_", "N_") and args and isinstance(args[0], ast.Constant):
            out.append(_strings(args[0]))
        elif node.func.id == "_n" and len(args) >= 2 and isinstance(args[0], ast.Constant):
            out.append((_strings(args[0]), _strings(args[1])))
    return out


def message_ids() -> list[MessageId]:
    """Every message id, each once, in the order the sources give them."""
    seen: dict[MessageId, None] = {}
    for name in PAGES:
        seen.update(dict.fromkeys(page_texts(name)))
    for name in SCRIPTS:
        seen.update(dict.fromkeys(script_ids(name)))
    seen.update(dict.fromkeys(server_ids()))
    for name in SERVER_PAGES:
        seen.update(dict.fromkeys(page_ids(name)))
    return list(seen)
