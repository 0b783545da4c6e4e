"""python manage.py restore FILE: a backup into an empty database, checked before it is committed.

Exit 0 when restored (every chain holds, every event's head and standings are the backup's), 2 otherwise,
with nothing written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rules.errors import Refusal
from scoring.services.backup import backup_restore
from scoring.services.chain import SHORT

EXIT_REFUSED = 2


class Command(BaseCommand):
    help = "Restore a backup written by `manage.py backup` into an empty database, all or nothing."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: cannot read the file ({exc.strerror})", returncode=EXIT_REFUSED) from None
        try:
            restored = backup_restore(data)
        except Refusal as exc:
            for p in exc.problems:
                self.stderr.write(f"{path}: {p.field}: {p.message}" if p.field else f"{path}: {p.message}")
            raise CommandError("nothing was restored", returncode=EXIT_REFUSED) from None
        for slug, head in restored.events.items():
            self.stdout.write(f"{slug}: head {head[:SHORT]}, chains and standings as backed up")
        self.stdout.write(f"restored {restored.rows} row(s) from {path}")
