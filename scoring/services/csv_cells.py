"""CSV the exports write: one writer, empty cells for nothing, and the one guard against spreadsheet formulas."""

from __future__ import annotations

import csv
import io
from typing import Any

# What a spreadsheet reads as the start of a formula (or hides before one): =, +, -, @, tab, carriage return.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """Nothing as an empty cell."""
    return "" if value is None else value


def csv_writer(out: io.StringIO) -> Any:
    # RFC 4180's line end: the csv module quotes a cell holding any character of it, so a carriage return in
    # a name stays inside its cell (with "\n" alone it was written bare and split the row).
    return csv.writer(out, lineterminator="\r\n")


def inert(row: list[Any]) -> list[Any]:
    """The row with every text cell that a spreadsheet would run as a formula (a player named
    ``=HYPERLINK(...)``) quoted by a leading apostrophe, as OWASP advises; numbers stay numbers."""
    return [f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_START) else value for value in row]
