"""A predefined schedule (CSV, rules.seating.schedule_from_csv): every round seated, or none."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.csv_line import csv_values
from rules.errors import Problem, Refusal
from rules.messages import MESSAGES
from rules.seating import Table, schedule_from_csv
from tournament.models import Event, Game, Round
from tournament.services.seating import stage_players, tables_open


def seat_schedule(*, event: Event, text: str) -> list[Game]:
    """Seat every round of the schedule and open its games (not yet scored); the caller holds the transaction.

    Rounds missing from the event are added; a round that is already seated
    is refused, so importing twice cannot seat anyone twice.
    """
    registered = list(event.registrations.values_list("player_id", flat=True))
    rounds = schedule_from_csv(text=text, players=registered, table_size=event.ruleset().players)
    seated = sorted(
        set(event.rounds.filter(number__lte=len(rounds), tables__isnull=False).values_list("number", flat=True))
    )
    if seated:
        raise Refusal([Problem("schedule", f"round {n} is already seated") for n in seated])
    stages = _round_stages(event, len(rounds))
    if problems := _not_entered(event, rounds, stages):
        raise Refusal(problems)
    games: list[Game] = []
    for number, tables in enumerate(rounds, start=1):
        if tables:
            round_ = Round.objects.get_or_create(event=event, number=number, defaults={"stage": stages[number]})[0]
            games += tables_open(event, round_, tables)
    return games


def _round_stages(event: Event, count: int) -> dict[int, int]:
    """The stage of each of rounds 1 to ``count``: an existing round's own; a round the schedule adds, the stage
    of the round before it (stages play in order)."""
    existing = dict(event.rounds.filter(number__lte=count).values_list("number", "stage"))
    stages: dict[int, int] = {}
    for number in range(1, count + 1):
        stages[number] = existing.get(number, stages.get(number - 1, 1))
    return stages


def _not_entered(event: Event, rounds: list[list[Table]], stages: dict[int, int]) -> list[Problem]:
    """The players a round of a later stage would seat who did not enter that stage (its cut names them)."""
    problems: list[Problem] = []
    for number, tables in enumerate(rounds, start=1):
        if stages[number] > 1 and tables:
            entered = set(stage_players(event, stages[number]))
            problems += [
                Problem("schedule", f"round {number} is of stage {stages[number]}: player {p} did not enter it")
                for t in tables
                for p in t.seats
                if p not in entered
            ]
    return problems


def seat_named(*, event: Event, number: int, text: str) -> list[Game]:
    """Seat round ``number`` as typed: one table per line, its players East first, each by name or federation id
    (comma, semicolon or tab between them). Every problem is named at once, by line; the caller holds the
    transaction."""
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None or round_.tables.exists():
        raise Refusal.one("tables", _("round %(n)s does not exist or is already seated") % {"n": number})
    size = event.ruleset().players
    lookup = _by_name(event)
    tables: list[Table] = []
    problems: list[Problem] = []
    seen: dict[int, int] = {}
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    for n, line in lines:
        delimiter = "\t" if "\t" in line else (";" if ";" in line else ",")
        try:
            names = [c.strip() for c in csv_values(line, delimiter) if c.strip()]
        except Refusal as exc:
            problems.append(
                Problem(
                    "tables",
                    _("line %(line)s: %(problems)s")
                    % {"line": n, "problems": "; ".join(_(MESSAGES[p.code]) for p in exc.problems)},
                )
            )
            continue
        ids = _seat_line(n, names, lookup, seen, problems)
        if len(names) != size:
            problems.append(
                Problem(
                    "tables",
                    _("line %(line)s: %(n)s players, a table has %(size)s")
                    % {"line": n, "n": len(names), "size": size},
                )
            )
        tables.append(Table(number=len(tables) + 1, seats=tuple(ids)))
    if not lines:
        problems.append(Problem("tables", _("no tables: one line per table, its players East first")))
    if problems:
        raise Refusal(problems)
    return tables_open(event, round_, tables)


def _by_name(event: Event) -> dict[str, list[int]]:
    """The players still in the event by their name and by their federation id, casefolded."""
    lookup: dict[str, list[int]] = {}
    for pid, name, fid in event.registrations.filter(withdrawn=False).values_list(
        "player_id", "player__name", "player__federation_id"
    ):
        for key in {name.casefold(), fid.casefold()} - {""}:
            lookup.setdefault(key, []).append(pid)
    return lookup


def _seat_line(
    n: int, names: list[str], lookup: dict[str, list[int]], seen: dict[int, int], problems: list[Problem]
) -> list[int]:
    """The players of line ``n``, found by name; ``seen`` (player -> line) gets them, ``problems`` why not."""
    ids = []
    for name in names:
        found = lookup.get(name.casefold(), [])
        if len(found) != 1:
            why = (
                _("%(name)r is not a registered player") % {"name": name}
                if not found
                else _("%(name)r names %(n)s players: use the id") % {"name": name, "n": len(found)}
            )
            problems.append(Problem("tables", _("line %(line)s: %(problems)s") % {"line": n, "problems": why}))
        elif found[0] in seen:
            problems.append(
                Problem(
                    "tables",
                    _("line %(line)s: %(name)s is already at the table of line %(other)s")
                    % {"line": n, "name": name, "other": seen[found[0]]},
                )
            )
        else:
            seen[found[0]] = n
            ids.append(found[0])
    return ids
