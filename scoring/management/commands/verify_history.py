"""python manage.py verify_history [EVENT] [--seal] [--head GAME:DIGITS]: check every game's sealed history.

Every entry's seal is recomputed under the history key it names, and every game's hands, seats, start, rules,
end, penalties and confirmations are compared with what its history says they are; then each game's result and
each event's standings are recomputed from them and compared with the stored ones. A chain written before seals
were keyed is reported as unsealed; ``--seal`` seals the intact ones (a keyed entry that changes nothing is
appended). ``--head 12:3fa0c1d2e4b5`` looks for a head a player kept in game 12's history.

Exit 0 when every chain holds and is sealed, 1 naming each game that does not (or a kept head not found), 2 for
an unknown event or game.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.models import EventChange, HandChange
from scoring.services.audit import result_problems, standings_problems
from scoring.services.chain import SHORT, event_head, kept_head, verify_game
from scoring.services.penalties import event_penalties_problem, event_penalties_seal
from scoring.services.sealing import game_seal
from scoring.services.stage_checks import event_stages_problem
from tournament.models import Event, Game
from tournament.selectors import is_row_id, is_slug

EXIT_BROKEN = 1
EXIT_UNKNOWN = 2


@dataclass
class _Tally:
    """What the run found, over every event: the exit status and the last line say it."""

    broken: int = 0
    unsealed: int = 0
    entries: int = 0
    games: int = 0


class Command(BaseCommand):
    help = (
        "Check that nothing that decides a result was changed outside the application: every history entry's "
        "seal is recomputed under the history key from its content and the entry before it, every game's "
        "hands, seats, rules and penalties are compared with what its history says, and every result and "
        "standing is recomputed from them."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("event", nargs="?", help="the event's slug (default: every event)")
        parser.add_argument(
            "--seal",
            action="store_true",
            help="seal, with the history key, every intact chain "
            "written before seals were keyed (the upgrade's step: refused once any entry was sealed "
            "with a key)",
        )
        parser.add_argument(
            "--seal-game",
            type=int,
            action="append",
            default=[],
            metavar="GAME",
            help="seal this game's unsealed chain, after checking it (repeatable)",
        )
        parser.add_argument(
            "--seal-penalties",
            action="store_true",
            help="with EVENT: seal the event's penalties given before penalties were sealed, after checking them",
        )
        parser.add_argument(
            "--head",
            metavar="GAME:DIGITS",
            help="look for a head a player kept (8 or more of its first hex digits) in that game's history",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["head"]:
            self._kept(options["head"])
            return
        self._may_seal(options)
        tally = _Tally()
        for event in self._events(options["event"]):
            self._check_games(event, options, tally)
            self._check_event(event, options, tally)
        if tally.broken or tally.unsealed:
            self.stderr.write(
                f"{tally.broken} problem(s) in {tally.games} game(s) and their standings, "
                f"{tally.unsealed} game(s) unsealed"
            )
            sys.exit(EXIT_BROKEN)
        self.stdout.write(f"all {tally.games} game histories intact and sealed ({tally.entries} entries)")

    def _check_games(self, event: Event, options: dict[str, Any], tally: _Tally) -> None:
        for game in Game.objects.filter(event=event).order_by("pk"):
            sealing = options["seal"] or game.pk in options["seal_game"]
            report = game_seal(game.pk) if sealing else verify_game(game)
            tally.games += 1
            tally.entries += report.entries
            problems = [str(report.problem)] if not report.intact else result_problems(game)
            if problems:
                tally.broken += 1
                for problem in problems:
                    self.stderr.write(f"{event.slug}: game {game.pk}: {problem}")
            if report.intact and report.unsealed:
                tally.unsealed += 1
                self.stderr.write(
                    f"{event.slug}: game {game.pk}: its history carries no keyed seal: it was "
                    "written before seals were keyed, or rewritten by someone without the key; "
                    "if it predates keyed seals, `manage.py verify_history --seal` seals it"
                )

    def _check_event(self, event: Event, options: dict[str, Any], tally: _Tally) -> None:
        """The event's own history (penalties, stages) and its standings, recomputed."""
        if options["seal"] or options["seal_penalties"]:
            event_penalties_seal(event)
        own = event_penalties_problem(event) or event_stages_problem(event)
        if own is not None:
            tally.broken += 1
            self.stderr.write(f"{event.slug}: {own}")
        standings = standings_problems(event)
        if standings is None:
            self.stdout.write(
                f"{event.slug}: standings not checked: a recompute is pending (`manage.py recompute_standings` runs it)"
            )
        for problem in standings or []:
            tally.broken += 1
            self.stderr.write(f"{event.slug}: {problem}: the standings were changed outside the application")
        self.stdout.write(f"{event.slug}: head {event_head(event)[:SHORT]}")

    def _may_seal(self, options: dict[str, Any]) -> None:
        if options["seal_penalties"] and options["event"] is None:
            raise CommandError("--seal-penalties seals one event's penalties: name the EVENT", returncode=EXIT_UNKNOWN)
        # Once the history key has sealed anything, a chain without a key was written behind the application's back
        # (or restored from an old copy): sealing them all at once would vouch for a forgery. Each is named.
        if options["seal"] and (HandChange.objects.exclude(key="").exists() or EventChange.objects.exists()):
            raise CommandError(
                "--seal is the upgrade's step, and this history already has entries sealed with a "
                "key: an unsealed chain now may be a forgery. Check each one, then seal it by name "
                "(--seal-game GAME, or EVENT --seal-penalties)",
                returncode=EXIT_UNKNOWN,
            )

    def _events(self, slug: str | None) -> list[Event]:
        if slug is None:
            return list(Event.objects.order_by("pk"))
        events = list(Event.objects.filter(slug=slug)) if is_slug(slug) else []
        if not events:
            raise CommandError(f"no event with the slug {slug!r}", returncode=EXIT_UNKNOWN)
        return events

    def _kept(self, value: str) -> None:
        number, _, digits = value.partition(":")
        game = Game.objects.filter(pk=int(number)).first() if is_row_id(number) else None
        if game is None:
            raise CommandError(
                f"--head {value!r}: no game {number!r} (write GAME:DIGITS, e.g. 12:3fa0c1d2e4b5)",
                returncode=EXIT_UNKNOWN,
            )
        report, kept = verify_game(game), kept_head(game, digits)
        if not report.intact:
            self.stderr.write(f"game {game.pk}: {report.problem}")
            sys.exit(EXIT_BROKEN)
        if not kept.found:
            self.stderr.write(
                f"game {game.pk}: the head {digits.strip()[:SHORT]!r} is not in its history (8 or "
                "more hex digits): the history was rewritten after it was kept, or it is another "
                "game's"
            )
            sys.exit(EXIT_BROKEN)
        self.stdout.write(
            f"game {game.pk}: the head is history entry {kept.entry}, with {kept.later} entry(ies) "
            "after it; the history holds"
        )
