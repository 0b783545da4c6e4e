"""Issue 25, item 3: penalties are sealed into a history. One given in a game (the admin's penalty form) is replayed
into the game's result at once and sealed in its chain; one given on the event itself is sealed in the event's
own chain. Changed in the database behind the application's back, either is named by ``verify_history``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from scoring.models import EventChange, HandChange, Penalty
from scoring.services.standings import standings_recompute
from tournament.models import Event, Game, Player

# Every test starts from the shared finished game (Ann wins 7700 from Cy): event.games.get() is it.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("game")]
JSON_CAST = "::jsonb" if connection.vendor == "postgresql" else ""


def verify(capsys: Any) -> tuple[int, str]:
    try:
        call_command("verify_history", "spring")
        code = 0
    except SystemExit as exited:
        code = int(exited.code or 0)
    except CommandError as refused:
        code = refused.returncode
    return code, capsys.readouterr().err


def give(admin_client: Client, event: Event, player: Player, points: str, game: Game | None = None) -> None:
    answer = admin_client.post(
        "/admin/scoring/penalty/add/",
        {"event": event.pk, "player": player.pk, "game": game.pk if game else "", "points": points, "reason": "late"},
    )
    assert answer.status_code == 302, answer.content[:500]


def raw(sql: str, *params: Any) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_a_penalty_given_in_a_game_is_in_its_result_at_once_and_sealed(admin_client: Client, event: Event, capsys: Any):
    game, bo = event.games.get(), Player.objects.get(name="Bo")
    give(admin_client, event, bo, "-20", game)
    game.refresh_from_db()
    line = next(r for r in game.result["final"] if r["player"] == 1)  # Bo sits South
    assert line["penalty"] == -20
    entry = HandChange.objects.filter(game=game).order_by("-id").first()
    assert entry is not None
    assert (entry.action, entry.after) == ("game", {"penalties": [[bo.pk, "-20.00", "late"]]})
    assert entry.author == "admin"
    assert verify(capsys)[0] == 0
    penalty = Penalty.objects.get()
    assert admin_client.post(f"/admin/scoring/penalty/{penalty.pk}/delete/", {"post": "yes"}).status_code == 302
    game.refresh_from_db()
    assert next(r for r in game.result["final"] if r["player"] == 1)["penalty"] == 0
    assert verify(capsys)[0] == 0


def test_a_penalty_given_on_the_event_is_sealed_in_its_own_chain(admin_client: Client, event: Event, capsys: Any):
    cy = Player.objects.get(name="Cy")
    give(admin_client, event, cy, "-5")
    give(admin_client, event, cy, "-3")
    entries = list(EventChange.objects.filter(event=event).order_by("id"))
    assert [e.version for e in entries] == [1, 2]
    assert entries[1].previous == entries[0].hash
    assert [len(e.after or []) for e in entries] == [1, 2]
    standings_recompute(event)
    assert verify(capsys)[0] == 0


def _points_changed(event: Event) -> None:
    raw("UPDATE scoring_penalty SET points = -50 WHERE event_id = %s AND game_id IS NULL", event.pk)


def _penalty_inserted(event: Event) -> None:
    Penalty.objects.bulk_create(
        [Penalty(event=event, player=Player.objects.get(name="Di"), points=-10, reason="forged")]
    )


def _entry_changed(event: Event) -> None:
    entry = EventChange.objects.filter(event=event).order_by("-id").first()
    assert entry is not None
    raw(f"UPDATE scoring_eventchange SET after = %s{JSON_CAST} WHERE id = %s", json.dumps([]), entry.pk)


def _last_entry_and_penalty_removed(event: Event) -> None:
    raw("DELETE FROM scoring_eventchange WHERE id = (SELECT MAX(id) FROM scoring_eventchange)")


def _plain_entry_forged(event: Event) -> None:
    from scoring.services import chain

    last = EventChange.objects.filter(event=event).order_by("-id").first()
    assert last is not None
    forged = EventChange(
        event=event,
        action="penalty",
        before=last.after,
        after=[],
        author="admin",
        at=last.at,
        version=last.version + 1,
        previous=last.hash,
        key="",
    )
    forged.hash = chain.unkeyed_seal(chain.content_of(forged), last.hash)
    forged.save()
    raw("DELETE FROM scoring_penalty WHERE game_id IS NULL")


TAMPER: dict[str, tuple[Callable[[Event], None], str]] = {
    "a penalty's points changed": (_points_changed, "the event's penalties differ from what its history says"),
    "a penalty added": (_penalty_inserted, "the event's penalties differ from what its history says"),
    "an entry's content changed": (_entry_changed, "does not match its seal"),
    "the last entry removed": (_last_entry_and_penalty_removed, "the event's penalties differ"),
    "a plain entry forged and the penalty deleted": (_plain_entry_forged, "has no key after entries that have one"),
}


@pytest.mark.parametrize("case", list(TAMPER))
def test_the_events_penalties_changed_in_the_database_are_named(
    admin_client: Client, event: Event, capsys: Any, case: str
):
    give(admin_client, event, Player.objects.get(name="Cy"), "-5")
    give(admin_client, event, Player.objects.get(name="Ann"), "-1")
    standings_recompute(event)
    assert verify(capsys)[0] == 0
    tamper, named = TAMPER[case]
    tamper(event)
    code, err = verify(capsys)
    assert code == 1
    assert "spring: " in err
    assert named in err


def test_penalties_given_before_they_were_sealed_are_reported_then_sealed_as_found(event: Event, capsys: Any):
    Penalty.objects.create(event=event, player=Player.objects.get(name="Bo"), points=-4, reason="before v2")
    standings_recompute(event)
    code, err = verify(capsys)
    assert code == 1
    assert "its penalties were given before penalties were sealed" in err
    with pytest.raises(CommandError, match="--seal is the upgrade's step"):  # the game's entries have a key
        call_command("verify_history", "spring", "--seal")
    call_command("verify_history", "spring", "--seal-penalties")
    capsys.readouterr()
    assert verify(capsys)[0] == 0
    assert EventChange.objects.get(event=event).after == [[Player.objects.get(name="Bo").pk, "-4.00", "before v2"]]
