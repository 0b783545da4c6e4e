"""An event's stages: adding, changing and deleting them, the cut into a stage (previewed, confirmed, undone)
and what a correction to an earlier stage may change of it. Every decision is sealed into the event's own
history (``EventChange``).

The cut into stage N ranks the entrants of stage N - 1 (their standings, computed now, not the stored ones),
takes stage N's entry (its top, plus its wildcards) and carries stage N's share of their points; a tie at the
line is the organiser's to decide (rules.stages.cut).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.errors import Problem, Refusal
from rules.stages import Carry, Cut, StageLine, carry_over, cut
from scoring.models import EventChange
from scoring.services.chain import event_change
from scoring.services.standings import standings_refresh
from scoring.services.standings_rows import cents, stages_ranked
from scoring.services.team_stages import team_stage_lines
from tournament.errors import Conflict
from tournament.models import Event, Game, Player, Round, Stage, Table, Team
from tournament.users import Writer, account

SETTINGS = ("name", "entry_top", "entry_also", "carry", "carry_table_points", "seating", "winds", "rounds_planned")


@dataclass(frozen=True, slots=True)
class CutPreview:
    """The cut into a stage as it stands: who goes on (rank order, then wildcards), who is tied at the line for
    how many places, what each carries in, and what still plays in the stage before."""

    stage: Stage
    cut: Cut
    carried: dict[int, Decimal]
    carried_table_points: dict[int, Decimal] | None
    ranks: dict[int, int]  # each player's rank in the stage before
    unfinished: int  # games of the stage before not finished


def stages_of(event: Event) -> list[Stage]:
    """The event's stages in order, its first (stored or not) among them."""
    later = list(Stage.objects.filter(event=event, number__gte=2).order_by("number"))
    return [Stage.first(event), *later]


def stage_get(event: Event, number: int) -> Stage:
    stage = next((s for s in stages_of(event) if s.number == number), None)
    if stage is None:
        raise Refusal.one("stage", _("this event has no stage %(number)s") % {"number": number})
    return stage


# --- adding, changing, deleting -------------------------------------------------------------------------------------


def stage_add(*, event: Event, data: Mapping[str, Any], user: Writer | None) -> Stage:
    """A stage after the last one. ``data`` holds the stage's settings (SETTINGS); Refusal names each fault."""
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        number = max((s.number for s in stages_of(event)), default=1) + 1
        stage = Stage(event=event, number=number, **_settings(event, data, number=number))
        stage.save()
        event_change(event, EventChange.Action.STAGE, before=None, after=sealed_settings(stage), user=user)
    return stage


def stage_change(*, stage: Stage, data: Mapping[str, Any], user: Writer | None) -> Stage:
    """New settings for a stage not yet seated (its name, and a first stage's seating and length, any time)."""
    event = stage.event
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        before = sealed_settings(stage)
        given = _settings(event, {**before, **data}, number=stage.number)
        if stage.number > 1 and seated(stage) and any(given[k] != before[k] for k in SETTINGS if k != "name"):
            raise Conflict.one(
                "stage", _("stage %(number)s is seated: only its name changes now") % {"number": stage.number}
            )
        if stage.number > 1 and stage.through is not None and _entry_changed(before, given):
            raise Conflict.one(
                "stage",
                _("stage %(number)s's cut is confirmed: undo it to change who goes on") % {"number": stage.number},
            )
        for key, value in given.items():
            setattr(stage, key, value)
        stage.save()
        event_change(event, EventChange.Action.STAGE, before=before, after=sealed_settings(stage), user=user)
        standings_refresh(event.pk)
    return stage


