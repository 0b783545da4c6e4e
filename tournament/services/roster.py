"""An event's players from a pasted or uploaded list: read, checked line by line, then registered all at once.

The list is one name per line, or CSV (comma, semicolon or tab) in the
columns name, federation id, country, club, team, substitute; a first line
naming its columns may give them in any order. A player already known by
federation id is registered again rather than created twice, so a club's
players keep one page across its leagues.

A line with a team may name a player already registered in the event (by
name or federation id): it sets their team rather than being refused, so the
organiser assigns a team league's teams by pasting the roster again with its
team column. Without a team, such a line is refused as already registered.
A list of two columns without a header line ("Ann Lee, Red" or tab-separated,
as a sheet copies them) is names and teams when the event is a team league or
the list names registered players, unless a second value is a registered
player's federation id; a first line "name, federation id" says otherwise.

The registration writes are here too: ``registration_add`` is the one function that creates a registration,
whichever door the player comes through; ``registration_update`` and ``registration_withdraw`` change one.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.csv_line import csv_values
from rules.errors import Problem, Refusal
from rules.messages import MESSAGES
from tournament.models import Event, Player, Registration, Team, text_problems
from tournament.selectors import findable_players
from tournament.users import RequestUser

COLUMNS = ("name", "federation_id", "country", "club", "team", "substitute")
# What people write in a header line for each column.
HEADER_WORDS = {
    "name": "name",
    "player": "name",
    "federation id": "federation_id",
    "federation_id": "federation_id",
    "id": "federation_id",
    "ema": "federation_id",
    "ema id": "federation_id",
    "country": "country",
    "club": "club",
    "team": "team",
    "substitute": "substitute",
    "sub": "substitute",
}
YES = frozenset({"yes", "y", "1", "true", "x", "substitute", "sub"})
NO = frozenset({"", "no", "n", "0", "false"})
MAX_LINES = 1000  # far above any event's field; a longer paste is a mistake
LIMITS = {"name": 100, "federation_id": 40, "country": 60, "club": 100, "team": 100}
# The columns as a problem names them, in the reader's language (a service's messages follow the request's).
COLUMN_WORDS = {
    "name": gettext_lazy("name"),
    "federation_id": gettext_lazy("federation id"),
    "country": gettext_lazy("country"),
    "club": gettext_lazy("club"),
    "team": gettext_lazy("team"),
}


@dataclass(frozen=True, slots=True)
class RosterLine:
    """One line of the list as read, with what is wrong with it (empty when it can be registered)."""

    line: int
    name: str
    federation_id: str = ""
    country: str = ""
    club: str = ""
    team: str = ""
    substitute: bool = False
    known: str = ""  # the stored name of a player already in the database, found by federation id
    problems: tuple[str, ...] = field(default=())
    registered: int | None = None  # the player already registered in the event whose team the line sets
    team_was: str = ""  # that player's team before

    @property
    def team_changes(self) -> bool:
        """The line moves a registered player to another team."""
        return self.registered is not None and bool(self.team) and self.team != self.team_was


@dataclass(frozen=True, slots=True)
class RosterSaved:
    """What a roster saved: the players it registered, the registered players whose team it changed."""

    registered: list[Registration]
    moved: list[RosterLine]


def roster_read(*, event: Event, text: str, user: RequestUser | None) -> list[RosterLine]:
    """Every non-empty line of ``text`` as a player to register, each with its problems named.

    A federation id finds a stored player only among those the user may find (``findable_players``): a
    player of private events the user cannot see is neither named nor registered; the line makes a new one.
    A line with a team that names a registered player sets their team (``registered``).
    """
    rows, header = _rows(text)
    if len(rows) > MAX_LINES:
        raise Refusal.one(
            "players", _("the list has %(n)s lines; at most %(most)s at once") % {"n": len(rows), "most": MAX_LINES}
        )
    names = Counter(row["name"].casefold() for _, row in rows)
    ids = Counter(row["federation_id"] for _, row in rows if row["federation_id"])
    taken = _Taken(event)
    if not header and _names_and_teams(rows, event, taken):
        for _number, row in rows:
            row["team"], row["federation_id"] = row["federation_id"], ""
        ids.clear()
    known = dict(findable_players(user).filter(federation_id__in=list(ids)).values_list("federation_id", "name"))
    lines = []
    for number, row in rows:
        fid, sub = row["federation_id"], row["substitute"].casefold()
        registration = None if row["unread"] else taken.registration(row)
        # A line that cannot be read has no columns to check: its one problem is that.
        problems = [row["unread"]] if row["unread"] else _problems(row, names, ids, taken, registration)
        lines.append(
            RosterLine(
                line=number,
                name=row["name"],
                federation_id=fid,
                country=row["country"],
                club=row["club"],
                team=row["team"],
                substitute=sub in YES,
                known=known.get(fid, "") if fid and registration is None else "",
                problems=tuple(problems),
                registered=registration.player_id if registration is not None else None,
                team_was=registration.team.name if registration and registration.team else "",
            )
        )
    return lines


def _names_and_teams(rows: list[tuple[int, dict[str, str]]], event: Event, taken: _Taken) -> bool:
    """Whether a list of two columns without a header is names and teams rather than names and federation ids."""
    read = [row for _number, row in rows if not row["unread"]]
    if not read or any(row["width"] != "2" or not row["federation_id"] for row in read):
        return False
    if any(row["federation_id"] in taken.by_id for row in read):
        return False
    return event.entrants == Event.Entrants.TEAMS or any(row["name"].casefold() in taken.by_name for row in read)


class _Taken:
    """The event's registrations, by name and by federation id: what a line may already name."""

    def __init__(self, event: Event) -> None:
        self.by_name: dict[str, list[Registration]] = {}
        self.by_id: dict[str, Registration] = {}
        for reg in event.registrations.select_related("player", "team"):
            self.by_name.setdefault(reg.player.name.casefold(), []).append(reg)
            if reg.player.federation_id:
                self.by_id[reg.player.federation_id] = reg

    def registration(self, row: dict[str, str]) -> Registration | None:
        """The one registration a line with a team names (by federation id, else by name): its team is set."""
        if not row["team"]:
            return None
        by_id = self.by_id.get(row["federation_id"]) if row["federation_id"] else None
        by_name = self.by_name.get(row["name"].casefold(), [])
        if by_id is not None:
            return by_id if not by_name or by_name == [by_id] else None
        return by_name[0] if len(by_name) == 1 else None


