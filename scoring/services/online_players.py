"""The players of a batch of online logs: every platform name read in one query, new players made in bulk.

A platform name is the event's player of that online name, else the one
registered under that name with no online name; with ``create``, a stored
player of that online name the user may find (``findable_players``) is
registered, else a new player is made and registered. What a log needs is
written in that log's own transaction (``PlayerBook.save``), and the book learns
it only once the log is committed (``PlayerBook.keep``): a log refused later
leaves no player behind, and the next log that names him makes him again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from django.db.models import FilteredRelation, Q

from rules.errors import Problem, Refusal
from scoring.services.registrations import registrations_add_many
from tournament.models import Event, Player, text_problems
from tournament.selectors import findable_players
from tournament.services import roster
from tournament.users import RequestUser

# A registered player's (id, withdrawn, substitute); a player registered by the import is neither.
Entry = tuple[int, bool, bool]


@dataclass(slots=True)
class Claim:
    """What one log's names need: the players found, the stored players to register, the names to make players of."""

    found: dict[str, Entry]
    register: dict[str, int]
    make: list[str]


@dataclass(frozen=True, slots=True)
class Seated:
    """One log's players once saved: the id of each name, and each id's (withdrawn, substitute)."""

    ids: dict[str, int]
    registered: dict[int, tuple[bool, bool]]


@dataclass(slots=True)
class PlayerBook:
    """The event's players as a batch of logs names them, read once."""

    event: Event
    create: bool
    user: RequestUser | None
    by_online: dict[str, Entry] = field(default_factory=dict)
    by_name: dict[str, list[Entry]] = field(default_factory=dict)
    stored: dict[str, int] = field(default_factory=dict)  # online name → a player not of this event
    findable: set[int] = field(default_factory=set)

    def claim(self, names: Sequence[str]) -> Claim:
        """The players of one log's names; Refusal naming every name that cannot be one."""
        claim, problems = Claim({}, {}, []), []
        for name in dict.fromkeys(names):  # one player for a name given twice (the sheet refuses such a log)
            problems += [Problem("players", message) for message in self._claim_one(name, claim)]
        if problems:
            raise Refusal(problems)
        return claim

    def save(self, claim: Claim) -> Seated:
        """Make and register what ``claim`` needs, in the caller's transaction."""
        made = Player.objects.bulk_create([Player(name=name, online_name=name) for name in claim.make])
        new = {player.online_name: player.pk for player in made} | claim.register
        registrations_add_many(event=self.event, players=[Player(pk=pk) for pk in new.values()])
        return _seated(claim.found, new)

    def keep(self, claim: Claim, seated: Seated) -> None:
        """The log is committed: its new players are the event's for the logs after it."""
        for name in [*claim.make, *claim.register]:
            self.by_online[name] = (seated.ids[name], False, False)
            self.stored.pop(name, None)

    def ahead(self) -> PlayerBook:
        """A copy for a group of logs saved together: it learns each log's new players as soon as they are claimed
        (``learn``), so the next log of the group finds them; the book itself learns them once the group is
        committed."""
        return replace(self, by_online=dict(self.by_online), stored=dict(self.stored))

    def seated(self, claim: Claim, making: Sequence[str]) -> Seated:
        """What ``save_many`` will give ``claim`` (claimed with ``ahead``), each player still to make standing as
        -(his place in ``making``, the names the group makes, from 1): enough to check its game before any write
        (a game names its players only in its seats, which are made after the players)."""
        new = {name: -(len(making) + k) for k, name in enumerate(claim.make, start=1)} | claim.register
        return _seated(claim.found, new)

    def learn(self, claim: Claim, making: list[str]) -> None:
        """``claim``'s new players as the group's next logs see them (as ``seated`` numbers them): ``making``
        grows by the names it makes."""
        for name in claim.make:
            making.append(name)
            self.by_online[name] = (-len(making), False, False)
        for name, pk in claim.register.items():
            self.by_online[name] = (pk, False, False)
            self.stored.pop(name, None)

    def save_many(self, claims: Sequence[Claim]) -> list[Seated]:
        """``save`` for each claim of a group (claimed in turn with ``ahead`` and ``learn``): its new players made
        in one insert and registered in another, in the order the logs would have made them one by one."""
        made = Player.objects.bulk_create([Player(name=name, online_name=name) for c in claims for name in c.make])
        ids = [player.pk for player in made]
        seated: list[Seated] = []
        new_ids: list[int] = []
        at = 0  # the claim's first player in ``made``
        for claim in claims:
            new = {name: ids[at + k] for k, name in enumerate(claim.make)} | claim.register
            at += len(claim.make)
            new_ids += new.values()
            found = {name: (ids[-pk - 1] if pk < 0 else pk, w, s) for name, (pk, w, s) in claim.found.items()}
            seated.append(_seated(found, new))
        # The standings are the caller's to follow: it counts each log's registrations in the logs' order.
        roster.registrations_add_many(event=self.event, players=[Player(pk=pk) for pk in new_ids], follow=_nothing)
        return seated

    def _claim_one(self, name: str, claim: Claim) -> list[str]:
        entry = self.by_online.get(name)
        if entry is None:
            named = self.by_name.get(name, [])
            if len(named) > 1:
                return [f"two players of this event are named {name!r}: set the online name of the one who played"]
            entry = named[0] if named else None
        if entry is not None:
            claim.found[name] = entry
            return []
        if not self.create:
            return [
                f"{name!r} is not a player of this event: set a player's online name to it, or import with "
                "create_players"
            ]
        stored = self.stored.get(name)
        if stored is None:
            refused = text_problems(Player(name=name, online_name=name))
            if refused:
                return [f"{name!r} cannot be a player's name: {p.message}" for p in refused]
            claim.make.append(name)
        elif stored in self.findable:
            claim.register[name] = stored
        else:
            return [
                f"{name!r} is the online name of a player of events you cannot see: an administrator can register "
                "him in this event"
            ]
        return []


def _seated(found: Mapping[str, Entry], new: Mapping[str, int]) -> Seated:
    ids = {name: entry[0] for name, entry in found.items()} | dict(new)
    registered = {entry[0]: (entry[1], entry[2]) for entry in found.values()}
    return Seated(ids, registered | dict.fromkeys(new.values(), (False, False)))


def _nothing(event_id: int) -> None:
    pass


def player_book(event: Event, names: Iterable[str], *, create: bool, user: RequestUser | None) -> PlayerBook:
    """The book of every name of a batch, in one query: the event's players by online name or name, and the
    players of other events by online name; with ``create``, one more for which of those the user may find."""
    book = PlayerBook(event, create, user)
    wanted = set(names)
    here = FilteredRelation("registrations", condition=Q(registrations__event=event))
    rows = (
        Player.objects.annotate(here=here)
        .filter(Q(online_name__in=wanted) | Q(here__isnull=False, online_name="", name__in=wanted))
        .values_list("pk", "name", "online_name", "here__id", "here__withdrawn", "here__substitute")
        .order_by("pk")
    )
    for pid, name, online_name, registration, withdrawn, substitute in rows:
        if registration is None:
            book.stored[online_name] = pid
        elif online_name:
            book.by_online[online_name] = (pid, withdrawn, substitute)
        else:
            book.by_name.setdefault(name, []).append((pid, withdrawn, substitute))
    if create and book.stored:
        book.findable = set(findable_players(user).filter(pk__in=book.stored.values()).values_list("pk", flat=True))
    return book