def stage_delete(*, stage: Stage, user: Writer | None) -> None:
    """Delete the last stage, before any of its rounds is seated (its rounds go with it)."""
    event = stage.event
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        if stage.number == 1:
            raise Conflict.one("stage", _("the first stage takes everyone and cannot be deleted"))
        if Stage.objects.filter(event=event, number__gt=stage.number).exists():
            raise Conflict.one(
                "stage",
                _("only the last stage can be deleted; delete the stages after stage %(number)s first")
                % {"number": stage.number},
            )
        if seated(stage):
            raise Conflict.one(
                "stage", _("stage %(number)s has a seated round: unseat its rounds first") % {"number": stage.number}
            )
        before = sealed_settings(stage)
        Round.objects.filter(event=event, stage=stage.number).delete()
        stage.delete()
        event_change(event, EventChange.Action.STAGE, before=before, after=None, user=user)
        standings_refresh(event.pk)


def _settings(event: Event, data: Mapping[str, Any], *, number: int) -> dict[str, Any]:
    """The settings ``data`` gives, checked: every fault named by its field."""
    problems: list[Problem] = []
    name = str(data.get("name") or "").strip()
    if not name:
        problems.append(Problem("name", _("a stage needs a name, such as Semi-final or Final")))
    also = [int(p) for p in data.get("entry_also") or []]
    problems += _wildcard_problems(event, also)
    top = data.get("entry_top")
    if number > 1 and top is None and also:
        problems.append(Problem("entry.also", _("a stage everyone enters has no wildcards")))
    problems += _top_problems(event, number, top, len(also))
    try:
        carry = Carry.parse(data.get("carry", "none"), table_points=bool(data.get("carry_table_points")))
    except Refusal:
        problems.append(Problem("carry", _('must be "all", "half", "none" or a fraction from 0 to 1')))
        carry = Carry.parse("none")
    if carry.table_points and not event.ruleset().is_mcr:
        problems.append(Problem("carry_table_points", _("only MCR has table points to carry")))
    if number == 1 and (top is not None or also or carry.fraction):
        problems.append(Problem("entry", _("the first stage takes everyone and carries nothing")))
    if data.get("seating", Stage.Seating.RANDOM) not in Stage.Seating.values:
        problems.append(
            Problem("seating", _("must be one of %(choices)s") % {"choices": ", ".join(Stage.Seating.values)})
        )
    if data.get("winds", Stage.Winds.RANK) not in Stage.Winds.values:
        problems.append(Problem("winds", _("must be one of %(choices)s") % {"choices": ", ".join(Stage.Winds.values)}))
    if problems:
        raise Refusal(problems)
    return {
        "name": name,
        "entry_top": top,
        "entry_also": also,
        "carry": str(data.get("carry", "none")),
        "carry_table_points": carry.table_points,
        "seating": data.get("seating", Stage.Seating.RANDOM),
        "winds": data.get("winds", Stage.Winds.RANK),
        "rounds_planned": data.get("rounds_planned"),
    }


def _wildcard_problems(event: Event, also: list[int]) -> list[Problem]:
    """Wildcards who are no team (a team event) or no registered player of the event."""
    if event.entrants == Event.Entrants.TEAMS:
        known = set(event.teams.filter(pk__in=also).values_list("pk", flat=True))
        return [
            Problem("entry.also", _("team %(team)s is not a team of this event") % {"team": p})
            for p in also
            if p not in known
        ]
    known = set(event.registrations.filter(player_id__in=also).values_list("player_id", flat=True))
    return [
        Problem("entry.also", _("player %(player)s is not registered in this event") % {"player": p})
        for p in also
        if p not in known
    ]


