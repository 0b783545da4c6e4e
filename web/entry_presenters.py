"""What the referee's entry page shows of one game: seats with their winds, the hands so far, the form, a preview.

The page reads its game once, with everything it shows (``entry_page_of``);
the view (web.views.entry) decides, this module only presents.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import QueryDict
from django.utils import translation
from django.utils.translation import gettext as _

from rules.errors import Problem
from rules.options import SoloRanking
from rules.ruleset import Ruleset
from scoring.selectors import game_result
from scoring.services.hands import HandPreview
from scoring.sheet.describe import describe, end_reason, value_text
from scoring.sheet.output import Result, ResultHand
from tournament.models import Game, Seat
from tournament.selectors import Roster, roster, scorer_from, with_scorer
from tournament.users import RequestUser
from web import presenters as pages
from web import refusals
from web.forms import HandForm, SeatChoice
from web.round_words import round_label

SOLO_STOPPED = "the player stopped"  # rules.game: a solo game of any number of attempts, after one of them


def entry_page_of(game_id: int, user: RequestUser) -> EntryPage | None:
    """The page of game ``game_id`` (None if there is none), read in one statement: its seats with their players,
    each joined to the game, its event and its table's round, and whether ``user`` scores the event. A save reads
    nothing more before it writes."""
    read = Seat.objects.filter(game_id=game_id).select_related("player", "game__event", "game__table__round")
    seats = list(with_scorer(read, user, "game__event_id"))
    if seats:
        scorer_from(seats[0], seats[0].game.event, user)
        return EntryPage(seats[0].game, roster(seats), seats)
    game = Game.objects.select_related("event", "table__round").filter(pk=game_id).first()  # a game of no seats
    return EntryPage(game, roster([])) if game is not None else None


def as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class EntryPage:
    """What the page shows of one game: seats with their winds, the hands so far, the form."""

    def __init__(self, game: Game, roster: Roster, seats: Sequence[Seat] = ()) -> None:
        self.game = game
        self.seat_rows = seats  # with their players: a save reuses them if the game is still at this version
        self.result: Result = game_result(game)
        self.ruleset: Ruleset = game.ruleset()
        self.roster = roster
        self.hand_count = len(self.result.get("hands", []))
        # The result a new hand's form starts with: the most common one (a solo game's attempt reaches tenpai).
        self.first_result = "tenpai" if self.ruleset.is_solo else "ron"

    def winds(self, index: int | None) -> list[str]:
        """Each player's seat wind (seat order) in hand ``index``, or in the next hand to play.

        Winds turn with the dealer, and MCR reseats the players each round
        wind: the stored result gives them for each hand and for the next.
        """
        hands = self.result.get("hands", [])
        if index is not None and 0 <= index < len(hands):
            return list(hands[index]["seat_winds"])
        following = self.result.get("next")
        if following and not self.result.get("finished") and "seat_winds" in following:
            return list(following["seat_winds"])
        return list(self.ruleset.seat_winds)

    def seats(self, index: int | None) -> list[SeatChoice]:
        winds = self.winds(index)
        return [
            SeatChoice(player_id=pid, name=label, wind=winds[k] if k < len(winds) else "")
            for k, (pid, label) in enumerate(zip(self.roster.ids, self.roster.labels, strict=True))
        ]

    def form(self, index: int | None, *, data: Any = None, initial: Mapping[str, Any] | None = None) -> HandForm:
        if index is not None and not 0 <= index < self.hand_count:
            index = None
        return HandForm(data, initial=initial, seats=self.seats(index), ruleset=self.ruleset)

    def rebound(self, form: HandForm) -> HandForm:
        """The referee's input again, on the game's current version (after another referee's change)."""
        data = QueryDict(mutable=True)
        data.update(form.data)
        data["version"] = str(self.game.version)
        fresh = HandForm(data, seats=form.seats, ruleset=self.ruleset)
        fresh.is_valid()
        return fresh

    def preview(self, preview: HandPreview) -> dict[str, Any]:
        """The previewed hand as the page shows it: each player's payment and new score, in words."""
        hand, names = preview["hand"], self.roster.labels
        rows = [
            {
                "wind": pages.wind_label(hand["seat_winds"][seat]),
                "name": name,
                "delta": hand["deltas"][seat],
                "score": hand["scores"][seat],
            }
            for seat, name in enumerate(names)
        ]
        items = [
            {
                "winner": names[win["winner"]],
                "value": value_text(win, translation),
                "items": [
                    (i["name"], i.get("han", i.get("fan"))) for i in win.get("yaku") or win.get("fan_list") or []
                ],
            }
            for win in hand.get("wins", [])
            if win.get("yaku") or win.get("fan_list")
        ]
        following = preview["next"] if preview["index"] >= self.hand_count else None
        attempt = (
            {"rank": hand["attempt_rank"], "counted": hand["counted"], "of": preview["final"][0]["attempts"]}
            if "attempt" in hand
            else None
        )  # the solo game's: its rank among the attempts
        return {
            "index": preview["index"],
            "number": preview["index"] + 1,
            "round": round_label(hand["round"]),
            "attempt": attempt,
            "honba": hand["honba"],
            "dealer": names[hand["dealer"]],
            "rows": rows,
            "items": items,
            "text": describe(hand, names, translation),
            "deposits_after": hand["deposits_after"],
            "ended": end_reason(hand.get("game_ended"), translation) or None,
            "next": {**following, "round": round_label(following["round"]), "dealer": names[following["dealer"]]}
            if following
            else None,
        }

    def seat_chips(self, form: HandForm) -> list[dict[str, Any]]:
        """The players at the top of the form, in seat order: seat wind and score in the hand being entered,
        what the last hand paid them, and their riichi checkbox (None where the rules have no riichi)."""
        hands = self.result.get("hands", [])
        index = as_int(form["index"].value())
        if index is not None and 0 <= index < len(hands):  # a correction: the scores before that hand
            edited = hands[index]
            scores: list[int | None] = [s - d for s, d in zip(edited["scores"], edited["deltas"], strict=True)]
            last: list[int] = []
        else:
            final = {row["player"]: row["score"] for row in self.result.get("final", [])}
            scores = [final.get(k) for k in range(len(self.roster.labels))]
            last = list(hands[-1]["deltas"]) if hands else []
        boxes = list(form["riichi"]) if "riichi" in form.fields else []
        return [
            {
                "wind": pages.wind_label(seat.wind),
                "name": seat.name,
                "score": scores[k],
                "delta": last[k] if k < len(last) else None,
                "widget": boxes[k] if k < len(boxes) else None,
            }
            for k, seat in enumerate(form.seats)
        ]

    def hands(self) -> list[tuple[pages.HandLine, list[tuple[str, int, int]]]]:
        """The hands so far, newest first, each with (player, payment, score after) in seat order."""
        names = self.roster.labels
        return [
            (line, list(zip(names, line.deltas, line.scores, strict=False)))
            for line in reversed(pages.hand_lines(self.result, names))
        ]

    def attempts(self) -> list[tuple[pages.HandLine, dict[str, Any]]]:
        """The solo game's attempts so far, newest first, each with its rank among them and whether it counts."""
        stored = self.result.get("hands", [])
        return [
            (line, {"rank": stored[line.index].get("attempt_rank"), "counted": stored[line.index].get("counted")})
            for line, _cells in self.hands()
        ]

    def solo_now(self) -> dict[str, Any] | None:
        """The solo player's result so far: the draws and value counted, the attempts made (None before one)."""
        final = next(iter(self.result.get("final") or []), None)
        if final is None or final.get("draws") is None:
            return None
        return {
            "name": self.roster.labels[0],
            "draws": final["draws"],
            "value": final["value"],
            "attempts": final["attempts"],
            "best": self.ruleset.solo_ranking == SoloRanking.BEST_ATTEMPT,
            "of": self.ruleset.solo_attempts,
        }

    def open_for_more(self) -> bool:
        """A solo game of any number of attempts counts from its first, and takes more all the same."""
        return self.ruleset.is_solo and self.result.get("end_reason") == SOLO_STOPPED

    def hand_text(self, hand: ResultHand) -> str:
        """A stored hand in words, as the message after a save says it."""
        return describe(hand, self.roster.labels, translation)

    def context(
        self,
        *,
        form: HandForm | None = None,
        preview: dict[str, Any] | None = None,
        conflict: bool = False,
        problems: Sequence[Problem] = (),
    ) -> dict[str, Any]:
        """What pages/entry.html shows: the form (a new hand's when none is given), the preview, the hands."""
        game = self.game
        if form is None:
            form = self.form(None, initial={"version": game.version, "result": self.first_result})
        editing_index = as_int(form["index"].value())
        following = self.result.get("next")
        following = following and {**following, "round": round_label(following["round"])}  # the reader's words
        context = {
            "game": game,
            "event": game.event,
            "form": form,
            "preview": preview,
            "conflict": conflict,
            "problems": refusals.texts(problems, paths=True),
            "hands": self.hands(),
            "seat_chips": self.seat_chips(form),
            "more_open": any(
                form[name].errors or form[name].value() not in (None, "", [])
                for name in ("false_wins", "false_wins_live", "note")
                if name in form.fields
            ),
            "next": {**following, "dealer": self.roster.labels[following["dealer"]]} if following else None,
            # Stopped by the clock or by play alike: no more hands until an organiser reopens it.
            "finished": bool(self.result.get("finished")) and not self.open_for_more(),
            "hand_count": self.hand_count,
            "end_reason": self.result.get("end_reason"),
            "version": game.version,
            "end_reason_text": pages.game_end_words(game),
            "editing": editing_index,
            "editing_number": editing_index + 1 if editing_index is not None else None,
            "mcr": self.ruleset.is_mcr,
            "offline_text": offline_text(),
            "rules_key": game.rules_source()[0],
            # Several players may call ron on one discard, and only the first in turn after the discarder is paid.
            "head_bump": self.ruleset.players > 2 and not self.ruleset.pays_several_rons,
            "solo": self.ruleset.is_solo,
        }
        if self.ruleset.is_solo:
            context.update(attempts=self.attempts(), solo_now=self.solo_now())
        return context


def offline_text() -> dict[str, str]:
    """What offline.js says, in the reader's language (it checks what it can without the server)."""
    return {
        "one": _("1 hand waiting to be sent"),
        "count": _("%s hands waiting to be sent"),
        "result": _("Choose the result."),
        "winner": _("Choose the winner."),
        "loser": _("Choose who dealt in."),
        "same": _("The winner cannot be the discarder."),
        "value": _("Give the han (or yakuman, or fan)."),
        "fu": _("These han and fu cannot make a hand."),
        "mangan": _("mangan from %s fu"),
        "refused": _("the server refused it: drop it and enter it again"),
        "apply": _("Re-apply"),
        "drop": _("Drop"),
        "edit": _("Edit"),
        "retry": _("Send again"),
        "signin": _("Sign in again"),
        "code": _("Open the table again"),
        "riichi": _("riichi"),
        "draws": _("Give the draws to tenpai."),
        "drawn": _("%s draws"),
        "tenpai": _("Give the value of the tenpai hand (han, yakuman or its tiles)."),
        "csrf": _(
            "Not sent: the page's security check failed (after a new sign-in?). Send it again; "
            "if that fails too, sign in again."
        ),
        "network": _("Not sent: no answer from the server."),
        "unclear": _("Not sent: the server's answer did not say the hand was stored."),
        "server": _("Not sent: the server failed (error %s)."),
        "later": _("Trying again in %s s."),
        "confirm": _("Drop this hand? It will not be sent. Write it down first if you need it:\n\n%s"),
    }
