"""What the public pages and the referee's page show, read from stored rows (no scoring here).

Views call one function each and render; every number comes from the
replayed results and the stored standings, so the pages say exactly what the
API says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.models import Game, GameResult, Standing
from scoring.services import game_players, players_labels
from tournament.api import visible_events
from tournament.models import Event, Player, Round, Seat

# Standings columns a reader may sort by: (field, highest first).
SORTS = {"rank": ("rank", False), "player": ("player__name", False), "points": ("points", True),
         "table_points": ("table_points", True), "score": ("score", True), "games": ("games", True),
         "average_rank": ("average_rank", False)}


def wind_label(name: str) -> str:
    """A seat wind's name (the ruleset's English word) in the reader's language."""
    labels = {"East": pgettext("seat wind", "East"), "South": pgettext("seat wind", "South"),
              "West": pgettext("seat wind", "West"), "North": pgettext("seat wind", "North"),
              "Flower": pgettext("seat wind", "Flower"), "White": pgettext("seat wind", "White"),
              "Green": pgettext("seat wind", "Green"), "Red": pgettext("seat wind", "Red")}
    return labels.get(name, name)


def public_events(user: Any) -> QuerySet[Event]:
    return visible_events(user).order_by("-starts_on", "name")


# --- event ----------------------------------------------------------------------


def ruleset_summary(event: Event) -> list[tuple[str, str]]:
    """The rules a player asks about, in words: preset, points, uma, chombo, length."""
    r = event.ruleset()
    rows = [(_("Ruleset"), event.ruleset_key + (" " + _("with changes") if event.ruleset_overrides else "")),
            (_("Players per table"), str(r.players))]
    if r.is_mcr:
        rows += [(_("Minimum"), _("%(fan)s fan") % {"fan": r.min_fan}),
                 (_("Base payment"), str(r.base_payment)),
                 (_("Table points"), " / ".join(_number(v) for v in r.table_points or ()))]
    else:
        uma = r.as_dict()["uma"]
        rows += [(_("Start / return points"), f"{r.start_points} / {r.return_points}"),
                 (_("Uma"), " / ".join(f"{v:+g}" for v in uma) if isinstance(uma, list) and uma
                  else (_("by the number of players above the return") if uma else _("none"))),
                 (_("Length"), ngettext("%(n)s round wind", "%(n)s round winds", r.round_winds) % {"n": r.round_winds}),
                 (_("Chombo"), _chombo_text(r.chombo_penalty, r.chombo_payment, r.chombo_flat_amount))]
    return rows


def _chombo_text(penalty: Any, payment: str, flat: int) -> str:
    parts = []
    if penalty:
        parts.append(_("%(points)s points") % {"points": f"{float(penalty):+g}"})
    if payment == "flat" and flat:
        parts.append(_("pays %(amount)s at the table") % {"amount": flat})
    elif payment != "none":
        parts.append(_("pays a reverse mangan at the table"))
    return ", ".join(parts) or _("no penalty")


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


# --- standings ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int | None
    shared: bool
    player_id: int
    name: str
    points: Decimal
    table_points: Decimal | None
    score: int
    games: int
    average_rank: Decimal | None


def standings(event: Event, sort: str = "rank") -> list[StandingLine]:
    """The stored standings (one query), sorted by a column; shared ranks marked."""
    column, descending = SORTS.get(sort, SORTS["rank"])
    rows = list(Standing.objects.filter(event=event).select_related("player"))
    counts: dict[int | None, int] = {}
    for row in rows:
        counts[row.rank] = counts.get(row.rank, 0) + 1
    lines = [StandingLine(rank=r.rank, shared=r.rank is not None and counts[r.rank] > 1, player_id=r.player_id,
                          name=r.player.name, points=r.points, table_points=r.table_points, score=r.score,
                          games=r.games, average_rank=r.average_rank) for r in rows]
    if column != "rank":
        attr = "name" if column == "player__name" else column

        def key(line: StandingLine) -> tuple[bool, Any]:
            value = getattr(line, attr)
            return (value is None, value if not descending or value is None else -value)

        lines.sort(key=key)
    return lines


def standing_of(event: Event, player: Player) -> StandingLine | None:
    """One player's line (and whether the rank is shared): two small queries, whatever the event's size."""
    row = Standing.objects.filter(event=event, player=player).select_related("player").first()
    if row is None:
        return None
    shared = row.rank is not None and Standing.objects.filter(event=event, rank=row.rank).count() > 1
    return StandingLine(rank=row.rank, shared=shared, player_id=row.player_id, name=row.player.name,
                        points=row.points, table_points=row.table_points, score=row.score, games=row.games,
                        average_rank=row.average_rank)


# --- rounds ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    game_id: int | None
    status: str | None
    seats: list[dict[str, Any]]  # wind, player id, name, final score and points when there are any
    highlighted: bool = False


def round_tables(round_: Round, search: str = "") -> list[TableView]:
    """A round's tables with seat winds, players and their game's result so far."""
    winds = round_.event.ruleset().seat_winds
    tables = round_.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))).select_related("game")
    needle = search.strip().casefold()
    out = []
    for table in tables:
        game: Game | None = getattr(table, "game", None)
        finals = {row["player"]: row for row in (game.result.get("final", []) if game else [])}
        # The table's seats are its game's players in seat order: their labels name them in the result.
        labels = players_labels([(s.player_id, s.player.name) for s in table.seats.all()]).labels
        seats = []
        for k, seat in enumerate(table.seats.all()):
            final = finals.get(labels[k])
            seats.append({"wind": wind_label(winds[seat.position]), "player_id": seat.player_id,
                          "name": seat.player.name, "score": final["score"] if final else None,
                          "points": final["points"] if final else None,
                          "match": bool(needle) and needle in seat.player.name.casefold()})
        out.append(TableView(number=table.number, game_id=game.pk if game else None,
                             status=game.status if game else None, seats=seats,
                             highlighted=any(s["match"] for s in seats)))
    return out


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


