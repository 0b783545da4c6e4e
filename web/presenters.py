"""What the public pages and the referee's page show, read from stored rows (no scoring here).

Views call one function each and render; every number comes from the
replayed results and the stored standings, so the pages say exactly what the
API says.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import pairwise
from typing import Any

import segno
from django.core.cache import cache
from django.db.models import Prefetch, QuerySet
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from scoring.models import Confirmation, GameResult
from scoring.selectors import game_result, named_result
from scoring.services.confirmations import tally
from scoring.services.standings_lines import confirmed_games
from scoring.sheet.describe import describe, end_reason
from scoring.sheet.output import Result
from tournament.models import Event, Game, Player, Round, Seat, Table
from tournament.selectors import Roster, game_roster, visible_events
from tournament.users import RequestUser

# Defined in web.rules_words; the event page reads it from here, with every other presenter.
from web.round_words import round_label
from web.round_words import wind_label as wind_label
from web.rules_words import ruleset_summary as ruleset_summary


def public_events(user: RequestUser) -> QuerySet[Event]:
    return visible_events(user).order_by("-starts_on", "name")


# --- rounds ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    game_id: int | None
    status: str | None
    seats: list[dict[str, Any]]  # wind, player id, name, final score and points when there are any
    highlighted: bool = False
    started: bool = False  # a hand has been entered
    finished: bool = False
    confirmed: int = 0  # players who confirmed the finished game as it stands
    disputed_by: tuple[str, ...] = ()
    current: dict[str, Any] | None = None  # a game being played: its next hand (round, dealer, honba, sticks)


def round_tables(round_: Round, search: str = "") -> list[TableView]:
    """A round's tables with seat winds, players and their game's result so far (a constant number of queries)."""
    winds = round_.event.ruleset().seat_winds
    seats = Seat.objects.select_related("player").order_by("position")
    tables = (
        round_.tables.select_related("game")
        .prefetch_related(
            Prefetch("game__seats", queryset=seats),
            Prefetch("game__confirmations", queryset=Confirmation.objects.select_related("player")),
        )
        .order_by("number")
    )
    needle = search.strip().casefold()
    return [_table_view(table, winds, needle) for table in tables]


def _table_view(table: Table, winds: Sequence[str], needle: str) -> TableView:
    game: Game | None = getattr(table, "game", None)
    result: Result = game_result(game) if game else {}
    # A table whose game has no hand yet has no result: its start scores are not a result to show. A finished game
    # without hands was recorded by its end scores: those are its result.
    started = bool(game and (result.get("hands") or game.status == Game.Status.FINISHED))
    finals = {row["player"]: row for row in (result.get("final", []) if started and game else [])}
    finished = bool(game and game.status == Game.Status.FINISHED)
    seats = []
    for seat in game.seats.all() if game else []:
        final = finals.get(seat.position)
        seats.append(
            {
                "wind": wind_label(winds[seat.position]),
                "player_id": seat.player_id,
                "name": seat.player.name,
                "score": final["score"] if final else None,
                "points": final["points"] if final and finished else None,  # a game under way has no points
                "draws": final.get("draws") if final else None,  # the solo game: its draws, score the value
                "match": bool(needle) and needle in seat.player.name.casefold(),
            }
        )
    # The next hand's round and dealer; a solo game (its result lists attempts) has neither.
    following = result.get("next") if started and game and not finished and "attempts" not in result else None
    current = following and {
        "round": round_label(following["round"]),
        "honba": following["honba"],
        "deposits": following["deposits"],
        "dealer": seats[following["dealer"]]["name"],
    }
    words = tally(game, game.confirmations.all(), len(seats)) if game else None
    return TableView(
        number=table.number,
        game_id=game.pk if game else None,
        status=game.status if game else None,
        seats=seats,
        highlighted=any(s["match"] for s in seats),
        started=started,
        finished=finished,
        confirmed=words.confirmed if words else 0,
        disputed_by=words.names if words else (),
        current=current,
    )


@dataclass(frozen=True, slots=True)
class PrintedTable:
    """A table's card and blank score sheet: the sheet carries a QR code of the game's entry page."""

    table: TableView
    entry_url: str
    qr: str  # inline SVG


def printed_tables(round_: Round, entry_url: Callable[[int], str]) -> list[PrintedTable]:
    """The round's tables to print; ``entry_url`` makes a game's entry page's absolute address."""
    tables = round_tables(round_)
    urls = [entry_url(table.game_id) if table.game_id else "" for table in tables]
    codes = qr_svgs([url for url in urls if url])
    return [PrintedTable(table=t, entry_url=url, qr=codes.get(url, "")) for t, url in zip(tables, urls, strict=True)]


# A code's picture depends on its data alone (and on this markup: the version in the key changes with it).
QR_CACHE_KEY = "qr1:{}"
QR_CACHE_SECONDS = 7 * 24 * 3600


def qr_svg(data: str) -> str:
    """``data`` as a QR code in inline SVG (segno, pure Python), sized by the stylesheet (a viewBox, no size)."""
    return qr_svgs([data])[data]


def qr_svgs(data: Sequence[str]) -> dict[str, str]:
    """Each text's QR code (``qr_svg``), drawn once and then kept in the shared cache: drawing one in pure
    Python costs about 14 ms, so a round of 100 tables took 1.4 s to print every time it was opened."""
    keys = {text: QR_CACHE_KEY.format(hashlib.sha256(text.encode()).hexdigest()) for text in data}
    kept = cache.get_many(list(keys.values()))
    drawn = {keys[text]: _draw_qr(text) for text in keys if keys[text] not in kept}
    if drawn:
        cache.set_many(drawn, QR_CACHE_SECONDS)
    return {text: mark_safe(kept.get(key) or drawn[key]) for text, key in keys.items()}


