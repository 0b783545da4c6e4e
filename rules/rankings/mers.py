"""The EMA's ranking (MERS): a result's score, an event's weight, a player's two-part average, the list and the
country figures, on one date. Pure functions of the events and results; docs/rankings.md gives the formula, its
sources and the points where they disagree.

- A result's score: 1000 × (N − place) / (N − 1), rounded half up (N: the event's players, substitutes counted
  as the EMA counts them, at most 3).
- An event's weight: days (1, 2, 3 or more: 3) + players (≤ 40: 0, 41–80: ½, more: 1) + countries (≤ 5: 0,
  6–9: ½, 10 or more: 1) + 1 for a European championship; a weight the EMA published is taken as published.
- A player's score on a date, over the active results (time factor > 0), w = weight × time factor:
  part A = Σ w·r over the best k / (Σ w + max(0, 5 − n)), k = n up to 5, else 5 + ⌈0.8 (n − 5)⌉;
  part B = the same over the best 4, padded to 4; score = (A + B) / 2. Listed with 2 active results or more.
  Best: by result score; ties by recency in part A, by weight in part B.
- A country's figure: the average of its 3 best players' scores (a missing one counts 0).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from rules.rankings.calendar import time_factor, week_of

PART_A_BASE = 5  # results a ranking is built on; fewer are padded with zeros of weight 1
PART_A_SHARE = 0.8  # of the results beyond 5 that part A keeps (the rest, the worst, are dropped)
PART_B_COUNT = 4
MIN_RESULTS = 2  # active results to be listed
MAX_SUBSTITUTES = 3  # substitutes the EMA counts among an event's players
COUNTRY_TOP = 3


def result_score(place: int, players: int) -> int:
    """1000 for the winner, 0 for the last, evenly between: 1000 × (N − place) / (N − 1), half up."""
    if players < 2 or not 1 <= place <= players:
        raise ValueError(f"place {place} among {players} players")
    exact = Decimal(1000 * (players - place)) / Decimal(players - 1)
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def counted_players(ranked: int, substitutes: int) -> int:
    """N, as the EMA counts an event's players: those ranked, and its substitutes up to 3."""
    return ranked + min(substitutes, MAX_SUBSTITUTES)


def event_weight(*, days: int, players: int, countries: int, championship: bool = False) -> float:
    """The event's weight from its days, players and countries, and 1 more for a European championship."""
    duration = min(max(days, 1), 3)
    size = 0.0 if players <= 40 else 0.5 if players <= 80 else 1.0
    reach = 0.0 if countries <= 5 else 0.5 if countries <= 9 else 1.0
    return duration + size + reach + (1.0 if championship else 0.0)


@dataclass(frozen=True, slots=True)
class RankedEvent:
    """An event the ranking takes: ``weight`` as the EMA published it, or None to compute it."""

    key: str
    starts_on: date
    days: int
    players: int
    countries: int
    championship: bool = False
    weight: float | None = None

    @property
    def mers_weight(self) -> float:
        if self.weight is not None:
            return self.weight
        return event_weight(
            days=self.days, players=self.players, countries=self.countries, championship=self.championship
        )


@dataclass(frozen=True, slots=True)
class Result:
    event: str
    player: str  # the federation id: the EMA ranks people by their EMA number
    place: int


@dataclass(frozen=True, slots=True)
class Counted:
    """One active result of a player, as the ranking takes it; in neither part: dropped (not among the best)."""

    event: str
    place: int
    players: int
    score: int
    weight: float
    time_factor: float
    part_a: bool
    part_b: bool


@dataclass(frozen=True, slots=True)
class Line:
    player: str
    rank: int
    score: float
    part_a: float
    part_b: float
    results: tuple[Counted, ...]  # the active results, best first

    @property
    def dropped(self) -> tuple[Counted, ...]:
        return tuple(r for r in self.results if not (r.part_a or r.part_b))


@dataclass(frozen=True, slots=True)
class Country:
    country: str
    rank: int
    score: float
    players: tuple[str, ...]  # its best (up to 3), best first
    ranked: int  # its players in the list


@dataclass(frozen=True, slots=True)
class Ranking:
    week: date  # the Monday of the ranking's week
    lines: tuple[Line, ...]
    # Players with active results but too few to be listed, and what they have: what a later week compares with.
    unlisted: Mapping[str, tuple[Counted, ...]]

    def active(self) -> dict[str, tuple[Counted, ...]]:
        """Every player's active results, listed or not."""
        return {**self.unlisted, **{line.player: line.results for line in self.lines}}


def part_a_count(active: int) -> int:
    """How many of a player's best results part A averages: all up to 5, then 5 + ⌈80% of the rest⌉."""
    return active if active <= PART_A_BASE else PART_A_BASE + math.ceil(PART_A_SHARE * (active - PART_A_BASE))


