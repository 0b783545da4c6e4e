"""The console joins two records of one person from a player's page (issue 21): the records that look alike are
offered, the older one is kept, the join shows and is undone there; strangers cannot."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import EventFactory, registered
from tournament.models import Player, PlayerMerge

pytestmark = pytest.mark.django_db


def test_an_organiser_joins_and_separates_two_records(client: Client) -> None:
    organiser = User.objects.create_user("org")
    spring, autumn = (EventFactory.create(organisers=[organiser]) for _ in range(2))
    ann = registered(spring, "Ann Lee")[0]
    again = registered(autumn, "ann  lee")[0]
    registered(autumn, "Ann Leed")  # not alike
    client.force_login(organiser)
    page = client.get(f"/events/{autumn.slug}/manage/players/{again.pk}/")
    assert page.status_code == 200
    assert f'name="other" value="{ann.pk}"' in page.content.decode()
    assert page.content.decode().count('name="other"') == 1
    done = client.post(f"/events/{autumn.slug}/manage/players/{again.pk}/merge/", {"other": ann.pk}, follow=True)
    assert "one career" in done.content.decode()
    assert Player.objects.get(pk=again.pk).merged_into_id == ann.pk  # the older record is kept
    assert "This record is counted as Ann Lee" in done.content.decode()
    client.post(f"/events/{autumn.slug}/manage/players/{again.pk}/merge/", {"undo": "1"})
    assert Player.objects.get(pk=again.pk).merged_into_id is None
    assert PlayerMerge.objects.get().undone_at is not None


def test_a_wrong_number_and_a_stranger_change_nothing(client: Client) -> None:
    organiser, stranger = User.objects.create_user("org"), User.objects.create_user("who")
    event = EventFactory.create(organisers=[organiser])
    ann = registered(event, "Ann")[0]
    client.force_login(organiser)
    refused = client.post(f"/events/{event.slug}/manage/players/{ann.pk}/merge/", {"other": "99x"}, follow=True)
    assert "no record of that number you may see" in refused.content.decode()
    client.force_login(stranger)
    assert client.post(f"/events/{event.slug}/manage/players/{ann.pk}/merge/", {"other": "1"}).status_code == 403
    assert not PlayerMerge.objects.exists()
