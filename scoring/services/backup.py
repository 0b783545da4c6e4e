"""The whole event set in one file, and back: so that the tournament goes on if the server is lost.

The backup holds every row of the tournament and scoring apps and the users
they name, with their ids (Django's own serialisation, as ``dumpdata`` writes
it), under a header carrying each event's head (``scoring.services.chain``).
A restore goes into an empty database only, in one transaction, and checks
itself before it commits: every game's chain holds, every event's head is the
one the backup recorded, and the standings recomputed from the restored games
are the standings that were backed up.

The file is sealed with the history key (``scoring.services.history_keys``): the
header and each model's rows carry an HMAC, so a backup edited after it was
written (an added superuser, a private event made public, a rehashed hand, a
row of a kind a backup never holds) is refused, naming what differs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone

from rules.errors import Problem, Refusal
from scoring.models import (
    Confirmation,
    EventChange,
    GameResult,
    Hand,
    HandChange,
    Penalty,
    StageStanding,
    Standing,
    StandingsState,
)
from scoring.ranking_models import RankedEvent, RankedResult
from scoring.services import history_keys
from scoring.services.chain import canonical, event_head, verify_game
from scoring.services.game_stats import stats_rebuild
from scoring.services.penalties import event_penalties_problem
from scoring.services.stage_checks import event_stages_problem
from scoring.services.standings import standings_recompute
from tournament.errors import Conflict
from tournament.models import (
    Event,
    Game,
    Lineup,
    Player,
    PlayerMerge,
    Registration,
    Round,
    Seat,
    Stage,
    Table,
    Team,
    TeamSeat,
    text_problems,
)

FORMAT = "mahjong-tournament-backup"
VERSION = 3  # 2: sealed with the history key; 3: with the stages
# Kinds of rows a backup of an earlier version did not hold: restored as none.
_ADDED = {
    3: (
        "tournament.stage",
        "tournament.teamseat",
        "tournament.lineup",
        "tournament.playermerge",
        "scoring.stagestanding",
        "scoring.rankedevent",
        "scoring.rankedresult",
    )
}
# What a person calls the rows a seal names, in a refusal.
_WHAT = {
    "auth.user": "the accounts",
    "auth.group": "the groups",
    "tournament.event": "the events",
    "scoring.handchange": "the histories",
    "scoring.hand": "the hands",
}


def _models() -> list[type[models.Model]]:
    """Every model a backup holds, each after the ones it refers to (idempotency keys are not kept: a day's
    retries, no data)."""
    return [
        Group,
        get_user_model(),
        Player,
        PlayerMerge,
        Event,
        RankedEvent,
        RankedResult,
        Team,
        Registration,
        Stage,
        Round,
        Table,
        TeamSeat,
        Lineup,
        Game,
        Seat,
        Hand,
        HandChange,
        Confirmation,
        Penalty,
        EventChange,
        GameResult,
        Standing,
        StageStanding,
        StandingsState,
    ]


@dataclass(frozen=True, slots=True)
class Restored:
    events: dict[str, str]  # slug -> head
    rows: int


def backup_write(out: IO[str]) -> dict[str, Any]:
    """Write the backup to ``out``; returns its header."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": timezone.now().isoformat(),
        "events": {e.slug: event_head(e) for e in Event.objects.order_by("pk")},
    }
    name, key = history_keys.sealing_key()
    seals: dict[str, str] = {}
    out.write(json.dumps({"header": header})[:-1] + ', "objects": [')
    written = 0
    for model in _models():
        # Users' permissions and groups by name: their ids differ from one database to the next.
        rows = json.loads(
            serializers.serialize("json", model._default_manager.order_by("pk"), use_natural_foreign_keys=True)
        )
        seals[model._meta.label_lower] = history_keys.mac(key, canonical(rows))
        for row in rows:
            out.write((", " if written else "") + json.dumps(row))
            written += 1
    seal = {"key": name, "header": history_keys.mac(key, canonical(header)), "models": seals}
    out.write(f'], "seal": {json.dumps(seal)}}}\n')
    return header


def backup_restore(data: bytes) -> Restored:
    """Bring a backup into this empty database, checked before it commits; Refusal or Conflict if it cannot."""
    header, objects, altered = _read(data)
    if Event.objects.exists() or Player.objects.exists() or get_user_model()._default_manager.exists():
        raise Conflict(
            [
                Problem(
                    "database",
                    "a restore goes into an empty database (migrated, with no users, "
                    "players or events); nothing was restored",
                )
            ]
        )
    with transaction.atomic():
        count = _load(objects)
        _reset_sequences()
        stats_rebuild()  # derived rows a backup does not hold: counted again from the restored results
        # Rows that differ from the seal are loaded all the same, then rolled back: the checks name the game.
        problems = altered + list(_check(header))
        if problems:
            raise Refusal(problems)
    return Restored(events=dict(header["events"]), rows=count)