@dataclass(frozen=True, slots=True)
class Chart:
    """A server-drawn line of cumulative points: SVG coordinates, no script needed."""

    width: int
    height: int
    zero_y: float
    points: str
    dots: list[tuple[float, float, str]] = field(default_factory=list)
    top_label: str = ""
    bottom_label: str = ""


def player_games(event: Event, player: Player) -> list[PlayerGame]:
    results = (GameResult.objects.filter(event=event, player=player, finished=True)
               .select_related("game__table__round").order_by("game__played_on", "game__table__round__number",
                                                             "game_id"))
    total = Decimal(0)
    out = []
    for r in results:
        total += r.points
        table = r.game.table
        out.append(PlayerGame(game_id=r.game_id, round=table.round.number if table else None,
                              table=table.number if table else None, played_on=r.game.played_on, rank=r.rank,
                              score=r.score, points=r.points, cumulative=total))
    return out


def cumulative_chart(values: Sequence[Decimal], *, width: int = 640, height: int = 220) -> Chart | None:
    """Cumulative points after each game, from 0 before the first, scaled into the box."""
    if not values:
        return None
    series = [Decimal(0), *values]
    top, bottom = max(max(series), Decimal(0)), min(min(series), Decimal(0))
    span = (top - bottom) or Decimal(1)
    pad = 16
    step = (width - 2 * pad) / max(len(series) - 1, 1)

    def y(v: Decimal) -> float:
        return round(pad + float((top - v) / span) * (height - 2 * pad), 1)

    coords = [(round(pad + i * step, 1), y(v)) for i, v in enumerate(series)]
    return Chart(width=width, height=height, zero_y=y(Decimal(0)),
                 points=" ".join(f"{x},{yy}" for x, yy in coords),
                 dots=[(x, yy, f"{v:+.1f}") for (x, yy), v in zip(coords[1:], series[1:], strict=True)],
                 top_label=f"{top:+.1f}", bottom_label=f"{bottom:+.1f}")


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


def game_hands(game: Game) -> list[HandLine]:
    """Each hand as the score sheet's text output shows it: round, dealer, honba, sticks, deltas, scores."""
    result = game.result or {}
    names: list[str] = result.get("players", [])
    records = list(game.hands.order_by("index").values_list("record", flat=True))
    players = game_players(game)
    lines = []
    for index, (hand, record) in enumerate(zip(result.get("hands", []), records, strict=False)):
        lines.append(HandLine(index=index, round=hand["round"], honba=hand["honba"], dealer=hand["dealer"],
                              deposits=hand["deposits_before"], text=describe(hand, record, players.label_of),
                              deltas=[hand["deltas"][n] for n in names], scores=[hand["scores"][n] for n in names],
                              ended=hand.get("game_ended")))
    return lines


def describe(hand: Mapping[str, Any], record: Mapping[str, Any], name_of: Any) -> str:
    """One line in words for a hand (its JSON output and the record it came from)."""
    kind = hand["result"]
    riichi = [name_of(p) for p in record.get("riichi", [])]
    if kind in ("ron", "tsumo"):
        wins = [w for w in hand.get("wins", []) if w.get("stood", True)]
        values = ", ".join(f"{w['winner']} {value_text(w)}" for w in wins)
        text = (_("Ron on %(loser)s: %(wins)s") % {"loser": name_of(record.get("loser")), "wins": values}
                if kind == "ron" else _("Tsumo: %(wins)s") % {"wins": values})
        if hand.get("abortive"):
            text = _("Triple ron on %(loser)s: abortive draw") % {"loser": name_of(record.get("loser"))}
    elif kind == "draw":
        tenpai = [name_of(p) for p in record.get("tenpai", [])]
        nagashi = [name_of(p) for p in record.get("nagashi", [])]
        text = (_("Draw, nagashi: %(names)s") % {"names": ", ".join(nagashi)} if nagashi
                else _("Draw, tenpai: %(names)s") % {"names": ", ".join(tenpai)} if tenpai
                else _("Draw, nobody tenpai"))
    elif kind == "abort":
        text = _("Abortive draw (%(reason)s)") % {"reason": hand.get("abortive") or record.get("reason", "")}
    elif kind == "chombo":
        text = _("Chombo: %(player)s") % {"player": name_of(record.get("player"))}
    else:
        text = kind
    if riichi:
        text += "; " + _("riichi: %(names)s") % {"names": ", ".join(riichi)}
    false_wins = [name_of(p) for p in record.get("false_wins", [])]
    if false_wins:
        text += "; " + _("false win: %(names)s") % {"names": ", ".join(false_wins)}
    return text


def value_text(win: Mapping[str, Any]) -> str:
    if "fan" in win:
        return (_("%(fan)s fan + %(flowers)s flowers") % {"fan": win["fan"], "flowers": win["flowers"]}
                if win.get("flowers") else _("%(fan)s fan") % {"fan": win["fan"]})
    if win.get("yakuman") and not win.get("han"):
        return str(win.get("limit") or _("yakuman"))
    text = _("%(han)s han") % {"han": win.get("han")}
    if win.get("fu") is not None:
        text += " " + _("%(fu)s fu") % {"fu": win["fu"]}
    return text + (f" ({win['limit']})" if win.get("limit") else "")


def final_lines(game: Game) -> list[dict[str, Any]]:
    return list((game.result or {}).get("final", []))


def games_of_event(event: Event) -> QuerySet[Game]:
    return event.games.select_related("table__round").order_by("pk")
