"""A 12-player event played through two qualifying rounds, with a tie at the line of a top-4 final.

WRC 2025 (30,000 returned, uma +15/+5/-5/-15, no tiebreaks set): points = (score - 30,000) / 1,000 + uma.
Round 1  table 1 Ann Bo Cy Dee      45,000 32,000 25,000 18,000  +30.0  +7.0 -10.0 -27.0
         table 2 Eve Fay Gus Hana   45,000 32,000 25,000 18,000  +30.0  +7.0 -10.0 -27.0
         table 3 Ivy Jun Kai Lee    38,000 34,000 26,000 22,000  +23.0  +9.0  -9.0 -23.0
Round 2  table 1 Ann Bo Ivy Lee     40,000 38,000 25,000 17,000  +25.0 +13.0 -10.0 -28.0
         table 2 Eve Fay Jun Kai    40,000 38,000 25,000 17,000  +25.0 +13.0 -10.0 -28.0
         table 3 Cy Dee Gus Hana    45,000 35,000 25,000 15,000  +30.0 +10.0 -10.0 -30.0
Totals: Ann and Eve +55.0 (=1st), Bo, Cy and Fay +20.0 (=3rd), Ivy +13.0 (6th), Jun -1.0, Dee -17.0, Gus -20.0,
Kai -37.0, Lee -51.0, Hana -57.0. A final of the top 4 takes Ann and Eve, and two of Bo, Cy and Fay: three tied
at the line for two places. Carrying half: Ann and Eve bring +27.5, the chosen two +10.0.
"""

from __future__ import annotations

from typing import Any

from scoring.services.games import round_seat, round_seat_named
from scoring.services.hands import game_put_sheet
from scoring.services.stages import cut_confirm, stage_add
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, registered
from tournament.models import Event, Game, Player, Stage
from tournament.services.events import round_add
from tournament.services.seating import Method

NAMES = ("Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hana", "Ivy", "Jun", "Kai", "Lee")
ROUNDS = (
    (
        ("Ann Bo Cy Dee", (45000, 32000, 25000, 18000)),
        ("Eve Fay Gus Hana", (45000, 32000, 25000, 18000)),
        ("Ivy Jun Kai Lee", (38000, 34000, 26000, 22000)),
    ),
    (
        ("Ann Bo Ivy Lee", (40000, 38000, 25000, 17000)),
        ("Eve Fay Jun Kai", (40000, 38000, 25000, 17000)),
        ("Cy Dee Gus Hana", (45000, 35000, 25000, 15000)),
    ),
)


def play_round(event: Event, tables: Any, *, stage: int | None = None) -> list[Game]:
    """A round seated as ``tables`` names it (East first), each game ended by time at its end scores."""
    round_ = round_add(event=event, stage=stage)
    games = round_seat_named(
        event=event, number=round_.number, text="\n".join(", ".join(names.split()) for names, _ in tables)
    )
    return [
        game_put_sheet(
            game_id=game.pk, hands=[], user=None, version=None, ended_by_time=True, start={"scores": list(scores)}
        )
        for game, (_, scores) in zip(games, tables, strict=True)
    ]


def qualified(
    organiser: Any, *, slug: str = "spring-cup", name: str = "Spring Cup", public: bool = True, played: int = 2
) -> tuple[Event, dict[str, Player]]:
    """The event after ``played`` rounds of qualifying (standings recomputed), before any later stage."""
    event = EventFactory.create(
        slug=slug, name=name, public=public, organisers=[organiser], status=Event.Status.RUNNING
    )
    players = dict(zip(NAMES, registered(event, *NAMES), strict=True))
    for tables in ROUNDS[:played]:
        play_round(event, tables)
    standings_recompute(event)
    return event, players


def with_final(organiser: Any, **options: Any) -> tuple[Event, dict[str, Player], Stage]:
    """The qualified event with a final of the top 4 carrying half, seated by rank (its cut not confirmed)."""
    event, players = qualified(organiser, **options)
    Stage.objects.create(event=event, number=1, name="Qualifying")
    final = stage_add(
        event=event,
        data={"name": "Final", "entry_top": 4, "carry": "half", "seating": "rank", "rounds_planned": 1},
        user=organiser,
    )
    return event, players, final


def final_played(organiser: Any, **options: Any) -> tuple[Event, dict[str, Player], Stage]:
    """The final entered by Ann, Eve, Bo and Fay (Cy not chosen at the line) and played at one table seated by
    rank, ended at 38,000 / 33,000 / 28,000 / 21,000: Ann +23.0, Eve +8.0, Bo -7.0, Fay -24.0. With what they
    carried: Ann +50.5, Eve +35.5, Bo +3.0, Fay -14.0."""
    event, players, final = with_final(organiser, **options)
    cut_confirm(stage=final, through=[players[n].pk for n in ("Ann", "Eve", "Bo", "Fay")], user=organiser)
    round_ = round_add(event=event, stage=2)
    for game in round_seat(event=event, number=round_.number, method=Method.RANK):
        game_put_sheet(
            game_id=game.pk,
            hands=[],
            user=None,
            version=None,
            ended_by_time=True,
            start={"scores": [38000, 33000, 28000, 21000]},
        )
    standings_recompute(event)
    return event, players, final
