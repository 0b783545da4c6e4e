"""python manage.py import_sheets EVENT FOLDER [--create-players]: every *.json sheet in FOLDER into the event."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.services.transfer import NamedSheet, sheets_import
from tournament.errors import InvalidInput
from tournament.models import Event


class Command(BaseCommand):
    help = ("Load a folder of score sheets (SCORE_SHEET.md, one game per *.json file) into an event: all of "
            "them, or none and every problem listed.")

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("folder", type=Path)
        parser.add_argument("--create-players", action="store_true",
                            help="register names the event does not know as new players")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"no event with the slug {options['event']!r}")
        folder: Path = options["folder"]
        if not folder.is_dir():
            raise CommandError(f"{folder}: not a folder")
        files = sorted(folder.glob("*.json"))
        if not files:
            raise CommandError(f"{folder}: no *.json score sheets in it")
        sheets, problems = [], []
        for path in files:
            try:
                sheets.append(NamedSheet(source=path.name, data=json.loads(path.read_text(encoding="utf-8"))))
            except (OSError, UnicodeDecodeError) as exc:
                problems.append(f"{path.name}: cannot read the file ({exc})")
            except json.JSONDecodeError as exc:
                problems.append(f"{path.name}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}")
        if not problems:
            try:
                games = sheets_import(event=event, sheets=sheets, create_players=options["create_players"])
            except InvalidInput as exc:
                problems = [str(p) for p in exc.problems]
        if problems:
            for line in problems:
                self.stderr.write(line)
            self.stderr.write(f"nothing imported: {len(problems)} problem(s) in {folder}")
            sys.exit(2)
        finished = sum(1 for g in games if g.status == g.Status.FINISHED)
        self.stdout.write(f"imported {len(games)} game(s) into {event.slug} ({finished} finished)")
