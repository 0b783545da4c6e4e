"""One line of CSV (rules.csv_line): its values when its quotes pair up, else why not, by code."""

from __future__ import annotations

import pytest

from rules.csv_line import csv_values
from rules.errors import Refusal


@pytest.mark.parametrize(
    ("line", "delimiter", "values"),
    [
        ("Ann, 0412, KR", ",", ["Ann", " 0412", " KR"]),
        ('"Lee, Ann";9', ";", ["Lee, Ann", "9"]),
        ('Gil "Tiger" Ko\t1', "\t", ['Gil "Tiger" Ko', "1"]),  # quotes inside a value are letters, in pairs
        ('"say ""hi""",2', ",", ['say "hi"', "2"]),
        ('"Lee, Ann" , 0413', ",", ["Lee, Ann", " 0413"]),  # spaces after a closing quote are layout
        ('"Lee, Ann" ', ",", ["Lee, Ann"]),
        ("", ",", []),
    ],
)
def test_a_line_whose_quotes_pair_up_is_read_as_the_csv_module_reads_it(line: str, delimiter: str, values: list[str]):
    assert csv_values(line, delimiter) == values


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ('"Gil Ko, 0413, Korea, Busan club', "csv_quote_open"),
        ('Gil Ko, "0413, Korea', "csv_quote_open"),
        ('Gil Ko, 0413"', "csv_quote_open"),
        ('"Gil" Ko, 0413', "csv_quote_then_text"),
        ('"Gil Ko" x, 0413', "csv_quote_then_text"),
        ("x" * 200_000 + ",1", "csv_value_too_long"),  # over the csv module's field limit
    ],
)
def test_a_line_that_cannot_be_read_says_why(line: str, code: str):
    with pytest.raises(Refusal) as refused:
        csv_values(line)
    assert [(p.field, p.code) for p in refused.value.problems] == [("", code)]
