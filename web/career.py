"""A player's career page: every event, stage and game of this server the reader may see, the statistics of the
games a filter keeps, and their charts (SVG drawn here: no script, and no inline style, which the pages'
Content-Security-Policy forbids). A constant number of queries however many games there are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from rules.errors import Refusal
from scoring.models import GameStats, Standing
from scoring.services.stats import counted_rows, platform_choices, player_stats, read_filter
from tournament.models import Event, Game, Player, Registration, Seat, Stage
from tournament.selectors import visible_events
from tournament.services.players import identity, identity_q
from tournament.users import RequestUser
from web import refusals

GAMES_PER_PAGE = 50
TREND_POINTS = 200  # the most points the placement line draws: a long career is sampled, not crowded


@dataclass(frozen=True, slots=True)
class CareerEvent:
    event: Event
    games: int
    average_place: Decimal | None
    wins: int
    hands: int
    rank: int | None
    stage: str  # the last stage reached, where the event has more than one


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a chart: its label, the share of the whole (0 to 100, for the SVG's width) and its words."""

    label: str
    percent: float
    text: str


@dataclass(frozen=True, slots=True)
class Trend:
    """The running mean of the places after each game, drawn in a 1000 × 100 box stretched to the width."""

    points: str
    places: list[tuple[int, float]]  # each place and its height in the box, for the guide lines
    games: int


@dataclass
class CareerView:
    player: Player
    params: dict[str, str]
    events: list[CareerEvent]
    rulesets: list[str]
    platforms: tuple[str, ...]
    problems: list[str] = field(default_factory=list)  # every refused filter, with its path
    figures: dict[str, Any] | None = None
    placements: list[Bar] = field(default_factory=list)
    rates: list[Bar] = field(default_factory=list)
    mcr_rates: list[Bar] = field(default_factory=list)
    trend: Trend | None = None
    games: Page[GameStats] | None = None


def career_view(player: Player, user: RequestUser, params: Mapping[str, str], page: str | None) -> CareerView:
    stages: dict[tuple[int, int], str] = {}
    events = _events(player, user, stages)
    view = CareerView(
        player=player,
        params={k: params.get(k, "") for k in ("event", "from", "to", "platform", "ruleset")},
        events=events,
        platforms=platform_choices(),
        rulesets=list(
            GameStats.objects.filter(identity_q(player), event__in=[e.event for e in events])
            .order_by("ruleset")
            .values_list("ruleset", flat=True)
            .distinct()
        ),
    )
    try:
        chosen = read_filter(params, user)
    except Refusal as exc:
        view.problems = refusals.texts(exc, paths=True)
        return view

    view.figures = player_stats(player, user, chosen)
    view.placements = placement_bars(view.figures)
    view.rates = rate_bars(view.figures)
    view.mcr_rates = mcr_rates(view.figures)
    rows = counted_rows(player, user, chosen)
    view.trend = trend(list(rows.order_by("game__played_on", "game_id").values_list("rank", flat=True)))
    view.games = Paginator(_lines(rows), GAMES_PER_PAGE).get_page(page)
    for row in view.games:
        round_ = row.game.table.round if row.game.table else None
        row.stage_name = stage_name(stages, row.event_id, round_.stage if round_ else 1)  # type: ignore[attr-defined]
    return view


def _lines(rows: QuerySet[GameStats]) -> QuerySet[GameStats]:
    """The game lines newest first, with only what a line shows: a game's stored result is the biggest column."""
    return (
        rows.select_related("event", "game__table__round")
        .order_by("-game__played_on", "-game_id")
        .only(
            "game_id",
            "event_id",
            "rank",
            "score",
            "points",
            "wins",
            "deal_ins",
            "event__name",
            "game__played_on",
            "game__platform",
            "game__table__number",
            "game__table__round__number",
            "game__table__round__stage",
        )
    )


def _events(player: Player, user: RequestUser, stages: dict[tuple[int, int], str]) -> list[CareerEvent]:
    """The events the reader may see that the player is registered in or played in, newest first; ``stages``
    gets their stages' names (read once, for the games' lines too)."""
    records = identity(player)  # every record of the person: a merge moves no game, so they are all read
    # Subqueries, not joins: a join of the registrations and the seats would multiply a big event's rows.
    events = list(
        visible_events(user)
        .filter(
            Q(pk__in=Registration.objects.filter(player_id__in=records).values("event"))
            | Q(pk__in=Seat.objects.filter(player_id__in=records).values("game__event"))
        )
        .order_by("-starts_on", "name")
    )
    sums = {
        row["event"]: row
        for row in GameStats.objects.filter(player_id__in=records, finished=True, event__in=events)
        .values("event")
        .annotate(games=Count("id"), rank_sum=Sum("rank"), wins=Sum("wins"), hands=Sum("hands"))
    }
    standings = {s.event_id: s for s in Standing.objects.filter(player_id__in=records, event__in=events)}
    stages.update(_stage_names(events))
    out = []
    for event in events:
        row, standing = sums.get(event.pk, {}), standings.get(event.pk)
        games = row.get("games", 0)
        stage = standing.stage if standing else 1
        out.append(
            CareerEvent(
                event=event,
                games=games,
                average_place=row["rank_sum"] / games if games else None,
                wins=row.get("wins") or 0,
                hands=row.get("hands") or 0,
                rank=standing.rank if standing else None,
                stage=stage_name(stages, event.pk, stage),
            )
        )
    return out


