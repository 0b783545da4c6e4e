"""The referee's hand entry page: one game, built for a phone at the table.

One URL. GET shows where the game stands, the entry form and the hands so
far; ``?edit=<index>`` loads a hand into the form to correct it. POST carries
an ``action``: ``preview`` (the engine's payments for the hand, nothing
saved), ``save`` (add the hand, or change hand ``index``) or ``delete`` (hand
``index``), always with the ``version`` of the game the referee saw. A write
based on an older version is refused with a clear message, the referee's
input kept; a refused hand shows the engine's messages next to the fields.
Saves and deletes redirect back (POST/redirect/GET). No scoring here: the
services replay the game, the page shows what they return.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from rules.errors import Problem
from rules.options import SoloRanking
from rules.ruleset import Ruleset
from scoring.messages import field_message
from scoring.selectors import game_result
from scoring.services import hands as services
from scoring.services.hands import HandPreview, VersionConflict
from scoring.services.idempotency import Answered, claim, fingerprint, remember
from scoring.services.table_codes import table_code_writer
from scoring.sheet.describe import describe, end_reason, value_text
from scoring.sheet.output import Result
from scoring.sheet.record import HandRecord
from tournament.errors import InvalidInput
from tournament.models import Game
from tournament.selectors import Roster, event_shown, game_roster
from tournament.users import Writer
from web import presenters as pages
from web.forms import DeleteForm, HandForm, SeatChoice, add_problems
from web.hand_records import hand_record, record_initial
from web.round_words import round_label
from web.views import entry_queue as queue

ACTIONS = ("preview", "save", "delete")
SOLO_STOPPED = "the player stopped"  # rules.game: a solo game of any number of attempts, after one of them


def entry_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    writer = _writer(request, game)
    if writer is None:
        if queue.from_queue(request):
            return queue.not_writer(request, game)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not event_shown(game.event, request.user):
            raise Http404("no such game")  # a private event's game, to a stranger: as if it were not there
        raise PermissionDenied(queue.NOT_A_WRITER)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "delete":
            return _delete(request, game, writer)
        if action in ("preview", "save"):
            return _enter(request, game, action, writer)
        return _Page(request, game).render(problems=[Problem("action", _("Unknown action."))], status=400)
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "POST"])
    page = _Page(request, game)
    index = _int(request.GET.get("edit"))
    if index is not None and not 0 <= index < page.hand_count:
        messages.warning(request, _("This game has no hand %(n)s.") % {"n": index + 1})
        index = None
    initial: dict[str, Any] = {"version": game.version, "result": page.first_result}
    hand = game.hands.filter(index=index).first() if index is not None else None
    if hand is not None:
        initial = {**record_initial(hand.record), "version": game.version, "index": index}
    else:
        index = None
    return page.render(form=page.form(index, initial=initial))


def _writer(request: HttpRequest, game: Game) -> Writer | None:
    """Who enters hands here: the event's organisers and referees, or the players at the table who opened the page
    with its code (the history names the code); None for anyone else."""
    if game.event.can_score(request.user):
        return request.user
    return table_code_writer(game=game, session=request.session)


def _after_write(game: Game) -> str:
    """Back to the top of the page, where the message and the next hand's form are: a redirect without a
    fragment would keep the form's #preview, and a phone would open far down, on the oldest hands."""
    return reverse("game-entry", args=[game.pk]) + "#saved"


def _game(game_id: int) -> Game:
    return get_object_or_404(Game.objects.select_related("event", "table__round"), pk=game_id)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _form_problems(form: BaseForm) -> list[Problem]:
    """A form's errors as problems, one per field."""
    return [Problem(name, " ".join(str(e) for e in errors)) for name, errors in form.errors.items()]


