"""Reading untrusted JSON: the limits every document the project takes must keep, whatever its shape.

A score sheet (``manage.py score_sheet``, ``import_sheets``) and every API
request body are read by ``read_json``. Before any field is looked at, it
refuses what no field can use and what would break the code or the
database further down, each problem with the path it was found at:

- more than ``MAX_DEPTH`` levels of nesting (Python's JSON reader recurses,
  and no document of the project is deeper than 5);
- a NUL character (PostgreSQL refuses it in text and in JSON) or a lone
  surrogate such as ``"\\ud800"`` (it cannot be encoded again, so an answer
  or a log line that shows it fails), in a value or a key;
- ``NaN``, ``Infinity`` and numbers that overflow a float to infinity;
- integers beyond ``MAX_INTEGER``, JSON's safe range (a 5,000-digit number
  would not even become a Python int).

Fields then check their own bounds (the score sheet's JSON Schema, the API's
serializers). ``rules.text.PRINTABLE`` is the pattern that names and notes follow.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rules.errors import Problem, Refusal

MAX_DEPTH = 20
MAX_INTEGER = 2**53 - 1  # the largest integer every JSON reader keeps exactly (RFC 7493, I-JSON)
_MAX_DIGITS = len(str(MAX_INTEGER))

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # a JSON string, escapes and all
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class _Unreadable:
    """A number the document holds that no field can take, kept as written so that its path can be reported."""

    text: str
    why: str


def read_json(raw: bytes | str) -> Any:
    """The JSON value of ``raw`` (UTF-8 if bytes) within the limits above; Refusal names every problem."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Refusal([Problem("", f"not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x})")]) from None
    raw = raw.removeprefix("\ufeff")
    depth = nesting_depth(raw)
    if depth > MAX_DEPTH:
        raise Refusal([Problem("", f"nested {depth} levels deep; at most {MAX_DEPTH} levels are allowed")])
    try:
        value = json.loads(raw, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise Refusal([Problem("", f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}")]) from None
    problems = document_problems(value)
    if problems:
        raise Refusal(problems)
    return value


def nesting_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest, counted without parsing it (strings left out)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = deepest = 0
    for bracket in brackets:
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def document_problems(value: Any) -> list[Problem]:
    """What ``read_json`` refuses in an already parsed value: the characters and numbers above, with their paths."""
    return list(_walk(value, ""))


def _walk(value: Any, path: str) -> Iterator[Problem]:
    if isinstance(value, dict):
        for key, item in value.items():
            if bad := _bad_character(key):
                # The key itself cannot be shown: name the object that holds it.
                yield Problem(path, f"a key contains {bad}")
                continue
            yield from _walk(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")
    elif isinstance(value, str):
        if bad := _bad_character(value):
            yield Problem(path, f"contains {bad}")
    elif isinstance(value, _Unreadable):
        yield Problem(path, value.why)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
        yield Problem(path, f"is too large: numbers are limited to ±{MAX_INTEGER:,}")


def _bad_character(text: str) -> str | None:
    found = _BAD_CHARACTER.search(text)
    if found is None:
        return None
    char = found.group()
    return "a NUL character (\\u0000)" if char == "\x00" else f"a lone surrogate (\\u{ord(char):04x})"


def _integer(text: str) -> int | _Unreadable:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        return _Unreadable(
            text, f"is too large ({len(text.lstrip('-'))} digits): numbers are limited to ±{MAX_INTEGER:,}"
        )
    return int(text)


def _float(text: str) -> float | _Unreadable:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        return _Unreadable(text, "is too large to be a number")
    return number


def _constant(text: str) -> _Unreadable:
    return _Unreadable(text, f"{text} is not a number JSON allows")
