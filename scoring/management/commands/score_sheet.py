"""python manage.py score_sheet PATH|- [--format text|json] (docs/score-sheet.md)."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from rules.errors import Refusal
from scoring.sheet.document import read_json
from scoring.sheet.output import named, result_json
from scoring.sheet.reader import score_sheet
from scoring.sheet.text import result_text


class Command(BaseCommand):
    help = "Score one game written as a score sheet (JSON) and print its hands and final standings."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("path", help="the score sheet file, or - for standard input")
        parser.add_argument("--format", choices=("text", "json"), default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        try:
            if path == "-":
                raw = getattr(sys.stdin, "buffer", sys.stdin).read()  # bytes; text where stdin has no buffer
            else:
                with open(path, "rb") as handle:
                    raw = handle.read()
        except OSError as exc:
            self._fail([f"{path}: cannot read the file ({exc.strerror})"])
        try:
            # Bytes, not text: a file that is not UTF-8 is a problem to report, not a crash.
            scored = score_sheet(read_json(raw))
        except Refusal as exc:
            self._fail([str(p) if p.field else f"(sheet): {p.message}" for p in exc.problems])
        result, names = result_json(scored), scored.sheet.names
        if options["format"] == "json":
            self.stdout.write(json.dumps(named(result, names), ensure_ascii=False, indent=2))
        else:
            self.stdout.write(result_text(result, names), ending="")

    def _fail(self, lines: list[str]) -> None:
        # Exit 2 with one line per problem and nothing on stdout (docs/score-sheet.md).
        for line in lines:
            self.stderr.write(line)
        self.stderr.flush()
        sys.exit(2)
