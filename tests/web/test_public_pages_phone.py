"""The public pages as a phone reads them (issue 13): hands as cards, a game's current hand on the round page,
games reached by large links, the printed sheet's QR code of the entry page, the favicon."""

from __future__ import annotations

import re
from typing import Any

import pytest
import segno
from django.contrib.staticfiles import finders
from django.test import Client

from scoring.services.hands import game_record_hand
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Player

# The shared event (wrc-2025: 30000 / 30000, uma 15/5/-5/-15), its four players, round 1 seated at one table.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("players", "table")]


def players(event: Event) -> list[Player]:
    return list(Player.objects.filter(registrations__event=event).order_by("name"))


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def part(html: str, start: str, end: str) -> str:
    """The page between two markers: what one block of it says."""
    return html[html.index(start) : html.index(end, html.index(start))]


def page(path: str, **headers: Any) -> str:
    response = Client().get(path, **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_each_hand_is_a_card_with_every_players_signed_change(event: Event):
    ann, bo, cy, _di = players(event)
    game = played(
        event,
        players(event),
        [
            {"result": "ron", "winner": ann.pk, "loser": cy.pk, "han": 3, "fu": 40, "riichi": [ann.pk]},
            {"result": "draw", "tenpai": [bo.pk]},
        ],
        table=event.rounds.get().tables.get(),
        end=True,
    )
    html = page(f"/games/{game.pk}/")
    cards = part(html, '<ol class="hand-cards', "</ol>")
    # Ann deals and wins 3 han 40 fu from Cy: 7700 (a dealer's ron), her own riichi stick back. The dealer won: the
    # same hand again with one honba; then only Bo is tenpai: 3000 from the three others, and Ann passes the deal.
    assert text(cards) == (
        "1. East 1 · Ann deals Ron on Cy: Ann 3 han 40 fu; riichi: Ann "
        "Ann +7700 37700 Bo 0 30000 Cy -7700 22300 Di 0 30000 "
        "2. East 1 · Ann deals · honba 1 Draw, tenpai: Bo "
        "Ann -1000 36700 Bo +3000 33000 Cy -1000 21300 Di -1000 29000"
    )
    # Each card is the anchor a hand is linked by (a player's yakuman on the career page).
    assert re.findall(r'<li id="(hand-\d+)">', cards) == ["hand-1", "hand-2"]
    final = text(part(html, '<table class="final">', "</table>"))
    # Each player's row carries what makes up the points: 36700 -> +6.7 + 15 uma = +21.7, and so on.
    assert (
        "1 Ann Uma +15.0 36700 15.0 0.0 0.0 +21.7 2 Bo Uma +5.0 33000 5.0 0.0 0.0 +8.0 "
        "3 Di Uma -5.0 29000 -5.0 0.0 0.0 -6.0 4 Cy Uma -15.0 21300 -15.0 0.0 0.0 -23.7"
    ) in final
    assert 'class="scroll for-wide"><table class="hands">' in html  # the laptop keeps its table


def test_a_game_without_hands_shows_its_players_not_a_result(event: Event):
    game = played(event, players(event), table=event.rounds.get().tables.get())
    html = text(page(f"/games/{game.pk}/"))
    assert "not started · next: East 1, Ann deals, honba 0" in html  # as the round page says it
    assert "No hands yet. Players Ann Bo Cy Di" in html
    assert "30000" not in html
    assert "Standing so far" not in html


def test_the_round_page_shows_a_playing_games_current_hand_and_scores(event: Event):
    ann, bo, _cy, _di = players(event)
    game = played(event, players(event), table=event.rounds.get().tables.get())
    # Through the one write path, as a referee enters them. Ann deals, declares riichi and is the only one tenpai:
    # 1000 from each (noten total 3000) less her stick: 32000, the others 29000; she keeps the deal, honba 1, the
    # stick stays on the table. Then nobody is tenpai: the deal passes to Bo, honba 2 (+1 after any draw).
    game_record_hand(
        game_id=game.pk, user=None, version=None, record={"result": "draw", "tenpai": [ann.pk], "riichi": [ann.pk]}
    )
    game_record_hand(game_id=game.pk, user=None, version=None, record={"result": "draw", "tenpai": []})
    html = page("/events/spring/rounds/1/")
    card = part(html, '<section class="table-card', "</section>")
    assert re.search(
        rf'<a class="game-link" href="/games/{game.pk}/">\s*<h2>Table 1\s*<span\s+class="status playing">'
        r"playing</span>\s*</h2>",
        card,
    )  # the whole head of the card is the game's link
    assert "East 2 · Bo deals · honba 2 · 1 stick" in text(card)
    assert re.findall(r'<td class="num">(\d*)</td>', card) == ["32000", "", "29000", "", "29000", "", "29000", ""]
    assert bo.name in card


def test_a_finished_table_shows_its_points_and_no_current_hand(event: Event):
    ann, _bo, cy, _di = players(event)
    played(
        event,
        players(event),
        [{"result": "ron", "winner": ann.pk, "loser": cy.pk, "han": 3, "fu": 40}],
        table=event.rounds.get().tables.get(),
        end=True,
    )
    standings_recompute(event)
    card = text(part(page("/events/spring/rounds/1/"), '<section class="table-card', "</section>"))
    assert "deals" not in card
    assert "East Ann 37700 22.7" in card  # 37700: +7.7 and 15 uma


def test_the_event_page_links_each_game_by_its_whole_card(event: Event):
    ann = players(event)[0]
    # A league game at no table, under way: Ann deals, declares riichi and alone is tenpai: she keeps the deal with
    # one honba, her stick on the table.
    game = played(event, players(event), [{"result": "draw", "tenpai": [ann.pk], "riichi": [ann.pk]}])
    html = page("/events/spring/")
    assert re.search(
        rf'<li><a href="/games/{game.pk}/"><strong>Game {game.pk}</strong>\s+<span class="muted">'
        r"[\d-]+\s+·\s+playing\s+·\s+<strong>East 1</strong>\s+·\s+honba 1\s+·\s+1 stick</span></a></li>",
        html,
    )
    assert '<li><a href="/events/spring/rounds/1/"><strong>Round 1</strong>' in html
    assert 'class="cards card-links"' in page("/")


def test_the_printed_sheet_has_a_riichi_column_and_the_entry_pages_qr_code(event: Event, settings: Any):
    settings.ALLOWED_HOSTS = ["club.example"]
    game = played(event, players(event), table=event.rounds.get().tables.get())
    html = page("/events/spring/rounds/1/print/", HTTP_HOST="club.example")
    url = f"http://club.example/games/{game.pk}/entry/"  # absolute, from the request: a phone reads it off paper
    head = text(part(html, '<table class="blank">', "</thead>"))
    assert head == "# Round Honba Result Riichi East Ann South Bo West Cy North Di"
    qr = segno.make_qr(url, error="m")
    assert qr.svg_inline(omitsize=True, svgclass="qr", border=2) in html  # the code segno makes of that URL
    assert qr.symbol_size(border=0)[0] <= 29  # a small code (version 3 at most): read from 3 cm
    assert f'<span class="url">{url}</span>' in html
    assert html.count('class="qr"') == 2  # the figure and its SVG: one code for the one table


def test_every_page_has_the_favicon(event: Event):
    assert '<link rel="icon" href="/static/site/favicon.svg" type="image/svg+xml">' in page("/events/spring/")
    path = finders.find("site/favicon.svg")
    assert isinstance(path, str)
    with open(path, encoding="utf-8") as icon:
        assert icon.read().startswith("<svg")


def test_a_mcr_events_minimum_is_counted_in_fan(event: Event):
    mcr = EventFactory.create(slug="mcr", ruleset_key="mcr", status=Event.Status.RUNNING)
    assert "Minimum 8 fan" in text(page(f"/events/{mcr.slug}/"))


def test_a_mcr_hand_card_counts_one_flower_and_no_sticks():
    event = EventFactory.create(slug="mcr-cards", ruleset_key="mcr", status=Event.Status.RUNNING)
    people = registered(event, "Ann", "Bo", "Cy", "Di")
    # MCR: a self-drawn 8 fan with 1 flower is 9: each of the three others pays 8 + 9 = 17.
    game = played(event, people, [{"result": "tsumo", "winner": people[0].pk, "fan": 8, "flowers": 1}])
    cards = text(part(page(f"/games/{game.pk}/"), '<ol class="hand-cards', "</ol>"))
    assert cards == "1. East 1 · Ann deals Tsumo: Ann 8 fan + 1 flower Ann +51 51 Bo -17 -17 Cy -17 -17 Di -17 -17"
