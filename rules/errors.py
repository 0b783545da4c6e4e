"""Refused input, as every layer of the project reports it: ``Refusal`` and its ``Problem``s.

Each problem carries the field it is about, relative to the thing being
checked (a hand, a ruleset), so that callers can prefix their own path
(``hands[3].`` in a score sheet, a form field in the referee page).

A problem of the engine also carries a ``code`` and its ``params``
(rules.messages): ``message`` is its English text, and the pages and the API
render the code in the reader's language instead. A problem built from a bare
message (code "") is shown as it is.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Self

from rules.messages import render


@dataclass(frozen=True, slots=True)
class Problem:
    field: str
    message: str
    code: str = ""
    params: Mapping[str, object] = dataclasses.field(default_factory=dict, hash=False)

    @classmethod
    def of(cls, field: str, code: str, **params: object) -> Problem:
        """The problem ``code`` (rules.messages) about ``field``, its English message rendered from ``params``."""
        return cls(field, render(code, params), code, params)

    def at(self, prefix: str) -> Problem:
        """The same problem, with its field under ``prefix``."""
        if not prefix:
            return self
        if not self.field:
            return self.moved(prefix)
        joiner = "" if self.field.startswith("[") else "."
        return self.moved(f"{prefix}{joiner}{self.field}")

    def moved(self, field: str) -> Problem:
        """The same problem (message, code and all) about ``field``."""
        return dataclasses.replace(self, field=field)

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class Refusal(ValueError):
    """Input refused, at any layer; ``problems`` lists every reason found, each naming its field.

    The one refusal of the project: the engine raises it for a hand or a
    ruleset the rules refuse, the readers for a document, a score sheet, a game
    log or a line of CSV they cannot read, the services for what they will not
    write. A caller that adds a path prefixes it (``exc.at("hands[3]")``);
    nothing converts one refusal into another. Subclasses exist only where a
    caller answers differently (tournament.errors: a 409 Conflict, a 429 with
    the wait, the game's version).
    """

    def __init__(self, problems: Iterable[Problem] | Problem) -> None:
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @classmethod
    def one(cls, field: str, message: str) -> Self:
        """One problem given as its text (code "")."""
        return cls(Problem(field, message))

    @classmethod
    def of(cls, field: str, code: str, **params: object) -> Self:
        """One problem by its code (rules.messages)."""
        return cls(Problem.of(field, code, **params))

    def at(self, prefix: str) -> Self:
        """The same refusal (its class and what it carries, such as a version), each field under ``prefix``."""
        if not prefix or not self.problems:
            return self
        moved = copy.copy(self)
        moved.problems = [p.at(prefix) for p in self.problems]
        moved.args = ("; ".join(str(p) for p in moved.problems),)
        return moved

    def __reduce__(self) -> tuple[object, ...]:
        # BaseException's would call cls(*args) with the text: rebuilt from what the refusal carries instead.
        return _rebuilt, (type(self), self.args, self.__dict__)


def _rebuilt(cls: type[Refusal], args: tuple[object, ...], state: dict[str, object]) -> Refusal:
    refusal = cls.__new__(cls)
    refusal.args = args
    refusal.__dict__.update(state)
    return refusal
