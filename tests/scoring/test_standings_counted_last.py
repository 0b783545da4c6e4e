"""A write's standings change counted at the end of its block (``standings_counted_last``): counted once the
block ends, in the same transaction, or not at all when the block fails or its transaction is rolled back."""

from __future__ import annotations

import pytest
from django.db import transaction

from scoring.models import StandingsState
from scoring.services.standings import standings_changed, standings_counted_last
from tests.factories import EventFactory, registered
from tournament.models import Event

pytestmark = pytest.mark.django_db


def counted(event: Event) -> tuple[int, dict[str, int], int]:
    state = StandingsState.objects.get_or_create(event=event)[0]
    return state.changes, state.touched, state.all_from


def test_changes_are_counted_when_the_block_ends_as_one_change():
    event = EventFactory.create(slug="last")
    ann, bo, cy = (p.pk for p in registered(event, "Ann", "Bo", "Cy"))
    before, _, all_before = counted(event)  # the registrations touched every line
    with transaction.atomic():
        with standings_counted_last():
            standings_changed(event.pk, [ann])
            with standings_counted_last():  # a write within a write: handed to the outer block
                standings_changed(event.pk, [bo])
            assert counted(event)[0] == before  # nothing locked or written yet
            standings_changed(event.pk, [cy])
        changes, touched, all_from = counted(event)
    assert changes == before + 1
    assert touched == {str(ann): changes, str(bo): changes, str(cy): changes}
    assert all_from == all_before


def test_every_line_wins_over_players_in_one_block():
    event = EventFactory.create(slug="all")
    (ann,) = (p.pk for p in registered(event, "Ann"))
    with transaction.atomic(), standings_counted_last():
        standings_changed(event.pk, [ann])
        standings_changed(event.pk, None)
        standings_changed(event.pk, [ann])
    changes, touched, all_from = counted(event)
    assert (touched, all_from) == ({}, changes)


def test_a_failed_block_or_a_rolled_back_transaction_counts_nothing():
    event = EventFactory.create(slug="failed")
    (ann,) = (p.pk for p in registered(event, "Ann"))
    before = counted(event)

    def refused() -> None:
        with transaction.atomic(), standings_counted_last():
            standings_changed(event.pk, [ann])
            raise ValueError("refused")

    # A write refused within another: the outer block goes on and commits.
    with transaction.atomic(), standings_counted_last(), pytest.raises(ValueError, match="refused"):
        refused()
    assert counted(event) == before
    with transaction.atomic(), standings_counted_last():  # an answer that rolls the write back (``once``)
        standings_changed(event.pk, [ann])
        transaction.set_rollback(True)
    assert counted(event) == before
