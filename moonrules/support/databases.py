"""The databases the table and the tournament's event store share: a ``--db`` that names
PostgreSQL or an SQLite file, psycopg (the ``postgres`` extra) imported where it is used,
and a database named or an error quoted in one line, without a password."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from moonrules.rules.errors import install_extra


def is_postgres(db: str | Path) -> bool:
    """Whether ``db`` names a PostgreSQL database (``postgresql://``, ``postgres://``)
    rather than an SQLite file: the ``--db`` convention of the table and the tournaments."""
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def postgres_driver(error: Callable[[str], Exception]) -> Any:
    """``psycopg``, or ``error(message)`` raised, the message saying how to install it."""
    try:
        import psycopg
    except ImportError:
        raise error(
            f"a postgresql:// database needs psycopg (the postgres extra): "
            f"{install_extra('postgres')}"
        ) from None
    return psycopg


def describe_postgres(url: str, error: Callable[[str], Exception]) -> str:
    """The database a URL names, without its password (for messages and logs); ``error``
    as for :func:`postgres_driver`."""
    psycopg = postgres_driver(error)
    try:
        parts = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the PostgreSQL database (an invalid URL)"
    host = parts.get("host") or "localhost"
    port = parts.get("port") or "5432"
    return f"postgresql://{host}:{port}/{parts.get('dbname') or ''}"


def first_line(e: BaseException) -> str:
    """A database error's first line (its name, when it says nothing)."""
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


__all__ = ["describe_postgres", "first_line", "is_postgres", "postgres_driver"]
