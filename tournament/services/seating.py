"""Seating a round: tables planned by rules.seating from the event's history, then seated as games.

The earlier rounds' games are the history the seating avoids repeating and
balances winds over; players without enough seats to fill a table sit out
when the event allows byes. Swiss seating follows the ranking the caller
gives (the scoring app's standings): the structure of an event knows nothing
of its scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum

from rules.errors import RuleError
from rules.seating import Seating, random_seating, swiss_seating
from rules.seating import Table as PlannedTable
from tournament.errors import InvalidInput
from tournament.models import Event, Game, Round, Table
from tournament.services.games import game_seat


class Method(StrEnum):
    RANDOM = "random"
    SWISS = "swiss"


def plan_round(*, event: Event, number: int, method: Method, ranking: Sequence[int] = (),
               seed: int | None = None) -> Seating:
    """The tables round ``number`` would get, without writing anything: what a preview shows.

    ``ranking`` lists player ids best first, for swiss; players it leaves
    out follow in id order. Swiss players move at most the event's
    ``swiss_spread`` tables from the table their rank gives them.
    """
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None:
        raise InvalidInput.one("round", f"this event has no round {number} (add it first)")
    if round_.tables.exists():
        raise InvalidInput.one("round", f"round {number} is already seated")
    history = round_history(event, before=number)
    players = list(event.registrations.filter(substitute=False, withdrawn=False).order_by("player_id")
                   .values_list("player_id", flat=True))
    byes = bye_counts(players, history)
    size = event.ruleset().players
    try:
        if method == Method.SWISS:
            listed = set(players)
            order = [p for p in ranking if p in listed] + [p for p in players if p not in set(ranking)]
            return swiss_seating(standings=order, table_size=size, history=history, seed=seed,
                                 byes=event.allow_byes, bye_counts=byes, spread=event.swiss_spread)
        return random_seating(players=players, table_size=size, history=history, seed=seed,
                              byes=event.allow_byes, bye_counts=byes)
    except RuleError as exc:
        raise InvalidInput(exc.problems) from None


def seat_round(*, event: Event, number: int, method: Method, ranking: Sequence[int] = (),
               seed: int | None = None) -> list[Game]:
    """Seat round ``number`` as ``plan_round`` plans it and open a game per table (not yet scored); the caller
    holds the transaction. The same seed gives the tables its preview showed."""
    seating = plan_round(event=event, number=number, method=method, ranking=ranking, seed=seed)
    round_ = Round.objects.get(event=event, number=number)
    return tables_open(event, round_, seating.tables)


def round_history(event: Event, *, before: int) -> list[list[list[int]]]:
    """The tables of the rounds before ``before``: rounds → tables → player ids, East first."""
    rounds = (event.rounds.filter(number__lt=before)
              .prefetch_related("tables__game__seats").order_by("number"))
    return [[[s.player_id for s in sorted(table.game.seats.all(), key=lambda s: s.position)]
             for table in sorted(r.tables.all(), key=lambda t: t.number) if _game_of(table) is not None]
            for r in rounds]


def bye_counts(players: Iterable[int], history: Sequence[Sequence[Sequence[int]]]) -> Counter[int]:
    """How many earlier rounds each player sat out."""
    players = list(players)
    byes: Counter[int] = Counter()
    for earlier in history:
        present = {p for table in earlier for p in table}
        byes.update(p for p in players if p not in present)
    return byes


def tables_open(event: Event, round_: Round, tables: Iterable[PlannedTable]) -> list[Game]:
    """A table and its game for each planned table, seated East first."""
    games = []
    for planned in tables:
        table = Table.objects.create(round=round_, number=planned.number)
        games.append(game_seat(event=event, player_ids=list(planned.seats), table=table))
    return games


def _game_of(table: Table) -> Game | None:
    return getattr(table, "game", None)

