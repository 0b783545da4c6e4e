"""The bulk import of online logs (``logs_import``): the same rows the one write path leaves, in at most 15 queries
a game, every refusal named and nothing of a refused log kept."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.logs.read import read_log
from scoring.models import GameResult, GameStats, Hand, HandChange, Standing
from scoring.services import chain
from scoring.services.games import game_create
from scoring.services.hands import game_put_log
from scoring.services.online import Outcome, logs_import
from scoring.services.standings import standings_recompute
from scoring.sheet.record import map_players
from tests.factories import registered
from tournament.models import Event, Game, Player, Registration
from tournament.services.roster import registration_add

pytestmark = pytest.mark.django_db
ONLINE = Path(__file__).parents[1] / "fixtures" / "online"
INDEX = json.loads((ONLINE / "index.json").read_text(encoding="utf-8"))
# Every eighth standard log of the fixtures: both formats, four and three players, East-only and hanchan.
STANDARD = [e for e in INDEX if not any(f.startswith("special_rule") for f in e["features"])]
SAMPLE = [ONLINE / entry["file"] for entry in STANDARD[::8]]
DIFFERS = ONLINE / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"
MAX_QUERIES_PER_GAME = 15
GAME_FIELDS = (
    *("status", "version", "start", "result", "ruleset_key", "ruleset_overrides", "platform", "log_id"),
    *("log_check", "log_differences", "played_on", "ended_by_time"),
)


def batch(paths: list[Path]) -> list[tuple[str, bytes]]:
    return [(path.name, path.read_bytes()) for path in paths]


def differing() -> tuple[str, bytes]:
    """A real log whose first result is recorded 100 higher for seat 0 and 100 lower for seat 1."""
    data = DIFFERS.read_bytes()
    match = re.search(rb'<AGARI [^>]*?sc="([^"]*)"', data)
    assert match is not None
    values = [int(v) for v in match[1].split(b",")]
    values[1] += 1
    values[3] -= 1
    return DIFFERS.name, data[: match.start(1)] + b",".join(str(v).encode() for v in values) + data[match.end(1) :]


def through_the_write_path(event: Event, source: str, data: bytes, stored: Game) -> Game:
    """What the import stored before it was a bulk path: the game opened, then its hands written as an import."""
    online = read_log(data, name=source)
    ids = {p.online_name: p.pk for p in Player.objects.filter(seats__game=stored)}
    game = game_create(
        event=event,
        player_ids=[ids[name] for name in online.names],
        rules=(online.ruleset, online.overrides),
        played_on=online.played_on,
    )
    game.platform, game.log_id = online.platform.value, online.log_id
    game.log_check, game.log_differences = stored.log_check, stored.log_differences
    game.save(update_fields=["platform", "log_id", "log_check", "log_differences"])
    hands = [map_players(h, ids.__getitem__) for h in online.hands]
    return game_put_log(game_id=game.pk, hands=hands, user=None, start=online.sheet().get("start", {}))


def rows(game: Game) -> dict[str, Any]:
    """Everything stored of a game, its own and its event's ids left out."""
    history = []
    for entry in HandChange.objects.filter(game=game).order_by("id"):
        terms: dict[str, Any] = dict(entry.terms or {})
        assert (terms["game"], terms["event"]) == (game.pk, game.event_id)
        terms |= {"game": "GAME", "event": "EVENT"}
        history.append((entry.index, entry.action, entry.before, entry.after, entry.author, entry.version, terms))
    return {
        "game": {name: getattr(game, name) for name in GAME_FIELDS},
        "seats": list(game.seats.order_by("position").values_list("position", "player_id", "substitute")),
        "hands": list(Hand.objects.filter(game=game).order_by("index").values_list("index", "record", "entered_by")),
        "results": sorted(GameResult.objects.filter(game=game).values_list(*_fields(GameResult))),
        "stats": sorted(GameStats.objects.filter(game=game).values_list(*_fields(GameStats))),
        "history": history,
    }


def _fields(model: Any) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if f.attname not in ("id", "game_id", "event_id")]


def standings(event: Event) -> list[tuple[Any, ...]]:
    standings_recompute(event)
    return list(Standing.objects.filter(event=event).order_by("player_id").values_list(*_fields(Standing)))


