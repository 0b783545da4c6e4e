"""The organiser's round: a preview that seats exactly what it showed, seating again before play, the clock,
ending by time in one tap, and table codes that let the players at a table enter their own hands."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from scoring.models import HandChange
from scoring.services.hands import game_record_hand
from scoring.services.table_codes import SESSION_KEY, table_code, table_code_writer
from tournament.models import Event, Game, Player, Registration

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("round_to_seat")]
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hana", "Ivy", "Jun", "Kai", "Lee"]


def text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def round_to_seat(event: Event) -> None:
    """Twelve players (NAMES) registered in the shared event, and its round 1, not seated yet."""
    for name in NAMES:
        Registration.objects.create(event=event, player=Player.objects.create(name=name))
    event.rounds.create(number=1)


def seated(event: Event) -> list[list[str]]:
    games = Game.objects.filter(table__round__event=event).order_by("table__number")
    return [[s.player.name for s in g.seats.order_by("position")] for g in games]


def test_the_preview_seats_exactly_the_tables_it_showed(org: Client, event: Event):
    response = org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "preview"})
    preview = response.context["preview"]["tables"]
    assert [n for n, _names in preview] == [1, 2, 3]
    assert sorted(name for _n, seats in preview for _wind, name in seats) == sorted(NAMES)
    assert [wind for wind, _name in preview[0][1]] == ["East", "South", "West", "North"]
    assert Game.objects.count() == 0  # a preview writes nothing
    seed = response.context["form"].initial["seed"]
    response = org.post("/events/spring/manage/rounds/1/", {"method": "random", "seed": seed, "action": "seat"})
    assert response.status_code == 302
    assert seated(event) == [[name for _wind, name in seats] for _n, seats in preview]


def test_a_round_is_seated_as_typed_and_every_bad_line_is_named(org: Client, event: Event):
    typed = "Ann, Bo, Cy, Dee\nEve; Fay; Gus; Hana\nIvy\tJun\tKai\tAnn\nNobody, Lee"
    response = org.post("/events/spring/manage/rounds/1/", {"method": "named", "tables": typed, "action": "seat"})
    page = text(response)
    assert "line 3: Ann is already at the table of line 1" in page
    assert "line 4: 'Nobody' is not a registered player" in page
    assert "line 4: 2 players, a table has 4" in page
    assert Game.objects.count() == 0
    typed = "Ann, Bo, Cy, Dee\nEve; Fay; Gus; Hana\nIvy\tJun\tKai\tLee"
    org.post("/events/spring/manage/rounds/1/", {"method": "named", "tables": typed, "action": "seat"})
    assert seated(event) == [NAMES[0:4], NAMES[4:8], NAMES[8:12]]


def test_a_round_is_seated_again_only_before_its_first_hand(org: Client, event: Event, organiser: User):
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    assert org.post("/events/spring/manage/rounds/1/unseat/").status_code == 302
    assert Game.objects.count() == 0
    assert not event.rounds.get().tables.exists()
    org.post("/events/spring/manage/rounds/1/", {"method": "swiss", "action": "seat"})
    game = Game.objects.order_by("table__number").first()
    assert game is not None
    game_record_hand(game_id=game.pk, record={"result": "draw", "tenpai": []}, user=organiser, version=None)
    response = org.post("/events/spring/manage/rounds/1/unseat/", follow=True)
    assert "cannot be seated again: 1 of its tables have hands entered" in text(response)
    assert Game.objects.count() == 3


def test_the_clock_starts_and_counts_down_on_the_round_pages(org: Client, event: Event):
    round_ = event.rounds.get()
    round_.starts_at, round_.time_limit_minutes = timezone.now() + timedelta(hours=2), 90
    round_.save()
    planned = Client().get("/events/spring/rounds/1/").content.decode()
    assert "Planned start:" in planned
    assert 'class="countdown"' not in planned
    before = timezone.now()
    org.post("/events/spring/manage/rounds/1/clock/", {"minutes": "75"})
    round_ = event.rounds.get()
    assert round_.starts_at is not None
    assert before <= round_.starts_at <= timezone.now()
    assert round_.time_limit_minutes == 75
    ends = round_.ends_at()
    assert ends is not None
    page = org.get("/events/spring/manage/rounds/1/").content.decode()
    shown = re.search(r'<time class="countdown"[^>]*\sdata-ends="([^"]+)"', page)
    assert shown is not None
    assert abs((datetime.fromisoformat(shown.group(1)) - ends).total_seconds()) < 1
    public = Client().get("/events/spring/rounds/1/").content.decode()  # the players' page counts down too
    assert 'class="countdown"' in public
    assert shown.group(1) in public
    refused = org.post("/events/spring/manage/rounds/1/clock/", {"minutes": "0"}, follow=True)
    assert "Minutes:" in text(refused)
    assert event.rounds.get().time_limit_minutes == 75


def test_end_by_time_one_table_or_the_whole_round(org: Client, event: Event, organiser: User):
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    first, second, third = Game.objects.order_by("table__number")
    for game in (first, second):
        game_record_hand(game_id=game.pk, record={"result": "draw", "tenpai": []}, user=organiser, version=None)
    response = org.post("/events/spring/manage/rounds/1/end/", {"game": str(first.pk)}, follow=True)
    assert "Table 1 ended by time after hand 1." in text(response)
    first.refresh_from_db()
    assert first.ended_by_time
    assert not any(g.ended_by_time for g in Game.objects.exclude(pk=first.pk))
    response = org.post("/events/spring/manage/rounds/1/end/", follow=True)
    assert "1 game ended by time after its last hand entered." in text(response)
    assert list(Game.objects.order_by("table__number").values_list("ended_by_time", flat=True)) == [True, True, False]
    # Each ending is in the game's history, by the organiser.
    assert HandChange.objects.filter(action=HandChange.Action.GAME, author="org").count() == 2
    # The table that has not started is told so on its own card, beside its actions.
    card = card_of(response, 3)
    assert "Not ended by time: no hand has been entered at this table" in card
    assert "Not ended by time" not in card_of(response, 2)
    assert third.results.filter(finished=True).count() == 0


def card_of(response: Any, table: int) -> str:
    """The text of one table's card on the console's round page."""
    cards = re.findall(
        r'<li class="table-card.*?</li>\n?(?=<li class="table-card|</ul>)', response.content.decode(), flags=re.S
    )
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cards[table - 1])))


def test_a_table_that_has_not_started_is_not_ended_by_time(org: Client, event: Event):
    round_ = event.rounds.get()
    round_.starts_at, round_.time_limit_minutes = timezone.now(), 90
    round_.save()
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    game = Game.objects.order_by("table__number")[0]
    page = org.get("/events/spring/manage/rounds/1/")
    assert "End by time" not in card_of(page, 1)  # nothing to end: no hand entered
    response = org.post("/events/spring/manage/rounds/1/end/", {"game": str(game.pk)}, follow=True)  # a stale page's
    assert "no hand has been entered: a game that has not started cannot be ended by time" in card_of(response, 1)
    game.refresh_from_db()
    assert (game.ended_by_time, game.status, game.version) == (False, Game.Status.PLAYING, 1)
    assert not HandChange.objects.filter(game=game).exists()
    ko = org.post("/events/spring/manage/rounds/1/end/", {"game": str(game.pk)}, follow=True, HTTP_ACCEPT_LANGUAGE="ko")
    assert "입력된 국이 없습니다: 시작하지 않은 대국은 시간으로 종료할 수 없습니다" in card_of(ko, 1)


def test_an_organiser_reopens_a_game_ended_by_time(org: Client, event: Event, organiser: User):
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    game = Game.objects.order_by("table__number")[0]
    game_record_hand(game_id=game.pk, record={"result": "draw", "tenpai": []}, user=organiser, version=None)
    org.post("/events/spring/manage/rounds/1/end/", {"game": str(game.pk)})
    assert "Reopen" in card_of(org.get("/events/spring/manage/rounds/1/"), 1)
    response = org.post("/events/spring/manage/rounds/1/reopen/", {"game": str(game.pk)}, follow=True)
    assert "Table 1's game is open again: its hands can be entered." in text(response)
    game.refresh_from_db()
    assert (game.ended_by_time, game.status) == (False, Game.Status.PLAYING)
    clock = HandChange.objects.filter(game=game, action=HandChange.Action.GAME).order_by("id")
    assert [(c.after, c.author) for c in clock] == [
        ({"end": "time", "substitutes": []}, "org"),
        ({"end": None, "substitutes": []}, "org"),
    ]
    again = org.post("/events/spring/manage/rounds/1/reopen/", {"game": str(game.pk)}, follow=True)
    assert "this game is not ended by time" in card_of(again, 1)
    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.post("/events/spring/manage/rounds/1/reopen/", {"game": str(game.pk)}).status_code in (403, 404)


def test_a_table_code_opens_the_entry_for_that_table_only_until_revoked(org: Client, event: Event):
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    org.post("/events/spring/manage/rounds/1/codes/")
    one, two = Game.objects.order_by("table__number")[:2]
    assert one.table is not None
    assert two.table is not None
    code = table_code(one.table)
    assert re.fullmatch(r"[A-Z2-7]{5}-[A-Z2-7]{5}", code)
    assert code != table_code(two.table)
    assert code in org.get("/events/spring/manage/rounds/1/cards/").content.decode()
    players = Client()
    assert players.post(f"/games/{one.pk}/code/", {"code": table_code(two.table)}).status_code == 400
    response = players.post(f"/games/{one.pk}/code/", {"code": code.lower().replace("-", " ")})
    assert response.status_code == 302
    assert response["Location"] == f"/games/{one.pk}/entry/"
    writer = table_code_writer(game=one, session=players.session)
    assert writer is not None
    assert writer.get_username() == "table 1's code"
    assert table_code_writer(game=two, session=players.session) is None
    org.post("/events/spring/manage/rounds/1/codes/", {"table": "1", "renew": "1"})
    one.refresh_from_db()
    assert one.table is not None
    assert table_code(one.table) != code
    assert table_code_writer(game=one, session=players.session) is None  # the old code's session is closed
    assert SESSION_KEY in players.session


def test_wrong_table_codes_are_limited_like_the_login(org: Client, event: Event):
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    org.post("/events/spring/manage/rounds/1/codes/")
    game = Game.objects.order_by("table__number").first()
    assert game is not None
    assert game.table is not None
    guesser = Client()
    for _ in range(settings.CODE_FAILURE_LIMIT):
        assert guesser.post(f"/games/{game.pk}/code/", {"code": "AAAAA-AAAAA"}).status_code == 400
    response = guesser.post(f"/games/{game.pk}/code/", {"code": "AAAAA-AAAAB"})
    assert response.status_code == 429
    assert "too many wrong codes" in html.unescape(response.content.decode())
    assert guesser.post(f"/games/{game.pk}/code/", {"code": table_code(game.table)}).status_code == 302


def test_a_substitute_takes_a_seat_before_the_first_hand(org: Client, event: Event, organiser: User):
    sub = Player.objects.create(name="Sub")
    Registration.objects.create(event=event, player=sub, substitute=True)
    org.post(
        "/events/spring/manage/rounds/1/",
        {"method": "named", "action": "seat", "tables": "Ann, Bo, Cy, Dee\nEve, Fay, Gus, Hana\nIvy, Jun, Kai, Lee"},
    )
    page = org.get("/events/spring/manage/rounds/1/")
    assert [name for _pid, name, _sub in page.context["available"]] == ["Sub"]
    game = Game.objects.get(table__number=1)
    response = org.post("/events/spring/manage/rounds/1/substitute/", {"game": game.pk, "seat": 2, "player": sub.pk})
    assert response.status_code == 302
    seats = [(s.player.name, s.substitute) for s in game.seats.order_by("position")]
    assert seats == [("Ann", False), ("Bo", False), ("Sub", True), ("Dee", False)]
    assert HandChange.objects.filter(game=game, action=HandChange.Action.GAME, author="org").exists()
    other = Game.objects.get(table__number=2)
    refused = org.post(
        "/events/spring/manage/rounds/1/substitute/", {"game": other.pk, "seat": 0, "player": sub.pk}, follow=True
    )
    assert "is already seated in this round" in text(refused)
    game_record_hand(game_id=other.pk, record={"result": "draw", "tenpai": []}, user=organiser, version=None)
    late = org.post(
        "/events/spring/manage/rounds/1/substitute/",
        {"game": other.pk, "seat": 0, "player": Player.objects.get(name="Ann").pk},
        follow=True,
    )
    assert "before the game's first hand" in text(late)
    assert other.seats.get(position=0).player.name == "Eve"


def test_the_players_enter_their_own_hands_with_the_table_code(org: Client, event: Event):
    org.post(
        "/events/spring/manage/rounds/1/",
        {"method": "named", "action": "seat", "tables": "Ann, Bo, Cy, Dee\nEve, Fay, Gus, Hana\nIvy, Jun, Kai, Lee"},
    )
    org.post("/events/spring/manage/rounds/1/codes/")
    game = Game.objects.get(table__number=3)
    assert game.table is not None
    cards = org.get("/events/spring/manage/rounds/1/cards/").content.decode()
    assert f"http://testserver/games/{game.pk}/code/" in cards
    assert "<svg" in cards
    players = Client()
    assert players.get(f"/games/{game.pk}/entry/")["Location"].startswith("/accounts/login/")
    players.post(f"/games/{game.pk}/code/", {"code": table_code(game.table)})
    assert players.get(f"/games/{game.pk}/entry/").status_code == 200
    # Ivy (East) deals; Jun's 1 han 30 fu ron on Kai is 1000 (wrc-2025).
    jun, kai = (Player.objects.get(name=n).pk for n in ("Jun", "Kai"))
    response = players.post(
        f"/games/{game.pk}/entry/",
        {"action": "save", "version": game.version, "result": "ron", "winner": jun, "loser": kai, "han": 1, "fu": 30},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    game.refresh_from_db()
    assert [h.record["winner"] for h in game.hands.all()] == [jun]
    entry = game.changes.get(action=HandChange.Action.ADD)
    assert entry.author == "table 3's code"
    assert entry.user is None
    other = Game.objects.get(table__number=1)
    assert players.get(f"/games/{other.pk}/entry/")["Location"].startswith("/accounts/login/")


def test_a_round_with_a_history_or_a_penalty_is_not_seated_again(org: Client, event: Event):
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    game = Game.objects.order_by("table__number")[0]
    sub = Player.objects.create(name="Sub")
    Registration.objects.create(event=event, player=sub)
    org.post("/events/spring/manage/rounds/1/substitute/", {"game": game.pk, "seat": 1, "player": sub.pk})
    response = org.post("/events/spring/manage/rounds/1/unseat/", follow=True)  # the game's history has the substitute
    assert "a table has a history" in text(response)
    assert Game.objects.count() == 3
    assert HandChange.objects.filter(game=game).count() == 1


def test_a_stranger_guessing_does_not_lock_the_table_out(org: Client, event: Event):
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    org.post("/events/spring/manage/rounds/1/codes/")
    game = Game.objects.order_by("table__number")[0]
    assert game.table is not None
    stranger = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(settings.CODE_FAILURE_LIMIT + 1):
        stranger.post(f"/games/{game.pk}/code/", {"code": "AAAAA-AAAAA"})
    assert stranger.post(f"/games/{game.pk}/code/", {"code": "AAAAA-AAAAB"}).status_code == 429
    table = Client(REMOTE_ADDR="198.51.100.4")
    assert table.post(f"/games/{game.pk}/code/", {"code": table_code(game.table)}).status_code == 302


def test_a_substitute_seat_keeps_who_sat_there_in_the_history(org: Client, event: Event):
    sub = Player.objects.create(name="Sub")
    Registration.objects.create(event=event, player=sub, substitute=True)
    org.post(
        "/events/spring/manage/rounds/1/",
        {"method": "named", "action": "seat", "tables": "Ann, Bo, Cy, Dee\nEve, Fay, Gus, Hana\nIvy, Jun, Kai, Lee"},
    )
    game = Game.objects.get(table__number=1)
    org.post("/events/spring/manage/rounds/1/substitute/", {"game": game.pk, "seat": 1, "player": sub.pk})
    entry = HandChange.objects.get(game=game)
    bo = Player.objects.get(name="Bo").pk
    assert entry.before == {"end": None, "substitutes": [], "seat": 1, "player": bo}
    assert entry.after == {"end": None, "substitutes": [sub.pk], "seat": 1, "player": sub.pk}
    assert {r.player_id for r in game.results.all()} == {s.player_id for s in game.seats.all()}


def test_a_finished_game_is_not_ended_by_time_again(org: Client, event: Event, organiser: User):
    org.post("/events/spring/manage/rounds/1/", {"method": "random", "action": "seat"})
    game = Game.objects.order_by("table__number")[0]
    game_record_hand(game_id=game.pk, record={"result": "draw", "tenpai": []}, user=organiser, version=None)
    org.post("/events/spring/manage/rounds/1/end/", {"game": str(game.pk)})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    response = org.post("/events/spring/manage/rounds/1/end/", {"game": str(game.pk)}, follow=True)
    assert "this game is already finished" in card_of(response, 1)
    assert HandChange.objects.filter(game=game, action=HandChange.Action.GAME).count() == 1
