"""Players confirm their table: a finished game's result, confirmed or disputed with each player's code.

The page needs no account: the personal code is the player's word. Organisers print each player's code on a
slip of its own (never on the shared table card); a signed-in player finds theirs on their player page. A
private event's game opens to whoever gives its number and the code of one of its players (``confirm_open``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from rules.errors import Refusal
from scoring.services import chain
from scoring.services.confirmations import (
    REASON_LENGTH,
    code_holder,
    game_confirm,
    game_open_with_code,
    player_code,
    tally,
)
from tournament.models import Game, Seat
from tournament.selectors import visible_events, with_seats
from web import presenters as pages
from web import refusals
from web.guesser import guesser

SESSION_KEY = "confirm_codes"  # game id -> the code that opened a private event's game (confirm_open)


class ConfirmForm(forms.Form):
    player = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int, widget=forms.RadioSelect)
    code = forms.CharField(
        label=gettext_lazy("Your code"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}),
    )
    reason = forms.CharField(
        label=gettext_lazy("What is wrong (to dispute)"),
        max_length=REASON_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, seats: list[Seat], winds: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        if isinstance(player, forms.ChoiceField):
            player.choices = [(s.player_id, f"{winds[s.position]} · {s.player.name}") for s in seats]


class OpenForm(forms.Form):
    game = forms.IntegerField(
        label=gettext_lazy("Game number"),
        min_value=1,
        max_value=2**63 - 1,
        help_text=gettext_lazy("on your table's card, after the round"),
    )
    code = forms.CharField(
        label=gettext_lazy("Your code"), max_length=20, widget=ConfirmForm.base_fields["code"].widget
    )


@require_http_methods(["GET", "HEAD", "POST"])
def confirm_open(request: HttpRequest) -> HttpResponse:
    """A game's confirm page by its number and a player's code: the way in for the players of a private event,
    who have no account; nothing about any game is shown until the code is right."""
    form, refusal = OpenForm(request.POST or None), None
    if request.method == "POST" and form.is_valid():
        try:
            game = game_open_with_code(
                game_id=form.cleaned_data["game"], code=form.cleaned_data["code"], guesser=guesser(request)
            )
        except Refusal as exc:
            refusals.on_form(form, exc)
            refusal = exc
        else:
            request.session[SESSION_KEY] = {
                **request.session.get(SESSION_KEY, {}),
                str(game.pk): form.cleaned_data["code"],
            }
            return redirect("game-confirm", game_id=game.pk)
    response = render(request, "pages/confirm_open.html", {"form": form}, status=400 if refusal else 200)
    return refusals.answer(response, refusal)


def _confirmable(request: HttpRequest, game_id: int) -> tuple[Game, str]:
    """The game, if the visitor may see its event or holds the current code of one of its players (kept in the
    session by ``confirm_open``); that code, or "". 404 otherwise, as for a game that does not exist."""
    game = get_object_or_404(with_seats(Game.objects.select_related("event")), pk=game_id)
    if pages.public_events(request.user).filter(pk=game.event_id).exists():
        return game, ""
    code = request.session.get(SESSION_KEY, {}).get(str(game.pk), "")
    if not code or code_holder(game, code) is None:
        raise Http404("no such game")
    return game, code


@require_http_methods(["GET", "HEAD", "POST"])
def confirm_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game, held = _confirmable(request, game_id)
    seats = list(game.seats.all())
    winds = [pages.wind_label(w) for w in game.ruleset().seat_winds]
    form = ConfirmForm(
        request.POST or None,
        seats=seats,
        winds=winds,
        initial={"player": code_holder(game, held), "code": held} if held else None,
    )
    refusal = None
    if request.method == "POST" and form.is_valid():
        disputed = "dispute" in request.POST
        try:
            game_confirm(
                game_id=game.pk,
                player_id=form.cleaned_data["player"],
                code=form.cleaned_data["code"],
                disputed=disputed,
                reason=form.cleaned_data["reason"],
                user=request.user,
                guesser=guesser(request),
            )
        except Refusal as exc:
            refusals.on_form(form, exc)
            refusal = exc
        else:
            messages.success(
                request,
                _("Thank you: your dispute is recorded.")
                if disputed
                else _("Thank you: your confirmation is recorded."),
            )
            return redirect("game-confirm", game_id=game.pk)
    return refusals.answer(render(request, "pages/confirm.html", _context(game, form, held)), refusal)


def _context(game: Game, form: ConfirmForm, held: str) -> dict[str, Any]:
    return {
        "game": game,
        "event": game.event,
        "final": pages.game_view(game).result.get("final", []),
        "form": form,
        "tally": tally(game),
        "words": game.confirmations.select_related("player"),
        "private": bool(held),
        "head": chain.game_head(game)[: chain.SHORT],
        "solo": game.ruleset().is_solo,
    }


def codes_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Each registered player's code on a slip of its own, to cut and hand out: for the organisers only."""
    event = get_object_or_404(visible_events(request.user), slug=slug)  # a private event: 404 to strangers
    if not event.is_organiser(request.user):
        raise PermissionDenied
    players = [
        (r.player, player_code(event, r.player, r.code_version))
        for r in event.registrations.select_related("player").order_by("player__name", "player_id")
    ]
    return render(
        request,
        "pages/codes.html",
        {"event": event, "players": players, "confirm_url": request.build_absolute_uri(reverse("confirm-open"))},
    )
