"""python manage.py import_sheets EVENT FOLDER [--create-players]: every *.json sheet in FOLDER into the event."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rules.errors import Refusal
from scoring.services.transfer import NamedSheet, sheets_import
from scoring.sheet.document import read_json
from tournament.models import Event
from tournament.selectors import is_slug


class Command(BaseCommand):
    help = (
        "Load a folder of score sheets (docs/score-sheet.md, one game per *.json file) into an event: all of "
        "them, or none and every problem listed."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("folder", type=Path)
        parser.add_argument(
            "--create-players", action="store_true", help="register names the event does not know as new players"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["event"]
        event = Event.objects.filter(slug=slug).first() if is_slug(slug) else None
        if event is None:
            raise CommandError(f"no event with the slug {slug!r}", returncode=2)
        folder: Path = options["folder"]
        if not folder.is_dir():
            raise CommandError(f"{folder}: not a folder", returncode=2)
        files = sorted(folder.glob("*.json"))
        if not files:
            raise CommandError(f"{folder}: no *.json score sheets in it", returncode=2)
        sheets, problems = [], []
        for path in files:
            try:
                sheets.append(NamedSheet(source=path.name, data=read_json(path.read_bytes())))
            except OSError as exc:
                problems.append(f"{path.name}: cannot read the file ({exc.strerror})")
            except Refusal as exc:
                problems += [
                    f"{path.name}: {p.field}: {p.message}" if p.field else f"{path.name}: {p.message}"
                    for p in exc.problems
                ]
        if not problems:
            try:
                games = sheets_import(event=event, sheets=sheets, create_players=options["create_players"])
            except Refusal as exc:
                problems = [str(p) for p in exc.problems]
        if problems:
            for line in problems:
                self.stderr.write(line)
            self.stderr.write(f"nothing imported: {len(problems)} problem(s) in {folder}")
            sys.exit(2)
        finished = sum(1 for g in games if g.status == g.Status.FINISHED)
        self.stdout.write(f"imported {len(games)} game(s) into {event.slug} ({finished} finished)")
