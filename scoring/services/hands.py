"""Writes to games and the standings they feed: the one place a Hand row becomes a rules/ input.

Every write (``game_record_hand``, ``game_change_hand``, ``game_delete_hand``,
``game_put_sheet``) locks the game, checks the version the writer last saw,
replays the whole game through the score-sheet reader and rules/ (a game is a
few dozen hands: cheap), and only then saves the hands, the history entry and
the derived results, all in one transaction. Invalid input changes nothing.
Standings are recomputed after the commit by a Celery task.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone

from rules.errors import Problem, RuleError
from rules.seating import Table as PlannedTable
from rules.seating import random_seating, schedule_from_csv, swiss_seating
from scoring.models import Game, GamePlayer, GameResult, Hand, HandChange, Penalty, Standing
from scoring.report import final_rows, result_json
from scoring.sheet import ScoredSheet, SheetError, score_sheet
from tournament.models import Event, Player, Round, Seat, Table

Record = dict[str, Any]
# Fields of a hand record that name players (the score sheet's names, or ids when stored).
_ONE = ("winner", "loser", "pao", "player")
_MANY = ("riichi", "tenpai", "nagashi", "false_wins")


class InvalidInput(ValueError):
    """Input the rules refuse; ``problems`` name each field as the score sheet does."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class VersionConflict(Exception):
    """The game changed since the writer read it."""

    def __init__(self, current: int) -> None:
        self.current = current
        super().__init__(f"the game has changed (now version {current}); reload it and enter the hand again")


@dataclass(frozen=True, slots=True)
class GamePlayers:
    """A game's players in seat order with the unique labels the score sheet names them by."""

    ids: tuple[int, ...]
    labels: tuple[str, ...]

    def label_of(self, player_id: Any) -> Any:
        try:
            return self.labels[self.ids.index(player_id)]
        except ValueError:
            # Not at this table: the sheet reader then names the field and lists the players.
            return str(player_id)


def game_players(game: Game) -> GamePlayers:
    seats = list(game.seats.select_related("player").order_by("seat"))
    return players_labels([(s.player_id, s.player.name) for s in seats])


def players_labels(players: Sequence[tuple[int, str]]) -> GamePlayers:
    """Names, made unique where two players share one ("Kim #12")."""
    counts = Counter(name for _, name in players)
    labels = tuple(name if counts[name] == 1 else f"{name} #{pid}" for pid, name in players)
    return GamePlayers(ids=tuple(pid for pid, _ in players), labels=labels)


def map_players(record: Mapping[str, Any], convert: Callable[[Any], Any]) -> Record:
    """A hand record with every player reference passed through ``convert`` (ids <-> labels)."""
    out: Record = {}
    for key, value in record.items():
        if key in _ONE:
            out[key] = convert(value)
        elif key in _MANY and isinstance(value, list):
            out[key] = [convert(v) for v in value]
        elif key == "wins" and isinstance(value, list):
            out[key] = [map_players(w, convert) if isinstance(w, Mapping) else w for w in value]
        else:
            out[key] = value
    return out


def game_sheet(game: Game, records: Iterable[Record] | None = None, *, by: str = "label") -> dict[str, Any]:
    """The game as a score sheet (SCORE_SHEET.md), players named by label (or by id with ``by="id"``)."""
    players = game_players(game)
    if records is None:
        records = [h.record for h in game.hands.order_by("index")]

    def name(player_id: Any) -> Any:
        return player_id if by == "id" else players.label_of(player_id)

    sheet: dict[str, Any] = {
        "ruleset": game.event.ruleset_key,
        "overrides": game.event.ruleset_overrides,
        "players": list(players.ids) if by == "id" else list(players.labels),
        "hands": [map_players(r, name) for r in records],
        "penalties": [{"player": name(p.player_id), "points": float(p.points), "reason": p.reason}
                      for p in game.penalties.order_by("id")],
    }
    if game.start:
        sheet["start"] = game.start
    if game.ended_by_time:
        sheet["end"] = "time"
    return sheet


def replay(game: Game, records: Sequence[Record]) -> ScoredSheet:
    """Score the game with these hands; InvalidInput with the sheet's messages if it cannot be."""
    try:
        return score_sheet(game_sheet(game, records))
    except SheetError as exc:
        raise InvalidInput(exc.problems) from None


