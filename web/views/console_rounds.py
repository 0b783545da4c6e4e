"""The organiser's round: seat it with a preview, re-seat before play, table codes and cards, the clock, and
ending games by time."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from rules.errors import Refusal
from scoring.selectors import game_result
from scoring.services import games as seating
from scoring.services import rounds, table_codes
from scoring.services.stages import stage_get
from tournament.models import Event, Game, Round
from tournament.selectors import is_row_id
from tournament.services.events import round_add
from tournament.services.seating import Method
from web import console_presenters as console
from web import console_teams, refusals
from web.console_forms import ClockForm, SeatForm, SubstituteForm
from web.live_presenters import live_attrs
from web.views.console import organised


def _round(request: HttpRequest, slug: str, number: int) -> tuple[Event, Round]:
    event = organised(request, slug)
    return event, get_object_or_404(Round, event=event, number=number)


def _back(round_: Round) -> HttpResponse:
    return redirect("console-round", slug=round_.event.slug, number=round_.number)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat the round: "Preview" shows the tables and keeps their seed, "Seat" opens exactly those. Swiss while
    an earlier round is still played seats only once the organiser ticks that the standings are not final."""
    event, round_ = _round(request, slug, number)
    stage = stage_get(event, round_.stage)
    teams = event.entrants == Event.Entrants.TEAMS
    form = SeatForm(request.POST or None, initial={"method": stage.seating}, teams=teams)
    preview, warnings, refused = None, [], ""
    if request.method == "POST" and form.is_valid():
        method, seed, action = form.cleaned_data["method"], form.cleaned_data["seed"], request.POST.get("action")
        try:
            if method != "named":
                warnings = seating.seating_warnings(event=event, number=number, method=Method(method))
            if action == "seat" and warnings and not form.cleaned_data["unsettled_ok"]:
                refused = _("Tick “Seat by these standings” to seat round %(round)s now, or wait for these tables.") % {
                    "round": number
                }
            elif action == "seat":
                _seat(request, event, number, method, seed, form.cleaned_data["tables"])
                return _back(round_)
            if method != "named":
                # A refused seat shows again the tables it asked for: the posted seed's.
                plan, seed = seating.round_preview(
                    event=event, number=number, method=Method(method), seed=seed if refused else None
                )
                preview = {
                    "tables": console.preview_tables(event, plan),
                    "byes": console.preview_byes(event, plan),
                    "plan": plan,
                    "doubts": console.seating_doubts(plan),
                }
                form = SeatForm(initial={"method": method, "seed": seed}, teams=teams)
        except Refusal as exc:
            refusals.on_form(form, exc)
    return _shown(
        request,
        event,
        round_,
        form=form,
        preview=preview,
        warnings=warnings,
        refused=refused,
        stage=stage if event.has_stages() else None,
    )


def _seat(request: HttpRequest, event: Event, number: int, method: str, seed: int | None, tables: str) -> None:
    """Seat the round and say so; a seating not proven optimal says that too, as its preview would have."""
    if method == "named":
        opened, doubts = seating.round_seat_named(event=event, number=number, text=tables), []
    else:
        opened, plan = seating.round_seat_planned(event=event, number=number, method=Method(method), seed=seed)
        doubts = console.seating_doubts(plan)
    messages.success(
        request,
        ngettext("Round %(round)s is seated at %(n)s table.", "Round %(round)s is seated at %(n)s tables.", len(opened))
        % {"round": number, "n": len(opened)},
    )
    if doubts:
        messages.warning(request, " ".join(doubts))


def _shown(request: HttpRequest, event: Event, round_: Round, **shown: Any) -> HttpResponse:
    tables = console.round_tables(request, round_)
    teams = event.entrants == Event.Entrants.TEAMS
    return render(
        request,
        "console/round.html",
        {
            **shown,
            "available": console.unseated_players(round_),
            "event": event,
            "round": round_,
            "tables": tables,
            "clock": ClockForm(initial={"minutes": round_.time_limit_minutes or 90}),
            "playing": sum(1 for t in tables if t.state != "done"),
            "played": any(t.hands for t in tables),
            "running": round_.clock_started,
            "teams": teams,
            **live_attrs(event),
            "lineup": console_teams.lineup_tables(round_, request.user) if teams and round_.tables.exists() else [],
        },
    )


