"""The entry form's chips: every choice of a hand one tap of a thumb, no keyboard.

A chip is a radio button (one value) or a checkbox (several) drawn as a
button by the site's CSS. The han, fu and yakuman counts are chips too, over
the same integer fields as before, so that the form accepts exactly what it
accepted as number boxes. The fu row matters only below the limit hands: the
page shows it for the han that need fu, and says from which fu a hand is
mangan under the event's rules (kiriage included), as the rule engine
computes it.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from rules.hand_value import KAZOE_HAN, LIMIT_HAN, VALID_FU, accepted_fu, hand_value
from rules.ruleset import Ruleset

CHIPS = "choices chips"  # the CSS class of a row of chips


def chips(choices: list[tuple[Any, Any]], *, css: str = "") -> forms.RadioSelect:
    return forms.RadioSelect(attrs={"class": f"{CHIPS} {css}".strip()}, choices=choices)


class CountChips(forms.RadioSelect):
    """Chips for a count; a value above the last chip (a stored 15 han) gets a chip of its own, so that editing
    a hand shows what was written instead of nothing chosen."""

    def optgroups(self, name: str, value: list[Any], attrs: dict[str, Any] | None = None) -> list[Any]:
        known = {str(choice) for choice, _ in self.choices}
        extra = [(v, v) for v in value if v not in known and str(v).isdigit()]
        if not extra:
            return super().optgroups(name, value, attrs)
        shown = self.choices
        self.choices = [*shown, *extra]
        try:
            return super().optgroups(name, value, attrs)
        finally:
            self.choices = shown


def count_chips(
    label: Any, help_text: Any, *, least: int, most: int, shown: int | None = None, top_label: str = ""
) -> forms.IntegerField:
    """A count from ``least`` to ``most``, chips up to ``shown`` (``most`` by default); ``top_label`` names the
    last chip (13 han stands for 13 or more). Values past the last chip are taken all the same."""
    last = most if shown is None else shown
    choices: list[tuple[Any, Any]] = [(n, str(n)) for n in range(least, last + 1)]
    if top_label:
        choices[-1] = (last, top_label)
    return forms.IntegerField(
        label=label,
        required=False,
        help_text=help_text,
        min_value=least,
        max_value=most,
        widget=CountChips(attrs={"class": f"{CHIPS} counts"}, choices=choices),
    )


class RepeatedPlayers(forms.MultipleChoiceField):
    """Players who may be listed more than once (MCR false wins): a chip per player and count ("Ann", "Ann ×2");
    the value is each player's id as many times as the highest count chosen for him."""

    def clean(self, value: Any) -> list[int]:
        highest: dict[int, int] = {}
        for chosen in super().clean(value):
            player, _, times = str(chosen).partition(REPEAT)
            highest[int(player)] = max(highest.get(int(player), 0), int(times or 1))
        return [player for player, times in highest.items() for _ in range(times)]


REPEAT = "*"  # "12*2": player 12, twice


def repeated_players(label: Any, players: list[tuple[Any, Any]], help_text: Any, *, each: int) -> RepeatedPlayers:
    choices = [
        (f"{value}{REPEAT}{times}" if times > 1 else str(value), f"{name} ×{times}" if times > 1 else name)
        for times in range(1, each + 1)
        for value, name in players
    ]
    return RepeatedPlayers(
        label=label,
        choices=choices,
        required=False,
        help_text=help_text,
        widget=forms.CheckboxSelectMultiple(attrs={"class": f"{CHIPS} players"}),
    )


def repeated_initial(players: list[Any]) -> list[str]:
    """A stored list with repeats ([12, 12]) as the chips that show it (["12*2"])."""
    counts = Counter(players)
    return [f"{player}{REPEAT}{times}" if times > 1 else str(player) for player, times in counts.items()]


def fu_chips(label: Any) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=label,
        coerce=int,
        empty_value=None,
        required=False,
        choices=[(v, str(v)) for v in VALID_FU],
        widget=chips([], css="counts"),
    )


def fu_rule(ruleset: Ruleset) -> dict[str, Any]:
    """What the page needs to show the fu row only when it can change the value, and to refuse a han/fu pair
    no hand can have before it sends the hand (offline.js), all as the rule engine says.

    ``han``: the han that take fu (below LIMIT_HAN: from 5 han a hand is a
    limit hand, docs/rules.md §2). ``mangan``: for each of them, the lowest fu at
    which the hand is a mangan under these rules (kiriage makes 4 han 30 fu and
    3 han 60 fu mangan); a han that never reaches it is left out. ``accepted``:
    for a ron and a tsumo, the fu each han from 1 to 13 may have (20 fu needs 2
    han, 25 fu 2 han on a ron and 3 on a tsumo: rules.hand_value.check_han_fu),
    for the page's JSON (json_script).
    """
    needs = list(range(1, LIMIT_HAN))
    mangan: dict[int, int] = {}
    for han in needs:
        reached = [fu for fu in VALID_FU if hand_value(ruleset=ruleset, han=han, fu=fu).limit is not None]
        if reached:
            mangan[han] = reached[0]
    return {"han": " ".join(map(str, needs)), "mangan": json.dumps(mangan), "accepted": _accepted_fu()}


@cache
def _accepted_fu() -> dict[str, dict[int, tuple[int, ...]]]:
    return {
        result: {han: accepted_fu(han=han, tsumo=result == "tsumo") for han in range(1, KAZOE_HAN + 1)}
        for result in ("ron", "tsumo")
    }


class StepCounter(forms.NumberInput):
    """A count typed, or stepped with a − and a + button a thumb can hit (the solo game's draws). The buttons
    are drawn hidden and shown by entry.js, which moves the number: without the script the box alone works."""

    def __init__(self, *, least: int, most: int) -> None:
        super().__init__(attrs={"inputmode": "numeric", "min": least, "max": most, "class": "counter-input"})

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        box = super().render(name, value, attrs, renderer)
        step = '<button type="button" class="secondary step" data-step="{}" aria-label="{}" hidden>{}</button>'
        return format_html(
            '<span class="counter" data-counter>' + step + "{}" + step + "</span>",
            "-1",
            _("one fewer"),
            "−",
            box,
            "1",
            _("one more"),
            "+",
        )


def counter(label: Any, help_text: Any, *, least: int, most: int) -> forms.IntegerField:
    """No upper bound in the form itself: past ``most`` the engine's refusal says why (the solo game's wall)."""
    return forms.IntegerField(
        label=label, required=False, help_text=help_text, min_value=least, widget=StepCounter(least=least, most=most)
    )