def _problems(
    row: dict[str, str], names: Counter[str], ids: Counter[str], taken: _Taken, registration: Registration | None
) -> list[str]:
    problems = [
        _("%(column)s is longer than %(limit)s characters") % {"column": COLUMN_WORDS[column], "limit": limit}
        for column, limit in LIMITS.items()
        if len(row[column]) > limit
    ]
    if not problems:  # as long as their columns: then what every path checks (tournament.models.printable)
        problems += _text_problems(row)
    if not row["name"]:
        problems.append(_("the name is missing"))
    elif names[row["name"].casefold()] > 1:
        problems.append(_("%(name)s is in the list twice") % {"name": row["name"]})
    elif registration is None and row["name"].casefold() in taken.by_name:
        problems.append(_("%(name)s is already registered") % {"name": row["name"]})
    fid = row["federation_id"]
    if fid and ids[fid] > 1:
        problems.append(_("federation id %(id)s is in the list twice") % {"id": fid})
    elif registration is None and fid in taken.by_id:
        problems.append(_("federation id %(id)s is already registered") % {"id": fid})
    if row["extra"]:
        problems.append(
            _("%(n)s values, more than the %(count)s columns: %(columns)s")
            % {"n": row["extra"], "count": len(COLUMNS), "columns": ", ".join(COLUMNS)}
        )
    if row["substitute"].casefold() not in YES | NO:
        problems.append(_("substitute must be yes or no, not %(value)r") % {"value": row["substitute"]})
    return problems


def roster_register(*, event: Event, text: str, user: RequestUser | None) -> RosterSaved:
    """Register every new player of ``text`` and set the team of each registered one it names, all or none:
    Refusal naming each bad line."""
    lines = roster_read(event=event, text=text, user=user)
    bad = [
        Problem("players", _("line %(line)s: %(problems)s") % {"line": line.line, "problems": "; ".join(line.problems)})
        for line in lines
        if line.problems
    ]
    if bad:
        raise Refusal(bad)
    if not lines:
        raise Refusal.one("players", _("the list is empty: one name per line, or CSV"))
    moved = [line for line in lines if line.team_changes]
    with transaction.atomic():
        added = [_register(event, line, user) for line in lines if line.registered is None]
        for line in moved:
            registration = event.registrations.get(player_id=line.registered or 0)
            registration.team = event.teams.get_or_create(name=line.team)[0]
            registration.save(update_fields=["team"])
    return RosterSaved(registered=added, moved=moved)


def _register(event: Event, line: RosterLine, user: RequestUser | None) -> Registration:
    player = (
        findable_players(user).filter(federation_id=line.federation_id).order_by("pk").first()
        if line.federation_id
        else None
    )
    if player is None:
        player = Player.objects.create(
            name=line.name, federation_id=line.federation_id, country=line.country, club=line.club
        )
    return registration_add(event=event, player=player, team=line.team, substitute=line.substitute)


