"""The organiser's console: a new event, its overview, settings and rules, publishing, referee and organiser
links; "my events and tables".

Every page here is the event's organisers' (others get a 403, visitors the
sign-in page); each write is one call into a service, and refused input is
shown next to its field with nothing saved.
"""

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
from scoring.services.events import event_start, event_update
from tournament.models import Event
from tournament.selectors import visible_events
from tournament.services import events as services
from tournament.services import invites
from tournament.users import signed_in
from web import account_presenters as mine
from web import console_presenters as console
from web import console_teams, refusals
from web.console_forms import EventCreateForm, EventSettingsForm
from web.rules_form import RulesForm


def organised(request: HttpRequest, slug: str) -> Event:
    """The event, if the signed-in user runs it: a 403 for one who sees it, a 404 (as if it were not there) for
    a private event the user does not see."""
    event = get_object_or_404(visible_events(request.user), slug=slug)
    if not event.is_organiser(request.user):
        raise PermissionDenied(_("Only the event's organisers run it."))
    return event


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    if not services.may_create_events(request.user):
        raise PermissionDenied(services.CREATORS_ONLY)
    form = EventCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        seat = request.POST.get("action") == "seat"
        try:
            event = event_start(organiser=signed_in(request.user), seat=seat, **form.cleaned_data)
        except Refusal as exc:
            refusals.on_form(form, exc)
        else:
            return _started(request, event, seat=seat)
    return render(request, "console/event_new.html", {"form": form})


def _started(request: HttpRequest, event: Event, *, seat: bool) -> HttpResponse:
    """Where a new event leads: round 1's tables once seated, the console with its players, else the players."""
    players = event.registrations.count()
    if seat:
        messages.success(
            request,
            _("%(name)s is ready: %(n)s players, round 1 seated. Open a table to enter its hands.")
            % {"name": event.name, "n": players},
        )
        return redirect("console-round", slug=event.slug, number=1)
    if players:
        messages.success(
            request,
            _("%(name)s is ready with %(n)s players: seat round 1 when you are.") % {"name": event.name, "n": players},
        )
        return redirect("console", slug=event.slug)
    messages.success(request, _("%(name)s is ready: add its players next.") % {"name": event.name})
    return redirect("console-players", slug=event.slug)


@login_required
@require_http_methods(["GET", "HEAD"])
def console_home(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised(request, slug)
    return render(
        request,
        "console/home.html",
        {
            "event": event,
            "rounds": console.round_overview(event),
            "players": console.player_counts(event),
            "referees": event.referees.order_by("username"),
            "invite": console.invite_url(request, event),
            "organiser_invite": console.invite_url(request, event, "organiser"),
            "organisers": event.organisers.order_by("username"),
            "next_round": (upcoming := console.next_round(event)),
            "seat_method": console.seat_method(event, upcoming),
            **console.round_stages(event),
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def event_settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised(request, slug)
    posted = request.POST if request.method == "POST" else None
    form = EventSettingsForm(posted, instance=Event.objects.get(pk=event.pk))
    fixed = event.rules_locked()
    rules = RulesForm(
        None if fixed else posted, key=event.ruleset_key, overrides=event.ruleset_overrides, prefix="rule"
    )
    if posted is not None and form.is_valid() and (fixed or rules.is_valid()):
        overrides = event.ruleset_overrides if fixed else rules.new_overrides()
        try:
            event_update(event=event, ruleset_overrides=overrides, **form.settings())
        except Refusal as exc:  # the event's own settings by their field (who plays), the rules' by theirs
            refusals.on_form(form, exc, rest=rules)
        else:
            messages.success(request, _("The settings are saved."))
            return redirect("console", slug=event.slug)
    return render(request, "console/settings.html", {"event": event, "form": form, "rules": rules, "fixed": fixed})


@login_required
@require_POST
def event_publish(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised(request, slug)
    public = request.POST.get("public") == "1"
    services.event_publish(event=event, public=public)
    messages.success(request, _("The event is public.") if public else _("The event is hidden from the public."))
    return redirect("console", slug=event.slug)


@login_required
@require_POST
def referee_invite(request: HttpRequest, slug: str) -> HttpResponse:
    event = organised(request, slug)
    revoke = request.POST.get("revoke") == "1"
    invites.invite_renew(event=event, role="referee", revoke=revoke)
    messages.success(
        request,
        _("The referee link is revoked.") if revoke else _("A new referee link is ready; the old one no longer works."),
    )
    return redirect(reverse("console", kwargs={"slug": event.slug}) + "#referees")


@login_required
@require_POST
def referee_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    event = organised(request, slug)
    referee = get_object_or_404(event.referees, pk=user_id)
    services.referee_remove(event=event, user_id=referee.pk)
    messages.success(request, _("%(name)s is no longer a referee of this event.") % {"name": referee.get_username()})
    return redirect(reverse("console", kwargs={"slug": event.slug}) + "#referees")


@login_required
@require_POST
def organiser_invite(request: HttpRequest, slug: str) -> HttpResponse:
    """A new co-organiser link (the old one stops working), or none."""
    event = organised(request, slug)
    revoke = request.POST.get("revoke") == "1"
    invites.invite_renew(event=event, role="organiser", revoke=revoke)
    messages.success(
        request,
        _("The organiser link is revoked.")
        if revoke
        else _("A new organiser link is ready; the old one no longer works."),
    )
    return redirect(reverse("console", kwargs={"slug": event.slug}) + "#referees")


@login_required
@require_http_methods(["GET", "HEAD"])
def my_events(request: HttpRequest) -> HttpResponse:
    """The tables of the current round of each event the user scores first, then their events and their own record
    as a player."""
    user = signed_in(request.user)
    return render(
        request,
        "console/mine.html",
        {
            **console.my_events(user),
            **mine.my_page(user),
            "captained": console_teams.captained(user),
            "may_create": services.may_create_events(request.user),
        },
    )
