"""Events in stages: who enters a stage (the cut), what they bring (the carry), a stage's standings, the event's
final ranking, and seating a stage's first round by rank.

A stage's results are lines (``Line``): a player's points in the stage, MCR table points, and the event's
tiebreak values in order, each a number where higher is better (as scoring.services.standings ranks them).
The standings' own key ranks them: MCR table points, then points, then the tiebreaks; players equal on all of
them share the rank. A stage's standings add what each player carried in, side by side with the stage's own.

The cut never picks by input order: players equal on every key at the line are reported (``Cut.tied_at_line``)
until the organiser names who goes on (``through=``), and that decision is checked.

Everything is exact (Fraction): half of 345.3 points is 172.65.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from rules.errors import Problem, Refusal
from rules.seating.history import Table, check_table_size

RANK_WINDS = "rank"  # 1st of a table sits East, 2nd South, ...
DRAWN_WINDS = "drawn"  # seat winds drawn with a seed
WINDS = (RANK_WINDS, DRAWN_WINDS)
_NAMED_CARRIES = {"all": Fraction(1), "half": Fraction(1, 2), "none": Fraction(0)}


@dataclass(frozen=True, slots=True)
class Line:
    """One player's results in a stage: points, MCR table points (None outside MCR), tiebreak values."""

    player: int
    points: Fraction
    table_points: Fraction | None = None
    tiebreaks: tuple[Fraction, ...] = ()


@dataclass(frozen=True, slots=True)
class Carried:
    """What a player brings into a stage: points, or (MCR, when asked) table points."""

    points: Fraction = Fraction(0)
    table_points: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class StageLine:
    """A line of a stage's standings: what was carried in and the stage's own, side by side, and the total.

    ``total`` is the API's ``points``; the ``*_table_points`` are None outside MCR.
    """

    player: int
    rank: int
    carried: Fraction
    own: Fraction
    total: Fraction
    carried_table_points: Fraction | None
    own_table_points: Fraction | None
    total_table_points: Fraction | None
    tiebreaks: tuple[Fraction, ...]

    def key(self) -> tuple[Fraction, ...]:
        """Higher is better: MCR table points, points, then the tiebreaks."""
        primary = (self.total,) if self.total_table_points is None else (self.total_table_points, self.total)
        return primary + self.tiebreaks


@dataclass(frozen=True, slots=True)
class Entry:
    """Who enters a stage: everyone of the stage before (``top`` None), or its top N, plus named players."""

    top: int | None = None
    also: tuple[int, ...] = ()  # wildcards: a defending champion, a host's pick


@dataclass(frozen=True, slots=True)
class Carry:
    """The share of the stage before's totals a player brings in: of the points, or (MCR) of the table points."""

    fraction: Fraction
    table_points: bool = False

    @classmethod
    def parse(cls, value: object, *, table_points: bool = False) -> Carry:
        """ "all", "half", "none", or a fraction from 0 to 1 (1/3, "1/3", "0.25", 0.25); Refusal on ``carry``."""
        fraction = _fraction(value)
        if fraction is None or not 0 <= fraction <= 1:
            raise Refusal.of("carry", "carry_form", value=value)
        return cls(fraction, table_points)


def _fraction(value: object) -> Fraction | None:
    if isinstance(value, str) and value in _NAMED_CARRIES:
        return _NAMED_CARRIES[value]
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal | Fraction):
        return None
    try:  # a float through its shortest text (JSON's 0.1 is a tenth, not 0.1000000000000000055...)
        return Fraction(str(value) if isinstance(value, float) else value)
    except (ValueError, ZeroDivisionError):
        return None


@dataclass(frozen=True, slots=True)
class Cut:
    """Who goes on from a stage.

    ``through``: in rank order, then the wildcards; while a tie at the line is undecided, only those sure to go.
    ``tied_at_line``: equal on every key at the line, more of them than the ``places`` left for them.
    """

    through: tuple[int, ...]
    tied_at_line: tuple[int, ...]
    places: int
    wildcards: tuple[int, ...]
    decided: bool


@dataclass(frozen=True, slots=True)
class Place:
    """A player's place in the event's final ranking: by the last stage reached, then the rank in it."""

    player: int
    rank: int
    stage: int  # the number (1-based) of the last stage the player played
    stage_rank: int


# --- a stage's standings --------------------------------------------------------------------------------------------


