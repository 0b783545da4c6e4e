"""One line of CSV as its values, refused when its quotes do not pair up.

Every list people paste or upload (a schedule, an event's players, a round's
tables typed one per line) has one record a line, so a quote is closed on the
line that opens it. The csv module alone takes a quote left open as a value
that runs to the end of the input, and text after a closing quote as more of
the value: a line like ``"Gil Ko, 0413, Korea`` would become one player named
with commas, without a word. It lives here, below every reader of such lists
(rules.seating.schedule, the tournament's roster and typed tables).
"""

from __future__ import annotations

import csv
import re

from rules.errors import Refusal

QUOTE = '"'


def csv_values(line: str, delimiter: str = ",") -> list[str]:
    """The values of one line of CSV, as the csv module reads them, when every quote on it pairs up.

    A Refusal (one problem, about the line as a whole, by its code) when a
    quote is left open (an odd number of them: one the module would read as a
    letter counts too, since whoever typed it meant a quote), when something
    other than ``delimiter`` follows a closing one, or when a value is over
    the module's size limit.
    """
    if line.count(QUOTE) % 2:
        raise Refusal.of("", "csv_quote_open")
    # Spaces typed between a closing quote and the separator (`"Lee, Ann" , 0413`) are layout, not text.
    line = re.sub(rf'"[ \t]+(?={re.escape(delimiter)}|$)', QUOTE, line) if delimiter not in " \t" else line
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=True), [])
    except csv.Error:
        pass
    try:
        next(csv.reader([line], delimiter=delimiter))
    except csv.Error:  # read leniently it still fails: not the quotes
        raise Refusal.of("", "csv_value_too_long") from None
    raise Refusal.of("", "csv_quote_then_text")
