"""Games opened for play: seated by the tournament app, scored from their start here.

A new game's result is its replay with no hands yet (the start scores, who
deals first), stored like any other, in the same transaction as its seats.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.errors import Problem, Refusal
from rules.ruleset import Ruleset
from rules.seating import Seating
from scoring.services.hands import game_put_sheet
from scoring.services.replay import replay, store_result
from scoring.services.standings import ranking
from scoring.services.standings_rows import stage_order
from scoring.services.team_stages import team_order
from tournament.errors import GameConflict
from tournament.models import Event, Game, Round, Table
from tournament.services.games import game_seat
from tournament.services.schedule import seat_named, seat_schedule
from tournament.services.seating import Method, plan_round, seat_round_planned
from tournament.users import Writer

PREVIEW_SEEDS = 2**31  # a drawn seed fits every client's integer


def game_create(
    *,
    event: Event,
    player_ids: list[int],
    table: Table | None = None,
    substitutes: Iterable[int] = (),
    played_on: date | None = None,
    rules: tuple[str, dict[str, Any]] | None = None,
) -> Game:
    """A game with its players in seat order (the first is the first dealer), ready for its first hand;
    ``rules`` (a preset key and overrides) when it is not played by the event's."""
    with transaction.atomic():
        return _opened(
            [
                game_seat(
                    event=event,
                    player_ids=player_ids,
                    table=table,
                    substitutes=substitutes,
                    played_on=played_on,
                    rules=rules,
                )
            ]
        )[0]


def round_seat(*, event: Event, number: int, method: Method, seed: int | None = None) -> list[Game]:
    """Seat round ``number`` (random, or swiss by the current standings) and open a game per table."""
    return round_seat_planned(event=event, number=number, method=method, seed=seed)[0]


def round_seat_planned(
    *, event: Event, number: int, method: Method, seed: int | None = None
) -> tuple[list[Game], Seating]:
    """``round_seat``, and the plan it seated: what the organiser is told of it (proven optimal or not)."""
    with transaction.atomic():
        _lock_round(event, number)
        order = _order(event, number, method)
        games, seating = seat_round_planned(event=event, number=number, method=method, ranking=order, seed=seed)
        return _opened(games), seating


def round_preview(*, event: Event, number: int, method: Method, seed: int | None = None) -> tuple[Seating, int]:
    """The tables ``round_seat`` would give round ``number`` with ``seed`` (drawn when None), and that seed;
    nothing is written."""
    seed = secrets.randbelow(PREVIEW_SEEDS) if seed is None else seed
    order = _order(event, number, method)
    return plan_round(event=event, number=number, method=method, ranking=order, seed=seed), seed


def _order(event: Event, number: int, method: Method) -> list[int]:
    """The ranking a seating goes by: swiss by the stored standings; by rank, the round's stage's standings as
    they are now (a stage just entered ranks by what was carried in); a team league's teams by theirs."""
    if method == Method.RANDOM:
        return []
    round_ = Round.objects.filter(event=event, number=number).first()
    stage = round_.stage if round_ is not None else 1
    if event.entrants == Event.Entrants.TEAMS:  # a team league seats its teams by their standings
        return team_order(event, stage)
    return ranking(event) if method == Method.SWISS else stage_order(event, stage)


@dataclass(frozen=True, slots=True)
class SeatingWarning:
    """Something the organiser should know before seating, that does not stop it."""

    code: str
    round: int
    tables: tuple[int, ...]
    message: str  # in the active language


def seating_warnings(*, event: Event, number: int, method: Method) -> list[SeatingWarning]:
    """Swiss seats by the stored standings: while an earlier round has games not finished (playing, or not
    started), those standings are not final. One warning per such round, naming its tables."""
    if method != Method.SWISS:
        return []
    unfinished: dict[int, list[int]] = {}
    for round_number, table in (
        Game.objects.filter(event=event, table__round__number__lt=number)
        .exclude(status=Game.Status.FINISHED)
        .order_by("table__round__number", "table__number")
        .values_list("table__round__number", "table__number")
    ):
        unfinished.setdefault(round_number, []).append(table)
    return [
        SeatingWarning(
            code="round_not_finished",
            round=round_number,
            tables=tuple(tables),
            message=ngettext(
                "round %(round)s still has table %(tables)s playing: the standings swiss seating goes by are not final",
                "round %(round)s still has tables %(tables)s playing: "
                "the standings swiss seating goes by are not final",
                len(tables),
            )
            % {"round": round_number, "tables": ", ".join(map(str, tables))},
        )
        for round_number, tables in unfinished.items()
    ]


