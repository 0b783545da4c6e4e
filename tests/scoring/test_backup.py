"""``backup`` and ``restore``: the event set out to one file and back into an empty database, identical and sealed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import Confirmation, GameStats, Penalty, Standing
from scoring.services.chain import event_head, verify_game
from scoring.services.confirmations import game_confirm, player_code
from scoring.services.online import log_import
from scoring.services.penalties import penalty_save
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, played, registered
from tournament.models import Event, Game, Player

pytestmark = pytest.mark.django_db(transaction=True)  # the restore needs a database emptied by flush
LOG = Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"


def ron(winner: int, loser: int, han: int = 3, fu: int = 40) -> dict[str, Any]:
    return {"result": "ron", "winner": winner, "loser": loser, "han": han, "fu": fu}


def an_event_set() -> dict[str, Any]:
    organiser = User.objects.create_user("org", password="a long passphrase")
    spring = EventFactory.create(slug="spring", organisers=[organiser])
    players = registered(spring, "Ann", "Bo", "Cy", "Di")
    a, b, c, d = (p.pk for p in players)
    played(spring, players, [ron(a, c), {"result": "draw", "tenpai": [b]}], end=True)
    played(spring, players[::-1], [ron(d, b, 2, 30)], end=True)
    penalty_save(penalty=Penalty(event=spring, player_id=c, points=-2, reason="late"), user=None)
    spring_game = spring.games.order_by("pk").first()
    assert spring_game is not None
    game_confirm(game_id=spring_game.pk, player_id=a, code=player_code(spring, a))
    online = EventFactory.create(slug="online", ruleset_key="tenhou")
    assert log_import(event=online, source=LOG.name, data=LOG.read_bytes(), create_players=True).game is not None
    for event in (spring, online):
        standings_recompute(event)
    return {e.slug: {"head": event_head(e), "standings": standings(e)} for e in (spring, online)}


def standings(event: Event) -> list[tuple[Any, ...]]:
    return list(Standing.objects.filter(event=event).values_list("player__name", "rank", "points", "games"))


def restore(path: Path) -> int:
    try:
        call_command("restore", str(path))
    except CommandError as refused:
        return refused.returncode
    return 0


def test_a_backup_restores_into_an_empty_database_identical_and_sealed(tmp_path: Path, capsys: Any):
    before = an_event_set()
    stats = sorted((s.game_id, s.player_id, s.hands, s.wins, s.deal_ins, s.points) for s in GameStats.objects.all())
    assert stats
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    assert f"spring: head {before['spring']['head'][:12]}" in capsys.readouterr().out
    call_command("flush", interactive=False, verbosity=0)
    assert not Event.objects.exists()

    assert restore(path) == 0
    # The statistics' rows are not in the file: they are counted again from the restored results.
    assert (
        sorted((s.game_id, s.player_id, s.hands, s.wins, s.deal_ins, s.points) for s in GameStats.objects.all())
        == stats
    )
    for slug, was in before.items():
        event = Event.objects.get(slug=slug)
        assert (event_head(event), standings(event)) == (was["head"], was["standings"])
    assert all(verify_game(g).intact for g in Game.objects.all())
    assert Confirmation.objects.filter(player__name="Ann").count() == 1
    assert User.objects.get(username="org").check_password("a long passphrase")
    assert Event.objects.get(slug="spring").organisers.filter(username="org").exists()
    # New rows after the restore take new ids (the sequences moved past the restored ones).
    spring = Event.objects.get(slug="spring")
    newcomer = registered(spring, "Eve")[0]
    assert newcomer.pk > max(Player.objects.exclude(pk=newcomer.pk).values_list("pk", flat=True))
    played(spring, [*Player.objects.filter(name__in=["Ann", "Bo", "Cy"]), newcomer])


def test_a_restore_refuses_a_database_that_is_not_empty(tmp_path: Path, capsys: Any):
    an_event_set()
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    assert restore(path) == 2
    assert "a restore goes into an empty database" in capsys.readouterr().err


def test_a_changed_backup_is_refused_and_nothing_is_written(tmp_path: Path, capsys: Any):
    an_event_set()
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    hand = next(o for o in data["objects"] if o["model"] == "scoring.hand")
    hand["fields"]["record"]["han"] = 5
    path.write_text(json.dumps(data), encoding="utf-8")
    call_command("flush", interactive=False, verbosity=0)
    assert restore(path) == 2
    err = capsys.readouterr().err
    assert "scoring.hand: the hands differ from what was backed up" in err
    assert f"game {hand['fields']['game']}: hand 1 as stored differs from what the history says" in err
    assert not Event.objects.exists()
    assert not Player.objects.exists()


def test_a_file_that_is_not_a_backup_is_refused(tmp_path: Path, capsys: Any):
    path = tmp_path / "x.json"
    path.write_text('{"events": []}', encoding="utf-8")
    assert restore(path) == 2
    assert "not a backup file written by manage.py backup" in capsys.readouterr().err
    assert restore(tmp_path / "missing.json") == 2


# --- a backup edited after it was written (issue 25, item 3) -------------------------------------------------


def _add_superuser(data: dict[str, Any]) -> None:
    user = next(o for o in data["objects"] if o["model"] == "auth.user")
    data["objects"].insert(
        data["objects"].index(user) + 1,
        {
            **user,
            "pk": 999,
            "fields": {**user["fields"], "username": "intruder", "is_superuser": True, "is_staff": True},
        },
    )


def _add_row(model: str, pk: Any, fields: dict[str, Any]) -> Any:
    return lambda data: data["objects"].append({"model": model, "pk": pk, "fields": fields})


def _make_public(data: dict[str, Any]) -> None:
    event = next(o for o in data["objects"] if o["model"] == "tournament.event" and o["fields"]["slug"] == "spring")
    event["fields"]["public"] = not event["fields"]["public"]


def _rehash_a_hand(data: dict[str, Any]) -> None:
    """A hand and its history entry rewritten, and the entry's hash recomputed as chain.py's plain hash would."""
    from scoring.services import chain

    change = next(o for o in data["objects"] if o["model"] == "scoring.handchange" and o["fields"]["action"] == "sheet")
    hands = change["fields"]["after"]["hands"]
    hands[0] = {**hands[0], "han": 5}
    fields = change["fields"]
    content = chain.entry_content(
        index=fields["index"],
        action=fields["action"],
        before=fields["before"],
        after=fields["after"],
        author=fields["author"],
        at=fields["at"],
        version=fields["version"],
    )
    fields["hash"] = chain.unkeyed_seal(content, fields["previous"])
    hand = next(
        o
        for o in data["objects"]
        if o["model"] == "scoring.hand"
        and o["fields"]["game"] == change["fields"]["game"]
        and o["fields"]["index"] == 0
    )
    hand["fields"]["record"] = hands[0]


EDITS = {
    "an added superuser": (_add_superuser, "auth.user: the accounts differ from what was backed up"),
    "an API token row": (
        _add_row("authtoken.token", "f" * 40, {"user": ["org"], "created": "2026-11-25T00:00Z"}),
        "authtoken.token: rows of a kind no backup holds",
    ),
    "a session row": (
        _add_row("sessions.session", "x" * 32, {"session_data": "e30", "expire_date": "2030-01-01T00:00Z"}),
        "sessions.session: rows of a kind no backup holds",
    ),
    "a private event made public": (_make_public, "tournament.event: the events differ from what was backed up"),
    "a rehashed hand": (_rehash_a_hand, "scoring.handchange: the histories differ from what was backed up"),
    "the header's heads": (
        lambda data: data["header"]["events"].update(spring="0" * 64),
        "header: the event heads or the header were changed",
    ),
}


@pytest.mark.parametrize("case", list(EDITS))
def test_a_backup_edited_after_it_was_written_is_refused_naming_what(tmp_path: Path, capsys: Any, case: str):
    an_event_set()
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    edit, named = EDITS[case]
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    call_command("flush", interactive=False, verbosity=0)
    assert restore(path) == 2
    assert named in capsys.readouterr().err
    assert not User.objects.exists()
    assert not Event.objects.exists()


def test_a_backup_sealed_with_another_key_is_refused(tmp_path: Path, capsys: Any, settings: Any):
    an_event_set()
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    call_command("flush", interactive=False, verbosity=0)
    settings.HISTORY_KEY = "another-servers-history-key-" + "Zq4" * 10
    settings.SECRET_KEY = "another-servers-secret-key-" + "Wp8" * 10
    assert restore(path) == 2
    assert "seal: the backup is sealed with the history key" in capsys.readouterr().err


def _backed_up(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    an_event_set()
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    call_command("flush", interactive=False, verbosity=0)
    return path, json.loads(path.read_text(encoding="utf-8"))


def _broken_reference(data: dict[str, Any]) -> None:
    next(o for o in data["objects"] if o["model"] == "tournament.registration")["fields"]["player"] = 99_999


def _control_character_in_a_name(data: dict[str, Any]) -> None:
    next(o for o in data["objects"] if o["model"] == "tournament.player")["fields"]["name"] = "Ann\x1b[31m"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_broken_reference, "refers to a row the backup does not hold"),
        (_control_character_in_a_name, "name: must be printable text"),
    ],
)
def test_a_backup_with_a_broken_row_is_refused_with_exit_2_and_one_line(
    tmp_path: Path, capsys: Any, change: Any, words: str
):
    path, data = _backed_up(tmp_path)
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    assert restore(path) == 2
    assert words in capsys.readouterr().err
    assert not Player.objects.exists()


def test_a_deeply_nested_backup_is_refused_with_exit_2(tmp_path: Path, capsys: Any):
    path = tmp_path / "deep.json"
    path.write_text('{"header": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert restore(path) == 2
    assert "not a backup file" in capsys.readouterr().err


def test_a_backup_into_a_missing_folder_is_refused_with_exit_2(tmp_path: Path, capsys: Any):
    with pytest.raises(CommandError) as refused:
        call_command("backup", str(tmp_path / "missing" / "backup.json"))
    assert refused.value.returncode == 2
    assert "cannot write" in str(refused.value)


def test_a_backup_whose_seal_leaves_out_a_kind_of_row_is_refused(tmp_path: Path, capsys: Any):
    """Rows of a kind dropped with their seal line (registrations: reissued codes would come back) are named."""
    an_event_set()
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["objects"] = [o for o in data["objects"] if o["model"] != "tournament.registration"]
    del data["seal"]["models"]["tournament.registration"]
    path.write_text(json.dumps(data), encoding="utf-8")
    call_command("flush", interactive=False, verbosity=0)
    assert restore(path) == 2
    assert "missing: tournament.registration" in capsys.readouterr().err
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda text: text.replace('"version": 2', '"version": 2, "x": NaN', 1), "NaN is no number a backup holds"),
        (lambda text: text.replace('"objects": [', '"objects": [{"model": []}, ', 1), "rows of a kind no backup holds"),
    ],
)
def test_odd_values_in_a_backup_are_refused_not_a_crash(tmp_path: Path, capsys: Any, edit: Any, named: str):
    an_event_set()
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    call_command("flush", interactive=False, verbosity=0)
    assert restore(path) == 2
    assert named in capsys.readouterr().err
