"""Looking for markup in a page whatever its template's line breaks: scripts/wrap_templates.py breaks the
templates' long lines at spaces and beside tags, where the browser reads any whitespace as none or as one space,
so a test asks for the markup, not for where the template's lines end."""

from __future__ import annotations

import re


def loose(markup: str) -> re.Pattern[str]:
    """``markup`` as a pattern: a space matches any whitespace, and whitespace may stand on either side of a tag."""
    pattern = []
    for piece in re.split(r"(\s+|<|>)", markup):
        if piece.isspace():
            pattern.append(r"\s+")
        elif piece in ("<", ">"):
            pattern.append(r"\s*<" if piece == "<" else r">\s*")
        else:
            pattern.append(re.escape(piece))
    return re.compile("".join(pattern))


def has(page: str, markup: str) -> bool:
    return loose(markup).search(page) is not None
