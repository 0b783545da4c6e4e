"""An event's leaderboards: most wins, best average placement, fewest deal-ins, from its GameStats rows.

One grouped query gives every player's sums over the event's finished games.
A count (wins) ranks everyone; a rate (average placement, deal-in rate) ranks
only players with at least ``min_hands`` hands, so that two lucky games do
not top a board. Unless asked otherwise, that minimum is half the hands of the
event's median player (rounded up): everyone who played about half as much
as most did ranks. Equal figures share a rank (1, 1, 3). Substitutes are not ranked, as in the standings.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import median_low
from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet, Sum
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from rules.errors import Problem, Refusal
from scoring.models import GameStats
from scoring.services.csv_cells import cell, csv_writer, header, inert
from scoring.services.standings_lines import counted_results
from scoring.services.stats import aggregates, rate, stats_figures
from tournament.models import Event, Registration

MAX_HANDS = 1_000_000  # far above any player's hands in one event: a bound for what a visitor types
LIMIT, MAX_LIMIT = 10, 1000  # lines per board unless asked, and the most asked


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line on a board: the figure it ranks by with the counts it is made of."""

    rank: int
    player_id: int
    name: str
    games: int
    hands: int
    wins: int
    deal_ins: int
    average_place: float | None
    win_rate: float | None
    deal_in_rate: float | None

    @property
    def deal_in_percent(self) -> float | None:
        return None if self.deal_in_rate is None else round(100 * self.deal_in_rate, 1)


@dataclass(frozen=True, slots=True)
class Leaderboards:
    players: int  # players with a finished game (substitutes apart)
    median_hands: int
    min_hands: int
    min_hands_given: bool  # asked for, not the default
    most_wins: list[Line]
    best_average_place: list[Line]
    fewest_deal_ins: list[Line]


@dataclass(frozen=True, slots=True)
class _Sums:
    player_id: int
    name: str
    games: int
    hands: int
    wins: int
    deal_ins: int
    rank_sum: Fraction

    def line(self, rank: int) -> Line:
        return Line(
            rank=rank,
            player_id=self.player_id,
            name=self.name,
            games=self.games,
            hands=self.hands,
            wins=self.wins,
            deal_ins=self.deal_ins,
            average_place=round(float(self.rank_sum / self.games), 2) if self.games else None,
            win_rate=rate(self.wins, self.hands),
            deal_in_rate=rate(self.deal_ins, self.hands),
        )


def read_board_options(params: Mapping[str, str]) -> tuple[int | None, int]:
    """``min_hands`` (None: the default) and ``limit`` from a query string; Refusal names a wrong one."""
    problems = []
    values: list[int | None] = []
    for name, default, most in (("min_hands", None, MAX_HANDS), ("limit", LIMIT, MAX_LIMIT)):
        text = params.get(name, "")
        if not text:
            values.append(default)
        elif text.isascii() and text.isdigit() and len(text) <= len(str(most)) and int(text) <= most:
            values.append(int(text))
        else:
            problems.append(Problem(name, _("must be a whole number from 0 to %(most)s") % {"most": most}))
    if problems:
        raise Refusal(problems)
    return values[0], values[1] or LIMIT


def counted_rows(event: Event) -> QuerySet[GameStats]:
    """The rows of the games the standings count (scoring.services.standings_lines.counted_results: confirmed
    ones only if the event says so, a league's within its dates), a substitute's game left out as there; the
    boards and their CSV read the same rows."""
    counted = counted_results(event).filter(substitute=False, game=OuterRef("game"), player=OuterRef("player"))
    substitutes = Registration.objects.filter(event=event, substitute=True).values("player_id")  # never ranked
    return (
        GameStats.objects.filter(event=event, finished=True).filter(Exists(counted)).exclude(player_id__in=substitutes)
    )


def _sums(event: Event) -> list[_Sums]:
    rows = (
        counted_rows(event)
        .values("player_id", "player__name")
        .annotate(
            games=Count("id"), hands=Sum("hands"), wins=Sum("wins"), deal_ins=Sum("deal_ins"), rank_sum=Sum("rank")
        )
        .order_by("player__name", "player_id")
    )
    return [
        _Sums(
            player_id=r["player_id"],
            name=r["player__name"],
            games=r["games"],
            hands=r["hands"] or 0,
            wins=r["wins"] or 0,
            deal_ins=r["deal_ins"] or 0,
            rank_sum=Fraction(r["rank_sum"] or 0),
        )
        for r in rows
    ]


def default_min_hands(hands: Sequence[int]) -> int:
    """Half the median player's hands, rounded up; at least 1 once anyone has played."""
    return max(1, math.ceil(median_low(hands) / 2)) if hands else 0


def event_leaderboards(event: Event, *, min_hands: int | None = None, limit: int = LIMIT) -> Leaderboards:
    sums = _sums(event)
    hands = [s.hands for s in sums]
    minimum = default_min_hands(hands) if min_hands is None else min_hands
    eligible = [s for s in sums if s.hands >= minimum and s.hands > 0]
    return Leaderboards(
        players=len(sums),
        median_hands=median_low(hands) if hands else 0,
        min_hands=minimum,
        min_hands_given=min_hands is not None,
        most_wins=_board(sums, lambda s: -s.wins, limit),
        best_average_place=_board(eligible, lambda s: s.rank_sum / s.games, limit),
        fewest_deal_ins=_board(eligible, lambda s: Fraction(s.deal_ins, s.hands), limit),
    )


def _board(sums: Sequence[_Sums], key: Callable[[_Sums], Any], limit: int) -> list[Line]:
    """The best ``limit`` lines by ``key`` (lower is better), equal keys sharing a rank."""
    ordered = sorted(sums, key=lambda s: (key(s), s.name, s.player_id))
    lines: list[Line] = []
    for position, s in enumerate(ordered[:limit], start=1):
        shared = lines and key(ordered[position - 2]) == key(s)
        lines.append(s.line(lines[-1].rank if shared else position))
    return lines


