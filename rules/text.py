"""Text a person reads (names, notes, reasons): what every path that takes one accepts.

No control characters: they break a page, a CSV line or a terminal, and an exported sheet holding one no longer
imports. Defined here, below everything, so that the score sheet (``scoring.sheet``), the models
(``tournament``) and the API check one pattern.
"""

from __future__ import annotations

PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
PRINTABLE_MESSAGE = "must be printable text (no control characters such as line breaks or tabs)"