def _rows(text: str) -> tuple[list[tuple[int, dict[str, str]]], bool]:
    """The list's rows by line number, and whether a first line named the columns."""
    raw = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    raw_lines = dict(raw)
    if not raw:
        return [], False
    sample = "\n".join(line for _, line in raw[:20])
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:  # one name per line: no delimiter to find
        delimiter = ","
    cells = [(n, _values(line, delimiter)) for n, line in raw]
    columns: tuple[str, ...] = COLUMNS
    first = [c.casefold() for c in cells[0][1]] if isinstance(cells[0][1], list) else []
    header = bool(first and all(c in HEADER_WORDS for c in first if c) and first[0] in HEADER_WORDS)
    if header:
        columns = tuple(HEADER_WORDS.get(c, "") for c in first)
        cells = cells[1:]
    rows = []
    for number, values in cells:
        row = dict.fromkeys((*COLUMNS, "extra", "unread"), "")
        row["width"] = str(len(values)) if isinstance(values, list) else ""
        if isinstance(values, str):  # the line as typed is the name the organiser finds it by
            row["name"], row["unread"] = raw_lines[number].strip(), values
            values = []
        if len(values) > len(columns) and any(values[len(columns) :]):
            row["extra"] = str(len(values))
        for column, value in zip(columns, values, strict=False):
            if column:
                row[column] = value
        rows.append((number, row))
    return rows, header


def _text_problems(row: dict[str, str]) -> list[str]:
    player = Player(
        name=row["name"] or "-", federation_id=row["federation_id"], country=row["country"], club=row["club"]
    )
    found = text_problems(player) + text_problems(Team(name=row["team"] or "-"))
    return [f"{COLUMN_WORDS.get(p.field, p.field)}: {p.message}" for p in found]


def _values(line: str, delimiter: str) -> list[str] | str:
    """The line's values, or why it cannot be read, in the reader's language."""
    try:
        return [value.strip() for value in csv_values(line, delimiter)]
    except Refusal as exc:
        return "; ".join(_(MESSAGES[p.code]) for p in exc.problems)


def player_shared(player: Player, user: User) -> bool:
    """Whether the player also plays in an event the user does not run: then his name and ids are not the
    user's to change (a federation id found him, from another organiser's event)."""
    if user.is_superuser:
        return False
    return Registration.objects.filter(player=player).exclude(event__organisers=user).exists()


def registration_add(*, event: Event, player: Player, team: str = "", substitute: bool = False) -> Registration:
    """Register ``player`` in ``event`` (in ``team`` if named, created on first use): the one function that creates
    a registration, for the API, the console's and the new-event form's lists, online and sheet imports, the demo.

    The standings list every registered player, so they follow the new row, as they follow every change to a
    registration, through scoring's signal on the model (scoring.services.registrations.registration_written:
    marked as being updated, the live version bumped, recomputed after the commit). That is why a registration
    is never bulk-created: a bulk write sends no signal, and the player would be missing from the standings (but
    for ``registrations_add_many``, whose caller is told to follow).
    """
    team_row = event.teams.get_or_create(name=team)[0] if team else None
    return Registration.objects.create(event=event, player=player, team=team_row, substitute=substitute)


def registrations_add_many(
    *, event: Event, players: Sequence[Player], follow: Callable[[int], None]
) -> list[Registration]:
    """Register many players at once, none in a team nor as a substitute (an import's new players): one insert.
    A bulk write sends no signal, so ``follow(event_id)`` is called once in its place (scoring passes what the
    signal does for each row: the standings refreshed)."""
    if not players:
        return []
    rows = Registration.objects.bulk_create([Registration(event=event, player=player) for player in players])
    follow(event.pk)
    return rows


def registration_update(*, registration: Registration, player: Player, team: str, substitute: bool) -> Registration:
    """A registered player's team and substitute mark (their name and ids are saved on the player)."""
    registration.team = registration.event.teams.get_or_create(name=team)[0] if team else None
    registration.substitute = substitute
    registration.save(update_fields=["team", "substitute"])
    return registration


def registration_withdraw(*, registration: Registration, withdrawn: bool = True) -> Registration:
    """The player leaves the event (their games stay, they are not seated again), or comes back."""
    registration.withdrawn = withdrawn
    registration.save(update_fields=["withdrawn"])
    return registration


def columns_used(lines: list[RosterLine]) -> set[str]:
    """The optional columns some line fills: a preview of names alone shows names alone."""
    return {
        column
        for column in ("federation_id", "country", "club", "team", "substitute")
        for line in lines
        if getattr(line, column)
    }
