"""The demo event that `make run` loads: real games through the hand-entry service, idempotent."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from scoring.models import HandChange, StageStanding, Standing
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db


def test_demo_event_is_played_out_and_ranked():
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=StringIO())  # a second run changes nothing
    assert Event.objects.filter(slug="demo-open").count() == 1
    games = Game.objects.filter(event__slug="demo-open")
    # Rounds 1 and 2 played out; round 3 seated with its games waiting for the referees.
    assert sorted(g.status for g in games) == ["finished"] * 4 + ["playing"] * 2
    assert HandChange.objects.filter(game__in=games).count() == sum(g.hands.count() for g in games)
    standings = list(Standing.objects.filter(event__slug="demo-open"))
    assert [s.games for s in standings] == [2] * 8
    assert sum(s.points for s in standings) == 0  # uma and oka are zero-sum at 30000/30000
    assert [s.rank for s in standings] == sorted(s.rank for s in standings if s.rank is not None)
    assert "/events/demo-open/standings/" in out.getvalue()
    waiting = games.filter(status="playing").order_by("pk").first()
    assert waiting is not None
    assert f"/games/{waiting.pk}/entry/" in out.getvalue()


def test_admin_shows_games_with_their_hands(client):
    call_command("load_demo", stdout=StringIO())
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username="demo"))
    game = Game.objects.filter(event__slug="demo-open", status="finished").first()
    assert game is not None
    page = client.get(f"/admin/tournament/game/{game.pk}/change/")
    assert page.status_code == 200
    assert game.hands.first().record["result"].encode() in page.content  # type: ignore[union-attr]
    for url in ("/admin/tournament/event/", "/admin/tournament/round/", "/admin/scoring/standing/"):
        assert client.get(url).status_code == 200, url


def test_the_demo_cup_is_in_two_stages_with_its_final_seated_by_rank():
    call_command("load_demo", stdout=StringIO())
    cup = Event.objects.get(slug="demo-cup")
    lines = list(Standing.objects.filter(event=cup).order_by("rank"))
    # The four finalists rank above everyone cut, each carrying half of their qualifying points.
    assert [line.stage for line in lines] == [2] * 4 + [1] * 4
    qualifying = {s.player_id: s.points for s in StageStanding.objects.filter(event=cup, stage=1)}
    assert all(
        line.carried == (qualifying[line.player_id] / 2).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        for line in lines[:4]
    )
    final = Game.objects.get(event=cup, table__round__stage=2)
    assert list(final.seats.values_list("player_id", flat=True)) == [line.player_id for line in lines[:4]]


def test_the_demo_prints_the_console_the_table_code_and_the_referee_link_and_they_work(client):
    """`make run` prints where an organiser starts: the console, the round's page with its table codes, a
    table's code page and the code its players type, and the referees' link; each one opens."""
    out = StringIO()
    call_command("load_demo", stdout=out)
    printed = out.getvalue()
    call_command("load_demo", stdout=StringIO())
    assert out.getvalue() == printed  # a second run prints (and issues) nothing new
    event = Event.objects.get(slug="demo-open")
    waiting = Game.objects.filter(event=event, status="playing").select_related("table").order_by("pk").first()
    assert waiting is not None
    assert waiting.table is not None
    from django.contrib.auth.models import User

    from scoring.services.table_codes import table_code

    code = table_code(waiting.table)
    assert "/events/demo-open/manage/  (login demo / demo" in printed
    assert f"/games/{waiting.pk}/code/  (table 1's players, no account: {code})" in printed
    assert f"/events/demo-open/referee/{event.referee_invite}/" in printed
    opened = client.post(f"/games/{waiting.pk}/code/", {"code": code})
    assert opened.status_code == 302
    assert opened["Location"] == f"/games/{waiting.pk}/entry/"
    client.force_login(User.objects.get(username="demo"))
    for url in (
        "/events/demo-open/manage/",
        "/events/demo-open/manage/rounds/3/",
        f"/events/demo-open/referee/{event.referee_invite}/",
    ):
        page = client.get(url)
        assert page.status_code == 200, url
    assert code.encode() in client.get("/events/demo-open/manage/rounds/3/").content