def _hand_problems(problems: Sequence[Problem], index: int) -> list[Problem]:
    """Problems of the hand being written named relative to it; the rest keep their sheet path."""
    prefix = f"hands[{index}]"
    out = []
    for p in problems:
        if p.field == prefix:
            out.append(Problem("", p.message))
        elif p.field.startswith(prefix + "."):
            out.append(Problem(p.field[len(prefix) + 1:], p.message))
        else:
            out.append(p)
    return out


def _write(*, game_id: int, version: int | None, user: Any, action: str,
           change: Callable[[list[Record]], list[Record]], index: int | None = None,
           alter: Callable[[Game], tuple[Any, Any]] | None = None) -> Game:
    """Lock, check the version, replay with the change, save everything or nothing.

    ``index`` is the hand changed or deleted; an added hand's index is read
    under the lock, so two referees adding at once each get their own.
    ``alter`` changes the locked game itself (its clock, its substitutes) and
    returns the (before, after) the history keeps instead of the hands.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("event").get(pk=game_id)
        if version is not None and version != game.version:
            raise VersionConflict(game.version)
        altered = alter(game) if alter is not None else None
        counted_before = game.status == Game.Status.FINISHED
        hands = list(game.hands.order_by("index"))
        before = [h.record for h in hands]
        if action == HandChange.Action.ADD:
            index = len(before)
        after = change(list(before))
        try:
            scored = replay(game, after)
        except InvalidInput as exc:
            if index is None or action == HandChange.Action.DELETE:
                raise
            raise InvalidInput(_hand_problems(exc.problems, index)) from None
        _save_hands(game, hands, after, user)
        game.version += 1
        was: Any
        now: Any
        if altered is not None:
            was, now = altered
        elif index is None:
            was, now = before, after  # the whole sheet
        else:
            was = before[index] if index < len(before) else None
            now = after[index] if action != HandChange.Action.DELETE else None
        HandChange.objects.create(game=game, index=index, action=action, before=was, after=now,
                                  user=_author(user), version=game.version)
        store_result(game, scored)
        # Standings count finished games only: a hand in a game still going on cannot change them.
        if counted_before or game.status == Game.Status.FINISHED:
            event_id = game.event_id
            transaction.on_commit(lambda: _schedule_standings(event_id))
    return game


def _author(user: Any) -> Any:
    """The user to record as having made a change (nobody for scripts and anonymous calls)."""
    return user if user is not None and user.is_authenticated else None


def _save_hands(game: Game, rows: list[Hand], records: list[Record], user: Any) -> None:
    """Rewrite the rows whose record changed; indices stay 0..n-1 with no gap."""
    entered_by = _author(user)
    for index, record in enumerate(records):
        if index < len(rows):
            if rows[index].record != record:
                rows[index].record = record
                rows[index].entered_by = entered_by
                rows[index].save(update_fields=["record", "entered_by", "entered_at"])
        else:
            Hand.objects.create(game=game, index=index, record=record, entered_by=entered_by)
    if len(rows) > len(records):
        Hand.objects.filter(game=game, index__gte=len(records)).delete()


def store_result(game: Game, scored: ScoredSheet) -> None:
    """Save a replay's output on the game and its GameResult rows (the writes above; bulk loads such as
    benchmarks/standings.py, which replay once instead of hand by hand)."""
    players = game_players(game)
    result = result_json(scored)
    game.result = result
    game.status = Game.Status.FINISHED if scored.record.state.finished else Game.Status.PLAYING
    game.save(update_fields=["version", "result", "status", "updated_at"])
    GameResult.objects.filter(game=game).delete()
    substitutes = set(game.seats.filter(substitute=True).values_list("player_id", flat=True))
    rows = final_rows(scored)
    ranks = Counter(row.rank for row in rows)
    GameResult.objects.bulk_create([
        GameResult(game=game, player_id=players.ids[row.player], event_id=game.event_id,
                   finished=scored.record.state.finished, substitute=players.ids[row.player] in substitutes,
                   # A rank shared by k players counts as the mean of the places they hold.
                   rank=Decimal(row.rank) + Decimal(ranks[row.rank] - 1) / 2,
                   score=row.score, points=_decimal(row.points),
                   table_points=None if row.table_points is None else _decimal(row.table_points))
        for row in rows
    ])


def _decimal(value: Any) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator) if hasattr(value, "denominator") else Decimal(value)


def _schedule_standings(event_id: int) -> None:
    from scoring.tasks import recompute_standings

    recompute_standings.delay(event_id)


# --- the writes -------------------------------------------------------------


def game_create(*, event: Event, player_ids: Sequence[int], table: Any = None,
                substitutes: Iterable[int] = (), played_on: date | None = None) -> Game:
    """A game with its players in seat order (the first is the first dealer).

    A player registered as a substitute plays as one; ``substitutes`` marks
    others who fill in for an absent player in this game only.
    """
    ruleset = event.ruleset()
    problems: list[Problem] = []
    if len(player_ids) != ruleset.players:
        problems.append(Problem("players", f"this event's ruleset is for {ruleset.players} players; "
                                f"{len(player_ids)} given"))
    if len(set(player_ids)) != len(player_ids):
        problems.append(Problem("players", "a player is listed twice"))
    found = set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
    problems += [Problem(f"players[{i}]", f"no player with id {pid}") for i, pid in enumerate(player_ids)
                 if pid not in found]
    if problems:
        raise InvalidInput(problems)
    subs = set(substitutes) | set(event.registrations.filter(player_id__in=player_ids, substitute=True)
                                  .values_list("player_id", flat=True))
    problems += [Problem("substitutes", f"{pid} is not among the players") for pid in sorted(subs)
                 if pid not in player_ids]
    if problems:
        raise InvalidInput(problems)
    with transaction.atomic():
        game = Game.objects.create(event=event, table=table, played_on=played_on or timezone.localdate())
        GamePlayer.objects.bulk_create([GamePlayer(game=game, player_id=pid, seat=seat, substitute=pid in subs)
                                        for seat, pid in enumerate(player_ids)])
        store_result(game, replay(game, []))
    return game


def game_record_hand(*, game_id: int, record: Record, user: Any, version: int | None) -> Game:
    """Add the next hand (players by id)."""
    return _write(game_id=game_id, version=version, user=user, action=HandChange.Action.ADD,
                  change=lambda records: [*records, record])


def game_change_hand(*, game_id: int, index: int, record: Record, user: Any, version: int | None) -> Game:
    """Correct any hand; everything after it is replayed."""
    def change(records: list[Record]) -> list[Record]:
        _check_index(records, index)
        records[index] = record
        return records

    return _write(game_id=game_id, version=version, user=user, action=HandChange.Action.CHANGE, index=index,
                  change=change)


def game_delete_hand(*, game_id: int, index: int, user: Any, version: int | None) -> Game:
    """Remove any hand; the later hands move up one and the game is replayed."""
    def change(records: list[Record]) -> list[Record]:
        _check_index(records, index)
        return records[:index] + records[index + 1:]

    return _write(game_id=game_id, version=version, user=user, action=HandChange.Action.DELETE, index=index,
                  change=change)


def game_preview_hand(*, game_id: int, record: Record, index: int | None = None) -> dict[str, Any]:
    """What adding this hand (or putting it in place of hand ``index``) would give, saving nothing.

    The referee's page shows the payments before the hand is saved: the game
    is replayed exactly as the writes do it, so the preview and the saved
    hand cannot differ. Returns the hand's JSON (SCORE_SHEET.md "Output")
    with the players, and the game's state after all its hands (``finished``,
    ``end_reason``, ``next``, ``final``). InvalidInput names the problems
    relative to the hand, like the writes.
    """
    game = Game.objects.select_related("event").get(pk=game_id)
    records = [h.record for h in game.hands.order_by("index")]
    if index is None:
        index = len(records)
        records.append(record)
    else:
        _check_index(records, index)
        records[index] = record
    try:
        scored = replay(game, records)
    except InvalidInput as exc:
        raise InvalidInput(_hand_problems(exc.problems, index)) from None
    result = result_json(scored)
    return {"index": index, "hand": result["hands"][index], "players": result["players"],
            "finished": result["finished"], "end_reason": result["end_reason"], "next": result.get("next"),
            "final": result["final"], "deposits_left": result["deposits_left"]}


def game_put_sheet(*, game_id: int, hands: list[Record], user: Any, version: int | None,
                   start: Mapping[str, Any] | None = None, ended_by_time: bool | None = None) -> Game:
    """Replace all of a game's hands (players by id), as a score sheet does."""
    def alter(game: Game) -> tuple[Any, Any]:
        before = game_sheet(game, by="id")
        _set_header(game, start=start, ended_by_time=ended_by_time)
        return before, {**game_sheet(game, hands, by="id")}

    return _write(game_id=game_id, version=version, user=user, action=HandChange.Action.SHEET,
                  change=lambda _records: list(hands), alter=alter)