def test_the_bulk_import_stores_what_the_write_path_stores():
    bulk = Event.objects.create(slug="bulk", name="Bulk", ruleset_key="tenhou")
    replayed = Event.objects.create(slug="replayed", name="Replayed", ruleset_key="tenhou")
    logs = [*batch(SAMPLE), differing()]
    results = logs_import(event=bulk, logs=logs, create_players=True, keep_mismatches=True)
    assert [r.outcome for r in results] == [Outcome.IMPORTED] * len(SAMPLE) + [Outcome.KEPT]
    for player in Player.objects.filter(registrations__event=bulk):
        registration_add(event=replayed, player=player)
    for (source, data), result in zip(logs, results, strict=True):
        assert result.game is not None
        game = through_the_write_path(replayed, source, data, result.game)
        assert rows(Game.objects.get(pk=result.game.pk)) == rows(game), source
        assert chain.verify_game(result.game).intact
    assert standings(bulk) == standings(replayed)


def test_a_batch_costs_at_most_15_queries_a_game():
    event = Event.objects.create(slug="counted", name="Counted", ruleset_key="tenhou")
    logs = [*batch(SAMPLE), differing()]
    with CaptureQueriesContext(connection) as queries:
        results = logs_import(event=event, logs=logs, create_players=True, keep_mismatches=True)
    games = sum(1 for r in results if r.outcome in (Outcome.IMPORTED, Outcome.KEPT))
    assert games == len(logs)
    assert len(queries) <= MAX_QUERIES_PER_GAME * games, f"{len(queries) / games:.1f} queries a game"
    # Not an average that hides one dear game: the last log costs no more than the bound either.
    with CaptureQueriesContext(connection) as queries:
        logs_import(event=event, logs=batch([ONLINE / STANDARD[1]["file"]]), create_players=True)
    assert len(queries) <= MAX_QUERIES_PER_GAME


def test_a_refused_log_leaves_nothing_and_the_others_are_stored():
    event = Event.objects.create(slug="refusals", name="Refusals", ruleset_key="tenhou")
    first, second, third = (ONLINE / INDEX[i]["file"] for i in (0, 1, 2))
    names = read_log(second.read_bytes(), name=second.name).names
    (gone,) = registered(event, names[0])
    gone.online_name = names[0]
    gone.save()
    Registration.objects.filter(event=event, player=gone).update(withdrawn=True)
    players = Player.objects.count()
    logs = [*batch([first, second]), ("junk.xml", b"<mjloggm></mjloggm>"), *batch([third, first])]
    results = logs_import(event=event, logs=logs, create_players=True)
    assert [r.outcome for r in results] == [
        Outcome.IMPORTED,
        Outcome.UNREADABLE,
        Outcome.UNREADABLE,
        Outcome.IMPORTED,
        Outcome.ALREADY,  # the same log twice in one batch: the second finds the game of the first
    ]
    assert results[4].game == results[0].game
    assert [(p.field, re.sub(r"\d+", "N", p.message)) for p in results[1].problems] == [
        ("players[0]", "player N has withdrawn from this event")
    ]
    assert results[2].problems
    assert results[2].source == "junk.xml"
    # The refused log's other players were not made: only the two stored logs' were.
    kept = {n for path in (first, third) for n in read_log(path.read_bytes(), name=path.name).names}
    assert Player.objects.count() == players + len(kept - {names[0]})
    assert not Player.objects.filter(online_name__in=set(names[1:]) - kept).exists()
    assert not Game.objects.filter(log_id=read_log(second.read_bytes(), name=second.name).log_id).exists()
    again = logs_import(event=event, logs=batch([first, third]), create_players=True)
    assert [r.outcome for r in again] == [Outcome.ALREADY, Outcome.ALREADY]
    assert Game.objects.filter(event=event).count() == 2


def test_without_create_players_every_unknown_name_is_named():
    event = Event.objects.create(slug="unknown", name="Unknown", ruleset_key="tenhou")
    path = ONLINE / INDEX[0]["file"]
    (result,) = logs_import(event=event, logs=batch([path]))
    names = read_log(path.read_bytes(), name=path.name).names
    assert result.outcome == Outcome.UNREADABLE
    assert [p.field for p in result.problems] == ["players"] * len(names)
    assert all(repr(name) in p.message for name, p in zip(names, result.problems, strict=True))
    assert not Player.objects.exists()
    assert not Game.objects.exists()


def test_a_log_naming_one_player_twice_is_refused_and_makes_nobody():
    event = Event.objects.create(slug="twice", name="Twice", ruleset_key="tenhou")
    data = DIFFERS.read_bytes()
    names = re.search(rb'<UN n0="([^"]*)" n1="([^"]*)"', data)
    assert names is not None
    data = data[: names.start(2)] + names[1] + data[names.end(2) :]
    (result,) = logs_import(event=event, logs=[("twice.xml", data)], create_players=True)
    assert result.outcome == Outcome.UNREADABLE
    assert [(p.field, p.message) for p in result.problems] == [("", "players: lists the same entry twice")]
    assert not Player.objects.exists()