def _average(chosen: Iterable[tuple[int, float]], padding: int) -> float:
    numerator = denominator = 0.0
    for score, weight in chosen:
        numerator += score * weight
        denominator += weight
    denominator += padding
    return numerator / denominator if denominator else 0.0


@dataclass(frozen=True, slots=True)
class _Active:
    event: RankedEvent
    result: Result
    score: int
    event_weight: float
    factor: float
    weight: float  # what it weighs in the averages: the event's weight × the time factor


def player_line(active: list[_Active]) -> tuple[float, float, float, tuple[Counted, ...]]:
    """A player's score, part A, part B and active results (best first, each marked with the parts it is in)."""
    n = len(active)
    by_recency = sorted(active, key=lambda a: (-a.score, -a.event.starts_on.toordinal(), a.event.key))
    by_weight = sorted(active, key=lambda a: (-a.score, -a.weight, a.event.key))
    in_a = by_recency[: part_a_count(n)]
    in_b = by_weight[:PART_B_COUNT]
    part_a = _average(((a.score, a.weight) for a in in_a), max(0, PART_A_BASE - n))
    part_b = _average(((a.score, a.weight) for a in in_b), max(0, PART_B_COUNT - n))
    a_keys, b_keys = {a.event.key for a in in_a}, {a.event.key for a in in_b}
    results = tuple(
        Counted(
            event=a.event.key,
            place=a.result.place,
            players=a.event.players,
            score=a.score,
            weight=a.event_weight,
            time_factor=a.factor,
            part_a=a.event.key in a_keys,
            part_b=a.event.key in b_keys,
        )
        for a in by_recency
    )
    return (part_a + part_b) / 2, part_a, part_b, results


def _active_results(
    events: Mapping[str, RankedEvent], results: Iterable[Result], week: date
) -> dict[str, list[_Active]]:
    factors = {key: time_factor(event.starts_on, week) for key, event in events.items()}
    weights = {key: event.mers_weight for key, event in events.items() if factors[key] > 0}
    by_player: dict[str, list[_Active]] = defaultdict(list)
    for result in results:
        factor = factors[result.event]
        if factor > 0:
            event, weight = events[result.event], weights[result.event]
            by_player[result.player].append(
                _Active(event, result, result_score(result.place, event.players), weight, factor, weight * factor)
            )
    return by_player


def mers_ranking(events: Iterable[RankedEvent], results: Iterable[Result], on: date) -> Ranking:
    """The ranking published for ``on``'s week: listed players best first; equal scores (to the hundredth, as
    shown) share a rank, listed by federation id."""
    week = week_of(on)
    by_key = {event.key: event for event in events}
    scored: list[tuple[float, str, float, float, tuple[Counted, ...]]] = []
    unlisted: dict[str, tuple[Counted, ...]] = {}
    for player, active in _active_results(by_key, results, week).items():
        score, part_a, part_b, counted = player_line(active)
        if len(active) < MIN_RESULTS:
            unlisted[player] = counted
        else:
            scored.append((round(score, 2), player, part_a, part_b, counted))
    scored.sort(key=lambda s: (-s[0], s[1]))
    lines: list[Line] = []
    for index, (score, player, part_a, part_b, counted) in enumerate(scored):
        rank = lines[-1].rank if lines and round(lines[-1].score, 2) == score else index + 1
        lines.append(
            Line(player=player, rank=rank, score=(part_a + part_b) / 2, part_a=part_a, part_b=part_b, results=counted)
        )
    return Ranking(week=week, lines=tuple(lines), unlisted=unlisted)


def country_figures(ranking: Ranking, countries: Mapping[str, str]) -> tuple[Country, ...]:
    """Each country's figure: the average of its 3 best listed players' scores, a missing one counting 0;
    ``countries`` gives each player's country (players without one count for none)."""
    best: dict[str, list[Line]] = defaultdict(list)
    for line in ranking.lines:  # best first
        if country := countries.get(line.player, "").strip():
            best[country].append(line)
    figures = sorted(
        (
            (sum(line.score for line in lines[:COUNTRY_TOP]) / COUNTRY_TOP, country, lines)
            for country, lines in best.items()
        ),
        key=lambda f: (-round(f[0], 2), f[1]),
    )
    out: list[Country] = []
    for index, (score, country, lines) in enumerate(figures):
        rank = out[-1].rank if out and round(out[-1].score, 2) == round(score, 2) else index + 1
        out.append(
            Country(
                country=country,
                rank=rank,
                score=score,
                players=tuple(line.player for line in lines[:COUNTRY_TOP]),
                ranked=len(lines),
            )
        )
    return tuple(out)
