"""Final result of a game: ranks, oka, uma, ties, penalties (docs/rules.md §5, docs/score-sheet.md "Output").

points = (score − return_points) / 1000 + uma + oka + penalty, in points
(1 point = 1000). Under MCR: points = score + penalty, with table points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.hand_value import PAYMENT_UNIT
from rules.options import DepositsAtEnd, FinalRounding, Ties
from rules.parameters import UmaByPlusCount
from rules.ruleset import Ruleset

POINT = 1000  # score per point of the final result


@dataclass(frozen=True, slots=True)
class FinalRow:
    player: int
    rank: int
    score: int  # end score, deposits at the end included
    uma: Fraction
    oka: Fraction
    penalty: Fraction  # chombo deductions and sheet penalties
    points: Fraction
    table_points: Fraction | None
    chombos: int
    draws: int | None = None  # the solo game (rules.solo): the draws that rank the player; score holds the value


def rank_groups(*, ruleset: Ruleset, scores: Sequence[int]) -> list[list[int]]:
    """Players best first, grouped where they share a place.

    Ties on the end score share a place under ``ties: split``; under
    ``seat_order`` the player nearer the first dealer ranks higher.
    """
    order = sorted(range(len(scores)), key=lambda p: (-scores[p], p))
    if ruleset.ties == Ties.SEAT_ORDER:
        return [[p] for p in order]
    groups: list[list[int]] = []
    for p in order:
        if groups and scores[groups[-1][0]] == scores[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def is_first(*, ruleset: Ruleset, scores: Sequence[int], player: int) -> bool:
    """Whether ``player`` is (possibly shared) first place right now."""
    return player in rank_groups(ruleset=ruleset, scores=scores)[0]


def round_to_thousand(score: int) -> int:
    """To the nearest 1000, a 500 away from zero: Tenhou's records give 38500 → 39000 and −7500 → −8000."""
    thousands, rest = divmod(abs(score), POINT)
    rounded = (thousands + (1 if rest >= POINT // 2 else 0)) * POINT
    return rounded if score >= 0 else -rounded


def _end_scores(*, ruleset: Ruleset, scores: Sequence[int], deposits: int, finished: bool) -> list[int]:
    """The scores once the sticks left on the table are settled: they go to first place (tied firsts share, rounded
    down to 100) only when the game has finished and the rules give them away."""
    end_scores = list(scores)
    if finished and deposits and ruleset.deposits_at_end == DepositsAtEnd.FIRST_PLACE:
        firsts = rank_groups(ruleset=ruleset, scores=end_scores)[0]
        share = deposits * ruleset.riichi_deposit // len(firsts) // PAYMENT_UNIT * PAYMENT_UNIT
        for p in firsts:
            end_scores[p] += share
    return end_scores


def _shared(by_place: Sequence[Fraction], places: range) -> Fraction:
    """Players tied over several places share those places' values equally."""
    return Fraction(sum((by_place[i] for i in places), Fraction(0)), len(places))


def final_results(
    *,
    ruleset: Ruleset,
    scores: Sequence[int],
    deposits: int,
    finished: bool,
    chombos: Sequence[int],
    penalties: Mapping[int, Fraction] | None = None,
) -> tuple[FinalRow, ...]:
    """Rank the players and compute their final points.

    Sticks left on the table go to first place (tied firsts share, rounded
    down to 100) or are lost, but only once the game has finished; a game in
    progress shows its standing with the sticks still on the table.
    """
    penalties = penalties or {}
    end_scores = _end_scores(ruleset=ruleset, scores=scores, deposits=deposits, finished=finished)
    groups = rank_groups(ruleset=ruleset, scores=end_scores)
    uma_table = _uma_for(ruleset=ruleset, scores=end_scores)
    place_oka = [Fraction(ruleset.oka, POINT)] + [Fraction(0)] * (ruleset.players - 1)
    place_table = list(ruleset.table_points) if ruleset.table_points is not None else None
    rows: list[FinalRow] = []
    position = 0
    for group in groups:
        places = range(position, position + len(group))
        uma, oka = _shared(uma_table, places), _shared(place_oka, places)
        table = _shared(place_table, places) if place_table is not None else None
        for p in group:
            penalty = chombos[p] * ruleset.chombo_penalty + penalties.get(p, Fraction(0))
            points = _points(ruleset, end_scores[p], uma + oka) + penalty
            rows.append(
                FinalRow(
                    player=p,
                    rank=position + 1,
                    score=end_scores[p],
                    uma=uma,
                    oka=oka,
                    penalty=penalty,
                    points=points,
                    table_points=table,
                    chombos=chombos[p],
                )
            )
        position += len(group)

    if ruleset.final_rounding == FinalRounding.NEAREST_THOUSAND and not ruleset.is_mcr:
        rows = _round_to_thousands(ruleset=ruleset, rows=rows)
    return tuple(rows)


def _points(ruleset: Ruleset, score: int, uma_and_oka: Fraction) -> Fraction:
    """Riichi: thousands above or below the return points, plus the place's uma and oka. MCR: the score itself."""
    if ruleset.is_mcr:
        return Fraction(score)
    return Fraction(score - ruleset.return_points, POINT) + uma_and_oka


def _uma_for(*, ruleset: Ruleset, scores: Sequence[int]) -> list[Fraction]:
    uma = ruleset.uma
    if isinstance(uma, UmaByPlusCount):
        # JPML: a player is "plus" at or above the return points (seed 000 §5.1).
        plus = sum(1 for s in scores if s >= ruleset.return_points)
        return list(uma.for_plus_count(plus))
    return list(uma) if uma else [Fraction(0)] * ruleset.players


def _round_to_thousands(*, ruleset: Ruleset, rows: list[FinalRow]) -> list[FinalRow]:
    """End scores to the nearest thousand; first place takes the rounding rest so the sum is kept.

    Players tied for first (under ``ties: split``) share that rest equally.
    """
    exact_total = sum(Fraction(r.score - ruleset.return_points, POINT) for r in rows)
    rounded = [Fraction(round_to_thousand(r.score) - ruleset.return_points, POINT) for r in rows]
    firsts = [i for i, r in enumerate(rows) if r.rank == 1]
    others = sum((v for i, v in enumerate(rounded) if i not in firsts), Fraction(0))
    for i in firsts:
        rounded[i] = Fraction(exact_total - others, len(firsts))
    return [
        FinalRow(
            player=r.player,
            rank=r.rank,
            score=r.score,
            uma=r.uma,
            oka=r.oka,
            penalty=r.penalty,
            points=base + r.uma + r.oka + r.penalty,
            table_points=r.table_points,
            chombos=r.chombos,
        )
        for r, base in zip(rows, rounded, strict=True)
    ]
