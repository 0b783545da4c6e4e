"""Refused input, as every service of the project reports it."""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import Problem


class InvalidInput(ValueError):
    """Input a service refuses; ``problems`` name each field (``players[2]``, ``hands[3].fu``) and why.

    Nothing was written when it is raised. The API answers it as a 400 naming
    the fields, the pages show each message next to its field.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @classmethod
    def one(cls, field: str, message: str) -> InvalidInput:
        return cls([Problem(field, message)])


class Conflict(InvalidInput):
    """A change the event's state no longer allows (its rules once games are played); the API answers 409."""


class TooManyTries(Conflict):
    """Too many wrong codes from one guesser (or at one code) lately; ``retry_after`` seconds until the next try
    counts. The pages and the API answer 429 with a Retry-After header."""

    def __init__(self, problems: Sequence[Problem], retry_after: int) -> None:
        super().__init__(problems)
        self.retry_after = retry_after


class GameConflict(Conflict):
    """A write the game's state refuses (a game ended by time takes no more hands, a game not started is not ended
    by time); the API answers 409 with the game's current version, as for a write based on an old one."""

    def __init__(self, problems: Sequence[Problem], *, version: int) -> None:
        super().__init__(problems)
        self.version = version

    @classmethod
    def about(cls, game_version: int, field: str, message: str) -> GameConflict:
        return cls([Problem(field, message)], version=game_version)
