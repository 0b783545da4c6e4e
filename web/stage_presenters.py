"""What the stage pages read: each stage in words and its state, the cut into one (who goes on, who is tied at
the line, what each carries in), and the final tables."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.errors import Refusal
from scoring.selectors import stage_standings
from scoring.services.stages import CutPreview, cut_preview, entrant_names, stages_of
from tournament.models import Event, Round, Stage
from web.presenters import TableView, round_tables

ENTERED, CONFIRMED, WAITING = "entered", "confirmed", "waiting"
STATES = {ENTERED: gettext_lazy("entered"), CONFIRMED: gettext_lazy("cut confirmed"), WAITING: gettext_lazy("not yet")}


@dataclass(frozen=True, slots=True)
class StageSummary:
    """A stage as its lists show it: its settings in words, its state and its rounds."""

    stage: Stage
    entry: str
    carry: str
    seating: str
    length: str
    state: str  # ENTERED: its players are known and a round seated (stage 1: always); CONFIRMED; WAITING
    rounds: tuple[int, ...]  # its rounds' numbers
    seated: bool  # a round of it is seated
    last: bool  # the event's last stage (the only one that may be deleted)
    players: int  # how many go on (entered); 0 while not known

    @property
    def state_words(self) -> str:
        return str(STATES[self.state])

    @property
    def state_class(self) -> str:
        """The badge's colour, as a round's tables show theirs (site.css .state): entered, cut, not yet."""
        return {ENTERED: "done", CONFIRMED: "playing"}.get(self.state, "waiting")

    @property
    def waiting(self) -> bool:
        """Its cut is not confirmed yet: the console offers a preview of it."""
        return self.state == WAITING


def entry_words(stage: Stage, teams: bool = False) -> str:
    if stage.number == 1:
        return _("everyone")
    if stage.entry_top is None:
        return _("everyone of the stage before")
    top = (
        ngettext("the top %(n)s team", "the top %(n)s teams", stage.entry_top)
        if teams
        else ngettext("the top %(n)s", "the top %(n)s", stage.entry_top)
    ) % {"n": stage.entry_top}
    also = len(stage.entry_also or [])
    if also:
        top += " " + ngettext("and %(n)s wildcard", "and %(n)s wildcards", also) % {"n": also}
    return top


def carry_words(stage: Stage) -> str:
    if stage.number == 1:
        return ""
    what = _("table points") if stage.carry_table_points else _("points")
    named = {
        "none": _("nothing carried in"),
        "half": _("half the %(what)s carried in"),
        "all": _("all the %(what)s carried in"),
    }
    text = named.get(stage.carry) or _("%(share)s of the %(what)s carried in")
    return text % {"what": what, "share": stage.carry}


def seating_words(stage: Stage) -> str:
    seating = stage.get_seating_display()
    if stage.seating == Stage.Seating.RANK:
        winds = _("winds by rank") if stage.winds == Stage.Winds.RANK else _("winds drawn")
        return _("seated %(how)s, %(winds)s") % {"how": seating, "winds": winds}
    return _("seated %(how)s") % {"how": seating}


def stage_summaries(event: Event) -> list[StageSummary]:
    """Every stage of the event in order, the first among them; three queries whatever their number."""
    stages = stages_of(event)
    rounds = list(event.rounds.annotate(tables_n=Count("tables")).values_list("number", "stage", "tables_n"))
    teams = event.entrants == Event.Entrants.TEAMS
    out = []
    for stage in stages:
        own = [(number, tables) for number, in_stage, tables in rounds if in_stage == stage.number]
        seated = any(tables for _number, tables in own)
        state = (
            ENTERED
            if stage.number == 1 or (stage.through is not None and seated)
            else CONFIRMED
            if stage.through is not None
            else WAITING
        )
        length = (
            ngettext("%(n)s hanchan", "%(n)s hanchan", stage.rounds_planned) % {"n": stage.rounds_planned}
            if stage.rounds_planned
            else ""
        )
        out.append(
            StageSummary(
                stage=stage,
                entry=entry_words(stage, teams),
                carry=carry_words(stage),
                seating=seating_words(stage),
                length=length,
                state=state,
                rounds=tuple(number for number, _tables in own),
                seated=seated,
                last=stage.number == stages[-1].number,
                players=len(stage.through or []),
            )
        )
    return out


# --- the cut --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CutRow:
    """One of those going on or tied at the line, as the cut pages list them."""

    id: int
    name: str
    rank: int | None  # in the stage before; None for a wildcard who did not play it
    shared: bool
    points: Decimal | None  # the total in the stage before (players; a team league's teams show none)
    carried: Decimal
    carried_table_points: Decimal | None
    wildcard: bool
    tied: bool  # tied at the line
    chosen: bool  # going on (a tied one: chosen by the organiser)


@dataclass(frozen=True, slots=True)
class CutView:
    preview: CutPreview
    going: list[CutRow]  # in rank order, then the wildcards
    tied: list[CutRow]  # tied at the line, for ``places`` places
    places: int
    decided: bool
    confirmed: bool
    unfinished: int
    mcr: bool

    @property
    def stage(self) -> Stage:
        return self.preview.stage


def cut_view(preview: CutPreview) -> CutView:
    """The preview with names, ranks and the stage before's points. A confirmed cut lists who went on (the
    tied ones chosen among them) and, under the tied, who was not chosen."""
    cut, stage = preview.cut, preview.stage
    tied = set(cut.tied_at_line)
    confirmed = stage.through is not None
    names = entrant_names(stage.event, [*cut.through, *cut.tied_at_line])
    teams = stage.event.entrants == Event.Entrants.TEAMS  # a team league's cut names teams, not players
    points = {} if teams else {row.player_id: row.points for row in stage_standings(stage.event, stage.number - 1)}
    counts = Counter(preview.ranks.values())
    table = preview.carried_table_points

    def row(p: int) -> CutRow:
        rank = preview.ranks.get(p)
        return CutRow(
            id=p,
            name=names.get(p, ""),
            rank=rank,
            shared=rank is not None and counts[rank] > 1,
            points=points.get(p),
            carried=preview.carried.get(p, Decimal(0)),
            carried_table_points=table.get(p, Decimal(0)) if table is not None else None,
            wildcard=p in cut.wildcards,
            tied=p in tied,
            chosen=p in set(cut.through),
        )

    going = [row(p) for p in cut.through if confirmed or p not in tied or p in cut.wildcards]
    return CutView(
        preview=preview,
        going=going,
        places=cut.places,
        decided=cut.decided,
        confirmed=confirmed,
        tied=[row(p) for p in cut.tied_at_line if not (confirmed and p in set(cut.through))],
        unfinished=preview.unfinished,
        mcr=table is not None,
    )


# --- the public overview --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StageReport:
    summary: StageSummary
    cut: CutView | None  # a later stage's confirmed cut


@dataclass(frozen=True, slots=True)
class FinalTables:
    stage: Stage
    rounds: list[tuple[Round, list[TableView]]]  # the stage's seated rounds, each with its tables


def stages_report(event: Event) -> list[StageReport]:
    """Every stage with who went through (a confirmed cut's, as it was decided)."""
    reports = []
    for summary in stage_summaries(event):
        cut = None
        if summary.stage.number > 1 and summary.stage.through is not None:
            try:
                cut = cut_view(cut_preview(summary.stage))
            except Refusal:  # the stage before is no longer entered: its cut is being redone
                cut = None
        reports.append(StageReport(summary=summary, cut=cut))
    return reports


def final_tables(event: Event) -> FinalTables:
    """The last stage's seated rounds with their tables and results."""
    last = stages_of(event)[-1]
    rounds = event.rounds.filter(stage=last.number).filter(~Q(tables=None)).distinct().order_by("number")
    return FinalTables(stage=last, rounds=[(r, round_tables(r)) for r in rounds])


def cut_context(event: Event, number: int) -> dict[str, Any]:
    """Around the cut into stage ``number``: the stage in words, the stage before, and the next step once the
    cut is confirmed (its first round not yet seated, or its last round)."""
    summaries = stage_summaries(event)
    rounds = event.rounds.filter(stage=number).order_by("number")
    return {
        "summary": summaries[number - 1],
        "stage_before": summaries[number - 2].stage,
        "unseated": rounds.filter(tables=None).first(),
        "last_round": rounds.last(),
    }
