"""Reading what the replay and the standings stored, for pages, exports and the API alike."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q, QuerySet

from scoring.models import Penalty, StageStanding, Standing, StandingsState
from scoring.sheet.output import Result, named
from tournament.models import Event, Game, Player
from tournament.selectors import game_roster


def game_result(game: Game) -> Result:
    """The game's stored result (docs/score-sheet.md "Output", players by seat), as the replay wrote it; {} before
    its first replay. ``Game.result`` is a JSON field: this is where the readers get its declared type."""
    stored: Result = game.result
    return stored or {}


def game_penalties(game: Game) -> list[Penalty]:
    """The game's penalties in the order they were given: its prefetched ones when a write read them with its seats
    (the replay and the history's terms share them), else one query."""
    if "penalties" in getattr(game, "_prefetched_objects_cache", {}):
        return sorted(game.penalties.all(), key=lambda penalty: penalty.pk)
    return list(game.penalties.order_by("id"))


def named_result(game: Game) -> dict[str, Any]:
    """The game's stored result (docs/score-sheet.md "Output") with its players' current names; {} before its first
    replay. Uses the game's prefetched seats when there are any (``tournament.selectors.with_seats``)."""
    result = game_result(game)
    return named(result, game_roster(game).labels) if result else {}


def standings_state(event: Event) -> StandingsState:
    """How current the event's standings are (a fresh event's are current); no query when the event was read
    with ``select_related("standings_state")``."""
    if Event.standings_state.is_cached(event):  # read with the event
        state: StandingsState | None = getattr(event, "standings_state", None)
    else:  # read now, not kept on the event: a later call must see a later state
        state = StandingsState.objects.filter(event=event).first()
    return state or StandingsState(event=event)


def standings_version(event: Event) -> tuple[str, StandingsState]:
    """What the event's standings tables are made of, as a key for caches and ETags: the version of the stored
    rows (moved only by a recompute that changed them), whether they are being updated (the tables say so) and
    the players' renames, all in the one row ``standings_state`` reads. Not the count of changes: while a round
    ends, every write would make the cached tables new without changing them."""
    state = standings_state(event)
    return f"{event.pk}.{state.recomputes}.{int(state.updating)}.{state.renames}", state


def names_changed(instance: Player, created: bool = False, **kwargs: Any) -> None:
    """A player was saved (perhaps renamed): the cached standings of their events are out of date."""
    if not created:
        StandingsState.objects.filter(
            Q(event__registrations__player=instance) | Q(event__games__seats__player=instance)
        ).update(renames=F("renames") + 1)


def stage_standings(event: Event, stage: int | None) -> QuerySet[Any]:
    """The stored lines of ``stage``'s standings, or (None) the event's: its final ranking once it is in stages.
    Until a later stage is entered, the event's standings are its first stage's (as the API reads them)."""
    if stage is None:
        return Standing.objects.filter(event=event).select_related("player")
    if StageStanding.objects.filter(event=event).exists():
        return StageStanding.objects.filter(event=event, stage=stage).select_related("player")
    return (Standing.objects.filter(event=event) if stage == 1 else Standing.objects.none()).select_related("player")
