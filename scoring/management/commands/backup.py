"""python manage.py backup FILE: every event, its players, games, hands and sealed histories, in one file.

Exit 0 when written, 2 when the file cannot be written (with nothing left behind).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.services.backup import backup_write
from scoring.services.chain import SHORT

EXIT_REFUSED = 2


class Command(BaseCommand):
    help = (
        "Write the whole event set (users, players, events, games, hands, histories with their seals, results "
        "and standings) to one JSON file that `manage.py restore` brings back into an empty database. The "
        "file holds the users' password hashes: keep it as safe as the database."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        partial = path.with_name(path.name + ".partial")
        try:
            with partial.open("w", encoding="utf-8") as out:
                header = backup_write(out)
            partial.replace(path)  # a backup cut short by a crash never takes the place of a whole one
        except OSError as exc:  # a missing folder, no permission, a full disk
            partial.unlink(missing_ok=True)
            raise CommandError(f"{path}: cannot write the backup ({exc.strerror})", returncode=EXIT_REFUSED) from None
        for slug, head in header["events"].items():
            self.stdout.write(f"{slug}: head {head[:SHORT]}")
        self.stdout.write(f"wrote {path} ({len(header['events'])} event(s))")
