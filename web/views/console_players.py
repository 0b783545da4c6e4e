"""The organiser's players: a pasted or uploaded list checked line by line, then registered with one confirm;
each player's confirmation code reissued on its own."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from rules.errors import Refusal
from scoring.services import confirmations, registrations
from scoring.services.codes import recent_failures
from tournament.models import Event, Player, Registration
from tournament.selectors import findable_players
from tournament.services import players as records
from tournament.services import roster
from tournament.users import signed_in
from web import console_presenters as console
from web import console_teams, refusals
from web.console_forms import PlayerEditForm, PlayersForm
from web.views.console import organised


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """Paste or upload, see every line checked ("Check"), then register them all ("Register")."""
    event = organised(request, slug)
    form = PlayersForm(request.POST or None, request.FILES or None)
    lines: list[roster.RosterLine] = []
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        form = PlayersForm({"text": text})  # an uploaded file's text stays in the box for the confirm
        form.is_valid()
        try:
            lines = roster.roster_read(event=event, text=text, user=request.user)
            if request.POST.get("action") == "register" and not any(line.problems for line in lines):
                saved = registrations.players_register(event=event, text=text, user=request.user)
                for said in console.roster_saved_words(saved):
                    messages.success(request, said)
                return redirect("console-players", slug=event.slug)
        except Refusal as exc:
            refusals.on_form(form, exc)
    registered = list(
        event.registrations.select_related("player", "team", "code_reissued_by").order_by(
            "withdrawn", "substitute", "player__name"
        )
    )
    tries = recent_failures(confirmations.code_scope(event.pk, r.player_id) for r in registered)
    return render(
        request,
        "console/players.html",
        {
            "event": event,
            "form": form,
            "lines": lines,
            "columns": roster.columns_used(lines),
            "bad": sum(1 for line in lines if line.problems),
            "registrations": registered,
            "new": sum(1 for line in lines if line.registered is None),
            "again": any(line.registered is not None for line in lines),
            "moved": sum(1 for line in lines if line.team_changes),
            "teams": console_teams.team_rows(event),
            "rows": [(r, tries.get(confirmations.code_scope(event.pk, r.player_id), 0)) for r in registered],
            "next_round": (upcoming := console.next_round(event) if registered else None),
            "seat_method": console.seat_method(event, upcoming),
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    event = organised(request, slug)
    registration = _registration(event, player_id)
    form = PlayerEditForm(
        request.POST or None,
        instance=registration.player,
        initial={"team": registration.team.name if registration.team else "", "substitute": registration.substitute},
        shared=roster.player_shared(registration.player, signed_in(request.user)),
    )
    if request.method == "POST" and form.is_valid():
        registrations.registration_change(
            registration=registration,
            player=form.save(commit=False),
            team=form.cleaned_data["team"],
            substitute=form.cleaned_data["substitute"],
        )
        messages.success(request, _("%(name)s is saved.") % {"name": registration.player.name})
        return redirect("console-players", slug=event.slug)
    player = registration.player
    return render(
        request,
        "console/player_edit.html",
        {
            "event": event,
            "form": form,
            "registration": registration,
            "kept": Player.objects.filter(pk=player.merged_into_id).first() if player.merged_into_id else None,
            "candidates": records.same_person_candidates(player, request.user),
        },
    )


@login_required
@require_POST
def player_withdraw(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Withdraw a player (kept in the standings for the games played, not seated again), or bring them back."""
    event = organised(request, slug)
    registration = _registration(event, player_id)
    back = request.POST.get("back") == "1"
    registrations.registration_withdraw(registration=registration, withdrawn=not back)
    messages.success(
        request,
        (_("%(name)s is back in the event.") if back else _("%(name)s is withdrawn: not seated in later rounds."))
        % {"name": registration.player.name},
    )
    return redirect("console-players", slug=event.slug)


@login_required
@require_POST
def player_code_new(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A new confirmation code for one player (a lost slip, one seen by others): the old code stops working at
    once, the other players' stay."""
    event = organised(request, slug)
    registration = _registration(event, player_id)
    changed = confirmations.player_code_reissue(registration=registration, user=request.user)
    messages.success(
        request,
        _("%(name)s's new code: %(code)s. The old one no longer works.")
        % {"name": registration.player.name, "code": confirmations.player_code(event, player_id, changed.code_version)},
    )
    return redirect(reverse("console-players", kwargs={"slug": event.slug}) + f"#player-{player_id}")


def _registration(event: Event, player_id: int) -> Registration:
    return get_object_or_404(Registration.objects.select_related("player", "team"), event=event, player_id=player_id)


@login_required
@require_POST
def player_merge_view(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """This player and another record are one person (the older record is kept), or, with ``undo``, no more."""
    event = organised(request, slug)
    registration = _registration(event, player_id)
    here = redirect("console-player", slug=event.slug, player_id=player_id)
    player = registration.player
    try:
        if request.POST.get("undo") == "1":
            if not records.may_unmerge(request.user, player):
                raise PermissionDenied
            records.player_unmerge(merged=player, user=request.user)
            messages.success(request, _("%(name)s's records are separate again.") % {"name": player.name})
            return here
        other = findable_players(request.user).filter(pk=_record_number(request.POST.get("other", ""))).first()
        if other is None:
            raise Refusal.one("other", _("no record of that number you may see"))
        kept, merged = sorted((player, other), key=lambda p: p.pk)
        if not records.may_merge(request.user, kept, merged):
            raise PermissionDenied
        records.player_merge(kept=kept, merged=merged, user=request.user)
        messages.success(
            request,
            _("%(merged)s (record %(m)s) is now counted as %(kept)s (record %(k)s): one career.")
            % {"merged": merged.name, "m": merged.pk, "kept": kept.name, "k": kept.pk},
        )
    except Refusal as exc:
        refusals.as_messages(request, exc)
    return here


def _record_number(text: str) -> int:
    text = text.strip().lstrip("#")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else 0
