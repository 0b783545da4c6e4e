"""One hand in words, as a referee would say it: "Ron on Cy: Ann 3 han 40 fu; riichi: Ann".

The one wording of a hand for the command's text output (English) and the
pages (in the reader's language). It reads a hand of the stored result
(players by seat, ``scoring.sheet.output``) and the names to use, so it needs
neither the sheet nor the database. Django-free: the pages pass Django's
``gettext``; the strings are marked with ``_`` so that ``makemessages``
collects them. The engine's own words in a hand (a limit such as "mangan", an
abortive draw's reason, why the game ended) are stored in English and put
through the same ``gettext`` by their catalogue, rules.messages.WORDS.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from rules.messages import word
from scoring.sheet.output import ResultHand, WinValue


class Words(Protocol):
    """Where the words come from: ``django.utils.translation`` on the pages, English by default."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, number: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


class English:
    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, number: int) -> str:
        return singular if number == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message


ENGLISH = English()


def describe(hand: ResultHand, names: Sequence[str], words: Words = ENGLISH) -> str:
    """The hand in one line; ``hand`` is one of a stored result's hands (players by seat)."""
    return joined(words, [_headline(hand, names, words), *_declared(hand, names, words)])


def _headline(hand: ResultHand, names: Sequence[str], words: Words) -> str:
    """What ended the hand: "Ron on Cy: Ann 3 han 40 fu", "Draw, tenpai: Ann, Bo"."""
    _ = words.gettext
    kind = hand["result"]
    loser = _name(names, hand.get("loser"))
    if hand.get("abortive") == "all_others_ron" and hand.get("loser") is not None:  # rule 0's N - 1 rons
        return _("%(count)s rons on %(loser)s: abortive draw") % {"count": len(hand.get("wins", [])), "loser": loser}
    if hand.get("abortive") and hand.get("loser") is not None:  # a triple ron that ends the hand
        return _("Triple ron on %(loser)s: abortive draw") % {"loser": loser}
    if kind in ("ron", "tsumo"):
        text = (
            _("Ron on %(loser)s: %(wins)s") % {"loser": loser, "wins": _wins(hand, names, words, stood=True)}
            if kind == "ron"
            else _("Tsumo: %(wins)s") % {"wins": _wins(hand, names, words, stood=True)}
        )
        return text + _head_bump(hand, names, words)
    if kind == "draw":
        return (
            _("Draw, nagashi: %(names)s") % {"names": _who(hand.get("nagashi"), names, words)}
            if hand.get("nagashi")
            else _("Draw, tenpai: %(names)s") % {"names": _who(hand.get("tenpai"), names, words)}
            if hand.get("tenpai")
            else _("Draw, nobody tenpai")
            if "tenpai" in hand
            else _("Draw")
        )
    if kind == "tenpai":
        wins: Sequence[WinValue] = hand.get("wins") or [{}]
        return words.ngettext(
            "Tenpai after %(n)s draw: %(value)s, %(points)s",
            "Tenpai after %(n)s draws: %(value)s, %(points)s",
            hand.get("draws", 0),
        ) % {"n": hand.get("draws"), "value": value_text(wins[0], words), "points": hand.get("value")}
    if kind == "noten":
        return _("Noten: the wall ran out before tenpai (counts as %(n)s draws)") % {"n": hand.get("draws")}
    if kind == "abort":
        return _("Abortive draw (%(reason)s)") % {"reason": word(str(hand.get("abortive") or ""), _)}
    return _("Chombo: %(player)s") % {"player": _name(names, hand.get("chombo"))}


def _declared(hand: ResultHand, names: Sequence[str], words: Words) -> list[str]:
    """Who declared riichi, who made a false win and who played on after one."""
    _ = words.gettext
    parts = []
    if hand.get("riichi"):
        parts.append(_("riichi: %(names)s") % {"names": _who(hand["riichi"], names, words)})
    if hand.get("false_wins"):
        counted = Counter(hand["false_wins"])  # a player charged twice is listed twice: "Ann ×2"
        parts.append(
            _("false win: %(names)s")
            % {
                "names": listed(
                    words,
                    [
                        _who([seat], names, words) + (f" ×{times}" if times > 1 else "")
                        for seat, times in counted.items()
                    ],
                )
            }
        )
    if hand.get("false_wins_live"):
        parts.append(
            _("played on after a false win: %(names)s") % {"names": _who(hand["false_wins_live"], names, words)}
        )
    return parts


def _who(seats: Sequence[int] | None, names: Sequence[str], words: Words) -> str:
    return listed(words, [_name(names, seat) for seat in seats or ()])


def listed(words: Words, items: Sequence[str]) -> str:
    """Names or wins one after another: "Ann, Bo" (Ann、Bo in Japanese and Chinese)."""
    # Translators: what separates the names (or the wins) of a list in a hand's summary: "Ann, Bo".
    return words.pgettext("list separator", ", ").join(items)


def joined(words: Words, parts: Sequence[str]) -> str:
    """A hand's parts in one line: "Tsumo: Ann 2 han 30 fu; riichi: Ann" (a full-width separator in CJK)."""
    # Translators: what separates the parts of a hand's summary: "Tsumo: Ann 2 han 30 fu; riichi: Ann".
    return words.pgettext("hand parts separator", "; ").join(parts)


def _wins(hand: ResultHand, names: Sequence[str], words: Words, *, stood: bool) -> str:
    return listed(
        words,
        [
            f"{_name(names, w['winner'])} {value_text(w, words)}"
            for w in hand.get("wins", [])
            if w.get("stood", True) == stood
        ],
    )


def _head_bump(hand: ResultHand, names: Sequence[str], words: Words) -> str:
    """Who a head bump paid and which declared rons it did not, when it took any (seed 000 §3.5): the wins
    are in turn order from the discarder, so the first is the player it paid."""
    wins = hand.get("wins", [])
    if not any(not w.get("stood", True) for w in wins):
        return ""
    _ = words.gettext
    return words.pgettext("hand parts separator", "; ") + _(
        "head bump: %(winner)s, first after the discarder; not paid: %(wins)s"
    ) % {"winner": _name(names, wins[0]["winner"]), "wins": _wins(hand, names, words, stood=False)}


def value_text(win: WinValue, words: Words = ENGLISH) -> str:
    """A win's value: "3 han 40 fu", "5 han (mangan)", "yakuman", "12 fan + 2 flowers"."""
    _ = words.gettext
    if "fan" in win:
        flowers = win.get("flowers") or 0
        return (
            words.ngettext("%(fan)s fan + %(flowers)s flower", "%(fan)s fan + %(flowers)s flowers", flowers)
            % {"fan": win["fan"], "flowers": flowers}
            if flowers
            else words.ngettext("%(fan)s fan", "%(fan)s fan", win["fan"]) % {"fan": win["fan"]}
        )
    if win.get("yakuman") and not win.get("han"):
        return word(str(win.get("limit") or "yakuman"), _)
    text = _("%(han)s han") % {"han": win.get("han")}
    if win.get("fu") is not None:
        text += " " + _("%(fu)s fu") % {"fu": win["fu"]}
    if not win.get("limit"):
        return text
    # Translators: a win's value and its limit: "5 han (mangan)".
    return words.pgettext("value with its limit", "%(value)s (%(limit)s)") % {
        "value": text,
        "limit": word(str(win["limit"]), _),
    }


def end_reason(reason: str | None, words: Words = ENGLISH) -> str:
    """Why the game ended ("end of the game", "bust", "time"...), in ``words``; "" while it goes on."""
    return word(reason, words.gettext) if reason else ""


def _name(names: Sequence[str], seat: object) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)
