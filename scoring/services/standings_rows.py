"""The rows the standings store, stage by stage: each stage's lines ranked (rules.stages), what the next one
carries in, and the event's final ranking by the last stage reached.

An event played in one stage stores its lines as the event's standings, as
it always has. Once a later stage is entered (its cut confirmed), each
entered stage's lines are stored too, and the event's standings become the
final ranking: everyone who went on above everyone cut before.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple, TypeVar

from rules.ranks import sort_key
from rules.ruleset import Ruleset
from rules.solo import SoloScore, solo_key
from rules.stages import Carried, Line, StageLine, carry_over, final_ranking, seating_order, stage_standings
from rules.standings import Tiebreak, ranked_from, tiebreak_values
from scoring.models import StageStanding, Standing
from scoring.services.standings_lines import HUNDREDTHS, PlayerLine, player_lines
from tournament.models import Event, Registration, Stage


@dataclass(frozen=True, slots=True)
class EventRows:
    """The event's standings (in an event of several stages, its final ranking) and each stage's, stored only
    once a stage after the first is entered."""

    standings: list[Standing]
    stages: list[StageStanding]


_R = TypeVar("_R", Standing, StageStanding)
# A stage's line as ranked (None: not ranked, too few games) beside what its games add up to.
Ranked = tuple[StageLine | None, PlayerLine]


def entered_stages(event: Event) -> list[Stage]:
    """The first stage, then each later one whose cut is confirmed, in order (a stage is entered only from the
    one before it)."""
    stages = [Stage.first(event)]
    for stage in Stage.objects.filter(event=event, number__gte=2, through__isnull=False).order_by("number"):
        if stage.number != stages[-1].number + 1:
            break
        stages.append(stage)
    return stages


def event_rows(event: Event, before_round: int | None = None) -> EventRows:
    """The rows a recompute stores; with ``before_round``, as they stood before that round's games."""
    ranked = stages_ranked(event, before_round=before_round)
    if len(ranked) == 1:
        return _one_stage(event, ranked[0])
    stage_rows = [
        _row(StageStanding, event, number, line, stage_line)
        for number, lines in enumerate(ranked, start=1)
        for stage_line, line in lines
    ]
    return EventRows(_final(event, ranked), stage_rows)


def stages_ranked(event: Event, *, before_round: int | None = None) -> list[list[Ranked]]:
    """Each entered stage's lines, ranked, the carry of each into the next computed from the one before."""
    mcr = event.ruleset().is_mcr
    tiebreaks = event_tiebreaks(event, mcr)
    ranked: list[list[Ranked]] = []
    teams = event.entrants == Event.Entrants.TEAMS
    for stage in entered_stages(event):
        carried = {}
        if ranked and not teams:  # a team league carries the teams' points (scoring.services.team_stages)
            carried = carried_in(ranked[-1], stage)
        lines = player_lines(
            event,
            mcr,
            before_round=before_round,
            stage=stage.number,
            entrants=stage_entrants(event, stage) if stage.number > 1 else None,
        )
        ranked.append(rank_lines(event, lines, stage=stage.number, carried=carried, mcr=mcr, tiebreaks=tiebreaks))
    return ranked


def event_tiebreaks(event: Event, mcr: bool) -> list[Tiebreak]:
    return [Tiebreak(t) for t in event.tiebreaks] or ([Tiebreak.SCORE] if mcr else [])


def one_stage_values(event: Event, lines: Collection[PlayerLine]) -> list[LineValues]:
    """An event in one stage: ``lines`` (every player's) ranked as ``event_rows`` ranks them, as stored values."""
    mcr = event.ruleset().is_mcr
    ranked = rank_lines(event, lines, stage=1, carried={}, mcr=mcr, tiebreaks=event_tiebreaks(event, mcr))
    return [line_values(1, line, stage_line) for stage_line, line in ranked]


def _one_stage(event: Event, ranked: list[Ranked]) -> EventRows:
    return EventRows([_row(Standing, event, 1, line, stage_line) for stage_line, line in ranked], [])


def stage_entrants(event: Event, stage: Stage) -> list[int]:
    """The players of a later stage: its cut's, or in a team league every member of the teams it sent on."""
    if event.entrants != Event.Entrants.TEAMS:
        return list(stage.through or [])
    return list(
        Registration.objects.filter(event=event, team_id__in=stage.through or [], substitute=False).values_list(
            "player_id", flat=True
        )
    )


def stage_order(event: Event, number: int) -> list[int]:
    """Stage ``number``'s ranked players, best first (rules.stages.seating_order); none for a stage not entered."""
    ranked = stages_ranked(event)
    if number > len(ranked):
        return []
    lines = [line for line, _ in ranked[number - 1] if line is not None]
    stage = Stage.objects.filter(event=event, number=number).first() if number > 1 else None
    return seating_order(lines, (stage.through if stage else None) or ())


def carried_in(before: Sequence[Ranked], stage: Stage) -> dict[int, Carried]:
    """What each entrant of ``stage`` brings from the stage before, to the hundredth (as standings are shown)."""
    lines = [stage_line for stage_line, _ in before if stage_line is not None]
    exact = carry_over(standings=lines, players=stage.through or (), carry=stage.carry_rule())
    return {
        p: Carried(points=Fraction(cents(c.points)), table_points=Fraction(cents(c.table_points)))
        for p, c in exact.items()
    }


