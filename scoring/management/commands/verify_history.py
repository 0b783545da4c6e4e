"""python manage.py verify_history [EVENT]: recompute every game's hash chain and compare its hands with it.

Exit 0 when every chain holds, 1 naming the first entry of each game that does not, 2 for an unknown event.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.services.chain import SHORT, event_head, verify_game
from tournament.models import Event, Game
from tournament.selectors import is_slug

EXIT_BROKEN = 1


class Command(BaseCommand):
    help = ("Check that no game's history or hands were changed outside the application: every history entry's "
            "hash is recomputed from its content and the entry before it, and every game's hands are compared "
            "with what its history says they are.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("event", nargs="?", help="the event's slug (default: every event)")

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["event"]
        if slug is None:
            events = list(Event.objects.order_by("pk"))
        else:
            events = list(Event.objects.filter(slug=slug)) if is_slug(slug) else []
            if not events:
                raise CommandError(f"no event with the slug {slug!r}", returncode=2)
        broken = entries = games = 0
        for event in events:
            for game in Game.objects.filter(event=event).order_by("pk"):
                report = verify_game(game)
                games += 1
                entries += report.entries
                if not report.intact:
                    broken += 1
                    self.stderr.write(f"{event.slug}: game {game.pk}: {report.problem}")
            self.stdout.write(f"{event.slug}: head {event_head(event)[:SHORT]}")
        if broken:
            self.stderr.write(f"{broken} of {games} game(s) do not match their history")
            sys.exit(EXIT_BROKEN)
        self.stdout.write(f"all {games} game histories intact ({entries} entries)")
