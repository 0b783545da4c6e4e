"""python manage.py recompute_standings EVENT [EVENT ...] | --all: rebuild standings now, in this process."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.services.standings import standings_recompute
from tournament.models import Event


class Command(BaseCommand):
    help = (
        "Recompute the standings of the named events (slugs), or of every event with --all: for standings "
        "left marked as being updated after a recompute could not run (a broker or database outage)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("events", nargs="*", help="event slugs")
        parser.add_argument("--all", action="store_true", help="every event")

    def handle(self, *args: Any, **options: Any) -> None:
        slugs: list[str] = options["events"]
        if options["all"] == bool(slugs):
            raise CommandError("name the events' slugs, or give --all")
        events = list(Event.objects.order_by("slug") if options["all"] else Event.objects.filter(slug__in=slugs))
        unknown = sorted(set(slugs) - {e.slug for e in events})
        if unknown:
            raise CommandError(f"no event with the slug {', '.join(map(repr, unknown))}")
        for event in events:
            self.stdout.write(f"{event.slug}: {standings_recompute(event)} lines")
