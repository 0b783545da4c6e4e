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

from rules.errors import Refusal
from rules.seating import Placement, Seating, random_seating, swiss_seating
from rules.seating import Table as PlannedTable
from rules.seating.history import meetings, wind_counts
from rules.stages import rank_seating
from tournament.models import Event, Game, Round, Stage, Table
from tournament.services.games import game_seat
from tournament.services.team_rounds import stage_teams, team_history, team_tables_open


class Method(StrEnum):
    RANDOM = "random"
    SWISS = "swiss"
    RANK = "rank"  # a final stage's: ranks 1 to 4 at table 1, 5 to 8 at table 2, ... (the stage's winds)


def stage_players(event: Event, number: int) -> list[int]:
    """Who plays in stage ``number``, by id: the first stage's registered players, a later one's entrants (once
    its cut is confirmed; none before), those who withdrew left out."""
    withdrawn = set(event.registrations.filter(withdrawn=True).values_list("player_id", flat=True))
    if number == 1:
        players = event.registrations.filter(substitute=False, withdrawn=False).values_list("player_id", flat=True)
        return sorted(players)
    stage = Stage.objects.filter(event=event, number=number).first()
    return sorted(p for p in (stage.through or []) if p not in withdrawn) if stage is not None else []


def plan_round(
    *, event: Event, number: int, method: Method, ranking: Sequence[int] = (), seed: int | None = None
) -> Seating:
    """The tables round ``number`` would get, without writing anything: what a preview shows.

    ``ranking`` lists player ids best first, for swiss; players it leaves
    out follow in id order. Swiss players move at most the event's
    ``swiss_spread`` tables from the table their rank gives them.
    """
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None:
        raise Refusal.one("round", f"this event has no round {number} (add it first)")
    if round_.tables.exists():
        raise Refusal.one("round", f"round {number} is already seated")
    teams = event.entrants == Event.Entrants.TEAMS
    history = team_history(event, before=number) if teams else round_history(event, before=number)
    players = stage_teams(event, round_.stage) if teams else stage_players(event, round_.stage)
    if not players:
        raise Refusal.one(
            "round", f"round {number} belongs to stage {round_.stage}, whose cut is not confirmed: confirm it first"
        )
    byes = bye_counts(players, history)
    size = event.ruleset().players
    if method == Method.RANK:
        return _by_rank(event, round_, players, ranking, seed, history)
    if method == Method.SWISS:
        listed = set(players)
        order = [p for p in ranking if p in listed] + [p for p in players if p not in set(ranking)]
        return swiss_seating(
            standings=order,
            table_size=size,
            history=history,
            seed=seed,
            byes=event.allow_byes,
            bye_counts=byes,
            spread=event.swiss_spread,
        )
    return random_seating(
        players=players, table_size=size, history=history, seed=seed, byes=event.allow_byes, bye_counts=byes
    )


def _by_rank(
    event: Event,
    round_: Round,
    players: list[int],
    ranking: Sequence[int],
    seed: int | None,
    history: list[list[list[int]]],
) -> Seating:
    """Tables by rank (rules.stages.rank_seating), with the repeats and wind balance a preview shows."""
    listed = set(players)
    order = [p for p in ranking if p in listed] + [p for p in players if p not in set(ranking)]
    stage = Stage.objects.filter(event=event, number=round_.stage).first()
    winds = stage.winds if stage is not None else Stage.Winds.RANK
    size = event.ruleset().players
    tables = rank_seating(
        players=order, table_size=size, winds=winds, seed=seed if winds == Stage.Winds.DRAWN else None
    )
    met = meetings(history)
    placements = tuple(
        Placement(
            player=p,
            table=t.number,
            rank_table=order.index(p) // size + 1,
            met=tuple(q for q in t.seats if q != p and met[(min(p, q), max(p, q))]),
        )
        for t in tables
        for p in t.seats
    )
    after = wind_counts(history=[*history, [t.seats for t in tables]], players=order, table_size=size)
    return Seating(
        tables=tables,
        byes=(),
        repeats=sum(len(p.met) for p in placements) // 2,
        optimal=True,
        wind_imbalance=sum(max(row) - min(row) for row in after.values()),
        placements=placements,
    )


def seat_round(
    *, event: Event, number: int, method: Method, ranking: Sequence[int] = (), seed: int | None = None
) -> list[Game]:
    """Seat round ``number`` as ``plan_round`` plans it and open a game per table (not yet scored); the caller
    holds the transaction. The same seed gives the tables its preview showed. A team league's tables seat teams:
    a table's game opens once each of its teams has named who plays (tournament.services.team_rounds)."""
    return seat_round_planned(event=event, number=number, method=method, ranking=ranking, seed=seed)[0]


def seat_round_planned(
    *, event: Event, number: int, method: Method, ranking: Sequence[int] = (), seed: int | None = None
) -> tuple[list[Game], Seating]:
    """``seat_round``, and the plan it seated: whether it is proven optimal, its repeats."""
    seating = plan_round(event=event, number=number, method=method, ranking=ranking, seed=seed)
    round_ = Round.objects.get(event=event, number=number)
    if event.entrants == Event.Entrants.TEAMS:
        return team_tables_open(round_, seating.tables), seating
    return tables_open(event, round_, seating.tables), seating


def round_history(event: Event, *, before: int) -> list[list[list[int]]]:
    """The tables of the rounds before ``before``: rounds → tables → player ids, East first."""
    rounds = event.rounds.filter(number__lt=before).prefetch_related("tables__game__seats").order_by("number")
    return [
        [
            [s.player_id for s in sorted(table.game.seats.all(), key=lambda s: s.position)]
            for table in sorted(r.tables.all(), key=lambda t: t.number)
            if _game_of(table) is not None
        ]
        for r in rounds
    ]


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