def stage_name(stages: Mapping[tuple[int, int], str], event_id: int, number: int) -> str:
    """The stage's name where the event has a later stage (one stage needs no name); the first stage's
    default name where the organiser gave it none."""
    if (event_id, 2) not in stages:
        return ""
    return stages.get((event_id, number)) or (str(_("Stage 1")) if number == 1 else "")


def _stage_names(events: Sequence[Event]) -> dict[tuple[int, int], str]:
    return {
        (event_id, number): name
        for event_id, number, name in Stage.objects.filter(event__in=events).values_list("event_id", "number", "name")
    }


def placement_bars(figures: Mapping[str, Any]) -> list[Bar]:
    games = figures["games"]
    return [
        Bar(
            label=_("%(place)s.") % {"place": place},
            percent=round(100 * count / games, 1) if games else 0,
            text=_("%(count)s (%(share)s%%)")
            % {"count": count, "share": round(100 * count / games, 1) if games else 0},
        )
        for place, count in figures["placements"].items()
    ]


def rate_bars(figures: Mapping[str, Any]) -> list[Bar]:
    """The rates with the counts they are made of (riichi and tenpai are riichi games' figures)."""
    rows = [
        (_("Win rate"), figures["wins"], figures["hands"], _("hands")),
        (_("Deal-in rate"), figures["deal_ins"], figures["hands"], _("hands")),
        (_("Tsumo share"), figures["tsumo_wins"], figures["wins"], _("wins")),
        (_("Riichi rate"), figures["riichi"], figures["riichi_hands"], _("hands")),
        (_("Riichi win rate"), figures["riichi_wins"], figures["riichi"], _("riichi")),
        (_("Tenpai at exhaustive draws"), figures["tenpai"], figures["draws"], _("draws")),
    ]
    return [_bar(*row) for row in rows if row[2]]


def mcr_rates(figures: Mapping[str, Any]) -> list[Bar]:
    """MCR's rates over its own games, with their counts."""
    mcr = figures["mcr"]
    rows = [
        (_("Win rate"), mcr["wins"], mcr["hands"], _("hands")),
        (_("Self-draws"), mcr["self_draws"], mcr["wins"], _("wins")),
        (_("Deal-in rate"), mcr["deal_ins"], mcr["hands"], _("hands")),
    ]
    return [_bar(*row) for row in rows if row[2]]


def _bar(label: str, count: int, total: int, what: str) -> Bar:
    share = round(100 * count / total, 1) if total else 0
    return Bar(
        label=label,
        percent=share,
        text=_("%(share)s%% · %(count)s of %(total)s %(what)s")
        % {"share": share, "count": count, "total": total, "what": what},
    )


def trend(ranks: Sequence[Decimal]) -> Trend | None:
    """The running mean of the places (1 at the top), sampled to at most TREND_POINTS points."""
    if len(ranks) < 2:
        return None
    lowest = max(4, int(max(ranks) + Decimal("0.5")))
    means, total = [], Decimal(0)
    for n, rank in enumerate(ranks, start=1):
        total += rank
        means.append(total / n)
    step = max(1, len(means) // TREND_POINTS)
    picked = [(i, means[i]) for i in range(0, len(means), step)]
    if picked[-1][0] != len(means) - 1:
        picked.append((len(means) - 1, means[-1]))

    def height(place: Decimal | int) -> float:
        return round(5 + float(Decimal(place) - 1) / (lowest - 1) * 90, 2)

    last = len(means) - 1
    return Trend(
        points=" ".join(f"{round(1000 * i / last, 1)},{height(m)}" for i, m in picked),
        places=[(p, height(p)) for p in range(1, lowest + 1)],
        games=len(ranks),
    )


def platform_label(key: str) -> str:
    labels = {"online": _("online (any platform)"), "table": _("at the table"), **dict(Game.Platform.choices)}
    return str(labels.get(key, key))
