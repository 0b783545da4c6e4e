"""The document limits (scoring.sheet.document): what they refuse, and what they must still take."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import Refusal
from scoring.sheet.document import MAX_DEPTH, MAX_INTEGER, read_json


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"note": "' + "[" * 50 + '"}', {"note": "[" * 50}),  # brackets inside text are no nesting
        ('{"note": "\\"[[[[[[[[[[[[[[[[[[[[[[[[\\""}', {"note": '"' + "[" * 24 + '"'}),  # nor after an escaped quote
        ("[" * MAX_DEPTH + "]" * MAX_DEPTH, [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]),
        (f"[{MAX_INTEGER}, -{MAX_INTEGER}, 1e308, -0.5]", [MAX_INTEGER, -MAX_INTEGER, 1e308, -0.5]),
        ('{"name": "Ann \\u00e9\\ud83c\\udc00"}', {"name": "Ann é🀀"}),  # a surrogate pair is one character
        (b'\xef\xbb\xbf{"a": 1}', {"a": 1}),  # a byte order mark
    ],
)
def test_what_the_limits_take(text: str | bytes, value: Any):
    assert read_json(text) == value


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), [("", "nested 21 levels deep; at most 20 levels are allowed")]),
        (f"[{MAX_INTEGER + 1}]", [("[0]", "is too large: numbers are limited to ±9,007,199,254,740,991")]),
        (
            '{"a": [NaN, Infinity], "b": {"c": "\\u0000"}}',
            [
                ("a[0]", "NaN is not a number JSON allows"),
                ("a[1]", "Infinity is not a number JSON allows"),
                ("b.c", "contains a NUL character (\\u0000)"),
            ],
        ),
        ('{"hands": [{"\\udc00": 1}]}', [("hands[0]", "a key contains a lone surrogate (\\udc00)")]),
        ("{", [("", "not valid JSON at line 1, column 2: Expecting property name enclosed in double quotes")]),
    ],
)
def test_what_the_limits_refuse(text: str, problems: list[tuple[str, str]]):
    with pytest.raises(Refusal) as refused:
        read_json(text)
    assert [(p.field, p.message) for p in refused.value.problems] == problems
