"""The score sheet's schema check, remembering the hands it passed: an import of real logs checks each shape once.

Checking a sheet against its JSON Schema (jsonschema) took longer than replaying it: most of the time went on
the hands, and the hands of real games repeat (a ron for 3 han 30 fu by the second player off the first,
riichi by the winner). ``sheet_problems`` answers as ``schema_problems`` does, and skips it when it can tell
that a sheet passes: its header (everything but its hands) passes, and each hand has a shape that passed.

A hand's shape is the hand with each player it names, where the schema takes a player, replaced by a stand-in
of that player's seat ("#0" for the first listed). The schema holds a player to the same rule wherever it
takes one (the players list included, which the header check holds the sheet's names to), and compares
players only for being the same (``uniqueItems``): a stand-in passes that rule, and two names are the same
exactly when their stand-ins are. So a hand passes exactly when its shape does. A value that is not one of the
players is left as it is (it can only fall on a stand-in and make two entries the same: the sheet is then
checked whole). Sheets naming players by id are always checked whole (1 and 1.0 are the same number to the
schema, and not to a lookup). Any sheet that does not pass is checked whole, for its problems' own words.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from rules.errors import Problem
from scoring.sheet.record import Kind, hand_fields, win_fields
from scoring.sheet.schema import BY_NAME, MAX_HANDS, schema_problems, score_sheet_schema

REMEMBERED = 20_000  # hand shapes kept per process (a few MB); past it the memory starts again
_passed: set[str] = set()


def sheet_problems(data: Any, *, players: str) -> list[Problem]:
    """Every place where ``data`` breaks the schema (``schema_problems``), nothing when its shapes passed."""
    if players == BY_NAME and _passes(data):
        return []
    return schema_problems(data, players=players)


def _passes(data: Any) -> bool:
    if not isinstance(data, dict):
        return False
    hands, names = data.get("hands"), data.get("players")
    if not isinstance(hands, list) or len(hands) > MAX_HANDS or not isinstance(names, list):
        return False
    if not _validators()[0].is_valid({**data, "hands": []}):
        return False
    seats = {name: f"#{seat}" for seat, name in reversed(list(enumerate(names))) if type(name) is str}
    for hand in hands:
        if not isinstance(hand, dict):
            return False
        shaped = _shape(hand, _hand_kinds(), seats)
        shape = repr(shaped)  # repr, not JSON: a tuple or a float is not a list or an integer to the schema
        if shape in _passed:
            continue
        if not _validators()[1].is_valid(shaped):
            return False
        if len(_passed) >= REMEMBERED:
            _passed.clear()
        _passed.add(shape)
    return True


def _shape(record: Mapping[str, Any], kinds: Mapping[str, Kind], seats: Mapping[str, str]) -> dict[str, Any]:
    out = {}
    for key, value in record.items():
        kind = kinds.get(key)
        if kind is Kind.PLAYER:
            value = _seat(value, seats)
        elif kind is Kind.PLAYERS and isinstance(value, list):
            value = [_seat(item, seats) for item in value]
        elif kind is Kind.WINS and isinstance(value, list):
            value = [_shape(win, _win_kinds(), seats) if isinstance(win, dict) else win for win in value]
        out[key] = value
    return out


def _seat(value: Any, seats: Mapping[str, str]) -> Any:
    return seats.get(value, value) if type(value) is str else value


@cache
def _hand_kinds() -> dict[str, Kind]:
    return {field.name: field.spec.kind for field in hand_fields()}


@cache
def _win_kinds() -> dict[str, Kind]:
    return {field.name: field.spec.kind for field in win_fields()}


@cache
def _validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    """The whole sheet's (given no hands, it checks the header), and one hand's."""
    schema = score_sheet_schema(BY_NAME)
    return Draft202012Validator(schema), Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/hand"})
