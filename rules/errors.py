"""Errors the rule engine raises for input that breaks a rule.

Each problem carries the field it is about, relative to the thing being
checked (a hand, a ruleset), so that callers can prefix their own path
(``hands[3].`` in a score sheet, a form field in the referee page).

A problem of the engine also carries a ``code`` and its ``params``
(rules.messages): ``message`` is its English text, and the pages and the API
render the code in the reader's language instead. A problem built from a bare
message (code "") is shown as it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

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


class RuleError(ValueError):
    """Input that the rules refuse; ``problems`` lists every reason found."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @classmethod
    def one(cls, field: str, message: str) -> RuleError:
        return cls(Problem(field, message))

    @classmethod
    def of(cls, field: str, code: str, **params: object) -> RuleError:
        """One problem by its code (rules.messages)."""
        return cls(Problem.of(field, code, **params))

    def at(self, prefix: str) -> RuleError:
        return RuleError([p.at(prefix) for p in self.problems])


class ParamError(ValueError):
    """A ruleset parameter's value refused, by code (rules.messages); rules.ruleset makes it a Problem."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(render(code, params))
