"""An event in and out: score sheets into an event, the event out as JSON, CSV or sheets.

Exported sheets name players as the score sheet does (unique names) and can
be read back by ``import_sheets`` or scored alone by ``score_sheet``.
Importing is all or nothing: every file is checked first, every problem is
reported with its file, and only then are the games written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction

from rules.errors import Problem, Refusal
from rules.presets import build_ruleset
from scoring.models import Penalty, Standing
from scoring.selectors import named_result
from scoring.services import chain
from scoring.services.games import game_create
from scoring.services.hands import game_put_sheet
from scoring.services.replay import NamedBy, game_sheet
from scoring.services.standings import standings_batch
from scoring.sheet.reader import score_sheet
from scoring.sheet.record import map_players
from tournament.models import Event, Game, Player, text_problems
from tournament.selectors import with_seats
from tournament.services.roster import registration_add
from tournament.users import RequestUser, account

_LABEL_WITH_ID = re.compile(r"^(?P<name>.*) #(?P<id>\d+)$")


@dataclass(frozen=True, slots=True)
class NamedSheet:
    """A sheet and where it came from (a file name), for the problems' sake."""

    source: str
    data: Any


def sheets_import(
    *, event: Event, sheets: Sequence[NamedSheet], create_players: bool = False, user: RequestUser | None = None
) -> list[Game]:
    """Add one finished or partial game per sheet to the event, or none if any sheet is wrong.

    Players are matched by name among the event's registered players (a name
    shared by two players is written ``Name #id``, as exports write it); with
    ``create_players`` an unknown name is registered as a new player.
    """
    by_name = _registered_by_name(event)
    unknown = _check_sheets(event, sheets, by_name, create_players=create_players)
    games = []
    with transaction.atomic(), standings_batch():  # the players registered and the games: one recompute
        for name in unknown:
            player = Player.objects.create(name=name)
            registration_add(event=event, player=player)
            by_name.setdefault(name, []).append(player.pk)
        for sheet in sheets:
            try:
                games.append(_import_one(event, sheet, by_name, user))
            except Refusal as exc:  # checked above; kept so that a surprise still names its file
                raise Refusal([Problem(f"{sheet.source}: {p.field}", p.message) for p in exc.problems]) from None
    return games


def _check_sheets(
    event: Event, sheets: Sequence[NamedSheet], by_name: Mapping[str, list[int]], *, create_players: bool
) -> list[str]:
    """Every sheet checked before anything is written; the names to register (with ``create_players``)."""
    problems: list[Problem] = []
    unknown: dict[str, str] = {}  # name -> the first file naming it
    for sheet in sheets:
        found = _sheet_problems(event, sheet)
        problems += found
        if found:
            continue
        for label in sheet.data["players"]:
            if _player_of(label, by_name) is not None:
                continue
            if create_players:
                problems += [
                    Problem(f"{sheet.source}: players", f"{label!r} cannot be a player's name: {p.message}")
                    for p in text_problems(Player(name=label))
                ]
                unknown.setdefault(label, sheet.source)
            else:
                problems.append(
                    Problem(
                        f"{sheet.source}: players",
                        f"{label!r} is not registered in this "
                        "event (register them first, or import with --create-players)",
                    )
                )
    if problems:
        raise Refusal(problems)
    return list(unknown)


def _import_one(event: Event, sheet: NamedSheet, by_name: Mapping[str, list[int]], user: RequestUser | None) -> Game:
    id_of = {label: _registered_id(label, by_name) for label in sheet.data["players"]}
    game = game_create(event=event, player_ids=list(id_of.values()))
    Penalty.objects.bulk_create(
        [
            Penalty(
                event=event,
                game=game,
                player_id=id_of[p["player"]],
                points=Decimal(str(p["points"])),
                reason=p.get("reason", ""),
                created_by=account(user),
            )
            for p in sheet.data.get("penalties", [])
        ]
    )
    hands = [map_players(h, id_of.__getitem__) for h in sheet.data.get("hands", [])]
    return game_put_sheet(
        game_id=game.pk,
        hands=hands,
        user=user,
        version=None,
        start=sheet.data.get("start", {}),
        ended_by_time=sheet.data.get("end") == "time",
    )


def _sheet_problems(event: Event, sheet: NamedSheet) -> list[Problem]:
    """The sheet scored alone, played under the event's ruleset, and its sealed history (an export's) intact."""
    data = sheet.data
    try:
        score_sheet(data)
    except Refusal as exc:
        return [Problem(f"{sheet.source}: {p.field}" if p.field else sheet.source, p.message) for p in exc.problems]
    problems = [Problem(f"{sheet.source}: history", message) for message in _history_problems(data)]
    ruleset = build_ruleset(key=data["ruleset"], overrides=data.get("overrides", {}))
    if ruleset != event.ruleset():
        problems.append(
            Problem(
                f"{sheet.source}: ruleset",
                f"the event plays {event.ruleset_key!r} with its "
                f"overrides {event.ruleset_overrides}; this sheet's rules differ",
            )
        )
    return problems


