"""What may change a confirmed cut, and whether the stored stages are what the event's history says.

A correction to a stage's results (a hand, a penalty) recomputes the cuts after it: a cut that would change
is undone while its stage is not seated, and refused once it is, unless an organiser confirms it (the cut is
then kept as played, and the decision sealed).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from rules.errors import Problem, Refusal
from rules.stages import StageLine
from scoring.models import EventChange
from scoring.services.chain import event_change
from scoring.services.stages import cut_undo, entrant_stages, preview_of, sealed_settings, seated
from tournament.errors import Conflict
from tournament.models import Event, Game, Stage
from tournament.users import Writer

# --- a correction to an earlier stage -------------------------------------------------------------------------------

_cut_change_confirmed: ContextVar[bool] = ContextVar("cut_change_confirmed", default=False)


@contextmanager
def cut_change_confirmed() -> Iterator[None]:
    """Within it, a correction that changes a cut already played is saved, the cut kept and the decision sealed."""
    token = _cut_change_confirmed.set(True)
    try:
        yield
    finally:
        _cut_change_confirmed.reset(token)


def cut_check(*, game: Game, user: Writer | None) -> None:
    """After a write to ``game`` (in its transaction): the cuts after the game's stage (``cuts_check``)."""
    cuts_check(event=game.event, after=game.table.round.stage if game.table is not None else 1, user=user, game=game.pk)


def cuts_check(*, event: Event, after: int, user: Writer | None, game: int | None = None) -> None:
    """After a change to stage ``after``'s results (in its transaction): the cuts after it, recomputed.

    A cut that would change is undone when its stage has no seated round (the organiser confirms it again);
    when the stage is seated, the write is refused (Conflict) unless the organiser confirmed it, and then the
    cut is kept and the decision sealed into the event's history.
    """
    later = list(Stage.objects.filter(event=event, number__gt=after, through__isnull=False).order_by("number"))
    if not later:
        return
    ranked = entrant_stages(event)
    for stage in later:
        if stage.number - 2 >= len(ranked) or _still_holds(stage, ranked[stage.number - 2]):
            continue
        if not seated(stage):
            # Its players change, so every cut after it goes too: the last first (an entered later stage keeps
            # an earlier cut from being undone).
            for undone in reversed([s for s in later if s.number >= stage.number]):
                cut_undo(stage=undone, user=user)
            return
        if not (_cut_change_confirmed.get() and isinstance(user, User) and event.is_organiser(user)):
            raise Conflict(
                [
                    Problem(
                        "stage",
                        _(
                            "this correction changes who went on to stage %(number)s (%(name)s), which has begun: an "
                            "organiser may confirm it to keep the cut as it was played"
                        )
                        % {"number": stage.number, "name": stage.name},
                    )
                ]
            )
        event_change(
            event,
            EventChange.Action.CUT_KEPT,
            before=None,
            after={"stage": stage.number, "through": stage.through, "game": game},
            user=user,
        )


def _still_holds(stage: Stage, before: list[StageLine]) -> bool:
    try:
        again = preview_of(stage, before, through=list(stage.through or ()))
    except Refusal:
        return False
    return set(again.cut.through) == set(stage.through or ())


# --- the stages against their history -------------------------------------------------------------------------------


def event_stages_problem(event: Event) -> str | None:
    """The stages as stored (settings and confirmed cuts) against what the event's history says they are: None
    when they agree. The history's own seals are checked with the event's penalties (the one chain)."""
    settings: dict[Any, Any] = {}
    cuts: dict[Any, Any] = {}
    for action, before, after in (
        EventChange.objects.filter(event=event).order_by("id").values_list("action", "before", "after")
    ):
        named = after or before or {}
        if action == EventChange.Action.STAGE:
            settings[named.get("number")] = after
        elif action == EventChange.Action.CUT:
            cuts[named.get("stage")] = after["through"] if after else None
    stored = {stage.number: stage for stage in Stage.objects.filter(event=event)}
    for number in sorted(set(settings) | set(stored), key=int):
        stage = stored.get(number)
        if (sealed_settings(stage) if stage is not None else None) != settings.get(number):
            return f"stage {number}'s settings differ from what the event's history says: changed outside the app"
        if (stage.through if stage is not None else None) != cuts.get(number):
            return f"stage {number}'s cut differs from what the event's history says: changed outside the app"
    return None
