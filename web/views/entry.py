"""The referee's hand entry page: one game, built for a phone at the table.

One URL. GET shows where the game stands, the entry form and the hands so
far; ``?edit=<index>`` loads a hand into the form to correct it. POST carries
an ``action``: ``preview`` (the engine's payments for the hand, nothing
saved), ``save`` (add the hand, or change hand ``index``) or ``delete`` (hand
``index``), always with the ``version`` of the game the referee saw. A write
based on an older version is refused with a clear message, the referee's
input kept; a refused hand shows the engine's messages next to the fields.
Saves and deletes redirect back (POST/redirect/GET). No scoring here: the
services replay the game, the page shows what they return (web.entry_presenters),
and the edge (scoring.edge) names the writer and makes each save once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from rules.errors import Problem, Refusal
from scoring.edge.keys import Answered, fingerprint, once
from scoring.edge.writers import Barred, barred, game_writer
from scoring.selectors import game_result
from scoring.services import hands as services
from scoring.services.hands import VersionConflict
from scoring.sheet.record import HandRecord
from tournament.models import Game
from tournament.users import RequestUser, Writer
from web import refusals
from web.entry_presenters import EntryPage, as_int, entry_page_of
from web.forms import DeleteForm, HandForm, problem_field
from web.hand_records import hand_record, record_initial
from web.views import entry_queue as queue


def entry_page(request: HttpRequest, game_id: int) -> HttpResponse:
    page = _page(game_id, request.user)
    writer = game_writer(page.game, user=request.user, session=request.session)
    if writer is None:
        return _refused(request, page.game)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "delete":
            return _delete(request, page, writer)
        if action in ("preview", "save"):
            return _enter(request, page, action, writer)
        return _render(request, page, problems=[Problem("action", _("Unknown action."))], status=400)
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "POST"])
    return _show(request, page)


def _page(game_id: int, user: RequestUser) -> EntryPage:
    page = entry_page_of(game_id, user)
    if page is None:
        raise Http404("no such game")
    return page


def _render(request: HttpRequest, page: EntryPage, *, status: int = 200, **shown: Any) -> HttpResponse:
    return render(request, "pages/entry.html", page.context(**shown), status=status)


def _refused(request: HttpRequest, game: Game) -> HttpResponse:
    """Why this request may not write here: the queue's JSON, or the page's login, 404 or 403."""
    if queue.from_queue(request):
        return queue.not_writer(barred(game, user=request.user, session=request.session), game)
    reason = barred(game, user=request.user)
    if reason is Barred.SIGN_IN:
        return redirect_to_login(request.get_full_path())
    if reason is Barred.HIDDEN:
        raise Http404("no such game")  # a private event's game, to a stranger: as if it were not there
    raise PermissionDenied(queue.NOT_A_WRITER)


def _show(request: HttpRequest, page: EntryPage) -> HttpResponse:
    game = page.game
    index = as_int(request.GET.get("edit"))
    if index is not None and not 0 <= index < page.hand_count:
        messages.warning(request, _("This game has no hand %(n)s.") % {"n": index + 1})
        index = None
    initial: dict[str, Any] = {"version": game.version, "result": page.first_result}
    hand = game.hands.filter(index=index).first() if index is not None else None
    if hand is not None:
        initial = {**record_initial(hand.record), "version": game.version, "index": index}
    else:
        index = None
    return _render(request, page, form=page.form(index, initial=initial))


def _after_write(game: Game) -> str:
    """Back to the top of the page, where the message and the next hand's form are: a redirect without a
    fragment would keep the form's #preview, and a phone would open far down, on the oldest hands."""
    return reverse("game-entry", args=[game.pk]) + "#saved"


def _form_problems(form: BaseForm) -> list[Problem]:
    """A form's errors as problems, one per field."""
    return [Problem(name, " ".join(str(e) for e in errors)) for name, errors in form.errors.items()]


def _enter(request: HttpRequest, page: EntryPage, action: str, writer: Writer) -> HttpResponse:
    form = page.form(as_int(request.POST.get("index")), data=request.POST)
    if not form.is_valid():
        if queue.from_queue(request):
            return queue.refused(_form_problems(form))
        return _render(request, page, form=form, status=400)
    if action == "preview":
        return _preview(request, page, form)
    return _save(request, page, form, writer)


