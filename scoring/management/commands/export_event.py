"""python manage.py export_event EVENT [--format json|csv|sheets] [--output PATH]."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.services.replay import NamedBy, game_sheet
from scoring.services.results_export import results_csv
from scoring.services.standings_export import standings_table_csv
from scoring.services.transfer import event_export, sealed_history
from tournament.models import Event


class Command(BaseCommand):
    help = (
        "Write an event out. json: everything (settings, players, rounds, games with their sheets and "
        "results, standings), to stdout or --output FILE. csv: standings.csv and results.csv in the folder "
        "--output (default: the current one). sheets: one score sheet per game in the folder --output, "
        "readable by score_sheet and import_sheets."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("--format", choices=("json", "csv", "sheets"), default="json")
        parser.add_argument("--output", type=Path, help="a file (json) or a folder (csv, sheets)")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"no event with the slug {options['event']!r}")
        output: Path | None = options["output"]
        if options["format"] == "json":
            text = json.dumps(event_export(event), ensure_ascii=False, indent=2)
            if output is None:
                self.stdout.write(text)
            else:
                output.write_text(text + "\n", encoding="utf-8")
                self.stdout.write(f"wrote {output}")
            return
        folder = output or Path()
        folder.mkdir(parents=True, exist_ok=True)
        if options["format"] == "csv":
            files = {
                f"{event.slug}-standings.csv": standings_table_csv(event),
                f"{event.slug}-results.csv": results_csv(event),
            }
        else:
            files = {
                f"{event.slug}-game-{game.pk}.json": json.dumps(
                    {**game_sheet(game, by=NamedBy.LABEL), "history": sealed_history(game)},
                    ensure_ascii=False,
                    indent=2,
                )
                + "\n"
                for game in event.games.select_related("event").order_by("pk")
            }
        for name, content in files.items():
            (folder / name).write_text(content, encoding="utf-8")
        self.stdout.write(f"wrote {len(files)} file(s) to {folder}")