def stage_standings(
    *, entrants: Iterable[int], results: Sequence[Line], carried: Mapping[int, Carried] | None = None, mcr: bool = False
) -> tuple[StageLine, ...]:
    """Every entrant's line, ranked by the total then the tiebreaks, ties sharing the rank (as the event's
    standings do). An entrant with no result yet has the stage's own at 0 and ranks below anyone equal on the
    total who has one. Refusal on ``entrants``, ``results`` or ``carried``."""
    players = list(entrants)
    _no_repeats(players, "entrants")
    _no_repeats([line.player for line in results], "results")
    carried = carried or {}
    _check_results(results, set(players), mcr=mcr)
    if not mcr and any(c.table_points for c in carried.values()):
        raise Refusal.of("carried", "carry_no_table_points")
    by_player = {line.player: line for line in results}
    lines = [_stage_line(p, by_player.get(p), carried.get(p, Carried()), mcr=mcr) for p in players]
    return _ranked(lines)


def _check_results(results: Sequence[Line], entrants: set[int], *, mcr: bool) -> None:
    problems: list[Problem] = []
    for i, line in enumerate(results):
        if line.player not in entrants:
            problems.append(Problem.of(f"results[{i}].player", "not_entered", player=line.player))
        if (line.table_points is None) == mcr:
            problems.append(Problem.of(f"results[{i}].table_points", "table_points_mixed"))
        if len(line.tiebreaks) != len(results[0].tiebreaks):
            problems.append(Problem.of(f"results[{i}].tiebreaks", "tiebreaks_mixed"))
    if problems:
        raise Refusal(problems)


def _stage_line(player: int, result: Line | None, carried: Carried, *, mcr: bool) -> StageLine:
    own = result.points if result else Fraction(0)
    own_table = (result.table_points if result and result.table_points is not None else Fraction(0)) if mcr else None
    return StageLine(
        player=player,
        rank=0,
        carried=carried.points,
        own=own,
        total=carried.points + own,
        carried_table_points=carried.table_points if mcr else None,
        own_table_points=own_table,
        total_table_points=carried.table_points + own_table if own_table is not None else None,
        tiebreaks=result.tiebreaks if result else (),
    )


def _ranked(lines: list[StageLine]) -> tuple[StageLine, ...]:
    """Best first; equal keys share the rank (the first position of the group), listed by player id."""
    # Keys computed once each: comparing Fractions is most of what ranking a stage costs.
    by_id = sorted(lines, key=lambda line: line.player)
    keyed = sorted(((line.key(), line) for line in by_id), key=lambda pair: pair[0], reverse=True)  # stable
    ranked: list[StageLine] = []
    for position, (key, line) in enumerate(keyed, start=1):
        same = position > 1 and keyed[position - 2][0] == key
        ranked.append(_with_rank(line, ranked[-1].rank if same else position))
    return tuple(ranked)


def _with_rank(line: StageLine, rank: int) -> StageLine:
    return StageLine(
        line.player,
        rank,
        line.carried,
        line.own,
        line.total,
        line.carried_table_points,
        line.own_table_points,
        line.total_table_points,
        line.tiebreaks,
    )


# --- the cut and the carry ------------------------------------------------------------------------------------------


def cut(*, standings: Sequence[StageLine], entry: Entry, through: Sequence[int] | None = None) -> Cut:
    """Who goes on from ``standings`` (a stage's, as ``stage_standings`` ranks them) under ``entry``.

    Without ``through``, a tie at the line is reported and left undecided. With it (the organiser's decision:
    the players going on by rank, wildcards optional; or only those chosen among the tied), the decision is
    checked: every untied one above the line (or none of them) and as many of the tied ones as there are places;
    Refusal on ``through`` naming what is wrong.
    Wildcards already going on by rank are not counted twice; one tied at the line goes on as a wildcard and
    stays among the tied (choosing them spends a ranked place). Refusal on ``entry.top`` or ``entry.also``.
    """
    _check_entry(entry, len(standings))
    ordered = sorted(standings, key=lambda line: (line.rank, line.player))
    top = len(ordered) if entry.top is None else entry.top
    line_rank = ordered[top - 1].rank if top else 0
    above = [line.player for line in ordered if line.rank < line_rank]
    at_line = [line.player for line in ordered if line.rank == line_rank]
    if len(above) + len(at_line) <= top:
        above, at_line = above + at_line, []
    places = top - len(above) if at_line else 0
    going = above
    if through is not None:
        going = above + _check_decision(through, above=above, tied=at_line, places=places, wildcards=entry.also)
    wildcards = tuple(p for p in entry.also if p not in going)
    decided = through is not None or not at_line
    return Cut(
        through=tuple(going) + wildcards,
        tied_at_line=tuple(at_line),
        places=places,
        wildcards=wildcards,
        decided=decided,
    )


def _check_entry(entry: Entry, ranked: int) -> None:
    if entry.top is not None and entry.top < 1:
        raise Refusal.of("entry.top", "at_least", minimum=1)
    if entry.top is not None and entry.top > ranked:
        raise Refusal.of("entry.top", "stage_top_over", count=ranked, top=entry.top)
    _no_repeats(entry.also, "entry.also")


