"""The JSON Schema of the score sheet (SCORE_SHEET.md), and its errors in a referee's words.

The schema checks the shape of a sheet: types, known fields, required
fields. What needs the rules (a han/fu pair, a player's name, a ruleset's
minimum) is checked by scoring.sheet with rules/. The API serves this schema.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from rules.errors import Problem
from rules.hands import ABORT_REASONS
from rules.ruleset import PARAMETERS

RESULTS = ("ron", "tsumo", "draw", "abort", "chombo")

_NAME = {"type": "string", "minLength": 1, "description": "a player's name as listed in players"}
_NAMES = {"type": "array", "items": _NAME, "uniqueItems": True}

_TILES = {
    "type": "object",
    "description": "the winning hand's tiles, to compute its value (SCORE_SHEET.md 'Tiles')",
    "additionalProperties": False,
    "required": ["concealed", "win"],
    "properties": {
        "concealed": {"type": "string", "description": "concealed tiles without the winning tile, e.g. 234m456m88p"},
        "win": {"type": "string", "description": "the winning tile, e.g. 8s"},
        "melds": {"type": "array", "items": {"type": "string"},
                  "description": "called sets: 'chi 345m', 'pon 777z', 'kan 1111p', 'ankan 9999s'"},
        "dora": {"type": "string", "description": "dora indicators"},
        "ura": {"type": "string", "description": "ura dora indicators"},
        "flags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "flowers": {"type": "integer", "minimum": 0},
    },
}

_VALUE_FIELDS: dict[str, Any] = {
    "han": {"type": "integer", "minimum": 1, "description": "riichi: han, dora included"},
    "fu": {"type": "integer", "minimum": 20, "maximum": 110, "description": "riichi: fu (may be left out from 5 han)"},
    "yakuman": {"type": "integer", "minimum": 1, "description": "riichi: number of yakuman (2 = double)"},
    "fan": {"type": "integer", "minimum": 0, "description": "MCR: fan without flowers"},
    "flowers": {"type": "integer", "minimum": 0, "description": "MCR: flower tiles, 1 fan each"},
    "pao": {**_NAME, "description": "the player liable for a fed yakuman"},
    "tiles": _TILES,
}

_WIN = {
    "type": "object",
    "additionalProperties": False,
    "required": ["winner"],
    "properties": {"winner": _NAME, **_VALUE_FIELDS},
}


def _required_for(result: str, *fields: str) -> dict[str, Any]:
    return {"if": {"properties": {"result": {"const": result}}, "required": ["result"]},
            "then": {"required": list(fields)}}


_HAND = {
    "type": "object",
    "additionalProperties": False,
    "required": ["result"],
    "properties": {
        "result": {"enum": list(RESULTS)},
        "winner": _NAME,
        "loser": {**_NAME, "description": "ron: the player who dealt in"},
        **_VALUE_FIELDS,
        "wins": {"type": "array", "items": _WIN, "minItems": 1,
                 "description": "a multiple ron: one entry per player who called ron"},
        "riichi": {**_NAMES, "description": "players who put a riichi stick out in this hand"},
        "tenpai": {**_NAMES, "description": "draw: players tenpai"},
        "nagashi": {**_NAMES, "description": "draw: players with nagashi mangan"},
        "reason": {"enum": list(ABORT_REASONS), "description": "abort: why"},
        "player": {**_NAME, "description": "chombo: the offender"},
        "false_wins": {**_NAMES, "description": "MCR: players who declared a false win in this hand"},
        "note": {"type": "string", "description": "a referee's remark; not scored"},
    },
    "allOf": [_required_for("ron", "loser"), _required_for("tsumo", "winner"), _required_for("chombo", "player")],
}


@cache
def score_sheet_schema() -> dict[str, Any]:
    """The score sheet's JSON Schema (draft 2020-12)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://mahjong-tournament.invalid/schemas/score-sheet.json",
        "title": "Score sheet",
        "description": "One game as a referee writes it: the ruleset, the players in seat order, every hand.",
        "type": "object",
        "additionalProperties": False,
        "required": ["ruleset", "players", "hands"],
        "properties": {
            "ruleset": {"type": "string", "minLength": 1, "description": "a preset key, e.g. wrc-2025"},
            "overrides": {
                "type": "object",
                "additionalProperties": False,
                "properties": {name: spec.json_schema() for name, spec in PARAMETERS.items()},
                "description": "ruleset parameters replacing the preset's values",
            },
            "players": {**_NAMES, "minItems": 2, "maxItems": 8,
                        "description": "names in seat order at the start; the first is the first dealer"},
            "start": {
                "type": "object",
                "additionalProperties": False,
                "description": "resume a game already in progress",
                "properties": {
                    "round": {"type": "string", "description": "round wind letter and hand number, e.g. S2"},
                    "honba": {"type": "integer", "minimum": 0},
                    "deposits": {"type": "integer", "minimum": 0, "description": "riichi sticks on the table"},
                    "scores": {"type": "array", "items": {"type": "integer"}},
                },
            },
            "hands": {"type": "array", "items": {"$ref": "#/$defs/hand"}},
            "penalties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["player", "points"],
                    "properties": {"player": _NAME, "points": {"type": "number"}, "reason": {"type": "string"}},
                },
            },
            "end": {"enum": ["time"], "description": "the game was stopped by the clock after the last hand"},
        },
        "$defs": {"hand": _HAND, "win": _WIN, "tiles": _TILES},
    }


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(score_sheet_schema())


def schema_problems(data: Any) -> list[Problem]:
    """Every place where ``data`` breaks the schema, in document order."""
    problems = [_problem(error) for error in _leaf_errors(_validator().iter_errors(data))]
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


def _problem(error: ValidationError) -> Problem:
    path = json_path(error.absolute_path)
    kind = error.validator
    value: Any = error.validator_value
    instance: Any = error.instance
    schema: Any = error.schema
    if kind == "required":
        missing = re.match(r"'([^']+)'", error.message)
        field = missing.group(1) if missing else "?"
        result = instance.get("result") if isinstance(instance, dict) else None
        why = f" for a {result}" if isinstance(result, str) and path.startswith("hands") else ""
        return Problem(json_path([*error.absolute_path, field]), f"is required{why}")
    if kind == "additionalProperties":
        extra = sorted(set(instance) - set(schema.get("properties", {})))
        field = extra[0] if extra else "?"
        what = "ruleset parameter" if path == "overrides" else "field"
        return Problem(json_path([*error.absolute_path, field]), f"unknown {what}")
    if kind == "type":
        wanted = value if isinstance(value, str) else value[0]
        return Problem(path, f"must be {_TYPE_WORDS.get(wanted, wanted)}")
    if kind == "enum":
        return Problem(path, "must be one of: " + ", ".join(str(v) for v in value))
    if kind == "const":
        return Problem(path, f"must be {value!r}")
    if kind == "minimum":
        return Problem(path, f"must be at least {value}")
    if kind == "maximum":
        return Problem(path, f"must be at most {value}")
    if kind == "minItems":
        return Problem(path, f"needs at least {value} entr{'y' if value == 1 else 'ies'}")
    if kind == "maxItems":
        return Problem(path, f"takes at most {value} entries")
    if kind == "uniqueItems":
        return Problem(path, "lists the same entry twice")
    if kind == "minLength":
        return Problem(path, "must not be empty")
    if kind == "oneOf":
        description = schema.get("description") if isinstance(schema, dict) else None
        return Problem(path, f"is not valid: {description}" if description else "is not valid")
    return Problem(path, error.message)


def sort_key(field: str) -> list[tuple[int, int, str]]:
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[\[\].]+", field) if p]
