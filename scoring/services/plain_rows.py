"""Rows of the hand write's few models read and written by plain statements whose text is built once.

A hand write is a dozen small statements. Through query sets, building and compiling each statement and turning
its rows into instances cost several times what the database takes to run it (half of a write's time, profiled;
``bulk_create``'s upsert alone, for four rows of thirty columns, several times its database time). Here a
statement's text is built once per model and shape (``functools.cache``) from the models' own columns, and the
values go through the same field methods the ORM's compilers call: ``get_db_converters`` (with the backend's) on
the way in and ``pre_save`` / ``get_db_prep_save`` on the way out, so a row read or written here is the row the ORM
would have read or written (tests/scoring/test_plain_rows.py and test_row_upsert.py compare them). An int, a bool, a
str or None, which those methods leave as they are (a few microseconds a value to say so), goes as it is.
Instances come from ``Model.from_db``, as a query set makes them: ``save()``, relations and ``refresh_from_db()``
work on them as on any other.

Only what the write path needs: a statement names its columns from ``_meta``, its conditions and joins are the
caller's SQL with ``%s`` parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar, cast

from django.db import connection
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


def columns(model: type[Model], alias: str) -> str:
    """The model's concrete columns, qualified by the table's ``alias``, in ``_meta`` order (what ``make`` takes)."""
    return _columns(model, alias)


def table(model: type[Model]) -> str:
    """The model's table, quoted, for a statement's FROM or JOIN."""
    return connection.ops.quote_name(model._meta.db_table)


def width(model: type[Model]) -> int:
    """How many values ``columns`` selects: where the next model's columns start in a joined row."""
    return len(model._meta.concrete_fields)


def make(model: type[M], values: Sequence[Any]) -> M:
    """An instance from the values ``columns(model, ...)`` selected, converted as the ORM converts them."""
    row = list(values)
    for position, converters, expression in _converters(model):
        value = row[position]
        for converter in converters:
            value = converter(value, expression, connection)
        row[position] = value
    return model.from_db(connection.alias, (), row)  # every column given: no names needed


def select(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def insert(row: M) -> M:
    """Insert one unsaved instance (its primary key set from the database), its ``auto_now`` fields stamped."""
    model = type(row)
    fields = _written(model)
    with connection.cursor() as cursor:
        values: list[Any] = [_prepared(field, field.pre_save(row, True)) for field in fields]
        cursor.execute(_insert_statement(model), values)
        (key,) = cursor.fetchone() or (None,)
    row.pk = key
    row._state.adding = False
    row._state.db = connection.alias
    return row


def update(row: Model, names: Sequence[str]) -> None:
    """``row.save(update_fields=names)`` in one statement: those fields written (``auto_now`` ones stamped)."""
    model = type(row)
    values: list[Any] = [_prepared(field, field.pre_save(row, False)) for field in map(_field(model), names)]
    with connection.cursor() as cursor:
        cursor.execute(_update_statement(model, tuple(names)), [*values, row.pk])


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
        cursor.execute(_upsert_statement(model, key, len(rows)), values)
    return rows


def _prepared(field: Any, value: object) -> object:
    return value if type(value) in _PLAIN else field.get_db_prep_save(value, connection)


_PLAIN = frozenset({int, bool, str, type(None)})


@cache
def _columns(model: type[Model], alias: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{quote(alias)}.{quote(field.column)}" for field in model._meta.concrete_fields)


# Per model, not per connection: the backend's converters are its operations' methods, which read the settings and
# the connection's settings only (its time zone), the same on every thread's connection.
@cache
def _converters(model: type[Model]) -> list[tuple[int, list[Converter], Any]]:
    out = []
    for position, field in enumerate(model._meta.concrete_fields):
        expression = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
        if found:
            out.append((position, found, expression))
    return out


@cache
def _written(model: type[Model]) -> list[Field[object, object]]:
    return [field for field in model._meta.concrete_fields if not field.primary_key]


def _field(model: type[Model]) -> Callable[[str], Field[object, object]]:
    return lambda name: cast("Field[object, object]", model._meta.get_field(name))


def _key(model: type[Model]) -> str:
    return connection.ops.quote_name(cast("Field[object, object]", model._meta.pk).column)


@cache
def _insert_statement(model: type[Model]) -> str:
    quote = connection.ops.quote_name
    fields = _written(model)
    return (
        f"INSERT INTO {table(model)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {_key(model)}"
    )


@cache
def _update_statement(model: type[Model], names: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    assigned = ", ".join(f"{quote(field.column)} = %s" for field in map(_field(model), names))
    return f"UPDATE {table(model)} SET {assigned} WHERE {_key(model)} = %s"


@cache
def _upsert_statement(model: type[Model], key: tuple[str, ...], count: int) -> str:
    quote = connection.ops.quote_name
    fields = _written(model)
    columns = [field.column for field in fields]
    keyed = [field.column for field in fields if field.name in key]
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    others = [quote(c) for c in columns if c not in keyed]
    updated = ", ".join(f"{c} = EXCLUDED.{c}" for c in others)
    differs = " OR ".join(f"{table(model)}.{c} IS DISTINCT FROM EXCLUDED.{c}" for c in others)
    return (
        f"INSERT INTO {table(model)} ({', '.join(quote(c) for c in columns)}) "
        f"VALUES {', '.join([one] * count)} "
        f"ON CONFLICT ({', '.join(quote(c) for c in keyed)}) DO UPDATE SET {updated} WHERE {differs}"
    )
