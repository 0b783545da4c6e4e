"""CSV the exports write: one writer, empty cells for nothing, the one guard against spreadsheet formulas, and
the header row and word cells in two forms: the stable English keys programs read (the API, the commands,
``?header=keys`` on the pages) and labels in the reader's language (the pages' downloads)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import pgettext

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


def header(keys: Iterable[str], labels: Mapping[str, Any], localised: bool) -> list[str]:
    """The header row: the keys programs read (``localised`` false), or each key's label in the active language.
    A numbered column (``round_3``) takes its pattern's label (``round_{n}``) with the number."""
    if not localised:
        return list(keys)
    return [_label(key, labels) for key in keys]


def _label(key: str, labels: Mapping[str, Any]) -> str:
    if key in labels:
        return str(labels[key])
    stem, _, number = key.rpartition("_")
    return str(labels[f"{stem}_{{n}}"]) % {"n": number}


def yes_no(value: bool, localised: bool) -> Any:
    """A yes-or-no cell: ``True``/``False`` for programs, the word in the active language for a reader."""
    if not localised:
        return value
    return pgettext("CSV value", "yes") if value else pgettext("CSV value", "no")


def wind(name: str, localised: bool) -> str:
    """A seat wind: the ruleset's English word for programs, the reader's word for a reader."""
    return pgettext("seat wind", name) if localised else name