def _read(data: bytes) -> tuple[dict[str, Any], list[Any], list[Problem]]:
    """The header, the rows, and the rows that differ from the seal; Refusal for what cannot be loaded."""
    try:
        parsed = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # not JSON, not UTF-8, a 5,000-digit number, nested too deep
        raise Refusal.one("backup", f"not a backup file: {str(exc)[:200]}") from None
    header = parsed.get("header") if isinstance(parsed, dict) else None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise Refusal.one("backup", "not a backup file written by manage.py backup")
    if header.get("version") not in (2, VERSION):
        raise Refusal.one("backup", f"backup version {header.get('version')}; this version reads 2 and {VERSION}")
    objects = parsed.get("objects")
    if not isinstance(objects, list) or not isinstance(header.get("events"), dict):
        raise Refusal.one("backup", "the backup lacks its objects or its events")
    return header, objects, _altered(header, objects, parsed.get("seal"))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is no number a backup holds")


def _altered(header: dict[str, Any], objects: list[Any], seal: Any) -> list[Problem]:
    """What differs from what the server that wrote the backup sealed."""
    if not isinstance(seal, dict) or not isinstance(seal.get("models"), dict):
        raise Refusal.one("seal", "the backup carries no seal")
    key = history_keys.verifying_key(str(seal.get("key")))
    if key is None:
        raise Refusal.one(
            "seal",
            f"the backup is sealed with the history key {seal.get('key')!r}, which this "
            "server does not hold: set HISTORY_KEY (or HISTORY_OLD_KEYS, or SECRET_KEY) as on "
            "the server that wrote it",
        )
    later = {label for version, labels in _ADDED.items() if header["version"] < version for label in labels}
    held = [model._meta.label_lower for model in _models() if model._meta.label_lower not in later]
    if sorted(map(str, seal["models"])) != sorted(held):
        missing = sorted(set(held) - set(map(str, seal["models"])))
        raise Refusal.one(
            "seal",
            f"the seal does not name every kind of row a backup holds (missing: "
            f"{', '.join(missing) or 'none'}): rows were left out after it was written",
        )
    rows: dict[str, list[Any]] = {label: [] for label in held}
    for row in objects:
        label = row.get("model") if isinstance(row, dict) else None
        if not isinstance(label, str) or label not in rows:
            raise Refusal.one(str(label), "rows of a kind no backup holds (tokens, sessions, ...) were added")
        rows[str(label)].append(row)
    problems = (
        []
        if history_keys.mac(key, canonical(header)) == seal.get("header")
        else [Problem("header", "the event heads or the header were changed after the backup was written")]
    )
    problems.extend(
        Problem(
            label,
            f"{_WHAT.get(label, 'the ' + label + ' rows')} differ from what was backed "
            "up: rows were added, removed or changed after the backup was written",
        )
        for label, group in rows.items()
        if history_keys.mac(key, canonical(group)) != seal["models"][label]
    )
    return problems


def _load(objects: list[Any]) -> int:
    count = 0
    try:
        for item in serializers.deserialize("json", json.dumps(objects)):
            # The saves write what the fields hold unchecked: the checks every other path makes come first.
            problems = text_problems(item.object)
            if problems:
                raise Refusal(
                    [
                        Problem(f"{item.object._meta.label_lower} {item.object.pk}: {p.field}", p.message)
                        for p in problems
                    ]
                )
            item.save()
            count += 1
        # Checked now, not at the commit (PostgreSQL defers them), where the error would be no refusal.
        connection.check_constraints()
    except DeserializationError as exc:
        raise Refusal.one("backup", f"a row cannot be restored: {exc}") from None
    except IntegrityError as exc:
        raise Refusal.one("backup", f"a row refers to a row the backup does not hold ({exc})") from None
    return count


def _reset_sequences() -> None:
    """Ids were restored as they were: the next new row must not collide with them (PostgreSQL's sequences)."""
    statements = connection.ops.sequence_reset_sql(no_style(), _models())
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def _check(header: dict[str, Any]) -> Iterator[Problem]:
    for game in Game.objects.order_by("pk"):
        report = verify_game(game)
        if not report.intact:
            yield Problem(f"game {game.pk}", str(report.problem))
        elif report.unsealed:
            yield Problem(
                f"game {game.pk}",
                "its history is not sealed with a history key: run "
                "`manage.py verify_history --seal` on the server that wrote the backup, then back up again",
            )
    restored = {e.slug: e for e in Event.objects.all()}
    for slug, head in header["events"].items():
        event = restored.get(slug)
        own = (event_penalties_problem(event) or event_stages_problem(event)) if event is not None else None
        if event is None:
            yield Problem(f"event {slug}", "listed in the header but not in the backup")
        elif own is not None:
            yield Problem(f"event {slug}", own)
        elif event_head(event) != head:
            yield Problem(f"event {slug}", "its games are not the ones the backup sealed")
        else:
            yield from _standings_problems(event)


def _standings_problems(event: Event) -> Iterable[Problem]:
    before = _standings(event)
    standings_recompute(event)
    if _standings(event) != before:
        yield Problem(f"event {event.slug}", "the standings recomputed from its games differ from the backup's")


def _standings(event: Event) -> list[tuple[Any, ...]]:
    return list(
        Standing.objects.filter(event=event)
        .order_by("player_id")
        .values_list(
            "player_id",
            "rank",
            "points",
            "table_points",
            "score",
            "games",
            "average_rank",
            "penalties",
            "first_places",
            "best_game",
            "draws",
        )
    )
