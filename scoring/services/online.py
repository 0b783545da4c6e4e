"""Online games into an event: each log read, checked hand by hand against its own numbers, and stored.

Each log is all or nothing: its players found (or created), its game opened
and its hands written through the one write path, in one transaction. A log
whose replay differs from what it records is refused, or with
``keep_mismatches`` stored marked "differs from the log". A log already
imported into the event is answered with the game it made, so a retried
upload adds nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from django.db import IntegrityError, transaction

from rules.errors import Problem, Refusal
from scoring.logs.check import check_game
from scoring.logs.model import OnlineGame
from scoring.logs.read import read_log
from scoring.services.games import game_create
from scoring.services.hands import game_put_log
from scoring.sheet.record import map_players
from tournament.models import Event, Game, Player, text_problems
from tournament.selectors import findable_players
from tournament.services.roster import registration_add
from tournament.users import RequestUser

ATTEMPTS = 2  # a second try finds the players another import created meanwhile


class Outcome(StrEnum):
    IMPORTED = "imported"  # stored, and it matches its log
    KEPT = "kept"  # stored although it differs from its log (keep_mismatches)
    ALREADY = "already_imported"  # this log made a game of this event before: nothing added
    DIFFERS = "differs"  # refused: the replay differs from the log
    UNREADABLE = "unreadable"  # refused: not a log, or players not found


@dataclass(frozen=True, slots=True)
class LogResult:
    """What became of one log."""

    source: str
    outcome: Outcome
    game: Game | None = None
    log_id: str = ""
    problems: list[Problem] = field(default_factory=list)

    @property
    def stored(self) -> bool:
        return self.outcome in (Outcome.IMPORTED, Outcome.KEPT, Outcome.ALREADY)


def log_import(
    *,
    event: Event,
    source: str,
    data: bytes,
    create_players: bool = False,
    keep_mismatches: bool = False,
    ruleset: str | None = None,
    user: RequestUser | None = None,
) -> LogResult:
    """Read, check and store one log (``source`` names it in messages and may carry Tenhou's log id)."""
    try:
        online = read_log(data, name=source, ruleset=ruleset)
    except Refusal as exc:
        return LogResult(source, Outcome.UNREADABLE, problems=exc.problems)
    existing = event.games.filter(log_id=online.log_id).first()
    if existing is not None:
        return LogResult(source, Outcome.ALREADY, existing, online.log_id)
    checked = check_game(online)
    if checked.scored is None:
        return LogResult(
            source,
            Outcome.UNREADABLE,
            log_id=online.log_id,
            problems=[Problem("", line) for line in checked.differences],
        )
    if checked.differences and not keep_mismatches:
        return LogResult(
            source, Outcome.DIFFERS, log_id=online.log_id, problems=[Problem("", line) for line in checked.differences]
        )
    for attempt in range(ATTEMPTS):
        try:
            with transaction.atomic():
                ids = _players(event, online.names, create=create_players, user=user)
                game = _store(event, online, ids, checked.differences, user)
            break
        except Refusal as exc:
            return LogResult(source, Outcome.UNREADABLE, log_id=online.log_id, problems=exc.problems)
        except IntegrityError:
            # Another import at the same moment stored this log, or created one of its new players.
            existing = event.games.filter(log_id=online.log_id).first()
            if existing is not None:
                return LogResult(source, Outcome.ALREADY, existing, online.log_id)
            if attempt + 1 == ATTEMPTS:
                raise
    outcome = Outcome.KEPT if checked.differences else Outcome.IMPORTED
    return LogResult(source, outcome, game, online.log_id, [Problem("", d) for d in checked.differences])


def _store(
    event: Event, online: OnlineGame, ids: Mapping[str, int], differences: list[str], user: RequestUser | None
) -> Game:
    game = game_create(
        event=event,
        player_ids=[ids[name] for name in online.names],
        rules=(online.ruleset, online.overrides),
        played_on=online.played_on,
    )
    game.platform, game.log_id = online.platform.value, online.log_id
    game.log_check = Game.LogCheck.DIFFERS if differences else Game.LogCheck.MATCHES
    game.log_differences = differences
    game.save(update_fields=["platform", "log_id", "log_check", "log_differences"])
    hands = [map_players(h, ids.__getitem__) for h in online.hands]
    start = online.sheet().get("start", {})
    return game_put_log(game_id=game.pk, hands=hands, user=user, start=start)


def _players(event: Event, names: list[str], *, create: bool, user: RequestUser | None) -> dict[str, int]:
    """The event's player for each platform name: by online name, else by name; with ``create``, registered
    (a stored player found by online name only if the user may find him: ``findable_players``)."""
    registered = Player.objects.filter(registrations__event=event)
    found: dict[str, int] = {}
    problems = []
    for name in names:
        player = registered.filter(online_name=name).first()
        if player is None:
            by_name = list(registered.filter(online_name="", name=name)[:2])
            if len(by_name) > 1:
                problems.append(
                    Problem(
                        "players",
                        f"two players of this event are named {name!r}: set the online name of the one who played",
                    )
                )
                continue
            player = by_name[0] if by_name else None
        if player is None and create:
            made = _found_or_new(name, user)
            if isinstance(made, list):
                problems += made
                continue
            player = made
            registration_add(event=event, player=player)
        if player is None:
            problems.append(
                Problem(
                    "players",
                    f"{name!r} is not a player of this event: set a player's online "
                    "name to it, or import with create_players",
                )
            )
        else:
            found[name] = player.pk
    if problems:
        raise Refusal(problems)
    return found


def _found_or_new(online_name: str, user: RequestUser | None) -> Player | list[Problem]:
    """The stored player of this online name, or a new one; the problems when he plays only in events hidden
    from the user (online names are one per player: he cannot be made twice, and must not be borrowed) or the
    name cannot be a player's."""
    stored = Player.objects.filter(online_name=online_name).first()
    if stored is not None:
        if findable_players(user).filter(pk=stored.pk).exists():
            return stored
        return [
            Problem(
                "players",
                f"{online_name!r} is the online name of a player of events you cannot see: an "
                "administrator can register him in this event",
            )
        ]
    player = Player(name=online_name, online_name=online_name)
    refused = text_problems(player)
    if refused:
        return [Problem("players", f"{online_name!r} cannot be a player's name: {p.message}") for p in refused]
    player.save()
    return player