def _top_problems(event: Event, number: int, top: int | None, wildcards: int) -> list[Problem]:
    """A top past what the stage before sends on, or short of what the stage after takes. Only a later stage's
    size is known in advance: the first stage's players register until it ends (the cut checks it)."""
    neighbours = {s.number: s for s in Stage.objects.filter(event=event, number__in=(number - 1, number + 1))}
    before, after = neighbours.get(number - 1), neighbours.get(number + 1)
    problems = []
    if top is not None and number > 2 and before is not None and before.entry_top is not None:
        most = before.entry_top + len(before.entry_also or [])
        if top > most:
            problems.append(
                Problem(
                    "entry.top",
                    _("stage %(number)s sends on at most %(most)s players, fewer than %(top)s")
                    % {"number": number - 1, "most": most, "top": top},
                )
            )
    if top is not None and after is not None and after.entry_top is not None and after.entry_top > top + wildcards:
        problems.append(
            Problem(
                "entry.top",
                _("stage %(number)s takes the top %(top)s, more than the %(sent)s this stage would send on")
                % {"number": number + 1, "top": after.entry_top, "sent": top + wildcards},
            )
        )
    return problems


def sealed_settings(stage: Stage) -> dict[str, Any]:
    return {"number": stage.number, **{key: getattr(stage, key) for key in SETTINGS}}


def _entry_changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    return any(before[k] != after[k] for k in ("entry_top", "entry_also", "carry", "carry_table_points"))


def seated(stage: Stage) -> bool:
    return Table.objects.filter(round__event=stage.event, round__stage=stage.number).exists()


# --- the cut --------------------------------------------------------------------------------------------------------


def cut_preview(stage: Stage, *, through: list[int] | None = None) -> CutPreview:
    """The cut into ``stage`` from the standings of the stage before as they are now; with ``through``, the
    organiser's decision checked (Refusal on ``through``). Conflict when the stage before is not entered."""
    _check_not_first(stage)
    ranked = entrant_stages(stage.event)
    if len(ranked) < stage.number - 1:
        raise Conflict.one(
            "stage", _("stage %(number)s is not entered yet: confirm its cut first") % {"number": stage.number - 1}
        )
    before = ranked[stage.number - 2]
    if through is None and stage.through is not None:  # a confirmed cut shows what was decided
        try:
            return preview_of(stage, before, through=list(stage.through))
        except Refusal:  # changed since (a correction the organiser kept): the cut as it was played
            return preview_of(stage, before, through=None, kept=list(stage.through))
    return preview_of(stage, before, through=through)


def entrant_stages(event: Event) -> list[list[StageLine]]:
    """Each entered stage's ranked entrants: its players, or a team league's teams."""
    if event.entrants == Event.Entrants.TEAMS:
        return team_stage_lines(event)
    return [[line for line, _ in lines if line is not None] for lines in stages_ranked(event)]


def entrant_names(event: Event, ids: Iterable[int]) -> dict[int, str]:
    """The names of a stage's entrants: players, or a team league's teams."""
    model = Team if event.entrants == Event.Entrants.TEAMS else Player
    return dict(model.objects.filter(pk__in=list(ids)).values_list("pk", "name"))


def preview_of(
    stage: Stage, lines: list[StageLine], *, through: list[int] | None, kept: list[int] | None = None
) -> CutPreview:
    """The cut ``stage``'s entry gives from ``lines`` (with ``through``, that decision checked); with ``kept``,
    the confirmed cut as it stands whatever the lines say now, what its players carry computed from them."""
    if kept is not None:
        also = set(stage.entry_also or ())
        decided = Cut(
            through=tuple(kept), tied_at_line=(), places=0, wildcards=tuple(p for p in kept if p in also), decided=True
        )
    else:
        decided = cut(standings=lines, entry=stage.entry_rule(), through=through)
    tied = [p for p in decided.tied_at_line if p not in set(decided.through)]
    carried = carry_over(standings=lines, players=[*decided.through, *tied], carry=stage.carry_rule())
    mcr = any(line.total_table_points is not None for line in lines)
    unfinished = _playing(stage.event, stage.number - 1)
    return CutPreview(
        stage=stage,
        cut=decided,
        ranks={line.player: line.rank for line in lines},
        carried={p: cents(c.points) for p, c in carried.items()},
        carried_table_points={p: cents(c.table_points) for p, c in carried.items()} if mcr else None,
        unfinished=unfinished,
    )


