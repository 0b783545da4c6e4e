"""The JSON Schema of the score sheet (docs/score-sheet.md), and its errors in a referee's words.

The schema checks the shape of a sheet: types, known fields, required
fields. What needs the rules (a han/fu pair, a player's name, a ruleset's
minimum) is checked by the reader with rules/. The hand and win objects come
from the one declaration of the hand record (``scoring.sheet.record``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from rules.errors import Problem
from rules.hands import Outcome
from rules.parameters import MAX_PLAYERS, MIN_PLAYERS, SCORE_LIMIT
from rules.ruleset import PARAMETERS
from rules.text import PRINTABLE, PRINTABLE_MESSAGE
from scoring.sheet.document import MAX_INTEGER
from scoring.sheet.record import FLOWERS_MAXIMUM, REASONS, Field, Kind, hand_fields, win_fields

# The table sizes the rules cover (docs/rules.md §7; one: the solo race to tenpai) are the ruleset's:
# rules.parameters.MIN_PLAYERS, MAX_PLAYERS.
# Bounds the rules do not give (docs/bounds.md): what a real game can reach, and what the database stores.
MAX_HANDS = 300  # a game's hands: a long MCR game has about 30, a marathon of renchan never 300
MAX_HISTORY = 10 * MAX_HANDS  # history entries of one exported game: every hand added, changed or deleted
MAX_HONBA = MAX_DEPOSITS = 100  # a game taken up with more counters on the table than any game has reached
MAX_PENALTIES = 100  # penalty lines in one game
PENALTY_LIMIT = 10_000  # points of one penalty, either way (chombo is -20 or so, MCR penalties -10 to -100)
NAME_LENGTH = 100  # a player's name (the Player.name column)
REASON_LENGTH = 200  # a penalty's reason (the Penalty.reason column)
RULESET_LENGTH = 40  # a preset key (the Event.ruleset_key column)
_TILE_TEXT = 64  # characters of a tile string: 14 tiles and their suits, with room for spaces
_MELDS = 4  # a winning hand has at most four sets called

_NAME = {
    "type": "string",
    "minLength": 1,
    "maxLength": NAME_LENGTH,
    "pattern": PRINTABLE,
    "description": "a player's name as listed in players",
}
_ID = {"type": "integer", "minimum": 1, "maximum": MAX_INTEGER, "description": "a player's id, as listed in players"}
_TEXT = {"type": "string", "pattern": PRINTABLE}
# Players are named by name in a score sheet and by id in a stored game (the API's sheets and hands).
BY_NAME, BY_ID = "name", "id"

_TILES = {
    "type": "object",
    "description": "the winning hand's tiles, to compute its value (docs/score-sheet.md 'Tiles')",
    "additionalProperties": False,
    "required": ["concealed", "win"],
    "properties": {
        "concealed": {
            "type": "string",
            "maxLength": _TILE_TEXT,
            "description": "concealed tiles without the winning tile, e.g. 234m456m88p",
        },
        "win": {"type": "string", "maxLength": _TILE_TEXT, "description": "the winning tile, e.g. 8s"},
        "melds": {
            "type": "array",
            "items": {"type": "string", "maxLength": _TILE_TEXT},
            "maxItems": _MELDS,
            "description": "called sets: 'chi 345m', 'pon 777z', 'kan 1111p', 'ankan 9999s'",
        },
        "dora": {"type": "string", "maxLength": _TILE_TEXT, "description": "dora indicators"},
        "ura": {"type": "string", "maxLength": _TILE_TEXT, "description": "ura dora indicators"},
        "flags": {
            "type": "array",
            "items": {"type": "string", "maxLength": _TILE_TEXT},
            "uniqueItems": True,
            "maxItems": _TILE_TEXT,
        },
        "flowers": {"type": "integer", "minimum": 0, "maximum": FLOWERS_MAXIMUM},
    },
}


def _field_schema(field: Field, player: dict[str, Any]) -> dict[str, Any]:
    spec = field.spec
    schema: dict[str, Any]
    if spec.kind is Kind.OUTCOME:
        schema = {"enum": list(Outcome)}
    elif spec.kind is Kind.PLAYER:
        schema = dict(player)
    elif spec.kind is Kind.PLAYERS:
        schema = (
            {"type": "array", "items": player, "uniqueItems": True, "maxItems": MAX_PLAYERS}
            if spec.each == 1
            else {"type": "array", "items": player, "maxItems": MAX_PLAYERS * spec.each}
        )
    elif spec.kind in (Kind.COUNT, Kind.FU, Kind.DRAWS):
        schema = {"type": "integer"}
        schema.update(
            {key: value for key, value in (("minimum", spec.minimum), ("maximum", spec.maximum)) if value is not None}
        )
    elif spec.kind is Kind.TILES:
        schema = {"$ref": "#/$defs/tiles"}
    elif spec.kind is Kind.WINS:
        schema = {"type": "array", "items": {"$ref": "#/$defs/win"}, "minItems": 1, "maxItems": MAX_PLAYERS - 1}
    elif spec.kind is Kind.REASON:
        schema = {"enum": list(REASONS)}
    else:
        schema = {**_TEXT, "maxLength": spec.max_length} if spec.max_length is not None else dict(_TEXT)
    if "$ref" not in schema:
        schema["description"] = spec.help
    return schema


def _required_for(result: str, fields: list[str]) -> dict[str, Any]:
    return {"if": {"properties": {"result": {"const": result}}, "required": ["result"]}, "then": {"required": fields}}


def _records(player: dict[str, Any]) -> dict[str, Any]:
    """The hand and win objects, from the one declaration of the hand record (scoring.sheet.record)."""
    hand = {
        "type": "object",
        "additionalProperties": False,
        "required": ["result"],
        "properties": {f.name: _field_schema(f, player) for f in hand_fields()},
        "allOf": [
            _required_for(outcome, names)
            for outcome in Outcome
            if (names := [f.name for f in hand_fields() if outcome in f.spec.required_for])
        ],
    }
    win = {
        "type": "object",
        "additionalProperties": False,
        "required": ["winner"],
        "properties": {f.name: _field_schema(f, player) for f in win_fields()},
    }
    return {"hand": hand, "win": win, "tiles": _TILES}


_START = {
    "type": "object",
    "additionalProperties": False,
    "description": "resume a game already in progress",
    "properties": {
        "round": {"type": "string", "maxLength": 3, "description": "round wind letter and hand number, e.g. S2"},
        "honba": {"type": "integer", "minimum": 0, "maximum": MAX_HONBA},
        "deposits": {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_DEPOSITS,
            "description": "riichi sticks on the table",
        },
        "scores": {
            "type": "array",
            "maxItems": MAX_PLAYERS,
            "items": {"type": "integer", "minimum": -SCORE_LIMIT, "maximum": SCORE_LIMIT},
        },
    },
}


_HISTORY = {
    "type": "object",
    "description": "an exported game's sealed history (its hash chain): import_sheets checks it; scoring ignores it",
    "required": ["players", "entries"],
    "properties": {
        "players": {
            "type": "array",
            "items": {"type": "integer"},
            "maxItems": MAX_PLAYERS,
            "description": "the ids the entries name, in seat order",
        },
        "entries": {"type": "array", "items": {"type": "object"}, "maxItems": MAX_HISTORY},
        "head": {"type": "string", "maxLength": 64},
    },
}


def _penalties(player: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "array",
        "maxItems": MAX_PENALTIES,
        "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["player", "points"],
            "properties": {
                "player": player,
                "points": {"type": "number", "minimum": -PENALTY_LIMIT, "maximum": PENALTY_LIMIT},
                "reason": {**_TEXT, "maxLength": REASON_LENGTH},
            },
        },
    }


@cache
def score_sheet_schema(players: str = BY_NAME) -> dict[str, Any]:
    """The score sheet's JSON Schema (draft 2020-12); ``players="id"`` for a stored game's, which names ids."""
    player = _ID if players == BY_ID else _NAME
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://mahjong-tournament.invalid/schemas/score-sheet.json",
        "title": "Score sheet",
        "description": "One game as a referee writes it: the ruleset, the players in seat order, every hand.",
        "type": "object",
        "additionalProperties": False,
        "required": ["ruleset", "players", "hands"],
        "properties": {
            "ruleset": {
                "type": "string",
                "minLength": 1,
                "maxLength": RULESET_LENGTH,
                "description": "a preset key, e.g. wrc-2025",
            },
            "overrides": {
                "type": "object",
                "additionalProperties": False,
                "properties": {name: spec.json_schema() for name, spec in PARAMETERS.items()},
                "description": "ruleset parameters replacing the preset's values",
            },
            "players": {
                "type": "array",
                "items": player,
                "uniqueItems": True,
                "minItems": MIN_PLAYERS,
                "maxItems": MAX_PLAYERS,
                "description": "in seat order at the start; the first is the first dealer",
            },
            "start": _START,
            "hands": {"type": "array", "items": {"$ref": "#/$defs/hand"}, "maxItems": MAX_HANDS},
            "penalties": _penalties(player),
            "end": {"enum": ["time"], "description": "the game was stopped by the clock after the last hand"},
            "history": _HISTORY,
        },
        "$defs": _records(player),
    }


@cache
def _validator(players: str) -> Draft202012Validator:
    return Draft202012Validator(score_sheet_schema(players))


def schema_problems(data: Any, *, players: str = BY_NAME) -> list[Problem]:
    """Every place where ``data`` breaks the schema, in document order."""
    problems = [_problem(error) for error in _leaf_errors(_validator(players).iter_errors(data))]
    unique = {(p.field, p.message): p for p in problems}
    return sorted(unique.values(), key=lambda p: sort_key(p.field))


def _leaf_errors(errors: Iterable[ValidationError]) -> Iterable[ValidationError]:
    """if/then and allOf wrap the real error; report the wrapped one."""
    for error in errors:
        if error.validator in ("allOf", "anyOf") and error.context:
            yield from _leaf_errors(error.context)
        else:
            yield error


def json_path(parts: Iterable[Any]) -> str:
    """('hands', 3, 'fu') -> 'hands[3].fu'."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "array": "a list",
    "object": "an object ({...})",
    "boolean": "true or false",
    "null": "null",
}
# The same, as message codes (rules.messages) that the pages translate.
_TYPE_CODES = {
    "integer": "a_whole_number",
    "number": "a_number",
    "string": "a_text",
    "array": "a_list",
    "object": "an_object",
    "boolean": "true_or_false",
}


