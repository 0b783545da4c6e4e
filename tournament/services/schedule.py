"""A predefined schedule (CSV, rules.seating.schedule_from_csv): every round seated, or none."""

from __future__ import annotations

from rules.errors import Problem, RuleError
from rules.seating import schedule_from_csv
from tournament.errors import InvalidInput
from tournament.models import Event, Game, Round
from tournament.services.seating import tables_open


def seat_schedule(*, event: Event, text: str) -> list[Game]:
    """Seat every round of the schedule and open its games (not yet scored); the caller holds the transaction.

    Rounds missing from the event are added; a round that is already seated
    is refused, so importing twice cannot seat anyone twice.
    """
    registered = list(event.registrations.values_list("player_id", flat=True))
    try:
        rounds = schedule_from_csv(text=text, players=registered, table_size=event.ruleset().players)
    except RuleError as exc:
        raise InvalidInput(exc.problems) from None
    seated = sorted(set(event.rounds.filter(number__lte=len(rounds), tables__isnull=False)
                        .values_list("number", flat=True)))
    if seated:
        raise InvalidInput([Problem("schedule", f"round {n} is already seated") for n in seated])
    games: list[Game] = []
    for number, tables in enumerate(rounds, start=1):
        if tables:
            round_ = Round.objects.get_or_create(event=event, number=number)[0]
            games += tables_open(event, round_, tables)
    return games
