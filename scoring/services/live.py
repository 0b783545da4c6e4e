"""What changed in an event, for the pages that keep up by themselves (the live endpoint, its watchers).

Every committed write that a page shows bumps the event's live version, a counter kept in the shared cache
(never in the database: a watcher's poll that finds it unchanged reads nothing else). The bump runs after the
commit, so a watcher that sees a new version reads the write. A cache that lost the counter starts it again
from the clock in milliseconds: a version never comes back with other content behind it.

What bumps it: a game saved or deleted (every hand written, corrected or deleted, a game ended or reopened by
time, a substitute, a seating: they all store the game's result, ``scoring.services.replay.store_result``, which
bumps it itself as it writes the game's row by a plain statement), a round saved (its clock), the event saved, and every
change to the standings (a penalty, a confirmation, a stage, a registration: ``standings_changed``) and the
recompute that follows.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Any

from django.core.cache import cache
from django.db import transaction

from scoring.selectors import game_result
from tournament.models import Event, Game, Round

_KEY = "live:v:{}"
_EVENT_KEY = "live:e:{}"
_BODY_KEY = "live:b:{}:{}"
# How long one version's answer is kept: every watcher who asks for it within this time reads no database.
BODY_SECONDS = 60
# How long a public event's id is kept under its slug for anonymous watchers; publishing clears it at once.
EVENT_SECONDS = 30


def live_version(event_id: int) -> int:
    """The event's live version (no query): a counter in the cache, started from the clock when missing."""
    key = _KEY.format(event_id)
    version = cache.get(key)
    if version is None:
        cache.add(key, time.time_ns() // 1_000_000, None)
        version = cache.get(key, 0)
    return int(version)


def _bump(event_id: int) -> None:
    key = _KEY.format(event_id)
    try:
        cache.incr(key)
    except ValueError:  # not there (expired, evicted, a fresh cache): started from the clock, past any version given
        cache.add(key, time.time_ns() // 1_000_000, None)


def live_changed(event_id: int) -> None:
    """Bump the event's live version once the caller's transaction commits (at once outside one)."""
    transaction.on_commit(functools.partial(_bump, event_id))


def public_event_id(slug: str) -> int | None:
    """The id of the public event ``slug`` for an anonymous watcher, from the cache when it was read lately."""
    key = _EVENT_KEY.format(slug)
    found = cache.get(key)
    if found is None:
        found = Event.objects.filter(slug=slug, public=True).values_list("pk", flat=True).first() or 0
        cache.set(key, found, EVENT_SECONDS)
    return int(found) or None


# --- signals: what can be written anywhere (services, the admin, the API) --------------------------


def game_written(instance: Game, **kwargs: Any) -> None:
    live_changed(instance.event_id)


def round_written(instance: Round, **kwargs: Any) -> None:
    live_changed(instance.event_id)


def event_written(instance: Event, **kwargs: Any) -> None:
    """The event itself changed (published, hidden, renamed): its watchers read it again."""
    transaction.on_commit(functools.partial(_forget, instance.slug))
    live_changed(instance.pk)


def _forget(slug: str) -> None:
    cache.delete(_EVENT_KEY.format(slug))


def is_live_callback(callback: object) -> bool:
    """Whether a callback queued for after a commit is one of these (tests count the others)."""
    return getattr(callback, "func", None) in (_bump, _forget)


# --- what a watcher reads when the version changed -------------------------------------------------


def current_round(event: Event) -> Round | None:
    """The round being played: the latest seated round (a round whose tables exist)."""
    return event.rounds.filter(tables__isnull=False).distinct().order_by("-number").first()


def live_body(event_id: int, version: int) -> bytes:
    """The JSON a watcher gets for ``version``, made once per version and kept in the cache: when the event
    changes, the thousand watchers who ask next cost one reading of the database, not a thousand."""
    key = _BODY_KEY.format(event_id, version)
    body = cache.get(key)
    if body is None:
        body = json.dumps(live_snapshot(Event.objects.get(pk=event_id), version), separators=(",", ":")).encode()
        cache.set(key, body, BODY_SECONDS)
    return bytes(body)


def live_snapshot(event: Event, version: int) -> dict[str, Any]:
    """The event's version and the current round's tables: each game's state, hands and scores (two queries)."""
    round_ = current_round(event)
    tables: list[dict[str, Any]] = []
    if round_ is not None:
        games = Game.objects.filter(table__round=round_).select_related("table").order_by("table__number")
        tables = [_table(game) for game in games]
    return {"version": version, "round": round_.number if round_ else None, "tables": tables}


def _table(game: Game) -> dict[str, Any]:
    result = game_result(game)
    hands = result.get("hands", [])
    scores = (
        list(hands[-1]["scores"])
        if hands and "scores" in hands[-1]
        else [row.get("score") for row in sorted(result.get("final", []), key=lambda row: row.get("player", 0))]
    )
    state = "finished" if game.status == Game.Status.FINISHED else "playing" if hands else "waiting"
    return {
        "game": game.pk,
        "table": game.table.number if game.table else None,
        "state": state,
        "hands": len(hands),
        "version": game.version,
        "scores": scores,
    }