def _problem(error: ValidationError) -> Problem:
    path = json_path(error.absolute_path)
    kind = str(error.validator)
    if kind in _BY_ERROR:
        return _BY_ERROR[kind](error, path)
    value: Any = error.validator_value
    return _BY_VALUE[kind](path, value) if kind in _BY_VALUE else Problem(path, error.message)


def _required(error: ValidationError, path: str) -> Problem:
    missing = re.match(r"'([^']+)'", error.message)
    field = missing.group(1) if missing else "?"
    instance: Any = error.instance
    result = instance.get("result") if isinstance(instance, dict) else None
    where = json_path([*error.absolute_path, field])
    if isinstance(result, str) and path.startswith("hands"):
        return Problem.of(where, "required_for", result=result)
    return Problem.of(where, "required")


def _unknown_field(error: ValidationError, path: str) -> Problem:
    instance: Any = error.instance
    schema: Any = error.schema
    extra = sorted(set(instance) - set(schema.get("properties", {})))
    field = extra[0] if extra else "?"
    return Problem.of(
        json_path([*error.absolute_path, field]), "unknown_parameter" if path == "overrides" else "unknown_field"
    )


def _wrong_type(error: ValidationError, path: str) -> Problem:
    value: Any = error.validator_value
    wanted = value if isinstance(value, str) else value[0]
    if wanted in _TYPE_CODES:
        return Problem.of(path, _TYPE_CODES[wanted])
    return Problem(path, f"must be {_TYPE_WORDS.get(wanted, wanted)}")


