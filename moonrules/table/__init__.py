"""The table: a web server and a browser page where people and bots play Moon in rooms.

``moonrules table`` (``pip install 'moonrules[table]'``) serves a lobby, rooms with one
secret link per seat, and a game over a WebSocket (``spec/table.md``). Everything here
is built on the library's public API: :func:`moonrules.new_game`,
:func:`moonrules.legal_actions`, :func:`moonrules.apply`, :func:`moonrules.view`, game
records and the bots of :mod:`moonrules.bots`.

- :mod:`~moonrules.table.wire`: the messages of the WebSocket protocol, and the actions
  encoded as records write them;
- :mod:`~moonrules.table.storage`: rooms and their accepted actions in SQLite;
- :mod:`~moonrules.table.botpool`: bots thinking in worker processes, off the event loop;
- :mod:`~moonrules.table.rooms`: the rooms themselves, independent of any web framework;
- :mod:`~moonrules.table.server`: the Starlette application (imports the ``table`` extra).

Only :mod:`~moonrules.table.server` imports Starlette: the rest of the subpackage (and
this module) imports with the core dependencies alone.
"""

from __future__ import annotations

from moonrules.table.rooms import RoomError, Table, TableLimits
from moonrules.table.wire import action_json, parse_action

__all__ = ["RoomError", "Table", "TableLimits", "action_json", "parse_action"]