def rank_lines(
    event: Event,
    lines: Collection[PlayerLine],
    *,
    stage: int,
    carried: Mapping[int, Carried],
    mcr: bool,
    tiebreaks: Sequence[Tiebreak],
) -> list[Ranked]:
    """A stage's lines ranked: the first stage's players with fewer than the event's minimum games are not."""
    minimum = ranked_from(event.min_games, first_stage=stage == 1)
    ranked = [line for line in lines if line.games >= minimum]
    ruleset = event.ruleset()
    results = [
        Line(
            player=line.player_id,
            points=Fraction(line.points),
            table_points=Fraction(line.table_points or 0) if mcr else None,
            tiebreaks=_solo_key(ruleset, line) + tiebreak_values(line.totals, tiebreaks),
        )
        for line in ranked
    ]
    by_player = {line.player_id: line for line in lines}
    stage_lines = stage_standings(
        entrants=[line.player_id for line in ranked], results=results, carried=carried, mcr=mcr
    )
    return [(s, by_player[s.player]) for s in stage_lines] + [(None, ln) for ln in lines if ln.games < minimum]


NO_ATTEMPT_DRAWS = 10**9  # more draws than any sum of attempts reaches


def _solo_key(ruleset: Ruleset, line: PlayerLine) -> tuple[Fraction, ...]:
    """The solo race to tenpai ranks on draws and value (rules.solo.solo_key), before the event's tiebreaks: its
    lines have no points (0 for all), so the key's first values decide."""
    if not ruleset.is_solo:
        return ()
    # A later stage's entrant with no game yet ranks below every attempt made.
    draws = line.draws if line.draws is not None else NO_ATTEMPT_DRAWS
    key = solo_key(ruleset=ruleset, score=SoloScore(draws=draws, value=line.score), games=line.games)
    return tuple(Fraction(value) for value in key)


def cents(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(HUNDREDTHS, rounding=ROUND_HALF_UP)


def _final(event: Event, ranked: list[list[Ranked]]) -> list[Standing]:
    places = final_ranking([[s for s, _ in lines if s is not None] for lines in ranked])
    by_stage = {
        (number, line.player_id): (stage_line, line)
        for number, lines in enumerate(ranked, start=1)
        for stage_line, line in lines
    }
    played: dict[int, int] = {}
    placed: dict[int, tuple[Decimal, int]] = {}  # placements summed and games counted, over every stage
    for lines in ranked:
        for _, line in lines:
            played[line.player_id] = played.get(line.player_id, 0) + line.games
            total, counted = placed.get(line.player_id, (Decimal(0), 0))
            placed[line.player_id] = (total + line.rank_sum, counted + line.counted)
    rows = []
    for place in places:
        stage_line, line = by_stage[(place.stage, place.player)]
        row = _row(Standing, event, place.stage, line, stage_line)
        # The final ranking counts every stage's games, and averages the placement over all of them.
        row.rank, row.games = place.rank, played[place.player]
        row.sort_key = None  # the final ranking orders by the stage reached first: no change moves it in place
        total, counted = placed[place.player]
        row.average_rank = (total / counted).quantize(HUNDREDTHS) if counted else None
        rows.append(row)
    ranked_players = {place.player for place in places}
    rows += [
        _row(Standing, event, 1, line, None) for stage_line, line in ranked[0] if line.player_id not in ranked_players
    ]
    return rows


class LineValues(NamedTuple):
    """What a stored line holds beside its event: one place computes it from a ranked line (``line_values``)."""

    player_id: int
    stage: int
    rank: int | None
    points: Decimal
    table_points: Decimal | None
    carried: Decimal
    carried_table_points: Decimal | None
    score: int
    games: int
    average_rank: Decimal | None
    penalties: Decimal
    first_places: int
    best_game: Decimal | None
    draws: int | None
    sort_key: bytes | None  # rules.ranks.sort_key of the ranked line's key


def line_values(stage: int, line: PlayerLine, ranked: StageLine | None) -> LineValues:
    points, table_points, carried, carried_table = line.points, line.table_points, Decimal(0), None
    if ranked is not None:
        points, carried = cents(ranked.total), cents(ranked.carried)
        if ranked.total_table_points is not None:
            table_points = cents(ranked.total_table_points)
            carried_table = cents(ranked.carried_table_points or Fraction(0))
    return LineValues(
        player_id=line.player_id,
        stage=stage,
        rank=None if ranked is None else ranked.rank,
        points=points,
        table_points=table_points,
        carried=carried,
        carried_table_points=carried_table,
        score=line.score,
        games=line.games,
        average_rank=line.average_rank,
        penalties=line.penalties,
        first_places=line.first_places,
        best_game=line.best_game,
        draws=line.draws,
        sort_key=None if ranked is None else sort_key(ranked.key()),
    )


def _row(model: type[_R], event: Event, stage: int, line: PlayerLine, ranked: StageLine | None) -> _R:
    return model(event=event, **line_values(stage, line, ranked)._asdict())
