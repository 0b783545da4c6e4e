"""The event's rules in a player's words: the preset, points, uma, chombo and length, or the solo game's race."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from rules.options import SoloRanking
from rules.solo import MAX_DRAWS
from tournament.models import Event


def ruleset_summary(event: Event) -> list[tuple[str, str]]:
    """The rules a player asks about, in words: preset, points, uma, chombo, length."""
    r = event.ruleset()
    rows = [
        (
            _("Ruleset"),
            (
                _("%(rules)s with changes") % {"rules": event.ruleset_key}
                if event.ruleset_overrides
                else event.ruleset_key
            ),
        ),
        (_("Players per table"), str(r.players)),
    ]
    if r.is_solo:
        return [*rows, *_solo_rows(r.solo_ranking, r.solo_attempts)]
    if r.is_mcr:
        rows += [
            (_("Minimum"), ngettext("%(fan)s fan", "%(fan)s fan", r.min_fan) % {"fan": r.min_fan}),
            (_("Base payment"), str(r.base_payment)),
            (_("Table points"), " / ".join(_number(v) for v in r.table_points or ())),
        ]
    else:
        uma = r.as_dict()["uma"]
        rows += [
            (_("Start / return points"), f"{r.start_points} / {r.return_points}"),
            (
                _("Uma"),
                " / ".join(f"{v:+g}" for v in uma)
                if isinstance(uma, list) and uma
                else (_("by the number of players above the return") if uma else _("none")),
            ),
            (_("Length"), _length(r.players, r.round_winds)),
            (_("Chombo"), _chombo_text(r.chombo_penalty, r.chombo_payment, r.chombo_flat_amount)),
        ]
    return rows


def _chombo_text(penalty: Any, payment: str, flat: int) -> str:
    parts = []
    if penalty:
        parts.append(_("%(points)s points") % {"points": f"{float(penalty):+g}"})
    if payment == "flat" and flat:
        parts.append(_("pays %(amount)s at the table") % {"amount": flat})
    elif payment != "none":
        parts.append(_("pays a reverse mangan at the table"))
    return pgettext("list separator", ", ").join(parts) or _("no penalty")


def _length(players: int, round_winds: int) -> str:
    """A game's length as players name it (East only, a hanchan of East and South); by its winds at larger tables."""
    named = (
        {
            1: pgettext("game length", "East only"),
            2: pgettext("game length", "East and South (hanchan)"),
            4: pgettext("game length", "all four winds"),
        }
        if players <= 4
        else {}
    )
    return named.get(round_winds) or ngettext("%(n)s round wind", "%(n)s round winds", round_winds) % {"n": round_winds}


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


def _solo_rows(ranking: str, attempts: int | None) -> list[tuple[str, str]]:
    """The solo race to tenpai (seed 001 "1인 마작"): what ranks the players, and how many attempts a game holds."""
    counted = (
        _("each player's best attempt: the fewest draws to tenpai, then the higher value")
        if ranking == SoloRanking.BEST_ATTEMPT
        else _("the sum of the draws to tenpai over the attempts, then of the values")
    )
    return [
        (_("Game"), _("the race to tenpai alone: 34 tiles, no calls, at most %(n)s draws") % {"n": MAX_DRAWS}),
        (_("Ranking"), counted),
        (_("Attempts per game"), str(attempts) if attempts is not None else _("any number")),
    ]
