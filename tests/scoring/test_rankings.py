"""Rankings across events, stored (scoring.services.rankings*, ratings): this server's finished events and
imported ones feed the EMA ranking; weekly snapshots follow their results; a rated event's rating follows its
games one by one."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from rules.errors import Refusal
from scoring.models import RankedEvent, RankedResult, RankingLine, RankingSnapshot, RatingChange
from scoring.services.events import event_update
from scoring.services.games import game_create, game_record_totals
from scoring.services.hands import game_put_sheet
from scoring.services.ranking_import import results_import
from scoring.services.ranking_read import parse_as_of, ranking_find, ranking_on
from scoring.services.rankings import mers_snapshot, ranking_version
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, RegistrationFactory, registered
from tournament.models import Event, Player

pytestmark = pytest.mark.django_db

# Four tables' end scores in the order of their seats (WRC 2025: 30,000 returned, uma 15/5/−5/−15).
TABLE_A = [48000, 32000, 25000, 15000]
TABLE_B = [50000, 30000, 24000, 16000]
COUNTRIES = ["DK", "DK", "NL", "FR", "DE", "IT", "ES", "DK"]


def players() -> list[Player]:
    return [Player.objects.create(name=f"P{n}", federation_id=f"0800000{n}", country=COUNTRIES[n]) for n in range(8)]


def finished_event(slug: str, day: date, seats: list[Player], capture: Any, **fields: Any) -> Event:
    """A two-table event played on ``day`` (seats in order: the first four at one table), finished."""
    event = EventFactory.create(slug=slug, name=slug.title(), starts_on=day, ends_on=day, mers="certified", **fields)
    for player in seats:
        RegistrationFactory.create(event=event, player=player)
    for table, scores in ((seats[:4], TABLE_A), (seats[4:], TABLE_B)):
        game_record_totals(
            event=event, player_ids=[p.pk for p in table], scores=scores, deposits_left=0, user=None, played_on=day
        )
    standings_recompute(event)
    with capture(execute=True):
        event_update(event=event, status=Event.Status.FINISHED)
    return event


def test_a_finished_event_feeds_the_ranking(django_capture_on_commit_callbacks: Any):
    """Eight players from 6 countries, one day: weight 1 + 0 + ½ = 1.5; the places are the final standings'
    (table B's 50,000 first: +35.0; table A's 48,000 second: +33.0)."""
    people = players()
    finished_event("winter-open", date(2025, 1, 11), people, django_capture_on_commit_callbacks)
    ranked = RankedEvent.objects.get()
    assert (ranked.ranking, ranked.players, ranked.countries, ranked.days) == ("ema", 8, 6, 1)
    places = dict(RankedResult.objects.values_list("federation_id", "place"))
    assert places == {
        "08000004": 1,
        "08000000": 2,
        "08000001": 3,
        "08000005": 4,
        "08000002": 5,
        "08000006": 6,
        "08000007": 7,
        "08000003": 8,
    }
    assert RankingSnapshot.objects.filter(key="ema").exists()  # rebuilt by the task after the commit


def test_two_events_make_a_ranking_that_explains_itself(django_capture_on_commit_callbacks: Any):
    """P4 wins the first (1000) and is 5th of 8 in the second (1000 × 3/7 = 429), weight 1.5 each:
    part A = 1.5 × (1000 + 429) / (1.5 + 1.5 + 3 missing) = 2143.5 / 6 = 357.25; part B = 2143.5 / (3 + 2 missing)
    = 428.70; the score (357.25 + 428.70) / 2 = 392.98."""
    people = players()
    finished_event("winter-open", date(2025, 1, 11), people, django_capture_on_commit_callbacks)
    seats = [people[0], people[1], people[4], people[3], people[2], people[5], people[6], people[7]]
    finished_event("spring-open", date(2025, 3, 8), seats, django_capture_on_commit_callbacks)  # P4: 25,000
    ranking = ranking_on(ranking_find("ema", None), date(2025, 3, 12))  # type: ignore[arg-type]
    assert ranking.week == date(2025, 3, 10)
    rows = {row.federation_id: row for row in ranking.rows()}
    p4 = rows["08000004"]
    assert [(r["place"], r["score"], r["weight"], r["time_factor"]) for r in p4.counted] == [
        (1, 1000, 1.5, 1.0),
        (5, 429, 1.5, 1.0),
    ]
    assert (p4.part_a, p4.part_b) == (Decimal("357.25"), Decimal("428.70"))
    assert p4.score == Decimal("392.98")
    assert [c["change"] for c in p4.changes] == ["entered"]  # the spring result came in this week
    assert p4.previous_rank is None  # one result the week before: not listed then
    assert [r.rank for r in ranking.rows()] == sorted(r.rank for r in ranking.rows())


def test_substitutes_count_among_the_players(django_capture_on_commit_callbacks: Any):
    """A substitute who played counts in N (up to 3), though not ranked: the last of 4 ranked scores 250."""
    event = EventFactory.create(slug="club", starts_on=date(2025, 1, 11), mers="certified")
    regular = registered(event, "A", "B", "C")
    for n, player in enumerate(regular):
        Player.objects.filter(pk=player.pk).update(federation_id=f"0900000{n}")
    sub = registered(event, "S", substitute=True)[0]
    game = game_create(
        event=event, player_ids=[p.pk for p in (*regular, sub)], substitutes=[sub.pk], played_on=date(2025, 1, 11)
    )
    game_put_sheet(
        game_id=game.pk, hands=[], user=None, version=None, ended_by_time=True, start={"scores": TABLE_A, "deposits": 0}
    )
    standings_recompute(event)
    with django_capture_on_commit_callbacks(execute=True):
        event_update(event=event, status=Event.Status.FINISHED)
    assert RankedEvent.objects.get().players == 4
    assert sorted(RankedResult.objects.values_list("place", flat=True)) == [1, 2, 3]


def test_an_event_not_counted_or_not_finished_is_not_in_the_ranking(django_capture_on_commit_callbacks: Any):
    people = players()
    event = finished_event("winter-open", date(2025, 1, 11), people, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        event_update(event=event, mers="")
    assert not RankedEvent.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        event_update(event=event, mers="championship", mers_weight=Decimal("4.5"))
    ranked = RankedEvent.objects.get()
    assert (ranked.championship, ranked.weight) == (True, Decimal("4.5"))


def test_a_player_given_an_ema_number_later_enters(django_capture_on_commit_callbacks: Any):
    people = players()
    Player.objects.filter(pk=people[0].pk).update(federation_id="")
    finished_event("winter-open", date(2025, 1, 11), people, django_capture_on_commit_callbacks)
    assert RankedResult.objects.count() == 7
    people[0].refresh_from_db()
    people[0].federation_id = "08000000"
    with django_capture_on_commit_callbacks(execute=True):
        people[0].save()
    assert RankedResult.objects.filter(federation_id="08000000", place=2).exists()


HEADER = "event_id,event_name,date,days,players,countries,weight,federation_id,name,country,place\n"


def test_an_import_is_checked_line_by_line_and_refused_whole():
    text = HEADER + (
        "X1,Open,2025-02-30,1,40,3,,01,Ann,DK,1\n"
        "X1,Open,2025-02-30,1,40,3,,01,Bo,DK,41\n"
        "X2,Other,2025-03-01,two,40,3,0.3,02,,NL,1\n"
        "X3,Third,2025-03-01,1,40,3\n"
    )
    with pytest.raises(Refusal) as refused:
        results_import(text)
    assert [str(p) for p in refused.value.problems] == [
        "line 2: date: must be a date written YYYY-MM-DD",
        "line 3: place: must be a whole number from 1 to 40 (the event's players)",
        "line 3: federation_id: 01 is already on line 2 of this event",
        "line 4: days: must be a whole number from 1 to 60",
        "line 4: weight: must be empty (computed) or the published weight, from 0.5 to 10",
        "line 4: name: is required",
        "line 5: must have the 11 columns of the first line",
    ]
    assert not RankedEvent.objects.exists()


def test_the_columns_are_exactly_those():
    with pytest.raises(Refusal, match="missing: place; not known: rank"):
        results_import(HEADER.replace("place", "rank") + "X1,Open,2025-02-01,1,40,3,,01,Ann,DK,1\n")


def test_an_import_feeds_the_ranking_and_a_second_replaces_it(django_capture_on_commit_callbacks: Any):
    """Imported weights: 2 days, 50 players, 7 countries → 2 + ½ + ½ = 3; the second event's published 2.5. Ann
    wins the first, is last of the second: A = 3 × 1000 / (5.5 + 3) = 352.94, B = 3000 / (5.5 + 2) = 400,
    376.47; Bo the other way round: 2500 / 8.5 = 294.12 and 2500 / 7.5 = 333.33, 313.73."""
    text = HEADER + (
        "E1,Open,2025-01-11,2,50,7,,01,Ann,DK,1\nE1,Open,2025-01-11,2,50,7,,02,Bo,NL,50\n"
        "E1,Open,2025-01-11,2,50,7,,,Guest,JP,2\n"
        "E2,Cup,2025-02-01,1,20,2,2.5,01,Ann,DK,20\nE2,Cup,2025-02-01,1,20,2,2.5,02,Bo,NL,1\n"
    )
    with django_capture_on_commit_callbacks(execute=True):
        done = results_import(text)
    assert (done.events, done.results, done.unranked, done.replaced) == (2, 4, 1, ())
    version = ranking_version("ema")
    rows = {r.federation_id: r for r in ranking_on(ranking_find("ema", None), date(2025, 2, 3)).rows()}  # type: ignore[arg-type]
    assert (rows["01"].score, rows["02"].score) == (Decimal("376.47"), Decimal("313.73"))
    assert [r["weight"] for r in rows["01"].counted] == [3.0, 2.5]
    with django_capture_on_commit_callbacks(execute=True):
        again = results_import(HEADER + "E2,Cup,2025-02-01,1,20,2,2.5,01,Ann,DK,1\n")
    assert again.replaced == ("E2",)
    assert ranking_version("ema") > version
    assert RankedResult.objects.filter(ranked_event__external_id="E2").count() == 1
    # The task rebuilt the current week's snapshot and dropped those of older versions.
    assert set(RankingSnapshot.objects.filter(key="ema").values_list("version", flat=True)) == {ranking_version("ema")}


def test_a_snapshot_is_rebuilt_when_its_results_moved_on():
    results_import(
        HEADER + "E1,Open,2025-01-11,1,10,1,,01,Ann,DK,1\nE1,Open,2025-01-11,1,10,1,,02,Bo,NL,2\n"
        "E2,Cup,2025-01-18,1,10,1,,01,Ann,DK,1\nE2,Cup,2025-01-18,1,10,1,,02,Bo,NL,2\n"
    )
    first = mers_snapshot("ema", date(2025, 2, 5))
    assert mers_snapshot("ema", date(2025, 2, 3)).pk == first.pk  # the same week
    results_import(HEADER + "E2,Cup,2025-01-18,1,10,1,,01,Ann,DK,2\nE2,Cup,2025-01-18,1,10,1,,02,Bo,NL,1\n")
    second = mers_snapshot("ema", date(2025, 2, 5))
    assert second.version == ranking_version("ema") > first.version
    assert list(RankingLine.objects.filter(snapshot=second).values_list("federation_id", "rank")) == [
        ("01", 1),
        ("02", 1),
    ]


@pytest.mark.parametrize(
    ("text", "field"),
    [("2025-13-01", "as_of"), ("yesterday", "as_of"), ("2004-12-31", "as_of"), ("2999-01-01", "as_of")],
)
def test_a_bad_date_is_refused_naming_the_field(text, field):
    with pytest.raises(Refusal) as refused:
        parse_as_of(text)
    assert [p.field for p in refused.value.problems] == [field]


def test_a_league_rating_follows_its_games_one_by_one(django_capture_on_commit_callbacks: Any):
    """Tenhou's R: four newcomers, 1st to 4th: +30/+10/−10/−30 (k = 1, the table at 1500); the second game's k is
    0.998 and the table's mean (1530 + 1510 + 1490 + 1470) / 4 = 1500."""
    league = EventFactory.create(slug="club-nights", kind="league", rating="tenhou")
    a, b, c, d = registered(league, "A", "B", "C", "D")
    with django_capture_on_commit_callbacks(execute=True):
        game_record_totals(
            event=league,
            player_ids=[a.pk, b.pk, c.pk, d.pk],
            scores=TABLE_A,
            deposits_left=0,
            user=None,
            played_on=date(2025, 5, 1),
        )
    assert dict(RatingChange.objects.values_list("player__name", "after")) == {
        "A": Decimal("1530.00"),
        "B": Decimal("1510.00"),
        "C": Decimal("1490.00"),
        "D": Decimal("1470.00"),
    }
    with django_capture_on_commit_callbacks(execute=True):
        game_record_totals(
            event=league,
            player_ids=[d.pk, c.pk, b.pk, a.pk],
            scores=TABLE_A,
            deposits_left=0,
            user=None,
            played_on=date(2025, 5, 8),
        )
    second = RatingChange.objects.get(player=a, sequence=2)
    assert (second.games, second.factor, second.reference) == (1, Decimal("0.998"), Decimal("1500.00"))
    assert second.after == Decimal("1499.31")  # 1530 + 0.998 × (−30 + (1500 − 1530) / 40)
    rows = ranking_on(ranking_find("club-nights", None), date(2025, 5, 8)).rows()  # type: ignore[arg-type]
    assert [(r.name, r.games, r.previous_rank) for r in rows][:2] == [("D", 2, 4), ("C", 2, 3)]
    assert [h["after"] for h in rows[0].history] == [Decimal("1470.00"), Decimal("1500.69")]