def _enter(request: HttpRequest, game: Game, action: str, writer: Writer) -> HttpResponse:
    page = _Page(request, game)
    form = page.form(_int(request.POST.get("index")), data=request.POST)
    if not form.is_valid():
        if queue.from_queue(request):
            return queue.refused(_form_problems(form))
        return page.render(form=form, status=400)
    record = hand_record(form.cleaned_data, mcr=form.mcr)
    index: int | None = form.cleaned_data["index"]
    version: int = form.cleaned_data["version"]
    if action == "preview":
        # Nothing is written, so a stale version only warns; the preview is of the game as it is now.
        conflict = version != game.version
        if conflict:
            form = page.rebound(form)
        try:
            preview = services.game_preview_hand(game_id=game.pk, record=record, index=index)
        except InvalidInput as exc:
            add_problems(form, exc.problems)
            return page.render(form=form, conflict=conflict, status=409 if conflict else 400)
        return page.render(form=form, conflict=conflict, preview=page.preview(preview),
                           status=409 if conflict else 200)
    try:
        number, text, version, again = _store(writer, page, game, form, request.GET)
    except VersionConflict:
        if queue.from_queue(request):
            return queue.conflict()
        page = _Page(request, _game(game.pk))
        return page.render(form=page.rebound(form), conflict=True, status=409)
    except InvalidInput as exc:
        if queue.from_queue(request):
            return queue.refused(exc.problems)
        add_problems(form, exc.problems)
        return page.render(form=form, status=400)
    if queue.from_queue(request):
        return queue.stored(number=number, version=version, again=again)
    if again:  # the same form sent again (a double tap, a resent page)
        messages.info(request, _("Hand %(n)s was already saved.") % {"n": number})
    else:
        messages.success(request, (_("Hand %(n)s added: %(text)s") if index is None
                                   else _("Hand %(n)s changed: %(text)s")) % {"n": number, "text": text})
    return redirect(_after_write(game))


def _store(writer: Writer, page: _Page, game: Game, form: HandForm,
           query: QueryDict) -> tuple[int, str, int, bool]:
    """Save the form's hand once: its number, the hand in words, the game's version after it, and whether the
    form's key had already saved it (then nothing more is written and the text is blank)."""
    record = hand_record(form.cleaned_data, mcr=form.mcr)
    index: int | None = form.cleaned_data["index"]
    key = form.cleaned_data.get("key") or ""
    with transaction.atomic():  # the key is claimed with the write, or not at all
        services.game_lock(game.pk)
        # The query string too, as the API's: the same key on another address is another request.
        asked = fingerprint(game.pk, index, record, sorted(query.lists()))
        claimed = claim(user=writer, key=key, asked=asked) if key else None
        if isinstance(claimed, Answered):
            # Answers kept before they carried the version: the game's current one.
            version = claimed.body.get("version") or Game.objects.values_list("version", flat=True).get(pk=game.pk)
            return claimed.body["number"], "", version, True
        number, text, version = _save(writer, page, game, record, index, form.cleaned_data["version"])
        if claimed is not None:
            remember(claimed, status=302, body={"number": number, "version": version}, headers={})
    return number, text, version, False


def _save(writer: Writer, page: _Page, game: Game, record: HandRecord, index: int | None,
          version: int) -> tuple[int, str, int]:
    """Add the hand, or change hand ``index``; its number, the hand in words and the game's new version."""
    if index is None:
        written = services.game_record_hand(game_id=game.pk, record=record, user=writer, version=version)
    else:
        written = services.game_change_hand(game_id=game.pk, index=index, record=record, user=writer,
                                            version=version)
    hands = game_result(written)["hands"]
    saved = index if index is not None else len(hands) - 1
    return saved + 1, describe(hands[saved], page.roster.labels, translation), written.version


def _delete(request: HttpRequest, game: Game, writer: Writer) -> HttpResponse:
    form = DeleteForm(request.POST)
    if not form.is_valid():
        return _Page(request, game).render(problems=_form_problems(form), status=400)
    index: int = form.cleaned_data["index"]
    try:
        services.game_delete_hand(game_id=game.pk, index=index, user=writer,
                                  version=form.cleaned_data["version"])
    except VersionConflict:
        return _Page(request, _game(game.pk)).render(conflict=True, status=409)
    except InvalidInput as exc:
        return _Page(request, game).render(problems=exc.problems, status=400)
    messages.success(request, _("Hand %(n)s deleted.") % {"n": index + 1})
    return redirect(_after_write(game))


