"""A club night's game recorded by its end scores, by an organiser or a referee of the event (no round needed), and
corrected by them as any game is."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from rules.errors import Refusal
from scoring.services.games import game_correct_totals, game_record_totals
from scoring.services.hands import VersionConflict
from tournament.models import Game
from tournament.selectors import visible_events
from web import refusals
from web.console_forms import TotalsForm
from web.presenters import wind_label


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_by_scores(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(visible_events(request.user), slug=slug)  # a private event: 404 to strangers
    if not event.can_score(request.user):
        raise PermissionDenied(_("Only the event's organisers and referees record games."))
    roster = list(
        event.registrations.filter(withdrawn=False).order_by("player__name").values_list("player_id", "player__name")
    )
    ruleset = event.ruleset()
    form = TotalsForm(
        request.POST or None,
        players=roster,
        seats=[wind_label(w) for w in ruleset.seat_winds],
        sticks=bool(ruleset.riichi_deposit),
        initial={"played_on": timezone.localdate()},
    )
    if request.method == "POST" and form.is_valid():
        try:
            game = game_record_totals(
                event=event,
                player_ids=form.players(),
                scores=form.scores(),
                deposits_left=form.cleaned_data.get("deposits_left", 0),
                user=request.user,
                played_on=form.cleaned_data["played_on"],
            )
        except Refusal as exc:
            refusals.on_form(form, exc)
        else:
            messages.success(request, _("The game is recorded."))
            return redirect("game", game_id=game.pk)
    return render(
        request,
        "console/game_by_scores.html",
        {
            "event": event,
            "form": form,
            "total": ruleset.start_points * ruleset.players,
            "stick": ruleset.riichi_deposit,
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_scores(request: HttpRequest, game_id: int) -> HttpResponse:
    """Correct a game recorded by its end scores: the same form, its players kept in their seats."""
    # A private event's game, to a stranger: as if it were not there (a 403 would say it is).
    game = get_object_or_404(
        Game.objects.select_related("event").filter(event__in=visible_events(request.user)), pk=game_id
    )
    if not game.event.can_score(request.user):
        raise PermissionDenied(_("Only the event's organisers and referees record games."))
    if not game.recorded_by_scores:
        return redirect("game-entry", game_id=game.pk)  # a game with hands is corrected hand by hand
    seats = list(game.seats.select_related("player").order_by("position"))
    ruleset = game.ruleset()
    initial: dict[str, object] = {"played_on": game.played_on, "deposits_left": game.start.get("deposits", 0)}
    for n, (seat, score) in enumerate(zip(seats, game.start["scores"], strict=False), start=1):
        initial[f"player_{n}"], initial[f"score_{n}"] = seat.player_id, score
    form = TotalsForm(
        request.POST or None,
        players=[(s.player_id, s.player.name) for s in seats],
        seats=[wind_label(w) for w in ruleset.seat_winds],
        sticks=bool(ruleset.riichi_deposit),
        initial=initial,
        fixed=True,
    )
    if request.method == "POST" and form.is_valid():
        try:
            game_correct_totals(
                game=game,
                scores=form.scores(),
                deposits_left=form.cleaned_data.get("deposits_left", 0),
                user=request.user,
            )
        except VersionConflict:
            form.add_error(None, _("Someone changed this game while you were correcting it: check it again."))
        except Refusal as exc:
            refusals.on_form(form, exc)
        else:
            messages.success(request, _("The end scores are corrected; the players confirm the game again."))
            return redirect("game", game_id=game.pk)
    return render(
        request,
        "console/game_by_scores.html",
        {
            "event": game.event,
            "form": form,
            "total": ruleset.start_points * ruleset.players,
            "stick": ruleset.riichi_deposit,
            "correcting": game,
        },
    )