@login_required
@require_POST
def round_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A round after the last, of the stage asked for (``stage``) or of the last round's (a later stage's once
    its cut is confirmed)."""
    event = organised(request, slug)
    last = event.rounds.order_by("-number").first()
    asked = request.POST.get("stage", "")
    try:
        round_ = round_add(
            event=event,
            time_limit_minutes=last.time_limit_minutes if last else None,
            stage=int(asked) if is_row_id(asked) else None,
        )
    except Refusal as exc:
        refusals.as_messages(request, exc)
        return redirect("console", slug=event.slug)
    return _back(round_)


@login_required
@require_POST
def round_unseat(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    _event, round_ = _round(request, slug, number)
    try:
        removed = rounds.round_unseat(round_=round_)
    except Refusal as exc:
        refusals.as_messages(request, exc)
    else:
        messages.success(
            request,
            ngettext(
                "%(n)s table removed: seat the round again.", "%(n)s tables removed: seat the round again.", removed
            )
            % {"n": removed},
        )
    return _back(round_)


@login_required
@require_POST
def round_clock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    _event, round_ = _round(request, slug, number)
    form = ClockForm(request.POST)
    if form.is_valid():
        rounds.round_clock_start(round_=round_, minutes=form.cleaned_data["minutes"])
        messages.success(request, _("The clock of round %(round)s is running.") % {"round": number})
    else:
        why = " ".join(str(e) for e in form.errors.get("minutes", []))
        messages.error(request, _("Minutes: %(why)s") % {"why": why})
    return _back(round_)


@login_required
@require_POST
def round_end(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """End by time: one game (``game``) or every game of the round still being played, each after its last hand
    entered. A refusal, and a table left open for having no hand, is told on that table's card."""
    _event, round_ = _round(request, slug, number)
    game_id = request.POST.get("game", "")
    if is_row_id(game_id):
        game = _table_game(round_, int(game_id))
        try:
            ended = rounds.game_end_by_time(game=game, user=request.user)
        except Refusal as exc:
            refusals.as_messages(request, exc, extra_tags=console.note_tag(game))
        else:
            messages.success(
                request,
                _("Table %(n)s ended by time after hand %(hand)s.")
                % {"n": game.table.number if game.table else "", "hand": len(game_result(ended).get("hands", []))},
            )
        return _back(round_)
    done = rounds.round_end_by_time(round_=round_, user=request.user)
    messages.success(
        request,
        ngettext(
            "%(n)s game ended by time after its last hand entered.",
            "%(n)s games ended by time after their last hand entered.",
            len(done.ended),
        )
        % {"n": len(done.ended)},
    )
    for game in done.not_started:
        messages.warning(
            request,
            _(
                "Not ended by time: no hand has been entered at this table, so it has played no "
                "game and counts for nobody."
            ),
            extra_tags=console.note_tag(game),
        )
    return _back(round_)


@login_required
@require_POST
def round_reopen(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Take back one game's end by time: its table enters hands again (the game's history keeps both)."""
    _event, round_ = _round(request, slug, number)
    game = _table_game(round_, _int(request.POST.get("game")))
    try:
        rounds.game_reopen(game=game, user=request.user)
    except Refusal as exc:
        refusals.as_messages(request, exc, extra_tags=console.note_tag(game))
    else:
        messages.success(
            request,
            _("Table %(n)s's game is open again: its hands can be entered.")
            % {"n": game.table.number if game.table else ""},
        )
    return _back(round_)


def _table_game(round_: Round, game_id: int | None) -> Game:
    return get_object_or_404(Game.objects.select_related("table"), pk=game_id, table__round=round_)


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and is_row_id(value) else None


@login_required
@require_POST
def round_codes(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Issue codes for the round's tables, or revoke (and renew) one table's."""
    _event, round_ = _round(request, slug, number)
    table_number = request.POST.get("table", "")
    if is_row_id(table_number):
        table = get_object_or_404(round_.tables, number=int(table_number))
        renew = request.POST.get("renew") == "1"
        table_codes.table_code_revoke(table=table, renew=renew)
        messages.success(
            request,
            (
                _("Table %(n)s has a new code; the old one no longer works.")
                if renew
                else _("Table %(n)s's code no longer works.")
            )
            % {"n": table.number},
        )
    else:
        issued = table_codes.round_codes_issue(round_=round_)
        messages.success(
            request, ngettext("%(n)s table code issued.", "%(n)s table codes issued.", issued) % {"n": issued}
        )
    return _back(round_)


@login_required
@require_http_methods(["GET", "HEAD"])
def round_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One card per table to print: its players East first, its code, the address of its entry page."""
    event, round_ = _round(request, slug, number)
    return render(
        request,
        "console/cards.html",
        {"event": event, "round": round_, "tables": console.round_tables(request, round_)},
    )


@login_required
@require_POST
def round_substitute(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A substitute takes a seat at one of the round's tables before its first hand."""
    _event, round_ = _round(request, slug, number)
    form = SubstituteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the seat and the substitute."))
        return _back(round_)
    game = get_object_or_404(Game, pk=form.cleaned_data["game"], table__round=round_)
    try:
        rounds.seat_substitute(
            game=game, position=form.cleaned_data["seat"], player_id=form.cleaned_data["player"], user=request.user
        )
    except Refusal as exc:
        refusals.as_messages(request, exc)
    else:
        messages.success(request, _("The substitute is seated."))
    return _back(round_)