def _check_decision(
    through: Sequence[int], *, above: list[int], tied: list[int], places: int, wildcards: Sequence[int]
) -> list[int]:
    """The tied players the decision sends on, in its order; Refusal on ``through`` listing every fault."""
    _no_repeats(through, "through")
    known = set(above) | set(tied) | set(wildcards)
    problems = [Problem.of("through", "cut_not_at_line", player=p) for p in through if p not in known]
    named = set(through)
    # The decision may name everyone who goes on, or only the ones chosen among the tied: naming some of those
    # above the line but not all is a mistake, naming none of them is the short form.
    if named & set(above):
        problems += [Problem.of("through", "cut_left_out", player=p) for p in above if p not in named]
    chosen = [p for p in through if p in set(tied)]
    if len(chosen) != places:
        problems.append(Problem.of("through", "cut_tied_count", count=len(chosen), places=places))
    if problems:
        raise Refusal(problems)
    return chosen


def carry_over(*, standings: Sequence[StageLine], players: Iterable[int], carry: Carry) -> dict[int, Carried]:
    """What each of ``players`` brings from ``standings``: the ``carry`` share of their total points, or (MCR,
    when asked) of their total table points. A player who did not play that stage (a wildcard from outside)
    brings nothing. Refusal on ``carry`` for table points carried from a stage that has none."""
    by_player = {line.player: line for line in standings}
    if carry.table_points and any(line.total_table_points is None for line in standings):
        raise Refusal.of("carry", "carry_no_table_points")
    carried: dict[int, Carried] = {}
    for player in players:
        line = by_player.get(player)
        if line is None:
            carried[player] = Carried()
        elif carry.table_points:
            carried[player] = Carried(table_points=carry.fraction * (line.total_table_points or Fraction(0)))
        else:
            carried[player] = Carried(points=carry.fraction * line.total)
    return carried


# --- the event's final ranking --------------------------------------------------------------------------------------


def final_ranking(stages: Sequence[Sequence[StageLine]]) -> tuple[Place, ...]:
    """Every player of the event, by the last stage reached (later first), then the rank within it: a player cut
    at an earlier stage ranks below everyone who went on. Equal on both, players share the place."""
    reached: dict[int, tuple[int, int]] = {}
    for number, standings in enumerate(stages, start=1):
        for line in standings:
            reached[line.player] = (number, line.rank)
    ordered = sorted(reached, key=lambda p: (-reached[p][0], reached[p][1], p))
    places: list[Place] = []
    for position, player in enumerate(ordered, start=1):
        stage, stage_rank = reached[player]
        same = places and (places[-1].stage, places[-1].stage_rank) == (stage, stage_rank)
        places.append(Place(player, places[-1].rank if same else position, stage, stage_rank))
    return tuple(places)


def seating_order(standings: Sequence[StageLine], entered: Sequence[int] = ()) -> list[int]:
    """A stage's entrants best first, for seating by rank: equal ranks keep the order they ``entered`` the stage
    in (its cut's, by their rank in the stage before), then go by id. A stage entered with nothing carried has
    everyone equal: seating it by rank means by that order."""
    position = {entrant: n for n, entrant in enumerate(entered)}
    return [
        line.player
        for line in sorted(
            standings, key=lambda line: (line.rank, position.get(line.player, len(position)), line.player)
        )
    ]


# --- seating a stage's first round by rank --------------------------------------------------------------------------


def rank_seating(
    *, players: Sequence[int], table_size: int, winds: str = RANK_WINDS, seed: int | None = None
) -> tuple[Table, ...]:
    """Tables by rank: ``players`` (best first) 1 to ``table_size`` at table 1, the next ones at table 2, ...

    Seat winds by rank (the best of a table sits East) or drawn with ``seed`` (the same seed, the same seats).
    Refusal on ``table_size``, ``players`` (repeated, or not filling the tables), ``winds`` or ``seed``.
    """
    check_table_size(table_size)
    if winds not in WINDS:
        raise Refusal.of("winds", "one_of", choices=", ".join(WINDS))
    if winds == DRAWN_WINDS and seed is None:
        raise Refusal.of("seed", "seed_for_drawn_winds")
    _no_repeats(players, "players")
    if not players or len(players) % table_size:
        raise Refusal.of("players", "tables_not_filled", count=len(players), size=table_size)
    rng = random.Random(seed)
    tables: list[Table] = []
    for start in range(0, len(players), table_size):
        seats = list(players[start : start + table_size])
        if winds == DRAWN_WINDS:
            rng.shuffle(seats)
        tables.append(Table(number=len(tables) + 1, seats=tuple(seats)))
    return tuple(tables)


def _no_repeats(players: Iterable[int], field: str) -> None:
    twice = sorted(p for p, count in Counter(players).items() if count > 1)
    if twice:
        raise Refusal([Problem.of(field, "player_listed_twice", player=p) for p in twice])
