"""python manage.py import_log EVENT PATH [PATH ...]: online game logs (Tenhou, Mahjong Soul) into an event.

A PATH may be a folder: every file in it is read. Exit 0 when every game was
imported and matched its log, 1 when any differed from its log, 2 when any
could not be read (or its players were not found).
"""

from __future__ import annotations

import sys
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rules.errors import Problem
from rules.presets import preset_keys
from scoring.services.online import LogResult, Outcome, logs_import
from scoring.services.standings import standings_batch
from tournament.models import Event
from tournament.selectors import is_slug

EXIT_DIFFERS, EXIT_UNREADABLE = 1, 2
BATCH = 100  # logs read and stored together: their lookups are shared, their bytes held at once


class Command(BaseCommand):
    help = (
        "Import online game logs (Tenhou mjlog XML, plain or gzip; tenhou.net/6 JSON) into an event. Each "
        "hand is replayed and compared with what the log records; each file is imported whole or not at all."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files, or folders of them")
        parser.add_argument(
            "--create-players",
            action="store_true",
            help="register platform names the event does not know as new players",
        )
        parser.add_argument(
            "--keep-mismatches",
            action="store_true",
            help='import a game that differs from its log, marked "differs from the log"',
        )
        parser.add_argument(
            "--ruleset",
            choices=preset_keys(),
            metavar="KEY",
            help="the preset for logs that cannot say (a Mahjong Soul export: mahjong-soul)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["event"]
        event = Event.objects.filter(slug=slug).first() if is_slug(slug) else None
        if event is None:
            raise CommandError(f"no event with the slug {slug!r}", returncode=EXIT_UNREADABLE)
        files = _files(options["paths"])
        started = time.perf_counter()
        results = []
        with standings_batch():
            for at in range(0, len(files), BATCH):
                for result in self._import(event, files[at : at + BATCH], options):
                    self._report(result)
                    results.append(result)
        self._summary(results, time.perf_counter() - started)
        outcomes = {r.outcome for r in results}
        if Outcome.UNREADABLE in outcomes:
            sys.exit(EXIT_UNREADABLE)
        if outcomes & {Outcome.DIFFERS, Outcome.KEPT}:
            sys.exit(EXIT_DIFFERS)

    def _import(self, event: Event, paths: list[Path], options: dict[str, Any]) -> list[LogResult]:
        """One batch of files: those that cannot be read are answered here, the others imported together."""
        logs: list[tuple[str, bytes]] = []
        unread: dict[int, LogResult] = {}
        for i, path in enumerate(paths):
            try:
                logs.append((str(path), path.read_bytes()))
            except OSError as exc:
                unread[i] = LogResult(
                    str(path), Outcome.UNREADABLE, problems=[Problem("", f"cannot read the file ({exc.strerror})")]
                )
        imported = iter(
            logs_import(
                event=event,
                logs=logs,
                create_players=options["create_players"],
                keep_mismatches=options["keep_mismatches"],
                ruleset=options["ruleset"],
            )
        )
        return [unread[i] if i in unread else next(imported) for i in range(len(paths))]

    def _report(self, result: LogResult) -> None:
        where = result.source
        if result.outcome in (Outcome.DIFFERS, Outcome.UNREADABLE):
            for p in result.problems:
                self.stderr.write(f"{where}: {p.field}: {p.message}" if p.field else f"{where}: {p.message}")
        elif result.outcome == Outcome.KEPT:
            for p in result.problems:
                self.stderr.write(f"{where}: {p.message}")
        if result.game is not None:
            label = {
                Outcome.IMPORTED: "imported",
                Outcome.KEPT: "imported, differs from the log",
                Outcome.ALREADY: "already imported",
            }[result.outcome]
            self.stdout.write(f"{where}: {label} as game {result.game.pk} ({result.log_id})")

    def _summary(self, results: list[LogResult], seconds: float) -> None:
        stored = sum(1 for r in results if r.outcome in (Outcome.IMPORTED, Outcome.KEPT))
        refused = sum(1 for r in results if not r.stored)
        rate = f", {stored / seconds:.1f} games/s" if stored and seconds > 0 else ""
        self.stdout.write(
            f"{stored} game(s) imported, {len(results) - stored - refused} already there, "
            f"{refused} refused, in {seconds:.1f} s{rate}"
        )


def _files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
        else:
            out.append(path)
    if not out:
        raise CommandError("no log files in " + ", ".join(map(str, paths)), returncode=EXIT_UNREADABLE)
    return out
