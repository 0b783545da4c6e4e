"""Errors the rule engine raises for input that breaks a rule.

Each problem carries the field it is about, relative to the thing being
checked (a hand, a ruleset), so that callers can prefix their own path
(``hands[3].`` in a score sheet, a form field in the referee page).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    field: str
    message: str

    def at(self, prefix: str) -> Problem:
        """The same problem, with its field under ``prefix``."""
        if not prefix:
            return self
        if not self.field:
            return Problem(prefix, self.message)
        joiner = "" if self.field.startswith("[") else "."
        return Problem(f"{prefix}{joiner}{self.field}", self.message)

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

    def at(self, prefix: str) -> RuleError:
        return RuleError([p.at(prefix) for p in self.problems])
