"""Players confirm their table: a finished game's result, confirmed or disputed with each player's code.

The page needs no account: the personal code is the player's word. Organisers print each player's code on a
slip of its own (never on the shared table card); a signed-in player finds theirs on their player page.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.services import chain
from scoring.services.confirmations import REASON_LENGTH, game_confirm, player_code, tally
from tournament.errors import InvalidInput
from tournament.models import Game, Seat
from tournament.selectors import visible_events, with_seats
from web import presenters as pages


class ConfirmForm(forms.Form):
    player = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int, widget=forms.RadioSelect)
    code = forms.CharField(label=gettext_lazy("Your code"), max_length=20,
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "spellcheck": "false"}))
    reason = forms.CharField(label=gettext_lazy("What is wrong (to dispute)"), max_length=REASON_LENGTH,
                             required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, seats: list[Seat], winds: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        if isinstance(player, forms.ChoiceField):
            player.choices = [(s.player_id, f"{winds[s.position]} · {s.player.name}") for s in seats]


def confirm_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(with_seats(Game.objects.filter(event__in=pages.public_events(request.user))
                                        .select_related("event")), pk=game_id)
    seats = list(game.seats.all())
    winds = [pages.wind_label(w) for w in game.ruleset().seat_winds]
    form = ConfirmForm(request.POST or None, seats=seats, winds=winds)
    if request.method == "POST" and form.is_valid():
        disputed = "dispute" in request.POST
        try:
            game_confirm(game_id=game.pk, player_id=form.cleaned_data["player"], code=form.cleaned_data["code"],
                         disputed=disputed, reason=form.cleaned_data["reason"], user=request.user)
        except InvalidInput as exc:
            for problem in exc.problems:
                form.add_error(problem.field if problem.field in form.fields else None, problem.message)
        else:
            messages.success(request, _("Thank you: your dispute is recorded.") if disputed
                             else _("Thank you: your confirmation is recorded."))
            return redirect("game-confirm", game_id=game.pk)
    view = pages.game_view(game)
    return render(request, "pages/confirm.html", {
        "game": game, "event": game.event, "final": view.result.get("final", []), "form": form,
        "tally": tally(game), "words": game.confirmations.select_related("player"),
        "head": chain.game_head(game)[:chain.SHORT]})


def codes_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Each registered player's code on a slip of its own, to cut and hand out: for the organisers only."""
    event = get_object_or_404(visible_events(request.user), slug=slug)  # a private event: 404 to strangers
    if not event.is_organiser(request.user):
        raise PermissionDenied
    players = [(r.player, player_code(event, r.player)) for r in
               event.registrations.select_related("player").order_by("player__name", "player_id")]
    return render(request, "pages/codes.html", {"event": event, "players": players})