def game_update(*, game_id: int, user: Any, version: int | None, ended_by_time: bool | None = None,
                substitutes: Sequence[int] | None = None) -> Game:
    """End a game by the clock (or take that back), or mark which seats a substitute played.

    Ending by time (the sheet's ``end: time``) finishes the game
    after the hand in play; a substitute's result is ranked by the event's
    substitute rule. Both replay the game and count in the history.
    """
    def alter(game: Game) -> tuple[Any, Any]:
        seats = list(game.seats.order_by("seat"))
        before = _game_settings(game, seats)
        if substitutes is not None:
            ids = {s.player_id for s in seats}
            strangers = [pid for pid in substitutes if pid not in ids]
            if strangers:
                raise InvalidInput([Problem("substitutes", f"not at this table: {strangers}; its players are "
                                            f"{[s.player_id for s in seats]}")])
            for seat in seats:
                if seat.substitute != (seat.player_id in substitutes):
                    seat.substitute = seat.player_id in substitutes
                    seat.save(update_fields=["substitute"])
        _set_header(game, ended_by_time=ended_by_time)
        return before, _game_settings(game, seats)

    return _write(game_id=game_id, version=version, user=user, action=HandChange.Action.GAME,
                  change=lambda records: records, alter=alter)


def _game_settings(game: Game, seats: Sequence[GamePlayer]) -> dict[str, Any]:
    return {"end": "time" if game.ended_by_time else None,
            "substitutes": [s.player_id for s in seats if s.substitute]}


