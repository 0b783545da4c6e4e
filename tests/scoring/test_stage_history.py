"""A stage's settings and its cut are sealed in the event's history: a change behind the application's back is
named by ``verify_history`` and refused by ``restore``; a backup carries the stages and a version 2 backup (from
before stages) still restores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import EventChange, StageStanding, Standing
from scoring.services import history_keys
from scoring.services.chain import canonical
from scoring.services.games import game_record_totals
from scoring.services.stage_checks import event_stages_problem
from scoring.services.stages import cut_confirm, cut_undo, stage_add, stage_change
from scoring.services.standings import standings_recompute
from tests.factories import EventFactory, registered
from tournament.models import Event, Stage

pytestmark = pytest.mark.django_db(transaction=True)  # the restore needs a database emptied by flush

# Two games of 8 players under WRC 2025 rules (30,000 to start and to return, uma +15/+5/-5/-15), recorded by
# their end scores.
SCORES = ([48000, 32000, 25000, 15000], [50000, 30000, 24000, 16000])


def an_event_in_two_stages() -> tuple[Event, User]:
    organiser = User.objects.create_user("org", password="a long passphrase")
    event = EventFactory.create(slug="cup", organisers=[organiser])
    players = registered(event, *[f"P{i}" for i in range(8)])
    for table, scores in zip((players[:4], players[4:]), SCORES, strict=True):
        game_record_totals(
            event=event, player_ids=[p.pk for p in table], scores=scores, deposits_left=0, user=organiser
        )
    stage = stage_add(event=event, data={"name": "Final", "entry_top": 4, "carry": "half"}, user=organiser)
    cut_confirm(stage=stage, through=None, user=organiser)
    standings_recompute(event)
    return event, organiser


def test_the_cut_is_sealed_and_a_cut_changed_in_the_database_is_named() -> None:
    event, _ = an_event_in_two_stages()
    actions = list(EventChange.objects.filter(event=event).values_list("action", flat=True))
    assert actions == ["stage", "cut"]
    assert event_stages_problem(event) is None
    stage = Stage.objects.get(event=event, number=2)
    through = list(stage.through or [])
    # P4: (50000 - 30000) / 1000 + 15 = +35.0; P0: +18 + 15 = +33.0; P1: +2 + 5 = +7.0; P5: 0 + 5 = +5.0.
    # The top 4 go on with half: 17.5, 16.5, 3.5 and 2.5.
    carried = dict(StageStanding.objects.filter(event=event, stage=2).values_list("player__name", "carried"))
    assert {name: float(c) for name, c in carried.items()} == {"P4": 17.5, "P0": 16.5, "P1": 3.5, "P5": 2.5}
    swapped = [
        *through[:3],
        Standing.objects.filter(event=event, stage=1)
        .exclude(player_id__in=through)
        .values_list("player_id", flat=True)
        .first(),
    ]
    Stage.objects.filter(pk=stage.pk).update(through=swapped)
    assert event_stages_problem(event) == (
        "stage 2's cut differs from what the event's history says: changed outside the app"
    )
    Stage.objects.filter(pk=stage.pk).update(through=through, carry="all")
    assert event_stages_problem(event) == (
        "stage 2's settings differ from what the event's history says: changed outside the app"
    )


def test_an_undone_cut_and_a_renamed_stage_are_sealed_too() -> None:
    event, organiser = an_event_in_two_stages()
    stage = Stage.objects.get(event=event, number=2)
    cut_undo(stage=stage, user=organiser)
    stage_change(stage=Stage.first(event), data={"name": "Qualifying"}, user=organiser)
    assert list(EventChange.objects.filter(event=event).values_list("action", flat=True)) == [
        "stage",
        "cut",
        "cut",
        "stage",
    ]
    assert event_stages_problem(event) is None
    assert Stage.objects.get(event=event, number=1).name == "Qualifying"


def _restore(path: Path) -> int:
    try:
        call_command("restore", str(path))
    except CommandError as refused:
        return refused.returncode
    return 0


def test_a_backup_carries_the_stages_and_their_standings(tmp_path: Path) -> None:
    event, _ = an_event_in_two_stages()
    lines = sorted(StageStanding.objects.filter(event=event).values_list("stage", "player__name", "carried", "rank"))
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    call_command("flush", interactive=False, verbosity=0)
    assert _restore(path) == 0
    event = Event.objects.get(slug="cup")
    assert Stage.objects.get(event=event, number=2).through is not None
    assert (
        sorted(StageStanding.objects.filter(event=event).values_list("stage", "player__name", "carried", "rank"))
        == lines
    )


def test_a_stage_cut_changed_inside_a_backup_is_refused(tmp_path: Path, capsys: Any) -> None:
    an_event_in_two_stages()
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    stage = next(o for o in data["objects"] if o["model"] == "tournament.stage")
    stage["fields"]["through"] = stage["fields"]["through"][::-1][:3]
    path.write_text(json.dumps(data), encoding="utf-8")
    call_command("flush", interactive=False, verbosity=0)
    assert _restore(path) == 2
    err = capsys.readouterr().err
    assert "tournament.stage: the tournament.stage rows differ from what was backed up" in err
    assert "stage 2's cut differs from what the event's history says" in err
    assert not Event.objects.exists()


def test_a_version_2_backup_from_before_stages_still_restores(tmp_path: Path) -> None:
    organiser = User.objects.create_user("org")
    event = EventFactory.create(slug="club", organisers=[organiser])
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    game_record_totals(
        event=event, player_ids=[p.pk for p in players], scores=list(SCORES[0]), deposits_left=0, user=organiser
    )
    standings_recompute(event)
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    # As version 2 wrote it: no stage rows and no seal for them, the header sealed with the version it names.
    data = json.loads(path.read_text(encoding="utf-8"))
    added = (
        "tournament.stage",
        "tournament.teamseat",
        "tournament.lineup",
        "tournament.playermerge",
        "scoring.stagestanding",
        "scoring.rankedevent",
        "scoring.rankedresult",
    )
    data["objects"] = [o for o in data["objects"] if o["model"] not in added]
    for label in added:
        del data["seal"]["models"][label]
    data["header"]["version"] = 2
    _, key = history_keys.sealing_key()
    data["seal"]["header"] = history_keys.mac(key, canonical(data["header"]))
    path.write_text(json.dumps(data), encoding="utf-8")
    call_command("flush", interactive=False, verbosity=0)
    assert _restore(path) == 0
    assert list(
        Standing.objects.filter(event__slug="club").order_by("rank").values_list("player__name", flat=True)
    ) == ["Ann", "Bo", "Cy", "Di"]