def event_player_figures(event: Event) -> list[tuple[int, str, dict[str, Any]]]:
    """Every player's figures in the event (player id, name, figures), by name: the leaderboards' CSV."""
    rows = (
        counted_rows(event)
        .values("player_id", "player__name")
        .annotate(**aggregates())
        .order_by("player__name", "player_id")
    )
    return [(r["player_id"], r["player__name"], stats_figures(r)) for r in rows]


# The CSV's figures after the player: counts beside the rates they make (scoring.services.stats names them).
CSV_FIGURES = (
    "games",
    "online_games",
    "hands",
    "average_place",
    "wins",
    "win_rate",
    "tsumo_wins",
    "tsumo_share",
    "deal_ins",
    "deal_in_rate",
    "riichi",
    "riichi_rate",
    "riichi_wins",
    "riichi_win_rate",
    "average_win_points",
    "average_han",
    "average_deal_in",
    "draws",
    "tenpai",
    "tenpai_rate",
    "chombo",
    "yakuman",
    "average_score",
    "average_points",
    "busts",
)
CSV_MCR = (
    "wins",
    "win_rate",
    "self_draws",
    "self_draw_rate",
    "deal_ins",
    "deal_in_rate",
    "average_fan",
    "false_wins",
    "table_points",
)

# Every column's label in the reader's language, for the CSV downloaded from the leaderboards page (the keys
# stay the header of ``?header=keys``); ``place_{n}`` names the count of each place.
LABELS = {
    "player_id": pgettext_lazy("CSV column", "Player ID"),
    "player": pgettext_lazy("CSV column", "Player"),
    "games": pgettext_lazy("CSV column", "Games"),
    "online_games": pgettext_lazy("CSV column", "Online games"),
    "hands": pgettext_lazy("CSV column", "Hands"),
    "average_place": pgettext_lazy("CSV column", "Average place"),
    "wins": pgettext_lazy("CSV column", "Wins"),
    "win_rate": pgettext_lazy("CSV column", "Win rate"),
    "tsumo_wins": pgettext_lazy("CSV column", "Tsumo wins"),
    "tsumo_share": pgettext_lazy("CSV column", "Tsumo share of wins"),
    "deal_ins": pgettext_lazy("CSV column", "Deal-ins"),
    "deal_in_rate": pgettext_lazy("CSV column", "Deal-in rate"),
    "riichi": pgettext_lazy("CSV column", "Riichi"),
    "riichi_rate": pgettext_lazy("CSV column", "Riichi rate"),
    "riichi_wins": pgettext_lazy("CSV column", "Riichi wins"),
    "riichi_win_rate": pgettext_lazy("CSV column", "Riichi win rate"),
    "average_win_points": pgettext_lazy("CSV column", "Average win"),
    "average_han": pgettext_lazy("CSV column", "Average han"),
    "average_deal_in": pgettext_lazy("CSV column", "Average deal-in"),
    "draws": pgettext_lazy("CSV column", "Exhaustive draws"),
    "tenpai": pgettext_lazy("CSV column", "Tenpai at a draw"),
    "tenpai_rate": pgettext_lazy("CSV column", "Tenpai rate at a draw"),
    "chombo": pgettext_lazy("CSV column", "Chombo"),
    "yakuman": pgettext_lazy("CSV column", "Yakuman"),
    "average_score": pgettext_lazy("CSV column", "Average score"),
    "average_points": pgettext_lazy("CSV column", "Average points"),
    "busts": pgettext_lazy("CSV column", "Busts"),
    "place_{n}": pgettext_lazy("CSV column", "Placed %(n)s"),
    "mcr_wins": pgettext_lazy("CSV column", "MCR wins"),
    "mcr_win_rate": pgettext_lazy("CSV column", "MCR win rate"),
    "mcr_self_draws": pgettext_lazy("CSV column", "MCR self-draws"),
    "mcr_self_draw_rate": pgettext_lazy("CSV column", "MCR self-draw rate"),
    "mcr_deal_ins": pgettext_lazy("CSV column", "MCR deal-ins"),
    "mcr_deal_in_rate": pgettext_lazy("CSV column", "MCR deal-in rate"),
    "mcr_average_fan": pgettext_lazy("CSV column", "MCR average fan"),
    "mcr_false_wins": pgettext_lazy("CSV column", "MCR false wins"),
    "mcr_table_points": pgettext_lazy("CSV column", "MCR table points"),
}


def leaderboards_csv(event: Event, *, localised: bool = False) -> str:
    """One line per player of the event with every figure (and the count of each place), by name; ``localised``:
    the header in the active language (``LABELS``), for a reader."""
    figures = event_player_figures(event)
    places = max((len(f["placements"]) for _, _, f in figures), default=0)
    mcr = any(f["mcr"]["games"] for _, _, f in figures)
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(
        header(
            [
                "player_id",
                "player",
                *CSV_FIGURES,
                *(f"place_{p}" for p in range(1, places + 1)),
                *((f"mcr_{name}" for name in CSV_MCR) if mcr else ()),
            ],
            LABELS,
            localised,
        )
    )
    for player_id, name, f in figures:
        writer.writerow(
            inert(
                [
                    player_id,
                    name,
                    *(cell(f[k]) for k in CSV_FIGURES),
                    *(f["placements"].get(str(p), 0) for p in range(1, places + 1)),
                    *((cell(f["mcr"][k]) for k in CSV_MCR) if mcr else ()),
                ]
            )
        )
    return out.getvalue()