def schedule_import(*, event: Event, text: str) -> list[Game]:
    """Seat every round of a predefined schedule (CSV) and open its games, all or nothing."""
    with transaction.atomic():
        return _opened(seat_schedule(event=event, text=text))


def round_seat_named(*, event: Event, number: int, text: str) -> list[Game]:
    """Seat round ``number`` from tables typed one per line (players by name or federation id, East first)."""
    with transaction.atomic():
        _lock_round(event, number)
        return _opened(seat_named(event=event, number=number, text=text))


def _lock_round(event: Event, number: int) -> None:
    """One seating of a round at a time: a second "Seat" sent at once waits, then finds the round seated."""
    Round.objects.select_for_update().filter(event=event, number=number).first()


def _opened(games: list[Game]) -> list[Game]:
    for game in games:
        store_result(game, replay(game, []))
    return games


def game_record_totals(
    *,
    event: Event,
    player_ids: list[int],
    scores: list[int],
    deposits_left: int,
    user: Writer | None,
    played_on: date | None = None,
) -> Game:
    """A game recorded by its end scores, as a club records most of its games: seats in the order given, the
    riichi sticks left on the table, uma, oka and ties applied as for any game. It is stored as a game resumed at
    these scores and ended by the clock, so that its hands can be entered later in their place."""
    _check_totals(event.ruleset(), players=len(player_ids), scores=scores, deposits_left=deposits_left)
    with transaction.atomic():
        game = game_create(event=event, player_ids=player_ids, played_on=played_on)
        return game_put_sheet(
            game_id=game.pk,
            hands=[],
            user=user,
            version=None,
            ended_by_time=True,
            start={"scores": list(scores), "deposits": deposits_left},
        )


def game_correct_totals(*, game: Game, scores: list[int], deposits_left: int, user: Writer | None) -> Game:
    """Correct the end scores of a game recorded by them (its players stay in their seats): checked as when it was
    recorded, replayed, kept in its history; its players confirm it again."""
    if not game.recorded_by_scores:
        raise GameConflict.about(
            game.version,
            "scores",
            _("only a game recorded by its end scores is corrected by them: correct its hands instead"),
        )
    _check_totals(game.ruleset(), players=game.seats.count(), scores=scores, deposits_left=deposits_left)
    return game_put_sheet(
        game_id=game.pk,
        hands=[],
        user=user,
        version=game.version,
        ended_by_time=True,
        start={"scores": list(scores), "deposits": deposits_left},
    )


def _check_totals(ruleset: Ruleset, *, players: int, scores: list[int], deposits_left: int) -> None:
    """End scores that add up under the rules: the start points of every player, less the sticks left."""
    expected = ruleset.start_points * ruleset.players - ruleset.riichi_deposit * deposits_left
    problems = []
    if len(scores) != players:
        problems.append(
            Problem(
                "scores", _("%(scores)s scores for %(players)s players") % {"scores": len(scores), "players": players}
            )
        )
    elif sum(scores) != expected:
        problems.append(
            Problem(
                "scores",
                ngettext(
                    "the scores add up to %(sum)s; with %(start)s each and %(sticks)s riichi stick left they must "
                    "add up to %(expected)s",
                    "the scores add up to %(sum)s; with %(start)s each and %(sticks)s riichi sticks left they must "
                    "add up to %(expected)s",
                    deposits_left,
                )
                % {"sum": sum(scores), "start": ruleset.start_points, "sticks": deposits_left, "expected": expected},
            )
        )
    if deposits_left < 0 or (deposits_left and not ruleset.riichi_deposit):
        problems.append(Problem("deposits_left", _("must be 0 or more (and 0 where the rules have no riichi sticks)")))
    if problems:
        raise Refusal(problems)