def _draw_qr(data: str) -> str:
    # segno's own markup: a path of the modules; the data is in the picture, never in the text.
    return str(segno.make_qr(data, error="m").svg_inline(omitsize=True, svgclass="qr", border=2))


# --- player ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerGame:
    game_id: int
    round: int | None
    table: int | None
    played_on: Any
    rank: Decimal
    score: int
    points: Decimal
    cumulative: Decimal
    draws: int | None = None  # the solo race to tenpai: the draws the game counts (score holds the value)


@dataclass(frozen=True, slots=True)
class Chart:
    """A server-drawn line of cumulative points, no script needed. Across in percent of the width, down in
    pixels of a fixed height: the box stretches to any screen while its text stays at the size the page's CSS
    gives it (a viewBox would shrink the labels with the picture, to about 6 px on a phone)."""

    height: int
    zero_y: float
    segments: list[tuple[float, float, float, float]]  # x1 %, y1 px, x2 %, y2 px
    dots: list[tuple[float, float, str]] = field(default_factory=list)  # x %, y px, the total after that game
    top_label: str = ""
    bottom_label: str = ""


def player_games(event: Event, player: Player) -> list[PlayerGame]:
    results = (
        GameResult.objects.filter(event=event, player=player, finished=True)
        .select_related("game__table__round")
        .order_by("game__played_on", "game__table__round__number", "game_id")
    )
    total = Decimal(0)
    out = []
    for r in results:
        total += r.points
        table = r.game.table
        out.append(
            PlayerGame(
                game_id=r.game_id,
                round=table.round.number if table else None,
                table=table.number if table else None,
                played_on=r.game.played_on,
                rank=r.rank,
                score=r.score,
                points=r.points,
                cumulative=total,
                draws=r.draws,
            )
        )
    return out


def cumulative_chart(values: Sequence[Decimal], *, height: int = 180) -> Chart | None:
    """Cumulative points after each game, from 0 before the first: the labels sit in bands above and below
    the line (top and bottom ``band`` px), so that no point is drawn under them."""
    if not values:
        return None
    series = [Decimal(0), *values]
    top, bottom = max(max(series), Decimal(0)), min(min(series), Decimal(0))
    span = (top - bottom) or Decimal(1)
    band, left, right = 20, 3.0, 97.0
    step = (right - left) / max(len(series) - 1, 1)

    def y(v: Decimal) -> float:
        return round(band + float((top - v) / span) * (height - 2 * band), 1)

    coords = [(round(left + i * step, 2), y(v)) for i, v in enumerate(series)]
    return Chart(
        height=height,
        zero_y=y(Decimal(0)),
        segments=[(*a, *b) for a, b in pairwise(coords)],
        dots=[(x, yy, f"{v:+.1f}") for (x, yy), v in zip(coords[1:], series[1:], strict=True)],
        top_label=f"{top:+.1f}",
        bottom_label=f"{bottom:+.1f}",
    )


# --- game -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandLine:
    index: int
    round: str
    honba: int
    dealer: str
    deposits: int
    text: str
    deltas: list[int]
    scores: list[int]
    ended: str | None
    changes: list[tuple[str, int, int]] = field(default_factory=list)  # (player, change, score after) by seat


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as its page shows it: players by their current names, the result named with them."""

    game: Game
    roster: Roster
    result: dict[str, Any]  # docs/score-sheet.md's output, players by name, why it ended in the reader's language
    hands: list[HandLine]


def game_view(game: Game) -> GameView:
    """From a game fetched with its seats (``tournament.selectors.with_seats``): no query of its own."""
    roster = game_roster(game)
    result = named_result(game)
    if result.get("end_reason"):
        result = {**result, "end_reason": game_end_words(game)}
    if result.get("next"):
        result = {**result, "next": {**result["next"], "round": round_label(result["next"]["round"])}}
    return GameView(game=game, roster=roster, result=result, hands=hand_lines(game_result(game), roster.labels))


def game_end_words(game: Game) -> str:
    """Why the game ended, in the reader's language; a game recorded by its end scores was not stopped by time."""
    if game.recorded_by_scores:
        return _("recorded by end scores")
    return end_reason(game_result(game).get("end_reason"), translation)


def hand_lines(result: Result, names: Sequence[str]) -> list[HandLine]:
    """Each hand of a stored result as the score sheet's text output shows it, in the reader's language."""
    return [
        HandLine(
            index=index,
            round=round_label(hand["round"]),
            honba=hand["honba"],
            dealer=names[hand["dealer"]],
            deposits=hand["deposits_before"],
            text=describe(hand, names, translation),
            deltas=list(hand["deltas"]),
            scores=list(hand["scores"]),
            ended=end_reason(hand.get("game_ended"), translation) or None,
            changes=list(zip(names, hand["deltas"], hand["scores"], strict=False)),
        )
        for index, hand in enumerate(result.get("hands", []))
    ]


def games_of_event(event: Event) -> QuerySet[Game]:
    return event.games.select_related("table__round").order_by("pk")


def disputes(event: Event) -> list[Confirmation]:
    """The disputed games' words, newest first: what an organiser looks at before anything else."""
    return list(
        Confirmation.objects.filter(game__event=event, verdict=Confirmation.Verdict.DISPUTED)
        .select_related("player", "game__table__round")
        .order_by("-at")
    )


def unconfirmed_games(event: Event) -> int:
    """Finished games the standings count before all their players confirmed them (0 when only confirmed count)."""
    if not event.count_unconfirmed:
        return 0
    finished = event.games.filter(status=Game.Status.FINISHED)
    return finished.count() - confirmed_games(event).filter(status=Game.Status.FINISHED).count()
