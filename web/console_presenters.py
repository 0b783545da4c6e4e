"""What the organiser's console reads: rounds at a glance, tables with their state and codes, my events."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from rules.seating import Seating
from scoring.services.stages import stage_get, stages_of
from scoring.services.table_codes import table_code
from tournament.models import Event, Game, Player, Round, Team
from tournament.selectors import visible_events
from tournament.services.invites import Role, invite_secret
from tournament.services.roster import RosterSaved
from web.presenters import qr_svg, wind_label

STATES = {"done": _("done"), "playing": _("playing"), "waiting": _("not started")}


def game_state(status: str, hands: int) -> str:
    """done, playing (a hand entered) or waiting (seated, no hand yet)."""
    if status == Game.Status.FINISHED:
        return "done"
    return "playing" if hands else "waiting"


@dataclass
class RoundLine:
    round: Round
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def seated(self) -> bool:
        return sum(self.counts.values()) > 0

    def summary(self) -> list[tuple[str, Any, int]]:
        return [(key, label, self.counts[key]) for key, label in STATES.items() if self.counts[key]]


def round_overview(event: Event) -> list[RoundLine]:
    """Each round with how many of its tables are done, playing or not started: one query for all."""
    lines = {r.number: RoundLine(r) for r in event.rounds.all()}
    games = (
        Game.objects.filter(event=event, table__isnull=False)
        .annotate(hand_count=Count("hands"))
        .values_list("table__round__number", "status", "hand_count")
    )
    for number, status, hands in games:
        lines[number].counts[game_state(status, hands)] += 1
    return list(lines.values())


def player_counts(event: Event) -> dict[str, int]:
    rows = event.registrations.values_list("substitute", "withdrawn")
    return {
        "players": sum(1 for sub, gone in rows if not sub and not gone),
        "substitutes": sum(1 for sub, gone in rows if sub and not gone),
        "withdrawn": sum(1 for _sub, gone in rows if gone),
    }


def invite_url(request: HttpRequest, event: Event, role: Role = "referee") -> str:
    """The link that makes its holder a referee (or a co-organiser) of the event; "" when there is none."""
    secret = invite_secret(event, role)
    if not secret:
        return ""
    name = "organiser-join" if role == "organiser" else "referee-join"
    return request.build_absolute_uri(reverse(name, kwargs={"slug": event.slug, "invite": secret}))


@dataclass(frozen=True)
class TableLine:
    number: int
    game: Game
    players: list[tuple[str, str]]  # (wind, name), East first
    state: str
    hands: int
    code: str
    entry_url: str
    code_url: str  # where the players type the table's code

    # The state as the table's card asks it (game_state's words stay out of the template).
    @property
    def done(self) -> bool:
        return self.state == "done"

    @property
    def playing(self) -> bool:
        return self.state == "playing"

    @property
    def waiting(self) -> bool:
        return self.state == "waiting"

    @property
    def note_tag(self) -> str:
        return note_tag(self.game)

    @property
    def code_qr(self) -> str:
        return qr_svg(self.code_url)


def note_tag(game: Game) -> str:
    """The tag of a message about one game of the round: its table's card shows it, beside the action."""
    return f"game-{game.pk}"


def round_tables(request: HttpRequest, round_: Round) -> list[TableLine]:
    """The round's tables, their players East first, their state and their code."""
    games = (
        Game.objects.filter(table__round=round_)
        .defer("result")  # a table's line shows its players and its count of hands, never the result
        .select_related("table")
        .annotate(hand_count=Count("hands"))
        .prefetch_related("seats__player")
        .order_by("table__number")
    )
    winds = [wind_label(w) for w in round_.event.ruleset().seat_winds]
    lines = []
    for game in games:
        assert game.table is not None  # the filter reads the table
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        lines.append(
            TableLine(
                number=game.table.number,
                game=game,
                state=game_state(game.status, game.hand_count),
                players=[(winds[s.position], s.player.name) for s in seats],
                hands=game.hand_count,
                code=table_code(game.table),
                entry_url=request.build_absolute_uri(reverse("game-entry", kwargs={"game_id": game.pk})),
                code_url=request.build_absolute_uri(reverse("game-code", kwargs={"game_id": game.pk})),
            )
        )
    return lines


def _entrants(event: Event) -> type[Player] | type[Team]:
    """What a seating seats: players, or a team league's teams."""
    return Team if event.entrants == Event.Entrants.TEAMS else Player