def _not_valid(error: ValidationError, path: str) -> Problem:
    schema: Any = error.schema
    description = schema.get("description") if isinstance(schema, dict) else None
    return Problem(path, f"is not valid: {description}" if description else "is not valid")


# What each JSON Schema keyword's failure says, by the keyword (``error.validator``); another keyword's
# failure keeps jsonschema's own message. These need the error, where it is and what it holds:
_BY_ERROR: dict[str, Callable[[ValidationError, str], Problem]] = {
    "required": _required,
    "additionalProperties": _unknown_field,
    "type": _wrong_type,
    "oneOf": _not_valid,
}
# These need the keyword's value in the schema only.
_BY_VALUE: dict[str, Callable[[str, Any], Problem]] = {
    "enum": lambda path, value: Problem.of(path, "one_of", choices=", ".join(str(v) for v in value)),
    "const": lambda path, value: Problem(path, f"must be {value!r}"),
    "minimum": lambda path, value: Problem.of(path, "at_least", minimum=value),
    "maximum": lambda path, value: Problem.of(path, "at_most", maximum=value),
    "minItems": lambda path, value: Problem(path, f"needs at least {value} entr{'y' if value == 1 else 'ies'}"),
    "maxItems": lambda path, value: Problem(path, f"takes at most {value} entries"),
    "uniqueItems": lambda path, _value: Problem(path, "lists the same entry twice"),
    "minLength": lambda path, _value: Problem(path, "must not be empty"),
    "maxLength": lambda path, value: Problem(path, f"is longer than {value} characters"),
    "pattern": lambda path, value: Problem(
        path, PRINTABLE_MESSAGE if value == PRINTABLE else "is not in the expected form"
    ),
}


def sort_key(field: str) -> list[tuple[int, int, str]]:
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[\[\].]+", field) if p]