class _Page:
    """What the page shows of one game: seats with their winds, the hands so far, the form."""

    def __init__(self, request: HttpRequest, game: Game) -> None:
        self.request = request
        self.game = game
        self.result: Result = game_result(game)
        self.ruleset: Ruleset = game.ruleset()
        self.roster: Roster = game_roster(game)
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
        return [SeatChoice(player_id=pid, name=label, wind=winds[k] if k < len(winds) else "")
                for k, (pid, label) in enumerate(zip(self.roster.ids, self.roster.labels, strict=True))]

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
        rows = [{"wind": pages.wind_label(hand["seat_winds"][seat]), "name": name,
                 "delta": hand["deltas"][seat], "score": hand["scores"][seat]} for seat, name in enumerate(names)]
        items = [{"winner": names[win["winner"]], "value": value_text(win, translation),
                  "items": [(i["name"], i.get("han", i.get("fan")))
                            for i in win.get("yaku") or win.get("fan_list") or []]}
                 for win in hand.get("wins", []) if win.get("yaku") or win.get("fan_list")]
        following = preview["next"] if preview["index"] >= self.hand_count else None
        attempt = ({"rank": hand["attempt_rank"], "counted": hand["counted"], "of": preview["final"][0]["attempts"]}
                   if "attempt" in hand else None)  # the solo game's: its rank among the attempts
        return {"index": preview["index"], "number": preview["index"] + 1, "round": round_label(hand["round"]),
                "attempt": attempt,
                "honba": hand["honba"], "dealer": names[hand["dealer"]], "rows": rows, "items": items,
                "text": describe(hand, names, translation), "deposits_after": hand["deposits_after"],
                "ended": end_reason(hand.get("game_ended"), translation) or None,
                "next": {**following, "round": round_label(following["round"]), "dealer": names[following["dealer"]]}
                if following else None}

    def seat_chips(self, form: HandForm) -> list[dict[str, Any]]:
        """The players at the top of the form, in seat order: seat wind and score in the hand being entered,
        what the last hand paid them, and their riichi checkbox (None where the rules have no riichi)."""
        hands = self.result.get("hands", [])
        index = _int(form["index"].value())
        if index is not None and 0 <= index < len(hands):  # a correction: the scores before that hand
            edited = hands[index]
            scores: list[int | None] = [s - d for s, d in zip(edited["scores"], edited["deltas"], strict=True)]
            last: list[int] = []
        else:
            final = {row["player"]: row["score"] for row in self.result.get("final", [])}
            scores = [final.get(k) for k in range(len(self.roster.labels))]
            last = list(hands[-1]["deltas"]) if hands else []
        boxes = list(form["riichi"]) if "riichi" in form.fields else []
        return [{"wind": pages.wind_label(seat.wind), "name": seat.name, "score": scores[k],
                 "delta": last[k] if k < len(last) else None, "widget": boxes[k] if k < len(boxes) else None}
                for k, seat in enumerate(form.seats)]

    def hands(self) -> list[tuple[pages.HandLine, list[tuple[str, int, int]]]]:
        """The hands so far, newest first, each with (player, payment, score after) in seat order."""
        names = self.roster.labels
        return [(line, list(zip(names, line.deltas, line.scores, strict=False)))
                for line in reversed(pages.hand_lines(self.result, names))]

    def attempts(self) -> list[tuple[pages.HandLine, dict[str, Any]]]:
        """The solo game's attempts so far, newest first, each with its rank among them and whether it counts."""
        stored = self.result.get("hands", [])
        return [(line, {"rank": stored[line.index].get("attempt_rank"), "counted": stored[line.index].get("counted")})
                for line, _cells in self.hands()]

    def solo_now(self) -> dict[str, Any] | None:
        """The solo player's result so far: the draws and value counted, the attempts made (None before one)."""
        final = next(iter(self.result.get("final") or []), None)
        if final is None or final.get("draws") is None:
            return None
        return {"name": self.roster.labels[0], "draws": final["draws"], "value": final["value"],
                "attempts": final["attempts"], "best": self.ruleset.solo_ranking == SoloRanking.BEST_ATTEMPT,
                "of": self.ruleset.solo_attempts}

    def open_for_more(self) -> bool:
        """A solo game of any number of attempts counts from its first, and takes more all the same."""
        return self.ruleset.is_solo and self.result.get("end_reason") == SOLO_STOPPED

    def render(self, *, form: HandForm | None = None, preview: dict[str, Any] | None = None,
               conflict: bool = False, problems: Sequence[Problem] = (), status: int = 200) -> HttpResponse:
        game = self.game
        if form is None:
            form = self.form(None, initial={"version": game.version, "result": self.first_result})
        editing_index = _int(form["index"].value())
        following = self.result.get("next")
        following = following and {**following, "round": round_label(following["round"])}  # the reader's words
        context = {
            "game": game, "event": game.event, "form": form, "preview": preview, "conflict": conflict,
            "problems": [field_message(p) for p in problems], "hands": self.hands(),
            "seat_chips": self.seat_chips(form),
            "more_open": any(form[name].errors or form[name].value() not in (None, "", [])
                             for name in ("false_wins", "false_wins_live", "note") if name in form.fields),
            "next": {**following, "dealer": self.roster.labels[following["dealer"]]} if following else None,
            # Stopped by the clock or by play alike: no more hands until an organiser reopens it.
            "finished": bool(self.result.get("finished")) and not self.open_for_more(), "hand_count": self.hand_count,
            "end_reason": self.result.get("end_reason"), "version": game.version,
            "end_reason_text": pages.game_end_words(game),
            "editing": editing_index, "editing_number": editing_index + 1 if editing_index is not None else None,
            "mcr": self.ruleset.is_mcr, "offline_text": offline_text(), "rules_key": game.rules_source()[0],
            # Several players may call ron on one discard, and only the first in turn after the discarder is paid.
            "head_bump": self.ruleset.players > 2 and not self.ruleset.pays_several_rons,
            "solo": self.ruleset.is_solo,
        }
        if self.ruleset.is_solo:
            context.update(attempts=self.attempts(), solo_now=self.solo_now())
        return render(self.request, "pages/entry.html", context, status=status)


