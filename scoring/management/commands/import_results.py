"""python manage.py import_results FILE [--ranking ema|ema-mcr]: events run elsewhere into the EMA ranking."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rules.errors import Refusal
from scoring.models import MersList
from scoring.services.ranking_import import COLUMNS, results_import


class Command(BaseCommand):
    help = (
        "Import the final rankings of events run elsewhere into the EMA ranking, from a CSV with the columns "
        f"{', '.join(COLUMNS)} (weight may be empty: computed). Every line is checked; nothing is written if "
        "one is wrong. An event imported again under the same event_id is replaced."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="a CSV file, UTF-8")
        parser.add_argument(
            "--ranking",
            default=MersList.RIICHI,
            choices=MersList.values,
            help="the EMA's riichi ranking (ema, the default) or its MCR ranking (ema-mcr)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path}: cannot be read as UTF-8 text ({exc})") from None
        try:
            done = results_import(text, options["ranking"])
        except Refusal as exc:
            for problem in exc.problems:
                self.stderr.write(f"{path}: {problem}")
            raise CommandError(f"{len(exc.problems)} problem(s) found; nothing was imported") from None
        self.stdout.write(f"{done.events} event(s), {done.results} ranked result(s) imported into {options['ranking']}")
        if done.unranked:
            self.stdout.write(f"{done.unranked} line(s) without a federation id: not ranked (no EMA number)")
        if done.replaced:
            self.stdout.write(f"replaced: {', '.join(done.replaced)}")
