"""A player's statistics: the GameStats rows of the games asked for, added up in one aggregate query.

Only finished games count, and only games of events the reader may see
(``tournament.selectors.visible_events``): a private event's games stay
inside it. A filter narrows them to an event, a date range (the day each game
was played), a platform (``online``, ``table`` or one platform) and a ruleset
(``riichi``, ``mcr`` or one preset). Every rate is given with the counts it is
made of; the figures that only riichi has (riichi, tenpai, han, yakuman,
scores in thousands) are over the riichi games, MCR's over the MCR games,
each with its own games and hands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from rules.errors import Problem, Refusal
from rules.presets import preset_keys
from scoring.models import GameStats
from tournament.models import MAX_SEATS, Event, Game, Player
from tournament.selectors import is_slug, visible_events
from tournament.services.players import identity_q
from tournament.users import RequestUser

FAMILIES = ("riichi", "mcr")
ONLINE, TABLE = "online", "table"  # any platform; none (played at a table)
COUNTED = (
    "hands",
    "wins",
    "tsumo_wins",
    "deal_ins",
    "riichi",
    "riichi_wins",
    "draws",
    "tenpai",
    "chombo",
    "false_wins",
    "win_points",
    "han",
    "han_wins",
    "fan",
    "deal_in_points",
    "yakuman",
    "score",
    "points",
    "table_points",
)
RATE_DIGITS, AVERAGE_DIGITS = 4, 2


@dataclass(frozen=True, slots=True)
class StatsFilter:
    """Which of a player's games count (all of them when empty)."""

    event: Event | None = None
    since: date | None = None
    until: date | None = None
    platform: str = ""
    ruleset: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.event.slug if self.event else None,
            "from": self.since,
            "to": self.until,
            "platform": self.platform or None,
            "ruleset": self.ruleset or None,
        }


def platform_choices() -> tuple[str, ...]:
    return (ONLINE, TABLE, *Game.Platform.values)


def read_filter(params: Mapping[str, str], user: RequestUser) -> StatsFilter:
    """The filter a query string asks for: ``event`` (a slug), ``from``/``to`` (YYYY-MM-DD), ``platform`` and
    ``ruleset``; Refusal names each field that is wrong. An event the user may not see is no event."""
    problems: list[Problem] = []
    event = None
    if slug := params.get("event", ""):
        event = visible_events(user).filter(slug=slug).first() if is_slug(slug) else None
        if event is None:
            problems.append(Problem("event", _("no event with this address")))
    since, until = (_date(params.get(name, ""), name, problems) for name in ("from", "to"))
    if since and until and since > until:
        problems.append(Problem("to", _("must not be before from")))
    platform = params.get("platform", "")
    if platform and platform not in platform_choices():
        choices = ", ".join(platform_choices())
        problems.append(Problem("platform", _("must be one of: %(choices)s") % {"choices": choices}))
    ruleset = params.get("ruleset", "")
    if ruleset and ruleset not in FAMILIES and ruleset not in preset_keys():
        problems.append(Problem("ruleset", _("must be riichi, mcr or a ruleset preset's key")))
    if problems:
        raise Refusal(problems)
    return StatsFilter(event=event, since=since, until=until, platform=platform, ruleset=ruleset)


def _date(text: str, field: str, problems: list[Problem]) -> date | None:
    if not text:
        return None
    try:
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    problems.append(Problem(field, _("must be a date written YYYY-MM-DD")))
    return None


def counted_rows(player: Player, user: RequestUser, chosen: StatsFilter) -> QuerySet[GameStats]:
    """The player's finished games' rows that the filter and the user's sight let through."""
    # The person's every record: games stay with the record they were played under (a merge moves none).
    rows = GameStats.objects.filter(identity_q(player), finished=True, event__in=visible_events(user))
    return filtered(rows, chosen)


def filtered(rows: QuerySet[GameStats], chosen: StatsFilter) -> QuerySet[GameStats]:
    if chosen.event is not None:
        rows = rows.filter(event=chosen.event)
    if chosen.since is not None:
        rows = rows.filter(game__played_on__gte=chosen.since)
    if chosen.until is not None:
        rows = rows.filter(game__played_on__lte=chosen.until)
    if chosen.platform == ONLINE:
        rows = rows.exclude(game__platform="")
    elif chosen.platform:
        rows = rows.filter(game__platform="" if chosen.platform == TABLE else chosen.platform)
    if chosen.ruleset in FAMILIES:
        rows = rows.filter(mcr=chosen.ruleset == "mcr")
    elif chosen.ruleset:
        rows = rows.filter(ruleset=chosen.ruleset)
    return rows