def _set_header(game: Game, *, start: Mapping[str, Any] | None = None, ended_by_time: bool | None = None) -> None:
    changed = []
    if start is not None and start != game.start:
        game.start = dict(start)
        changed.append("start")
    if ended_by_time is not None and ended_by_time != game.ended_by_time:
        game.ended_by_time = ended_by_time
        changed.append("ended_by_time")
    if changed:
        game.save(update_fields=changed)


def _check_index(records: list[Record], index: int) -> None:
    if not 0 <= index < len(records):
        raise InvalidInput([Problem("index", f"this game has hands 0 to {len(records) - 1}" if records
                                    else "this game has no hands yet")])


# --- standings --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Games:
    """What a player's counted games add up to."""

    points: Decimal
    table_points: Decimal
    score: int
    rank_sum: Decimal
    count: int
    first_places: int
    best: Decimal | None


@dataclass(frozen=True, slots=True)
class _Line:
    player_id: int
    points: Decimal
    table_points: Decimal | None
    score: int
    games: int
    average_rank: Decimal | None
    penalties: Decimal
    first_places: int
    best_game: Decimal | None


def standings_recompute(event: Event) -> int:
    """Rebuild the event's Standing rows from the finished games' results; returns the number of lines.

    Riichi: total points (or average per game), penalties outside games
    included. MCR: table points, then score. Then the event's tiebreaks in
    order; players equal on all of them share the rank. Leagues: only games
    in the event's date range, only a player's best ``best_games`` count, and
    fewer than ``min_games`` games leave a player unranked.
    """
    mcr = event.ruleset().is_mcr
    registered = set(event.registrations.filter(substitute=False).values_list("player_id", flat=True))
    extra: dict[int, Decimal] = {}
    for player_id, points in Penalty.objects.filter(event=event, game__isnull=True).values_list("player_id",
                                                                                                  "points"):
        extra[player_id] = extra.get(player_id, Decimal(0)) + points
    results = GameResult.objects.filter(event=event, finished=True)
    if event.starts_on:
        results = results.filter(game__played_on__gte=event.starts_on)
    if event.ends_on:
        results = results.filter(game__played_on__lte=event.ends_on)
    if event.best_games is None and event.substitute_points is None:
        counted = _summed(results.filter(substitute=False))
        played = {p: g.count for p, g in counted.items()}
    else:
        counted, played = _best_games(event, results, mcr)

    lines: list[_Line] = []
    for player_id in registered | set(counted) | set(extra):
        games = counted.get(player_id)
        count = games.count if games else 0  # the games counted: a league may count only the best
        total = (games.points if games else Decimal(0)) + extra.get(player_id, Decimal(0))
        if event.ranking == "average" and count:
            total = (total / count).quantize(Decimal("0.01"))
        lines.append(_Line(player_id=player_id, points=total,
                           table_points=(games.table_points if games else Decimal(0)) if mcr else None,
                           score=games.score if games else 0, games=played.get(player_id, 0),
                           average_rank=(games.rank_sum / count).quantize(Decimal("0.01")) if games and count
                           else None,
                           penalties=extra.get(player_id, Decimal(0)),
                           first_places=games.first_places if games else 0,
                           best_game=games.best if games else None))

    tiebreaks = list(event.tiebreaks) or (["score"] if mcr else [])

    def key(line: _Line) -> tuple[Decimal, ...]:
        primary = (line.table_points or Decimal(0), line.points) if mcr else (line.points,)
        return primary + tuple(_tiebreak(line, name) for name in tiebreaks)

    minimum = max(event.min_games, 1)
    ranked = sorted((ln for ln in lines if ln.games >= minimum), key=key, reverse=True)
    unranked = [ln for ln in lines if ln.games < minimum]
    rows: list[Standing] = []
    previous: tuple[Decimal, ...] | None = None
    rank = 0
    for position, line in enumerate(ranked, start=1):
        if key(line) != previous:
            rank, previous = position, key(line)
        rows.append(_standing(event, line, rank))
    rows += [_standing(event, line, None) for line in unranked]
    with transaction.atomic():
        Standing.objects.filter(event=event).delete()
        Standing.objects.bulk_create(rows, batch_size=1000)
    return len(rows)