def preview_tables(event: Event, seating: Seating) -> list[tuple[int, list[tuple[str, str]]]]:
    """A previewed seating: each table's (wind, name), East first."""
    ids = {pid for table in seating.tables for pid in table.seats}
    names = dict(_entrants(event).objects.filter(pk__in=ids).values_list("pk", "name"))
    winds = [wind_label(w) for w in event.ruleset().seat_winds]
    return [(table.number, [(winds[n], names[p]) for n, p in enumerate(table.seats)]) for table in seating.tables]


def seating_doubts(seating: Seating) -> list[str]:
    """What to tell the organiser of a round not proven the best seating: that, and the pairs meeting again and
    at most how many of them a better seating could avoid (an upper bound: rules.seating.Seating.avoidable)."""
    if seating.optimal:
        return []
    words = [str(_("Not proven optimal: the search stopped before it could rule out a better seating."))]
    if seating.repeats:
        words.append(
            ngettext(
                "%(n)s pair meets again; at most %(a)s could have been avoided.",
                "%(n)s pairs meet again; at most %(a)s of them could have been avoided.",
                seating.repeats,
            )
            % {"n": seating.repeats, "a": seating.avoidable}
        )
    elif any(place.rank_table is not None for place in seating.placements):
        words.append(str(_("No pair meets again, but some players may move more tables than they need to.")))
    return words


def preview_byes(event: Event, seating: Seating) -> list[str]:
    return list(_entrants(event).objects.filter(pk__in=seating.byes).values_list("name", flat=True))


def my_events(user: User) -> dict[str, Any]:
    """The events the user runs or referees, and the games they sit at (when a player is linked to them)."""
    organised = Event.objects.filter(organisers=user) if not user.is_superuser else Event.objects.all()
    refereed = Event.objects.filter(referees=user).exclude(pk__in=organised.values("pk"))
    player = Player.objects.filter(user=user).first()
    playing = (
        Game.objects.filter(seats__player=player, event__in=visible_events(user))
        .defer("result")  # the list names each game's event, table and status
        .select_related("event", "table__round")
        .order_by("-created_at")[:20]
        if player
        else []
    )
    return {
        "organised": organised.order_by("-starts_on", "name"),
        "refereed": refereed.order_by("-starts_on", "name"),
        "playing": playing,
    }


def round_stages(event: Event) -> dict[str, Any]:
    """The stages a new round may be of (none: the event has one stage) and the one it is of unless the organiser
    picks another: the last round's, or a later stage's once its cut is confirmed."""
    stages = stages_of(event)
    if len(stages) == 1:
        return {"stages": [], "round_stage": 1}
    last = event.rounds.order_by("-number").first()
    entered = max((s.number for s in stages if s.entered), default=1)
    return {"stages": stages, "round_stage": max(last.stage if last else 1, entered)}


def next_round(event: Event) -> Round | None:
    """The first round still to seat: the organiser's next step once the players are in."""
    return event.rounds.filter(tables__isnull=True).order_by("number").first()


def seat_method(event: Event, round_: Round | None) -> str:
    """How the console's one-tap "Seat round N" seats: as the round's stage says (random, swiss, by rank)."""
    return stage_get(event, round_.stage).seating if round_ is not None else ""


def unseated_players(round_: Round) -> list[tuple[int, str, bool]]:
    """Who may take a seat in this round as a substitute: registered, not withdrawn, not seated in it;
    registered substitutes first."""
    seated = Game.objects.filter(table__round=round_).values("seats__player")
    rows = (
        round_.event.registrations.filter(withdrawn=False)
        .exclude(player__in=seated)
        .order_by("-substitute", "player__name")
        .values_list("player_id", "player__name", "substitute")
    )
    return list(rows)


def roster_saved_words(saved: RosterSaved) -> list[str]:
    """What a saved roster did, for the organiser: the players registered, each team changed."""
    words = []
    if saved.registered or not saved.moved:
        words.append(
            ngettext("%(n)s player registered.", "%(n)s players registered.", len(saved.registered))
            % {"n": len(saved.registered)}
        )
    if saved.moved:
        changes = ", ".join(f"{line.name} → {line.team}" for line in saved.moved)
        words.append(
            ngettext(
                "%(n)s player changed team: %(changes)s.", "%(n)s players changed team: %(changes)s.", len(saved.moved)
            )
            % {"n": len(saved.moved), "changes": changes}
        )
    return words
