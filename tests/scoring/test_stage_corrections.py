"""What a change to the first stage's results does to a cut already confirmed: the final ranking counts every
stage's games, and a penalty on the event that changes who went on to a seated stage is refused unless an
organiser confirms it (then the cut is kept and the decision sealed)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from scoring.models import EventChange, Penalty, Standing
from scoring.services.games import game_record_totals, round_seat
from scoring.services.hands import game_put_sheet
from scoring.services.penalties import penalty_save
from scoring.services.stage_checks import cut_change_confirmed
from scoring.services.stages import cut_confirm, stage_add
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, registered
from tournament.errors import Conflict
from tournament.models import Event, Player, Stage
from tournament.services.events import round_add
from tournament.services.seating import Method

pytestmark = pytest.mark.django_db

# WRC 2025 (30,000 returned, uma +15/+5/-5/-15): P0 +33.0, P1 +7.0, P2 -10.0, P3 -30.0; P4 +35.0, P5 +5.0,
# P6 -11.0, P7 -29.0. The top 4 (P4, P0, P1, P5) go on; P2 is first below the line, 15.0 behind P5.
SCORES = ([48000, 32000, 25000, 15000], [50000, 30000, 24000, 16000])


def in_the_final() -> tuple[Event, User, list[Player]]:
    organiser = User.objects.create_user("org")
    event = EventFactory.create(organisers=[organiser])
    players = registered(event, *[f"P{i}" for i in range(8)])
    for table, scores in zip((players[:4], players[4:]), SCORES, strict=True):
        game_record_totals(
            event=event, player_ids=[p.pk for p in table], scores=scores, deposits_left=0, user=organiser
        )
    stage = stage_add(event=event, data={"name": "Final", "entry_top": 4, "carry": "half"}, user=organiser)
    cut_confirm(stage=stage, through=None, user=organiser)
    round_add(event=event, stage=2)
    round_seat(event=event, number=1, method=Method.RANK)
    return event, organiser, players


def test_the_final_ranking_counts_every_stages_games() -> None:
    """The final (seated by rank: P4 East, P0, P1, P5) ends 40,000 / 30,000 / 30,000 / 20,000: P4 +25.0, P0 and
    P1 share 2nd and 3rd (uma (+5 - 5) / 2 = 0: 0.0 each), P5 -25.0. With half of the qualifying carried: P4
    17.5 + 25 = 42.5, P0 16.5, P1 3.5, P5 2.5 - 25 = -22.5; P2 ranks 5th, first of those cut."""
    event, _, _ = in_the_final()
    final = event.games.get(table__isnull=False)
    assert list(final.seats.values_list("player__name", flat=True)) == ["P4", "P0", "P1", "P5"]
    game_put_sheet(
        game_id=final.pk,
        hands=[],
        user=None,
        version=None,
        ended_by_time=True,
        start={"scores": [40000, 30000, 30000, 20000]},
    )
    standings_recompute(event)
    rows = {
        s.player.name: (s.rank, s.stage, s.games, float(s.carried), float(s.points), float(s.average_rank or 0))
        for s in Standing.objects.filter(event=event)
    }
    # The average placement counts both stages' games: P0 was 1st, then shared 2nd and 3rd (2.5): 1.75.
    assert [rows[name] for name in ("P4", "P0", "P1", "P5", "P2")] == [
        (1, 2, 2, 17.5, 42.5, 1.0),
        (2, 2, 2, 16.5, 16.5, 1.75),
        (3, 2, 2, 3.5, 3.5, 2.25),
        (4, 2, 2, 2.5, -22.5, 3.0),
        (5, 1, 1, 0.0, -10.0, 3.0),
    ]


def test_an_event_penalty_that_changes_a_played_cut_needs_an_organisers_word() -> None:
    event, organiser, players = in_the_final()
    late = Penalty(event=event, player=players[5], points=Decimal(-20), reason="late")  # P5 falls below P2
    with pytest.raises(Conflict, match="changes who went on to stage 2"):
        penalty_save(penalty=late, user=organiser)
    assert not Penalty.objects.filter(event=event).exists()
    with cut_change_confirmed():
        penalty_save(penalty=late, user=organiser)
    assert Penalty.objects.filter(event=event).count() == 1
    assert Stage.objects.get(event=event, number=2).through == [players[i].pk for i in (4, 0, 1, 5)]
    kept = EventChange.objects.filter(event=event, action="cut_kept").get()
    assert kept.after == {"stage": 2, "through": [players[i].pk for i in (4, 0, 1, 5)], "game": None}


def test_a_penalty_that_leaves_the_cut_as_it_was_needs_nothing() -> None:
    event, organiser, players = in_the_final()
    penalty_save(penalty=Penalty(event=event, player=players[5], points=Decimal(-5), reason="late"), user=organiser)
    assert not EventChange.objects.filter(event=event, action="cut_kept").exists()


def test_a_correction_that_changes_an_unseated_cut_undoes_it_and_every_cut_after_it() -> None:
    """Stage 2 (top 4, half) and stage 3 (top 2 of stage 2, on what was carried) are entered, neither seated. A
    -20 penalty puts P5 (+5.0) below P2 (-10.0): stage 2's entrants change, so both cuts go, the last first."""
    organiser = User.objects.create_user("org")
    event = EventFactory.create(organisers=[organiser])
    players = registered(event, *[f"P{i}" for i in range(8)])
    for table, scores in zip((players[:4], players[4:]), SCORES, strict=True):
        game_record_totals(
            event=event, player_ids=[p.pk for p in table], scores=scores, deposits_left=0, user=organiser
        )
    for name, top in (("Semi-final", 4), ("Final", 2)):
        cut_confirm(
            stage=stage_add(event=event, data={"name": name, "entry_top": top, "carry": "half"}, user=organiser),
            through=None,
            user=organiser,
        )
    penalty_save(penalty=Penalty(event=event, player=players[5], points=Decimal(-20), reason="late"), user=organiser)
    assert list(Stage.objects.filter(event=event).order_by("number").values_list("through", flat=True)) == [None, None]
    undone = EventChange.objects.filter(event=event, action="cut", after__isnull=True).order_by("id")
    assert [(entry.before or {}).get("stage") for entry in undone] == [3, 2]