def aggregates() -> dict[str, Any]:
    """What one query adds up: per family (r: riichi, m: MCR) every count, and the places."""
    out: dict[str, Any] = {
        "games": Count("id"),
        "online_games": Count("id", filter=~Q(game__platform="")),
        "rank_sum": Sum("rank"),
    }
    for family, only in (("r", Q(mcr=False)), ("m", Q(mcr=True))):
        out[f"{family}_games"] = Count("id", filter=only)
        out[f"{family}_busts"] = Count("id", filter=only & Q(busted=True))
        for name in COUNTED:
            out[f"{family}_{name}"] = Sum(name, filter=only)
    for place in range(1, MAX_SEATS + 1):
        out[f"place_{place}"] = Count("id", filter=Q(place=place))
    return out


def player_stats(player: Player, user: RequestUser, chosen: StatsFilter) -> dict[str, Any]:
    """Every figure of the player's games that count (two queries: the sums, and the yakuman hands)."""
    rows = counted_rows(player, user, chosen)
    figures = stats_figures(rows.aggregate(**aggregates()))
    figures["yakuman_hands"] = [
        {"game": row["game_id"], "hand": index + 1, "event": row["event__slug"], "played_on": row["game__played_on"]}
        for row in rows.filter(yakuman__gt=0)
        .order_by("game__played_on", "game_id")
        .values("game_id", "yakuman_hands", "event__slug", "game__played_on")
        for index in row["yakuman_hands"]
    ]
    return figures


def rate(count: int | Decimal, total: int) -> float | None:
    return round(float(count) / total, RATE_DIGITS) if total else None


def average(total: int | Decimal, count: int, digits: int = AVERAGE_DIGITS) -> float | None:
    return round(float(total) / count, digits) if count else None


def stats_figures(sums: Mapping[str, Any]) -> dict[str, Any]:
    """The figures from the sums of ``aggregates`` (a missing sum is 0): counts, and rates beside them."""

    def n(key: str) -> Any:
        return sums.get(key) or 0

    games, hands = n("games"), n("r_hands") + n("m_hands")
    wins, tsumo, deal_ins = (n(f"r_{k}") + n(f"m_{k}") for k in ("wins", "tsumo_wins", "deal_ins"))
    places = {str(p): n(f"place_{p}") for p in range(1, MAX_SEATS + 1)}
    last = max((p for p in range(1, MAX_SEATS + 1) if places[str(p)]), default=0)
    return {
        "games": games,
        "online_games": n("online_games"),
        "hands": hands,
        "placements": {p: c for p, c in places.items() if int(p) <= last},
        "average_place": average(n("rank_sum"), games),
        "wins": wins,
        "win_rate": rate(wins, hands),
        "tsumo_wins": tsumo,
        "tsumo_share": rate(tsumo, wins),
        "deal_ins": deal_ins,
        "deal_in_rate": rate(deal_ins, hands),
        **_riichi_figures(n),
        "mcr": _mcr_figures(n),
    }


def _riichi_figures(n: Any) -> dict[str, Any]:
    games, hands, wins, deal_ins = n("r_games"), n("r_hands"), n("r_wins"), n("r_deal_ins")
    return {
        "riichi_games": games,
        "riichi_hands": hands,
        "riichi_game_wins": wins,
        "riichi_game_deal_ins": deal_ins,
        "riichi": n("r_riichi"),
        "riichi_rate": rate(n("r_riichi"), hands),
        "riichi_wins": n("r_riichi_wins"),
        "riichi_win_rate": rate(n("r_riichi_wins"), n("r_riichi")),
        "win_points": n("r_win_points"),
        "average_win_points": average(n("r_win_points"), wins, 0),
        "han": n("r_han"),
        "han_wins": n("r_han_wins"),
        "average_han": average(n("r_han"), n("r_han_wins")),
        "deal_in_points": n("r_deal_in_points"),
        "average_deal_in": average(n("r_deal_in_points"), deal_ins, 0),
        "draws": n("r_draws"),
        "tenpai": n("r_tenpai"),
        "tenpai_rate": rate(n("r_tenpai"), n("r_draws")),
        "chombo": n("r_chombo"),
        "yakuman": n("r_yakuman"),
        "score": n("r_score"),
        "average_score": average(n("r_score"), games, 0),
        "points": float(n("r_points")),
        "average_points": average(n("r_points"), games),
        "busts": n("r_busts"),
        "bust_rate": rate(n("r_busts"), games),
    }


def _mcr_figures(n: Any) -> dict[str, Any]:
    games, hands, wins = n("m_games"), n("m_hands"), n("m_wins")
    return {
        "games": games,
        "hands": hands,
        "wins": wins,
        "win_rate": rate(wins, hands),
        "self_draws": n("m_tsumo_wins"),
        "self_draw_rate": rate(n("m_tsumo_wins"), wins),
        "deal_ins": n("m_deal_ins"),
        "deal_in_rate": rate(n("m_deal_ins"), hands),
        "fan": n("m_fan"),
        "average_fan": average(n("m_fan"), wins),
        "false_wins": n("m_false_wins"),
        "table_points": float(n("m_table_points")),
        "average_table_points": average(n("m_table_points"), games),
        "score": n("m_score"),
        "average_score": average(n("m_score"), games),
        "points": float(n("m_points")),
        "average_points": average(n("m_points"), games),
    }
