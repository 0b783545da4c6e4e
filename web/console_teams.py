"""What a team league's organisers and captains read: the teams with their captains, a round's lineups as a form
(tables by seat wind, a select of each team's members), and the rounds a captain names a player for next."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Count

from tournament.models import Event, Game, Lineup, Registration, Round, Team, TeamSeat
from tournament.services.team_rounds import may_name_lineup, stage_teams
from tournament.users import RequestUser
from web.presenters import wind_label


@dataclass(frozen=True, slots=True)
class TeamRow:
    """A team on the organiser's players page: its members and its captain's user name."""

    id: int
    name: str
    members: list[str]
    captain: str

    @property
    def captain_tag(self) -> str:
        """The tag of a message about this team's captain: shown beside its field."""
        return f"captain-{self.id}"


def team_rows(event: Event) -> list[TeamRow]:
    """A team league's teams by name, each with its members still playing (substitutes and withdrawn left out)."""
    if event.entrants != Event.Entrants.TEAMS:
        return []
    members: dict[int, list[str]] = {}
    for team_id, name in (
        Registration.objects.filter(event=event, team__isnull=False, substitute=False, withdrawn=False)
        .order_by("player__name")
        .values_list("team_id", "player__name")
    ):
        members.setdefault(team_id, []).append(name)
    return [
        TeamRow(
            id=team.pk,
            name=team.name,
            members=members.get(team.pk, []),
            captain=team.captain.get_username() if team.captain else "",
        )
        for team in event.teams.select_related("captain").order_by("name")
    ]


@dataclass(slots=True)
class LineupSeat:
    """A team at a table (or, before the round is seated, a team alone) and who plays for it."""

    team_id: int
    team: str
    wind: str = ""
    player_id: int | None = None
    player: str = ""
    named_by: str = ""
    editable: bool = False  # the reader may name the team's player now
    choices: list[tuple[int, str]] = field(default_factory=list)  # the team's members still playing

    @property
    def field(self) -> str:
        return f"team-{self.team_id}"


@dataclass(slots=True)
class LineupTable:
    number: int | None  # None: the teams of a round not seated yet
    seats: list[LineupSeat]
    game_id: int | None = None
    begun: bool = False  # a hand is entered or the game is over: its players stay

    @property
    def named(self) -> bool:
        return all(seat.player_id is not None for seat in self.seats)

    @property
    def editable(self) -> bool:
        return any(seat.editable for seat in self.seats)


def lineup_tables(round_: Round, user: RequestUser) -> list[LineupTable]:
    """The round's tables, teams by seat wind East first, with who plays for each; before the round is seated,
    one group of the stage's teams. The teams ``user`` may name (a captain's own, an organiser's all) carry the
    choice of their members, unless their game has begun."""
    event = round_.event
    named = {line.team_id: line for line in Lineup.objects.filter(round=round_).select_related("player", "named_by")}
    organiser = event.is_organiser(user)
    if not may_see_lineups(event, user):  # who named a player is for the organisers and captains to read
        named = {team: Lineup(team_id=line.team_id, player=line.player) for team, line in named.items()}
    members = _members(event)
    winds = [wind_label(w) for w in event.ruleset().seat_winds]
    games = {g.table_id: g for g in Game.objects.filter(table__round=round_).annotate(hand_count=Count("hands"))}
    tables: dict[int, LineupTable] = {}
    for seat in (
        TeamSeat.objects.filter(table__round=round_)
        .select_related("table", "team")
        .order_by("table__number", "position")
    ):
        game = games.get(seat.table_id)
        table = tables.setdefault(
            seat.table_id,
            LineupTable(
                number=seat.table.number,
                seats=[],
                game_id=game.pk if game else None,
                begun=bool(game and (game.hand_count or game.status == Game.Status.FINISHED)),
            ),
        )
        table.seats.append(
            _seat(
                seat.team,
                named.get(seat.team_id),
                members,
                user,
                organiser,
                wind=winds[seat.position],
                begun=table.begun,
            )
        )
    found = list(tables.values())
    if not found and not round_.tables.exists():
        teams = Team.objects.filter(pk__in=stage_teams(event, round_.stage)).select_related("event").order_by("name")
        seats = [_seat(team, named.get(team.pk), members, user, organiser, wind="", begun=False) for team in teams]
        found = [LineupTable(number=None, seats=seats)] if seats else []
    return found


def _members(event: Event) -> dict[int, list[tuple[int, str]]]:
    members: dict[int, list[tuple[int, str]]] = {}
    for team_id, pid, name in (
        Registration.objects.filter(event=event, team__isnull=False, substitute=False, withdrawn=False)
        .order_by("player__name", "player_id")
        .values_list("team_id", "player_id", "player__name")
    ):
        members.setdefault(team_id, []).append((pid, name))
    return members


def _seat(
    team: Team,
    lineup: Lineup | None,
    members: dict[int, list[tuple[int, str]]],
    user: RequestUser,
    organiser: bool,
    *,
    wind: str,
    begun: bool,
) -> LineupSeat:
    editable = not begun and (organiser or (user.is_authenticated and team.captain_id == user.pk))
    return LineupSeat(
        team_id=team.pk,
        team=team.name,
        wind=wind,
        player_id=lineup.player_id if lineup else None,
        player=lineup.player.name if lineup else "",
        named_by=lineup.named_by.get_username() if lineup and lineup.named_by else "",
        editable=editable,
        choices=members.get(team.pk, []) if editable else [],
    )


def may_see_lineups(event: Event, user: RequestUser) -> bool:
    """The lineup page is for the event's organisers and its teams' captains."""
    return event.is_organiser(user) or (user.is_authenticated and event.teams.filter(captain=user).exists())


def teams_named_by(event: Event, user: RequestUser, team_ids: list[int]) -> list[Team] | None:
    """The event's teams ``team_ids``, if the user may name each one's lineup (None otherwise)."""
    teams = list(Team.objects.filter(event=event, pk__in=team_ids).select_related("event", "captain"))
    if len(teams) != len(set(team_ids)) or not all(may_name_lineup(team, user) for team in teams):
        return None
    return teams


@dataclass(frozen=True, slots=True)
class CaptainLine:
    """A team the user captains, with the next round it has a player to name in (None: no round to come)."""

    event: Event
    team: Team
    round: Round | None
    player: str  # who is named for that round so far


def captained(user: User) -> list[CaptainLine]:
    """The teams the user captains, each with its next round: the first one the team is seated in whose game has
    not begun, or the first not yet seated (of a stage the team plays)."""
    lines = []
    for team in Team.objects.filter(captain=user).select_related("event").order_by("event__name", "name"):
        round_ = next_round_of(team)
        lineup = Lineup.objects.filter(round=round_, team=team).select_related("player").first() if round_ else None
        lines.append(
            CaptainLine(event=team.event, team=team, round=round_, player=lineup.player.name if lineup else "")
        )
    return lines


def next_round_of(team: Team) -> Round | None:
    begun = {
        table_id
        for table_id, hands, status in Game.objects.filter(table__team_seats__team=team)
        .annotate(hands_count=Count("hands"))
        .values_list("table_id", "hands_count", "status")
        if hands or status == Game.Status.FINISHED
    }
    seated = dict(TeamSeat.objects.filter(team=team).values_list("table__round_id", "table_id"))
    for round_ in (
        Round.objects.filter(event_id=team.event_id).annotate(tables_count=Count("tables")).order_by("number")
    ):
        if round_.pk in seated:
            if seated[round_.pk] not in begun:
                return round_
        elif not round_.tables_count and team.pk in stage_teams(team.event, round_.stage):
            return round_
    return None