def _playing(event: Event, number: int) -> int:
    """Stage ``number``'s games not finished: of its rounds, and (the first stage) a league's games outside any
    round within the event's dates, which the first stage's standings count."""
    games = Game.objects.filter(event=event).exclude(status=Game.Status.FINISHED)
    if number > 1:
        return games.filter(table__round__stage=number).count()
    league = Q(table__isnull=True)
    if event.starts_on:
        league &= Q(played_on__gte=event.starts_on)
    if event.ends_on:
        league &= Q(played_on__lte=event.ends_on)
    return games.filter(Q(table__round__stage=1) | league).count()


def cut_confirm(*, stage: Stage, through: list[int] | None, user: Writer | None) -> Stage:
    """Confirm the cut into ``stage``: Conflict while games of the stage before play, while a tie at the line is
    undecided (unless ``through`` decides it), or when it is already confirmed."""
    event = stage.event
    _check_not_first(stage)
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        stage.refresh_from_db()
        if stage.through is not None:
            raise Conflict.one("stage", _("stage %(number)s's cut is already confirmed") % {"number": stage.number})
        preview = cut_preview(stage, through=through)
        if preview.unfinished:
            raise Conflict.one(
                "stage",
                ngettext(
                    "stage %(number)s has %(count)s game not finished: the cut waits for its last game",
                    "stage %(number)s has %(count)s games not finished: the cut waits for its last game",
                    preview.unfinished,
                )
                % {"number": stage.number - 1, "count": preview.unfinished},
            )
        if not preview.cut.decided:
            raise Conflict([Problem("through", _tie_message(preview))])
        stage.through, stage.cut_at, stage.cut_by = list(preview.cut.through), timezone.now(), account(user)
        stage.save(update_fields=["through", "cut_at", "cut_by"])
        event_change(
            event,
            EventChange.Action.CUT,
            before=None,
            after={"stage": stage.number, "through": stage.through},
            user=user,
        )
        standings_refresh(event.pk)
    return stage


def cut_undo(*, stage: Stage, user: Writer | None) -> Stage:
    """Undo a confirmed cut before the stage's first hand: its seated rounds are unseated."""
    event = stage.event
    _check_not_first(stage)
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        stage.refresh_from_db()
        if stage.through is None:
            raise Conflict.one("stage", _("stage %(number)s's cut is not confirmed") % {"number": stage.number})
        if Stage.objects.filter(event=event, number__gt=stage.number, through__isnull=False).exists():
            raise Conflict.one("stage", _("a later stage is entered: undo its cut first"))
        games = Game.objects.filter(event=event, table__round__stage=stage.number)
        if games.filter(Q(hands__isnull=False) | Q(status=Game.Status.FINISHED)).exists():
            raise Conflict.one(
                "stage",
                _("stage %(number)s has begun (a hand or a game is recorded): its cut stays")
                % {"number": stage.number},
            )
        before = stage.through
        games.delete()
        Table.objects.filter(round__event=event, round__stage=stage.number).delete()
        stage.through, stage.cut_at, stage.cut_by = None, None, None
        stage.save(update_fields=["through", "cut_at", "cut_by"])
        event_change(
            event, EventChange.Action.CUT, before={"stage": stage.number, "through": before}, after=None, user=user
        )
        standings_refresh(event.pk)
    return stage


def _check_not_first(stage: Stage) -> None:
    if stage.number == 1:
        raise Conflict.one("stage", _("the first stage takes everyone: there is no cut into it"))


def _tie_message(preview: CutPreview) -> str:
    names = sorted(entrant_names(preview.stage.event, preview.cut.tied_at_line).values())
    return ngettext(
        "%(count)s are tied at the line for %(places)s place (%(names)s): name who goes on",
        "%(count)s are tied at the line for %(places)s places (%(names)s): name who goes on",
        preview.cut.places,
    ) % {"count": len(preview.cut.tied_at_line), "places": preview.cut.places, "names": ", ".join(names)}