def _preview(request: HttpRequest, page: EntryPage, form: HandForm) -> HttpResponse:
    record = hand_record(form.cleaned_data, mcr=form.mcr)
    index: int | None = form.cleaned_data["index"]
    # Nothing is written, so a stale version only warns; the preview is of the game as it is now.
    conflict = form.cleaned_data["version"] != page.game.version
    if conflict:
        form = page.rebound(form)
    try:
        preview = services.game_preview_hand(game_id=page.game.pk, record=record, index=index)
    except Refusal as exc:
        refusals.on_form(form, exc, field=problem_field)
        return _render(request, page, form=form, conflict=conflict, status=409 if conflict else 400)
    return _render(
        request, page, form=form, conflict=conflict, preview=page.preview(preview), status=409 if conflict else 200
    )


def _save(request: HttpRequest, page: EntryPage, form: HandForm, writer: Writer) -> HttpResponse:
    try:
        saved = _store(writer, page, form, request.GET)
    except VersionConflict:
        if queue.from_queue(request):
            return queue.conflict()
        page = _page(page.game.pk, request.user)  # the game as the other referee left it
        return _render(request, page, form=page.rebound(form), conflict=True, status=409)
    except Refusal as exc:
        if queue.from_queue(request):
            return queue.refused(exc.problems)
        refusals.on_form(form, exc, field=problem_field)
        return _render(request, page, form=form, status=400)
    if queue.from_queue(request):
        return queue.stored(number=saved.number, version=saved.version, again=saved.again)
    if saved.again:  # the same form sent again (a double tap, a resent page)
        messages.info(request, _("Hand %(n)s was already saved.") % {"n": saved.number})
    elif form.cleaned_data["index"] is None:
        messages.success(request, _("Hand %(n)s added: %(text)s") % {"n": saved.number, "text": saved.text})
    else:
        messages.success(request, _("Hand %(n)s changed: %(text)s") % {"n": saved.number, "text": saved.text})
    return redirect(_after_write(page.game))


@dataclass(frozen=True, slots=True)
class _Saved:
    """A saved hand: its number, the hand in words (blank when ``again``), the game's version after it, and
    whether the form's key had already saved it (then nothing more was written)."""

    number: int
    text: str
    version: int
    again: bool = False


def _store(writer: Writer, page: EntryPage, form: HandForm, query: QueryDict) -> _Saved:
    """Save the form's hand once (its key, scoring.edge.keys.once)."""
    record = hand_record(form.cleaned_data, mcr=form.mcr)
    index: int | None = form.cleaned_data["index"]
    # The query string too, as the API's: the same key on another address is another request.
    asked = fingerprint(page.game.pk, index, record, sorted(query.lists()))
    done = once(
        writer=writer,
        key=form.cleaned_data.get("key") or None,
        asked=asked,
        write=lambda: _written(writer, page, record, index, form.cleaned_data["version"]),
        kept=lambda saved: Answered(status=302, body={"number": saved.number, "version": saved.version}, headers={}),
    )
    if isinstance(done, Answered):
        # Answers kept before they carried the version: the game's, as this request read it.
        return _Saved(done.body["number"], "", done.body.get("version") or page.game.version, again=True)
    return done


def _written(writer: Writer, page: EntryPage, record: HandRecord, index: int | None, version: int) -> _Saved:
    """Add the hand, or change hand ``index``."""
    game_id, seen = page.game.pk, _seen(page)
    if index is None:
        written = services.game_record_hand(game_id=game_id, record=record, user=writer, version=version, seen=seen)
    else:
        written = services.game_change_hand(
            game_id=game_id, index=index, record=record, user=writer, version=version, seen=seen
        )
    hands = game_result(written)["hands"]
    saved = index if index is not None else len(hands) - 1
    return _Saved(saved + 1, page.hand_text(hands[saved]), written.version)


def _seen(page: EntryPage) -> services.Seen | None:
    """The seats the page read, for the write to reuse while the game is still at the version they were read at."""
    return services.Seen(page.game.version, page.seat_rows) if page.seat_rows else None


def _delete(request: HttpRequest, page: EntryPage, writer: Writer) -> HttpResponse:
    form = DeleteForm(request.POST)
    if not form.is_valid():
        return _render(request, page, problems=_form_problems(form), status=400)
    index: int = form.cleaned_data["index"]
    try:
        services.game_delete_hand(
            game_id=page.game.pk, index=index, user=writer, version=form.cleaned_data["version"], seen=_seen(page)
        )
    except VersionConflict:
        return _render(request, _page(page.game.pk, request.user), conflict=True, status=409)
    except Refusal as exc:
        return _render(request, page, problems=exc.problems, status=400)
    messages.success(request, _("Hand %(n)s deleted.") % {"n": index + 1})
    return redirect(_after_write(page.game))
