"""python manage.py ranking KEY [--as-of DATE] [--explain]: print a ranking across events on a date."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rules.errors import Refusal
from scoring.services.ranking_read import MERS, Row, parse_as_of, ranking_find, ranking_on, rankings_available


def _counted(result: dict[str, Any]) -> str:
    parts = "".join(p for p, flag in (("A", result["part_a"]), ("B", result["part_b"])) if flag) or "dropped"
    return (
        f"{result['date']} {result['name']}: {result['place']} of {result['players']} → {result['score']}, "
        f"weight {result['weight']:g} × time {result['time_factor']:g} [{parts}]"
    )


class Command(BaseCommand):
    help = (
        "Print a ranking across events on a date: ema (the EMA's riichi ranking), ema-mcr (its MCR ranking), "
        "or a rated event's slug."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("key", help="ema, ema-mcr or a rated event's slug")
        parser.add_argument("--as-of", dest="as_of", help="YYYY-MM-DD; today if not given")
        parser.add_argument(
            "--explain",
            action="store_true",
            help="each player's results counted and dropped (EMA), or the games that moved the rating",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        info = ranking_find(options["key"], None)
        if info is None:
            keys = ", ".join(r.key for r in rankings_available(None))
            raise CommandError(f"key: no ranking {options['key']!r}; there are: {keys}")
        try:
            on = parse_as_of(options["as_of"])
        except Refusal as exc:
            raise CommandError(str(exc)) from None
        ranking = ranking_on(info, on)
        what = f"week of {ranking.week}" if info.kind == MERS else f"on {ranking.as_of}"
        self.stdout.write(f"{info.name} ({info.key}), {what}")
        for row in ranking.rows():
            self._row(row, explain=options["explain"])

    def _row(self, row: Row, *, explain: bool) -> None:
        moved = "new" if row.previous_rank is None else f"{row.movement:+d}" if row.movement else "="
        extra = f"{row.games} games" if row.games is not None else f"A {row.part_a} B {row.part_b}"
        self.stdout.write(
            f"{row.rank:>5} {moved:>4}  {row.federation_id or '-':<10} {row.name:<30} "
            f"{row.country:<12} {row.score:>9}  {extra}"
        )
        if not explain:
            return
        for result in row.counted + row.dropped:
            self.stdout.write(f"{'':>12}{_counted(result)}")
        for change in row.changes:
            self.stdout.write(f"{'':>12}{change['change']}: {change['date']} {change['name']}")
        for game in row.history:
            self.stdout.write(
                f"{'':>12}{game['played_on']} game {game['game']}: place {game['rank']:g}, "
                f"{game['before']} → {game['after']}"
            )