def offline_text() -> dict[str, str]:
    """What offline.js says, in the reader's language (it checks what it can without the server)."""
    return {"one": _("1 hand waiting to be sent"), "count": _("%s hands waiting to be sent"),
            "result": _("Choose the result."), "winner": _("Choose the winner."), "loser": _("Choose who dealt in."),
            "same": _("The winner cannot be the discarder."), "value": _("Give the han (or yakuman, or fan)."),
            "fu": _("These han and fu cannot make a hand."), "mangan": _("mangan from %s fu"),
            "refused": _("the server refused it: drop it and enter it again"),
            "apply": _("Re-apply"), "drop": _("Drop"), "edit": _("Edit"), "retry": _("Send again"),
            "signin": _("Sign in again"), "code": _("Open the table again"), "riichi": _("riichi"),
            "draws": _("Give the draws to tenpai."), "drawn": _("%s draws"),
            "tenpai": _("Give the value of the tenpai hand (han, yakuman or its tiles)."),
            "csrf": _("Not sent: the page's security check failed (after a new sign-in?). Send it again; "
                      "if that fails too, sign in again."),
            "network": _("Not sent: no answer from the server."),
            "unclear": _("Not sent: the server's answer did not say the hand was stored."),
            "server": _("Not sent: the server failed (error %s)."), "later": _("Trying again in %s s."),
            "confirm": _("Drop this hand? It will not be sent. Write it down first if you need it:\n\n%s")}
