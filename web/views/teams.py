"""An event's teams: the public teams list and team pages; a team league's lineups, named by the teams' captains
and the organisers; the organiser naming each team's captain."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.errors import Refusal
from scoring.services.lineups import lineup_set
from scoring.services.team_pages import team_captain_set, team_of_event
from tournament.models import Event, Lineup, Round, Team
from tournament.selectors import is_row_id, visible_events
from tournament.services.team_rounds import may_name_lineup
from web import console_teams, refusals, team_presenters
from web.console_forms import CaptainForm
from web.views.console import organised


def _team(event: Event, team_id: int) -> Team:
    try:
        return team_of_event(event, team_id)
    except Refusal:
        raise Http404("this event has no such team") from None


@require_GET
def teams_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(visible_events(request.user), slug=slug)
    return render(
        request,
        "pages/teams.html",
        {"event": event, "teams": team_presenters.teams_list(event), "mcr": event.ruleset().is_mcr},
    )


@require_GET
def team_page(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    event = get_object_or_404(visible_events(request.user), slug=slug)
    team = _team(event, team_id)
    names = event.entrants == Event.Entrants.TEAMS and may_name_lineup(team, request.user)
    return render(
        request,
        "pages/team.html",
        {
            "event": event,
            "page": team_presenters.team_page(event, team),
            "mcr": event.ruleset().is_mcr,
            "next_round": console_teams.next_round_of(team) if names else None,
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def round_lineup(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Who plays for each team in a team league's round: a captain names their team's player, an organiser any
    team's; a table's game opens once all its teams have named theirs."""
    event = get_object_or_404(visible_events(request.user), slug=slug)
    round_ = get_object_or_404(Round.objects.select_related("event"), event=event, number=number)
    if event.entrants != Event.Entrants.TEAMS:
        raise Http404("lineups are named in a team league")
    if not console_teams.may_see_lineups(event, request.user):
        raise PermissionDenied(_("Only the event's organisers and its teams' captains name lineups."))
    if request.method == "POST":
        return _lineups_save(request, round_)
    organiser = event.is_organiser(request.user)
    return render(
        request,
        "pages/lineup.html",
        {
            "event": event,
            "round": round_,
            "lineup": console_teams.lineup_tables(round_, request.user),
            "organiser": organiser,
            "scorer": event.can_score(request.user),
            "rounds": event.rounds.order_by("number"),
            "back": request.path,
        },
    )


def _lineups_save(request: HttpRequest, round_: Round) -> HttpResponse:
    """Each team posted with a player is named (those unchanged are left alone); a refusal is told beside its
    team's field. Naming a team the user may not name is refused as a whole (403)."""
    posted = {
        key.removeprefix("team-"): request.POST.get(key, "")
        for key in request.POST
        if key.startswith("team-") and request.POST.get(key)
    }
    if not all(is_row_id(team) for team in posted):
        raise PermissionDenied(_("Only the event's organisers and the team's captain name its lineup."))
    teams = console_teams.teams_named_by(round_.event, request.user, [int(team) for team in posted])
    if teams is None:
        raise PermissionDenied(_("Only the event's organisers and the team's captain name its lineup."))
    current = dict(Lineup.objects.filter(round=round_).values_list("team_id", "player_id"))
    named = 0
    for team in teams:
        value = posted[str(team.pk)]
        if is_row_id(value) and current.get(team.pk) == int(value):
            continue
        try:
            if not is_row_id(value):
                raise Refusal.one("player", _("choose one of the team's members"))
            lineup_set(round_=round_, team=team, player_id=int(value), user=request.user)
        except Refusal as exc:
            refusals.as_messages(request, exc, extra_tags=f"team-{team.pk}")
        else:
            named += 1
    if named:
        messages.success(request, ngettext("%(n)s player named.", "%(n)s players named.", named) % {"n": named})
    target = request.POST.get("next", "")
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("round-lineup", kwargs={"slug": round_.event.slug, "number": round_.number})
    return redirect(target)


@login_required
@require_POST
def team_captain(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """The organiser names the team's captain by user name (blank: none)."""
    event = organised(request, slug)
    team = _team(event, team_id)
    form = CaptainForm(request.POST)
    back = redirect(reverse("console-players", kwargs={"slug": event.slug}) + "#teams")
    if not form.is_valid():
        messages.error(
            request, " ".join(str(e) for e in form.errors.get("captain", [])), extra_tags=f"captain-{team.pk}"
        )
        return back
    username = form.cleaned_data["captain"]
    try:
        team_captain_set(team=team, username=username)
    except Refusal:
        messages.error(
            request,
            _("No user is named %(name)s: the captain signs up first, then you name them.") % {"name": username},
            extra_tags=f"captain-{team.pk}",
        )
    else:
        messages.success(
            request,
            (_("%(user)s captains %(team)s.") if username else _("%(team)s has no captain."))
            % {"user": username, "team": team.name},
        )
    return back
