"""The refusals a caller answers differently from plain refused input (rules.errors.Refusal, a 400).

Nothing was written when any of them is raised. Each adds what its answer
needs: a Conflict is a 409, TooManyTries a 429 with the wait, a GameConflict
the game's current version.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.errors import Problem, Refusal


class Conflict(Refusal):
    """A change the event's state no longer allows (its rules once games are played); the API answers 409."""


class TooManyTries(Conflict):
    """Too many wrong codes from one guesser (or at one code) lately; ``retry_after`` seconds until the next try
    counts. The pages answer 429 with a Retry-After header."""

    def __init__(self, problems: Iterable[Problem] | Problem, retry_after: int) -> None:
        super().__init__(problems)
        self.retry_after = retry_after


class GameConflict(Conflict):
    """A write the game's state refuses (a game ended by time takes no more hands, a game not started is not ended
    by time); the API answers 409 with the game's current version, as for a write based on an old one."""

    def __init__(self, problems: Iterable[Problem] | Problem, *, version: int) -> None:
        super().__init__(problems)
        self.version = version

    @classmethod
    def about(cls, game_version: int, field: str, message: str) -> GameConflict:
        return cls([Problem(field, message)], version=game_version)
