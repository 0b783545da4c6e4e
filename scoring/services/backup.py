"""The whole event set in one file, and back: so that the tournament goes on if the server is lost.

The backup holds every row of the tournament and scoring apps and the users
they name, with their ids (Django's own serialisation, as ``dumpdata`` writes
it), under a header carrying each event's head (``scoring.services.chain``).
A restore goes into an empty database only, in one transaction, and checks
itself before it commits: every game's chain holds, every event's head is the
one the backup recorded, and the standings recomputed from the restored games
are the standings that were backed up.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain as chained
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone

from rules.errors import Problem
from scoring.models import Confirmation, GameResult, Hand, HandChange, Penalty, Standing, StandingsState
from scoring.services.chain import event_head, verify_game
from scoring.services.standings import standings_recompute
from tournament.errors import Conflict, InvalidInput
from tournament.models import Event, Game, Player, Registration, Round, Seat, Table, Team, text_problems

FORMAT = "mahjong-tournament-backup"
VERSION = 1


def _models() -> list[type[models.Model]]:
    """Every model a backup holds, each after the ones it refers to (idempotency keys are not kept: a day's
    retries, no data)."""
    return [Group, get_user_model(), Player, Event, Team, Registration, Round, Table, Game, Seat, Hand, HandChange,
            Confirmation, Penalty, GameResult, Standing, StandingsState]


@dataclass(frozen=True, slots=True)
class Restored:
    events: dict[str, str]  # slug -> head
    rows: int


def backup_write(out: IO[str]) -> dict[str, Any]:
    """Write the backup to ``out``; returns its header."""
    header = {"format": FORMAT, "version": VERSION, "created_at": timezone.now().isoformat(),
              "events": {e.slug: event_head(e) for e in Event.objects.order_by("pk")}}
    rows = chained.from_iterable(model._default_manager.order_by("pk") for model in _models())
    out.write(json.dumps({"header": header})[:-1] + ', "objects": ')
    # Users' permissions and groups by name: their ids differ from one database to the next.
    serializers.serialize("json", rows, stream=out, use_natural_foreign_keys=True)
    out.write("}\n")
    return header


def backup_restore(data: bytes) -> Restored:
    """Bring a backup into this empty database, checked before it commits; InvalidInput or Conflict if it cannot."""
    header, objects = _read(data)
    if Event.objects.exists() or Player.objects.exists() or get_user_model()._default_manager.exists():
        raise Conflict([Problem("database", "a restore goes into an empty database (migrated, with no users, "
                                "players or events); nothing was restored")])
    with transaction.atomic():
        count = _load(objects)
        _reset_sequences()
        problems = list(_check(header))
        if problems:
            raise InvalidInput(problems)
    return Restored(events=dict(header["events"]), rows=count)


def _read(data: bytes) -> tuple[dict[str, Any], list[Any]]:
    try:
        parsed = json.loads(data)
    except (ValueError, RecursionError) as exc:  # not JSON, not UTF-8, a 5,000-digit number, nested too deep
        raise InvalidInput.one("backup", f"not a backup file: {str(exc)[:200]}") from None
    header = parsed.get("header") if isinstance(parsed, dict) else None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InvalidInput.one("backup", "not a backup file written by manage.py backup")
    if header.get("version") != VERSION:
        raise InvalidInput.one("backup", f"backup version {header.get('version')}; this version reads {VERSION}")
    objects = parsed.get("objects")
    if not isinstance(objects, list) or not isinstance(header.get("events"), dict):
        raise InvalidInput.one("backup", "the backup lacks its objects or its events")
    return header, objects


def _load(objects: list[Any]) -> int:
    count = 0
    try:
        for item in serializers.deserialize("json", json.dumps(objects)):
            # The saves write what the fields hold unchecked: the checks every other path makes come first.
            problems = text_problems(item.object)
            if problems:
                raise InvalidInput([Problem(f"{item.object._meta.label_lower} {item.object.pk}: {p.field}", p.message)
                                    for p in problems])
            item.save()
            count += 1
        # Checked now, not at the commit (PostgreSQL defers them), where the error would be no refusal.
        connection.check_constraints()
    except DeserializationError as exc:
        raise InvalidInput.one("backup", f"a row cannot be restored: {exc}") from None
    except IntegrityError as exc:
        raise InvalidInput.one("backup", f"a row refers to a row the backup does not hold ({exc})") from None
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
    restored = {e.slug: e for e in Event.objects.all()}
    for slug, head in header["events"].items():
        event = restored.get(slug)
        if event is None:
            yield Problem(f"event {slug}", "listed in the header but not in the backup")
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
    return list(Standing.objects.filter(event=event).order_by("player_id").values_list(
        "player_id", "rank", "points", "table_points", "score", "games", "average_rank", "penalties",
        "first_places", "best_game"))
