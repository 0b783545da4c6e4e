"""What changed between two rankings (the week before and this one): each listed player's previous rank and score,
and which of their results came in, were halved, or expired; and who left the list."""

from __future__ import annotations

from dataclasses import dataclass

from rules.rankings.mers import Counted, Ranking

ENTERED = "entered"  # a result counts for the first time
HALVED = "halved"  # a result passed its 52nd counted week: time factor 1 → ½
EXPIRED = "expired"  # a result passed its 104th counted week: no longer counted
DROPPED = "dropped"  # still active, but no longer among the results that count (a better one came in)
RESTORED = "restored"  # counts again (a better one expired or was halved)


@dataclass(frozen=True, slots=True)
class EventChange:
    event: str
    change: str
    time_factor: float  # this week's (0 when expired)


@dataclass(frozen=True, slots=True)
class LineChange:
    previous_rank: int | None  # None: not listed the week before
    previous_score: float | None
    events: tuple[EventChange, ...]


def _counts(result: Counted) -> bool:
    return result.part_a or result.part_b


def _event_changes(before: tuple[Counted, ...], after: tuple[Counted, ...]) -> tuple[EventChange, ...]:
    old = {r.event: r for r in before}
    new = {r.event: r for r in after}
    changes: list[EventChange] = []
    for key, result in new.items():
        was = old.get(key)
        if was is None:
            changes.append(EventChange(key, ENTERED, result.time_factor))
        elif result.time_factor < was.time_factor:
            changes.append(EventChange(key, HALVED, result.time_factor))
        elif _counts(was) != _counts(result):
            changes.append(EventChange(key, RESTORED if _counts(result) else DROPPED, result.time_factor))
    changes.extend(EventChange(key, EXPIRED, 0.0) for key in old if key not in new)
    return tuple(sorted(changes, key=lambda c: (c.change, c.event)))


def ranking_changes(before: Ranking, after: Ranking) -> tuple[dict[str, LineChange], tuple[str, ...]]:
    """Each player listed in ``after``: rank and score in ``before`` and the changes of their results; and the
    players listed in ``before`` who are not in ``after`` (too few results left)."""
    previous = {line.player: line for line in before.lines}
    had = before.active()
    listed = {line.player for line in after.lines}
    out: dict[str, LineChange] = {}
    for line in after.lines:
        was = previous.get(line.player)
        out[line.player] = LineChange(
            previous_rank=was.rank if was else None,
            previous_score=was.score if was else None,
            events=_event_changes(had.get(line.player, ()), line.results),
        )
    left = tuple(sorted(player for player in previous if player not in listed))
    return out, left