def _tiebreak(line: _Line, name: str) -> Decimal:
    """A tiebreak as a number where higher is better."""
    if name == "score":
        return Decimal(line.score)
    if name == "average_rank":
        return -(line.average_rank if line.average_rank is not None else Decimal(99))
    if name == "first_places":
        return Decimal(line.first_places)
    if name == "best_game":
        return line.best_game if line.best_game is not None else Decimal("-Infinity")
    raise ValueError(f"unknown tiebreak {name!r}")  # Event.clean refuses these


def _summed(results: QuerySet[GameResult]) -> dict[int, _Games]:
    """The common case in one aggregate query: a league of 40,000 hands stays well under 100 ms."""
    rows = results.values("player_id").annotate(
        best=Max("points"), total=Sum("points"), table=Sum("table_points"), total_score=Sum("score"),
        games=Count("id"), rank_sum=Sum("rank"), firsts=Count("id", filter=Q(rank=1)))
    return {r["player_id"]: _Games(points=r["total"], table_points=r["table"] or Decimal(0), score=r["total_score"],
                                   rank_sum=r["rank_sum"], count=r["games"], first_places=r["firsts"],
                                   best=r["best"])
            for r in rows}


def _best_games(event: Event, results: QuerySet[GameResult], mcr: bool) -> tuple[dict[int, _Games], dict[int, int]]:
    """League options in Python: substitutes scored at ``substitute_points``, a player's best N games."""
    games_of: dict[int, list[tuple[Decimal, Decimal, int, Decimal]]] = {}
    for player_id, points, table_points, score, place, substitute in results.values_list(
            "player_id", "points", "table_points", "score", "rank", "substitute").iterator(chunk_size=5000):
        if substitute:
            if event.substitute_points is None:
                continue
            points = event.substitute_points
        games_of.setdefault(player_id, []).append((points, table_points or Decimal(0), score, place))
    played = {p: len(g) for p, g in games_of.items()}
    if event.best_games:
        def best(game: tuple[Decimal, Decimal, int, Decimal]) -> tuple[Decimal, ...]:
            return (game[1], game[0]) if mcr else (game[0],)

        games_of = {p: sorted(g, key=best, reverse=True)[: event.best_games] for p, g in games_of.items()}
    counted = {p: _Games(points=sum((g[0] for g in gs), Decimal(0)), table_points=sum((g[1] for g in gs), Decimal(0)),
                         score=sum(g[2] for g in gs), rank_sum=sum((g[3] for g in gs), Decimal(0)), count=len(gs),
                         first_places=sum(1 for g in gs if g[3] == 1), best=max((g[0] for g in gs), default=None))
               for p, gs in games_of.items()}
    return counted, played