@pytest.mark.parametrize(
    ("ruleset", "rating", "slug", "message"),
    [
        ("wrc-2025", "elo", "league", "Elo is for two-player games"),
        ("two-player", "tenhou", "league", "Tenhou's rating is for tables of 3 or 4 players"),
        ("wrc-2025", "tenhou", "ema", "the address ema is the EMA ranking's"),
    ],
)
def test_a_rating_the_event_cannot_have_is_refused(ruleset, rating, slug, message):
    event = Event(name="X", slug=slug, ruleset_key=ruleset, rating=rating)
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert message in " ".join(refused.value.message_dict["rating"])


def test_the_commands(tmp_path: Any, capsys: Any):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text(
        HEADER + "E1,Open,2025-01-11,1,10,1,,01,Ann,DK,1\nE1,Open,2025-01-11,1,10,1,,02,Bo,NL,10\n"
        "E2,Cup,2025-01-18,1,10,1,,01,Ann,DK,4\nE2,Cup,2025-01-18,1,10,1,,02,Bo,NL,1\n",
        encoding="utf-8",
    )
    bad.write_text(HEADER + "E1,Open,2025-01-11,1,10,1,,01,Ann,DK,11\n", encoding="utf-8")
    call_command("import_results", str(good))
    assert "2 event(s), 4 ranked result(s) imported into ema" in capsys.readouterr().out
    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_results", str(bad))
    assert "line 2: place: must be a whole number from 1 to 10" in capsys.readouterr().err
    call_command("ranking", "ema", "--as-of", "2025-01-21", "--explain")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "EMA ranking (MERS), riichi (ema), week of 2025-01-20"
    assert out[1].split()[:4] == ["1", "new", "01", "Ann"]
    assert "2025-01-11 Open: 1 of 10 → 1000, weight 1 × time 1 [AB]" in out[2]
    with pytest.raises(CommandError, match="key: no ranking 'nope'"):
        call_command("ranking", "nope")
    with pytest.raises(CommandError, match="as_of"):
        call_command("ranking", "ema", "--as-of", "27/01/2025")


def test_deleting_a_counted_event_takes_it_out_of_the_ranking(django_capture_on_commit_callbacks: Any):
    event = finished_event("winter-open", date(2025, 1, 11), players(), django_capture_on_commit_callbacks)
    version = ranking_version("ema")
    with django_capture_on_commit_callbacks(execute=True):
        event.delete()
    assert not RankedEvent.objects.exists()
    assert ranking_version("ema") > version
    assert not RankingSnapshot.objects.exclude(version=ranking_version("ema")).exists()
