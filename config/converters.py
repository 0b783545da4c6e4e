"""The ``id`` path converter: a row's number in an address, as ASCII digits that fit a bigint.

Django's ``int`` takes any number of digits, and a foreign key's lookup does not take one past a bigint (SQLite's
OverflowError, PostgreSQL's DataError): a 500 on every view that names a row by a related field. Refusing such
an address in the resolver makes it a 404 everywhere at once, instead of a check in each view.
"""

from __future__ import annotations


class RowId:
    regex = "[0-9]{1,18}"  # tournament.selectors.is_row_id's bound: 10^18 - 1 < 2^63

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