def sealed_history(game: Game) -> dict[str, Any]:
    """The game's history as exports carry it: the ids it names in seat order, every entry, the head."""
    entries = [chain.exported(c) for c in game.changes.order_by("id")]
    return {
        "players": [s.player_id for s in game.seats.all()],
        "entries": entries,
        "head": entries[-1]["hash"] if entries else chain.EMPTY,
    }


def _history_problems(data: Mapping[str, Any]) -> list[str]:
    """An exported sheet's history must hold, and must say the hands the sheet lists."""
    history = data.get("history")
    if history is None:
        return []
    # Another server's export: its history key is its own, so its entries are checked for their order only.
    report = chain.verify_entries(history["entries"], foreign=True)
    if not report.intact:
        return [str(report.problem)]
    if history.get("head", report.head) != report.head:
        return ["the head does not match the last entry: the history was cut short"]
    labels = dict(zip(history["players"], data["players"], strict=False))
    told = [map_players(h, lambda ref: labels.get(ref, ref)) for h in chain.hands_from_history(history["entries"])]
    if told != data["hands"]:
        return ["the hands differ from what the history says they are: the sheet was changed after the export"]
    return []


def _registered_by_name(event: Event) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for pid, name in event.registrations.values_list("player_id", "player__name"):
        out.setdefault(name, []).append(pid)
    return out


def _registered_id(label: str, by_name: Mapping[str, list[int]]) -> int:
    player_id = _player_of(label, by_name)
    if player_id is None:
        raise AssertionError(f"{label!r} was checked to be registered")
    return player_id


def _player_of(label: str, by_name: Mapping[str, list[int]]) -> int | None:
    ids = by_name.get(label, [])
    if len(ids) == 1:
        return ids[0]
    match = _LABEL_WITH_ID.match(label)
    if match and int(match["id"]) in by_name.get(match["name"], []):
        return int(match["id"])
    return None


# --- out ----------------------------------------------------------------------


def event_export(event: Event) -> dict[str, Any]:
    """The whole event: settings, players, rounds with tables, games as sheets with results, standings."""
    return {
        "event": _settings_out(event),
        "players": _players_out(event),
        "rounds": _rounds_out(event),
        "games": _games_out(event),
        "standings": _standings_out(event),
    }


def _settings_out(event: Event) -> dict[str, Any]:
    return {
        "slug": event.slug,
        "name": event.name,
        "kind": event.kind,
        "status": event.status,
        "starts_on": _iso(event.starts_on),
        "ends_on": _iso(event.ends_on),
        "ruleset": event.ruleset_key,
        "overrides": event.ruleset_overrides,
        "min_games": event.min_games,
        "best_games": event.best_games,
        "ranking": event.ranking,
        "substitute_points": _number(event.substitute_points),
        "tiebreaks": event.tiebreaks,
    }


def _players_out(event: Event) -> list[dict[str, Any]]:
    registrations = event.registrations.select_related("player", "team").order_by("player__name", "player_id")
    return [
        {
            "id": r.player_id,
            "name": r.player.name,
            "federation_id": r.player.federation_id,
            "country": r.player.country,
            "club": r.player.club,
            "team": r.team.name if r.team else None,
            "substitute": r.substitute,
        }
        for r in registrations
    ]


def _rounds_out(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "number": r.number,
            "starts_at": _iso(r.starts_at),
            "time_limit_minutes": r.time_limit_minutes,
            "tables": [
                {
                    "number": t.number,
                    "seats": [s.player_id for s in t.game.seats.all()] if hasattr(t, "game") else [],
                }
                for t in r.tables.all()
            ],
        }
        for r in event.rounds.prefetch_related("tables__game__seats")
    ]


def _games_out(event: Event) -> list[dict[str, Any]]:
    games = with_seats(event.games.select_related("event", "table__round")).order_by("pk")
    return [
        {
            "id": g.pk,
            "round": g.table.round.number if g.table else None,
            "table": g.table.number if g.table else None,
            "played_on": _iso(g.played_on),
            "status": g.status,
            "player_ids": [s.player_id for s in g.seats.all()],
            "substitutes": [s.player_id for s in g.seats.all() if s.substitute],
            "sheet": game_sheet(g, by=NamedBy.LABEL),
            "history": sealed_history(g),
            "result": named_result(g) or None,
        }
        for g in games
    ]


def _standings_out(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "rank": s.rank,
            "player": {"id": s.player_id, "name": s.player.name},
            "points": _number(s.points),
            "table_points": _number(s.table_points),
            "score": s.score,
            "games": s.games,
            "average_rank": _number(s.average_rank),
            "penalties": _number(s.penalties),
            "first_places": s.first_places,
            "best_game": _number(s.best_game),
        }
        for s in Standing.objects.filter(event=event).select_related("player")
    ]


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _number(value: Any) -> float | None:
    return float(value) if value is not None else None
