"""Issue 21: statistics on real games. The 53 Tenhou games of the player いばらぎ among the fixtures (fastmaj's
logs, 2014-2019, most in the tonpuusen lobby) imported through the log importer, and her figures compared with
what the mjlog XML itself records, counted here tag by tag without the importer or the rules:

- a hand is an ``INIT``; a win an ``AGARI`` (a double ron is two), a tsumo one with ``who == fromWho``;
- a deal-in a hand with an ``AGARI`` whose ``fromWho`` is her and ``who`` someone else;
- a riichi a ``REACH step="2"`` (the stick paid); an exhaustive draw a ``RYUUKYOKU`` with no ``type`` or
  ``type="nm"`` (nagashi mangan), tenpai there when it shows her hand (``hai<seat>``);
- a win's points the second value of ``ten`` (Tenhou's hand value, honba and sticks apart), its han the sum of
  ``yaku``'s han, a yakuman a ``ten`` limit of 5;
- the place and points from ``owari`` (ties by seat order, Tenhou's rule).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.contrib.auth.models import AnonymousUser

from scoring.models import GameStats
from scoring.services.online import Outcome, log_import
from scoring.services.stats import StatsFilter, player_stats
from tests.factories import EventFactory
from tournament.models import Player

pytestmark = pytest.mark.django_db
TENHOU = Path(__file__).parents[1] / "fixtures" / "online" / "tenhou"
NAME = "いばらぎ"
TAG = re.compile(r"<(INIT|REACH|AGARI|RYUUKYOKU|UN)\b([^>]*)>")
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


@dataclass
class Counted:
    games: int = 0
    hands: int = 0
    wins: int = 0
    tsumo_wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    riichi_wins: int = 0
    draws: int = 0
    tenpai: int = 0
    win_points: int = 0
    han: int = 0
    han_wins: int = 0
    deal_in_points: int = 0
    yakuman: int = 0
    points: Decimal = Decimal(0)
    places: dict[int, int] = field(default_factory=dict)


def her_games() -> list[Path]:
    return sorted(p for p in TENHOU.glob("*.xml") if NAME in unquote(p.read_text(encoding="utf-8")))


def count_log(text: str, into: Counted) -> None:
    """Her numbers in one log, read from its tags alone."""
    seat, riichi, dealt_in = -1, False, False
    for tag, raw in TAG.findall(text):
        attrs = dict(ATTRIBUTE.findall(raw))
        if tag == "UN" and seat < 0:
            seat = [unquote(attrs.get(f"n{i}", "")) for i in range(4)].index(NAME)
        elif tag == "INIT":
            into.hands += 1
            riichi = dealt_in = False
        elif tag == "REACH" and attrs.get("step") == "2" and int(attrs["who"]) == seat:
            into.riichi += 1
            riichi = True
        elif tag == "AGARI":
            who, source, ten = int(attrs["who"]), int(attrs["fromWho"]), [int(v) for v in attrs["ten"].split(",")]
            assert "paoWho" not in attrs  # none in her games: a liable player would share the discarder's payment
            if who == seat:
                into.wins += 1
                into.tsumo_wins += source == seat
                into.riichi_wins += riichi
                into.win_points += ten[1]
                if ten[2] == 5:
                    into.yakuman += 1
                else:
                    into.han += sum(int(v) for v in attrs["yaku"].split(",")[1::2])
                    into.han_wins += 1
            elif source == seat:
                into.deal_in_points += ten[1]
                into.deal_ins += not dealt_in
                dealt_in = True
        elif tag == "RYUUKYOKU" and attrs.get("type", "nm") == "nm":
            into.draws += 1
            into.tenpai += f"hai{seat}" in attrs
        owari = attrs.get("owari") if tag in ("AGARI", "RYUUKYOKU") else None
        if owari:
            values = owari.split(",")
            scores = [int(v) for v in values[0:8:2]]
            place = 1 + sum(1 for s in range(4) if (-scores[s], s) < (-scores[seat], seat))
            into.places[place] = into.places.get(place, 0) + 1
            into.points += Decimal(values[2 * seat + 1])
            into.games += 1


@pytest.fixture
def imported() -> list[Path]:
    event = EventFactory.create(slug="ibaragi", ruleset_key="tenhou")
    games = her_games()
    for path in games:
        outcome = log_import(event=event, source=path.name, data=path.read_bytes(), create_players=True).outcome
        assert outcome == Outcome.IMPORTED, path.name
    return games


def test_her_figures_are_what_her_logs_record(imported: list[Path]):
    assert len(imported) == 53
    expected = Counted()
    for path in imported:
        count_log(path.read_text(encoding="utf-8"), expected)
    player = Player.objects.get(online_name=NAME)
    figures = player_stats(player, AnonymousUser(), StatsFilter())
    got = {
        name: figures[name]
        for name in (
            "games",
            "hands",
            "wins",
            "tsumo_wins",
            "deal_ins",
            "riichi",
            "riichi_wins",
            "draws",
            "tenpai",
            "win_points",
            "han",
            "han_wins",
            "deal_in_points",
            "yakuman",
        )
    }
    assert got == {name: getattr(expected, name) for name in got}
    assert figures["online_games"] == 53
    assert figures["placements"] == {str(p): expected.places.get(p, 0) for p in range(1, 5)}
    assert Decimal(str(figures["points"])) == expected.points
    assert figures["win_rate"] == round(expected.wins / expected.hands, 4)
    assert figures["deal_in_rate"] == round(expected.deal_ins / expected.hands, 4)
    assert figures["average_win_points"] == round(expected.win_points / expected.wins)
    assert len(figures["yakuman_hands"]) == expected.yakuman


def test_each_game_of_hers_is_counted_as_its_log_records(imported: list[Path]):
    rows = {row.game.log_id: row for row in GameStats.objects.filter(player__online_name=NAME).select_related("game")}
    for path in imported:
        expected = Counted()
        count_log(path.read_text(encoding="utf-8"), expected)
        row = rows[path.stem.removeprefix("fastmaj-")]
        assert (row.hands, row.wins, row.deal_ins, row.riichi, row.tenpai, row.win_points, row.place) == (
            expected.hands,
            expected.wins,
            expected.deal_ins,
            expected.riichi,
            expected.tenpai,
            expected.win_points,
            next(iter(expected.places)),
        ), path.name
