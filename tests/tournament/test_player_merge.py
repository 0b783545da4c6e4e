"""Two records of one person merged (issue 21): the games stay where they were played and sealed, the person's
career counts both, the merge is kept with who did it and can be undone; refused for different federation ids,
for records that play in one event, and for users who run no event of either."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scoring.services.chain import verify_game
from tests.conftest import client_for
from tests.factories import EventFactory, played, registered
from tournament.models import Game, Player, PlayerMerge, Registration
from tournament.services.players import identity

pytestmark = pytest.mark.django_db


def two_records() -> tuple[User, Player, Player]:
    organiser = User.objects.create_user("org")
    spring = EventFactory.create(organisers=[organiser])
    autumn = EventFactory.create(organisers=[organiser])
    ann, *spring_others = registered(spring, "Ann Lee", "Bo", "Cy", "Di")
    again, *autumn_others = registered(autumn, "Ann LEE", "Ed", "Fay", "Gus")
    played(spring, [ann, *spring_others], [{"result": "draw", "tenpai": [ann.pk]}], end=True)
    played(autumn, [again, *autumn_others], [{"result": "draw", "tenpai": []}], end=True)
    return organiser, ann, again


def test_a_merge_keeps_every_game_and_is_undone() -> None:
    organiser, ann, again = two_records()
    api = client_for(organiser)
    answer = api.post(f"/api/v1/players/{again.pk}/merge", {"into": ann.pk}, format="json")
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["kept"], answer.json()["records"], answer.json()["by"]) == (ann.pk, [ann.pk, again.pk], "org")
    assert identity(again) == identity(ann) == [ann.pk, again.pk]
    # No game moved: each is sealed under the record it was played by, and its history still holds.
    assert Game.objects.filter(seats__player=again).count() == 1
    assert all(verify_game(game).intact for game in Game.objects.all())
    refused = api.post(f"/api/v1/players/{again.pk}/merge", {"into": ann.pk}, format="json")
    assert refused.status_code == 409
    undone = api.delete(f"/api/v1/players/{again.pk}/merge")
    assert undone.status_code == 200
    assert undone.json()["undone_at"] is not None
    assert identity(again) == [again.pk]
    assert list(PlayerMerge.objects.values_list("merged__name", "undone_by__username")) == [("Ann LEE", "org")]
    assert api.delete(f"/api/v1/players/{again.pk}/merge").status_code == 409


@pytest.mark.parametrize(
    ("kept_id", "merged_id", "field", "message"),
    [
        ("04-1", "04-2", "into", "different federation ids (04-2 and 04-1)"),
        ("", "", "into", "cannot be merged into itself"),
    ],
)
def test_a_merge_is_refused_naming_why(kept_id: str, merged_id: str, field: str, message: str) -> None:
    organiser, ann, again = two_records()
    Player.objects.filter(pk=ann.pk).update(federation_id=kept_id)
    Player.objects.filter(pk=again.pk).update(federation_id=merged_id)
    into = ann.pk if kept_id else again.pk
    refused = client_for(organiser).post(f"/api/v1/players/{again.pk}/merge", {"into": into}, format="json")
    assert refused.status_code == 400
    assert [(e["field"], message in e["message"]) for e in refused.json()["errors"]] == [(field, True)]
    assert not PlayerMerge.objects.exists()


def test_records_in_one_event_and_strangers_are_refused() -> None:
    organiser, ann, again = two_records()
    Registration.objects.create(event=ann.registrations.get().event, player=again)  # the same event
    assert (
        client_for(organiser).post(f"/api/v1/players/{again.pk}/merge", {"into": ann.pk}, format="json").status_code
        == 409
    )
    stranger = User.objects.create_user("who")
    assert (
        client_for(stranger).post(f"/api/v1/players/{again.pk}/merge", {"into": ann.pk}, format="json").status_code
        == 403
    )
    assert (
        client_for(None).post(f"/api/v1/players/{again.pk}/merge", {"into": ann.pk}, format="json").status_code == 401
    )


def test_a_merged_persons_statistics_count_both_records() -> None:
    """Ann played one game under each record: two games once merged, one again once the merge is undone."""
    organiser, ann, again = two_records()
    api = client_for(organiser)

    def games() -> int:
        answer = client_for(None).get(f"/api/v1/players/{ann.pk}/stats/")
        assert answer.status_code == 200, answer.json()
        count: int = answer.json()["games"]
        return count

    assert games() == 1
    api.post(f"/api/v1/players/{again.pk}/merge", {"into": ann.pk}, format="json")
    assert games() == 2
    api.delete(f"/api/v1/players/{again.pk}/merge")
    assert games() == 1


def test_a_record_others_were_merged_into_is_not_merged_again() -> None:
    """A merge stays one level deep: the person's records are the kept one and those merged into it."""
    organiser, ann, again = two_records()
    third = registered(EventFactory.create(organisers=[organiser]), "A. Lee")[0]
    api = client_for(organiser)
    assert api.post(f"/api/v1/players/{again.pk}/merge", {"into": ann.pk}, format="json").status_code == 201
    refused = api.post(f"/api/v1/players/{ann.pk}/merge", {"into": third.pk}, format="json")
    assert refused.status_code == 409
    assert "records were merged into Ann Lee" in refused.json()["errors"][0]["message"]
    assert api.post(f"/api/v1/players/{third.pk}/merge", {"into": ann.pk}, format="json").status_code == 201
    assert identity(third) == [ann.pk, again.pk, third.pk]
