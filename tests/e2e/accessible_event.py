"""The events the accessibility test walks: every kind of page with something on it.

- ``spring-cup`` (tests/web/stage_event.py): 12 players, two qualifying rounds recorded by end scores, a top-4
  final whose cut waits; rated, so it has a ranking page.
- ``open`` (WRC 2025): 8 players, round 1 seated at two tables with table codes; table 1 has hands (a ron with
  riichi, a dealer tsumo, a draw with two tenpai, a chombo), table 2 none yet; round 2 added, not seated; a
  referee link; the players' codes.
- ``league`` (M.League, teams): four teams of two, a captain, round 1 seated waiting for lineups.
- ``solo-cup`` (the solo race to tenpai): one attempt. ``mcr-open`` (MCR): a ron of 8 fan with 2 flowers.

The organiser, ``org``, runs every event and is a referee of them too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from scoring.services.games import round_seat
from scoring.services.hands import game_put_sheet
from scoring.services.table_codes import round_codes_issue
from tests.factories import EventFactory, played, registered
from tests.web.stage_event import with_final
from tournament.models import Event, Game, Team
from tournament.services.events import round_add
from tournament.services.invites import invite_renew
from tournament.services.seating import Method

PASSWORD = "organiser-pass-1"


@dataclass
class Made:
    """What the pages are about: the ids the test's paths need."""

    ids: dict[str, int] = field(default_factory=dict)
    invite: str = ""
    # The secrets in links: the organiser's invitation, the organiser's password reset.
    links: dict[str, str] = field(default_factory=dict)


def _open(organiser: User, made: Made) -> None:
    event = EventFactory.create(
        name="Open Cup", slug="open", status=Event.Status.RUNNING, organisers=[organiser], referees=[organiser]
    )
    players = registered(event, "Ann", "Bo", "Cy", "Di", "Eun-ji Park", "Fumiko Tanaka", "Guo Wei", "Hiro Sato")
    round_add(event=event)
    first, second = round_seat(event=event, number=1, method=Method.RANDOM, seed=7)
    round_codes_issue(round_=event.rounds.get(number=1))
    a, b, c, d = (s.player_id for s in first.seats.order_by("position"))
    game_put_sheet(
        game_id=first.pk,
        user=None,
        version=None,
        hands=[
            {"result": "ron", "winner": b, "loser": c, "han": 3, "fu": 40, "riichi": [a, b]},
            {"result": "tsumo", "winner": a, "han": 2, "fu": 30, "riichi": [a, d]},
            {"result": "draw", "tenpai": [a, c]},
            {"result": "chombo", "player": d},
        ],
    )
    round_add(event=event)
    made.invite = invite_renew(event=event, role="referee").referee_invite
    made.links["organiser_invite"] = invite_renew(event=event, role="organiser").organiser_invite
    uid, token = urlsafe_base64_encode(force_bytes(organiser.pk)), default_token_generator.make_token(organiser)
    made.links["reset"] = f"{uid}/{token}"
    made.ids.update(open_game=first.pk, open_waiting=second.pk, open_player=players[0].pk)


def _league(organiser: User, made: Made) -> None:
    event = EventFactory.create(
        name="City League",
        slug="league",
        ruleset_key="m-league",
        entrants=Event.Entrants.TEAMS,
        team_ranking=Event.TeamRanking.SUM,
        organisers=[organiser],
        referees=[organiser],
        status=Event.Status.RUNNING,
    )
    for number, name in enumerate(("Seoul Dragons", "Busan Tigers", "Incheon Cranes", "Jeju Fighters")):
        team = Team.objects.create(event=event, name=name, captain=organiser if number == 0 else None)
        registered(event, f"{name.split()[0]} One", f"{name.split()[0]} Two", team=team)
    event.rounds.create(number=1)
    round_seat(event=event, number=1, method=Method.RANDOM, seed=5)
    made.ids["team"] = Team.objects.get(event=event, name="Seoul Dragons").pk


def _solo_and_mcr(organiser: User, made: Made) -> None:
    solo = EventFactory.create(
        name="Solo Cup",
        slug="solo-cup",
        ruleset_key="solo",
        status=Event.Status.RUNNING,
        organisers=[organiser],
        referees=[organiser],
    )
    [ann] = registered(solo, "Ann Solo")
    game: Game = played(solo, [ann], [{"result": "tenpai", "draws": 7, "han": 2, "fu": 30}])
    made.ids["solo_game"] = game.pk
    mcr = EventFactory.create(
        name="MCR Open",
        slug="mcr-open",
        ruleset_key="mcr",
        status=Event.Status.RUNNING,
        organisers=[organiser],
        referees=[organiser],
    )
    players = registered(mcr, "Li Na", "Wang Fang", "Zhang Wei", "Chen Jie")
    game = played(
        mcr, players, [{"result": "ron", "winner": players[0].pk, "loser": players[1].pk, "fan": 8, "flowers": 2}]
    )
    made.ids["mcr_game"] = game.pk


def build() -> Made:
    """Every event above, as the organiser ``org`` (password ``PASSWORD``) runs them."""
    organiser = User.objects.create_user("org", password=PASSWORD)
    made = Made()
    event, players, _final = with_final(organiser)
    Event.objects.filter(pk=event.pk).update(rating="tenhou")
    event.referees.add(organiser)
    made.ids.update(
        cup_player=players["Ann"].pk,
        cup_game=Game.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)[0],
    )
    _open(organiser, made)
    _league(organiser, made)
    _solo_and_mcr(organiser, made)
    return made