def _standing(event: Event, line: _Line, rank: int | None) -> Standing:
    return Standing(event=event, player_id=line.player_id, rank=rank, points=line.points,
                    table_points=line.table_points, score=line.score, games=line.games,
                    average_rank=line.average_rank, penalties=line.penalties, first_places=line.first_places,
                    best_game=line.best_game)


def sheet_header_problems(game: Game, data: Mapping[str, Any]) -> list[Problem]:
    """What a sheet PUT to an existing game may not change: its ruleset and its players."""
    problems: list[Problem] = []
    allowed = {"ruleset", "overrides", "players", "start", "hands", "end", "penalties"}
    problems += [Problem(key, "not part of a game's sheet") for key in sorted(set(data) - allowed)]
    if "penalties" in data and data["penalties"] != game_sheet(game, [], by="id")["penalties"]:
        problems.append(Problem("penalties", "penalties are recorded on the event (admin), not through the sheet"))
    if "ruleset" in data and data["ruleset"] != game.event.ruleset_key:
        problems.append(Problem("ruleset", f"this game is played under the event's ruleset "
                                f"{game.event.ruleset_key!r}"))
    if "overrides" in data and data["overrides"] != game.event.ruleset_overrides:
        problems.append(Problem("overrides", "this game is played with the event's overrides"))
    ids = list(game_players(game).ids)
    if "players" in data and data["players"] != ids:
        problems.append(Problem("players", f"this game's players are {ids} in seat order"))
    if not isinstance(data.get("hands", []), list):
        problems.append(Problem("hands", "must be a list of hands"))
    if data.get("end") not in (None, "time"):
        problems.append(Problem("end", 'must be "time" or left out'))
    return problems


# --- seating ----------------------------------------------------------------


def round_seat(*, event: Event, number: int, method: str, seed: int | None = None) -> list[Game]:
    """Seat round ``number`` (random or swiss by the current standings) and open a game per table.

    The earlier rounds' tables are the history the seating avoids repeating
    and balances winds over (rules.seating); players without enough seats to
    fill a table sit out when the event allows byes.
    """
    if method not in ("random", "swiss"):
        raise InvalidInput([Problem("method", 'must be "random" or "swiss"')])
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None:
        raise InvalidInput([Problem("round", f"this event has no round {number} (add it first)")])
    if round_.tables.exists():
        raise InvalidInput([Problem("round", f"round {number} is already seated")])
    history = [[[s.player_id for s in table.seats.order_by("position")] for table in r.tables.order_by("number")]
               for r in event.rounds.filter(number__lt=number).prefetch_related("tables__seats")]
    players = list(event.registrations.filter(substitute=False).order_by("player_id")
                   .values_list("player_id", flat=True))
    byes: Counter[int] = Counter()
    for earlier in history:
        present = {p for table in earlier for p in table}
        byes.update(p for p in players if p not in present)
    size = event.ruleset().players
    try:
        if method == "swiss":
            ranked = list(Standing.objects.filter(event=event, rank__isnull=False).order_by("rank", "-points")
                          .values_list("player_id", flat=True))
            order = [p for p in ranked if p in set(players)] + [p for p in players if p not in set(ranked)]
            seating = swiss_seating(standings=order, table_size=size, history=history, seed=seed,
                                    byes=event.allow_byes, bye_counts=byes)
        else:
            seating = random_seating(players=players, table_size=size, history=history, seed=seed,
                                     byes=event.allow_byes, bye_counts=byes)
    except RuleError as exc:
        raise InvalidInput(exc.problems) from None
    with transaction.atomic():
        return _open_tables(event, round_, seating.tables)


def _open_tables(event: Event, round_: Round, tables: Iterable[PlannedTable]) -> list[Game]:
    games = []
    for planned in tables:
        table = Table.objects.create(round=round_, number=planned.number)
        Seat.objects.bulk_create([Seat(table=table, player_id=p, position=k) for k, p in enumerate(planned.seats)])
        games.append(game_create(event=event, player_ids=list(planned.seats), table=table))
    return games


def schedule_import(*, event: Event, text: str) -> list[Game]:
    """Seat every round of a predefined schedule (CSV, rules.seating.schedule_from_csv), all or nothing.

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
    with transaction.atomic():
        for number, tables in enumerate(rounds, start=1):
            if tables:
                round_ = Round.objects.get_or_create(event=event, number=number)[0]
                games += _open_tables(event, round_, tables)
    return games
