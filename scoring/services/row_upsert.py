"""A few rows of one model inserted, or updated in place where their key is taken and they differ: one statement.

A hand write upserts a game's GameResult and GameStats rows (one a player). ``bulk_create(update_conflicts=True)``
sends the same INSERT ... ON CONFLICT DO UPDATE, but its insert compiler builds the statement anew on every call
and prepares each value through several layers: for four rows of thirty columns that cost several times what the
database takes to run it. Here the statement's text is built once per model, key and row count, and each value
is prepared by its field's own ``pre_save`` and ``get_db_prep_save``, as the compiler prepares it, so the
database receives what ``bulk_create`` would have sent (tests/scoring/test_row_upsert.py compares the two). An
int, a bool, a str or None those leave as they are (a few microseconds a value to say so) goes as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


def upsert(rows: Sequence[M], key: tuple[str, ...]) -> Sequence[M]:
    """Insert ``rows`` (unsaved instances of one model), each updated in place instead where a row with the same
    ``key`` (the field names of a unique constraint) is stored and differs from it in any column: every column but
    the primary key is written, and a stored row that already holds these values is left as it is (the database
    compares them: nothing is read first). Returns ``rows`` (their primary keys left unset)."""
    if not rows:
        return rows
    model = type(rows[0])
    fields = _written(model)
    values: list[Any] = [_prepared(field, field.pre_save(row, True)) for row in rows for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(_statement(model, key, len(rows)), values)
    return rows


def _prepared(field: Field[object, object], value: object) -> object:
    return value if type(value) in _PLAIN else field.get_db_prep_save(value, connection)


_PLAIN = frozenset({int, bool, str, type(None)})


@cache
def _written(model: type[Model]) -> list[Field[object, object]]:
    return [field for field in model._meta.concrete_fields if not field.primary_key]


@cache
def _statement(model: type[Model], key: tuple[str, ...], count: int) -> str:
    quote = connection.ops.quote_name
    fields = _written(model)
    columns = [field.column for field in fields]
    keyed = [field.column for field in fields if field.name in key]
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    table = quote(model._meta.db_table)
    others = [quote(c) for c in columns if c not in keyed]
    updated = ", ".join(f"{c} = EXCLUDED.{c}" for c in others)
    differs = " OR ".join(f"{table}.{c} IS DISTINCT FROM EXCLUDED.{c}" for c in others)
    return (
        f"INSERT INTO {table} ({', '.join(quote(c) for c in columns)}) "
        f"VALUES {', '.join([one] * count)} "
        f"ON CONFLICT ({', '.join(quote(c) for c in keyed)}) DO UPDATE SET {updated} WHERE {differs}"
    )
