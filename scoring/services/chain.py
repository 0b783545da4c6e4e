"""A game's history as a sealed chain, and an event's head over its games (issues 14 and 25: tamper evidence).

Each history entry's seal is HMAC-SHA256, under a key the database does not
hold (``scoring.services.history_keys``), over the canonical JSON of its
content (sorted keys, no whitespace, UTF-8; so that a database's own JSON
ordering cannot change it), the previous entry's seal and the key's id.
Changing, removing, adding or reordering an entry, or a stored hand that no
longer matches what the history says, is found by ``verify_game``; without
the key, whoever holds the database cannot seal a forged entry. Entries
written before sealing was keyed carry no key id and a plain SHA-256: they
are checked, but a chain that ends in one is reported as unsealed until
``verify_history --seal`` seals it. The event's head is a hash over its
games' heads in game order, so one value published for an event covers
every game in it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from scoring.models import Confirmation, EventChange, HandChange, Penalty
from scoring.selectors import game_penalties
from scoring.services import history_keys
from scoring.services.history_keys import UNKEYED
from tournament.models import Event, Game, Seat
from tournament.users import Writer

SHORT = 12  # hex digits shown on a page: enough to compare by eye
EMPTY = ""


def canonical(value: Any) -> bytes:
    """The one byte string a JSON value hashes as."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def sealed_time(moment: datetime) -> datetime:
    """A time cut to milliseconds: what every JSON copy of an entry (Django's serialisation among them) keeps."""
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def entry_content(
    *, index: int | None, action: str, before: Any, after: Any, author: str, at: str, version: int, terms: Any = None
) -> dict[str, Any]:
    content = {
        "index": index,
        "action": action,
        "before": before,
        "after": after,
        "author": author,
        "at": at,
        "version": version,
    }
    if terms is not None:  # entries written before terms were sealed hash without the key
        content["terms"] = terms
    return content


def game_terms(game: Game, seats: Sequence[Seat] | None = None, *, new: bool = False) -> dict[str, Any]:
    """Everything besides its hands that decides a game's result and where it counts, as sealed into each entry:
    the game and its event, the day it was played (a league counts its date range), who sat where (and who as a
    substitute), the start, the rules, the end by time and the game's penalties. ``seats`` when the caller holds
    them; ``new``: a game made in the caller's transaction, which cannot have a penalty yet (an import's)."""
    seats = sorted(game.seats.all() if seats is None else seats, key=lambda seat: seat.position)
    key, overrides = game.rules_source()
    return {
        "game": game.pk,
        "event": game.event_id,
        "played_on": game.played_on.isoformat(),
        "players": [s.player_id for s in seats],
        "substitutes": [s.player_id for s in seats if s.substitute],
        "start": game.start or None,
        "ruleset": key,
        "overrides": overrides,
        "end": "time" if game.ended_by_time else None,
        "penalties": [] if new else penalties_of(game_penalties(game)),
    }


def penalties_of(penalties: Iterable[Penalty]) -> list[list[Any]]:
    """Penalties as a history entry holds them: player, points, reason, in the order they were given. A query set
    is read afresh each time (a caller reads the same one before and after a change)."""
    given = penalties.order_by("id") if isinstance(penalties, QuerySet) else sorted(penalties, key=lambda p: p.pk)
    return [[p.player_id, str(p.points), p.reason] for p in given]


def seal(content: Mapping[str, Any], previous: str) -> tuple[str, str]:
    """The id of the key that seals a new entry with this content after the entry sealed ``previous``, and the
    seal."""
    name, key = history_keys.sealing_key()
    return name, keyed_seal(content, previous, name, key)


def keyed_seal(content: Mapping[str, Any], previous: str, name: str, key: bytes) -> str:
    # The key's id is sealed too: an entry cannot be passed off as sealed by another key, or by none.
    return history_keys.mac(key, canonical({"previous": previous, "entry": content, "key": name}))


def unkeyed_seal(content: Mapping[str, Any], previous: str) -> str:
    """The plain hash of an entry written before sealing was keyed."""
    return hashlib.sha256(canonical({"previous": previous, "entry": content})).hexdigest()


def content_of(change: HandChange | EventChange) -> dict[str, Any]:
    return entry_content(
        index=getattr(change, "index", None),
        action=change.action,
        before=change.before,
        after=change.after,
        author=change.author,
        at=change.at.isoformat(),
        version=change.version,
        terms=getattr(change, "terms", None),
    )


def exported(change: HandChange | EventChange) -> dict[str, Any]:
    """An entry as exports carry it: its content, the previous seal, its key's id and its own seal."""
    return {**content_of(change), "previous": change.previous, "key": change.key, "hash": change.hash}


_CONTENT = ("index", "action", "before", "after", "author", "at", "version", "terms")


@dataclass(frozen=True, slots=True)
class ChainReport:
    head: str  # the last entry's seal (blank for a game with no history)
    entries: int
    problem: str | None  # the first entry that does not hold, in words; None when the chain is intact
    unsealed: bool = False  # the chain ends in entries written before keyed sealing: forgeable by the database

    @property
    def intact(self) -> bool:
        return self.problem is None


def verify_entries(entries: Sequence[Mapping[str, Any]], *, foreign: bool = False) -> ChainReport:
    """Recompute a chain given as exported entries (content plus ``previous``, ``key`` and ``hash``).

    ``foreign``: the entries come from another server's export, whose keys this one may not hold; an entry
    sealed with such a key is checked for its place in the chain only.
    """
    previous, keyed = EMPTY, False
    for number, entry in enumerate(entries, start=1):
        fields: dict[str, Any] = {key: entry.get(key) for key in _CONTENT}
        content = entry_content(**fields)
        name = entry.get("key") or UNKEYED
        if entry.get("previous") != previous:
            return ChainReport(
                previous,
                len(entries),
                f"history entry {number} ({_what(content)}) does not follow "
                "the entry before it: an entry was removed, added or reordered",
            )
        problem = _seal_problem(content, previous, str(name), str(entry.get("hash")), keyed=keyed, foreign=foreign)
        if problem is not None:
            return ChainReport(previous, len(entries), f"history entry {number} ({_what(content)}) {problem}")
        keyed = keyed or name != UNKEYED
        previous = str(entry["hash"])
    return ChainReport(previous, len(entries), None, unsealed=bool(entries) and not keyed)


def _seal_problem(
    content: Mapping[str, Any], previous: str, name: str, seal_: str, *, keyed: bool, foreign: bool
) -> str | None:
    if name == UNKEYED:
        if keyed:
            return "has no key after entries that have one: it was written behind the application's back"
        return None if unkeyed_seal(content, previous) == seal_ else "does not match its hash: its content was changed"
    key = history_keys.verifying_key(name)
    if key is None:
        return (
            None
            if foreign
            else (
                f"is sealed with the key {name}, which this server does not hold: set it in "
                "HISTORY_OLD_KEYS, or the entry was forged"
            )
        )
    return (
        None
        if keyed_seal(content, previous, name, key) == seal_
        else ("does not match its seal: its content was changed")
    )


def verify_game(game: Game) -> ChainReport:
    """The game's chain recomputed, and its stored hands compared with what the history says they are."""
    game = Game.objects.select_related("event").get(pk=game.pk)  # as stored now, not as the caller last saw it
    entries = [exported(c) for c in HandChange.objects.filter(game=game).order_by("id")]
    report = verify_entries(entries)
    if not report.intact:
        return report
    if entries and entries[-1]["version"] != game.version:
        return ChainReport(
            report.head,
            report.entries,
            f"the game is at version {game.version} but its history "
            f"ends at version {entries[-1]['version']}: entries were removed from its end, or the "
            "game was changed outside the history",
        )
    try:
        derived = hands_from_history(entries)
    except (ValueError, TypeError, KeyError) as exc:  # entries no write of the application makes
        return ChainReport(report.head, report.entries, f"its history does not make a game: {exc}")
    stored = [h.record for h in game.hands.order_by("index")]
    if derived != stored:
        first = next(
            (i for i, (a, b) in enumerate(zip(derived, stored, strict=False)) if a != b), min(len(derived), len(stored))
        )
        return ChainReport(
            report.head,
            report.entries,
            f"hand {first + 1} as stored differs from what the history "
            "says it is: the hand was changed outside the history",
        )
    problem = _terms_problem(game, entries) or _confirmations_problem(game, entries)
    return report if problem is None else ChainReport(report.head, report.entries, problem)


def _terms_problem(game: Game, entries: Sequence[Mapping[str, Any]]) -> str | None:
    sealed = next((e["terms"] for e in reversed(entries) if e.get("terms") is not None), None)
    if sealed is None:
        return None
    now = game_terms(game)
    changed = [name for name in now if now[name] != sealed.get(name)]
    if not changed:
        return None
    return (
        f"the game's {', '.join(changed)} differ from what its history says: changed outside the history "
        f"(history: {', '.join(f'{n} {sealed.get(n)!r}' for n in changed)}; stored: "
        f"{', '.join(f'{n} {now[n]!r}' for n in changed)})"
    )


def _confirmations_problem(game: Game, entries: Sequence[Mapping[str, Any]]) -> str | None:
    """The players' words as stored must be the ones given since the last change (a change clears them)."""
    told: dict[Any, tuple[Any, Any]] = {}
    for entry in entries:
        after = entry.get("after")
        if entry.get("action") == HandChange.Action.CONFIRM and isinstance(after, dict):
            told[after.get("player")] = (after.get("verdict"), after.get("reason", ""))
        elif entry.get("action") != HandChange.Action.SEAL:
            told = {}
    stored = {c.player_id: (c.verdict, c.reason) for c in Confirmation.objects.filter(game=game)}
    if stored == told:
        return None
    players = sorted(set(stored) ^ set(told) | {p for p in stored if stored[p] != told.get(p)})
    return (
        f"the confirmations of player(s) {players} differ from what the history says: confirmations were "
        "added, removed or changed outside the history"
    )


def hands_from_history(entries: Iterable[Mapping[str, Any]]) -> list[Any]:
    """The hands a game holds after its history's entries (as ``exported`` writes them), in order."""
    hands: list[Any] = []
    for entry in entries:
        action, index, after = entry.get("action"), entry.get("index"), entry.get("after")
        if (
            isinstance(index, int)
            and action in (HandChange.Action.CHANGE, HandChange.Action.DELETE)
            and not (0 <= index < len(hands))
        ):
            raise ValueError(f"a history entry names hand {index + 1}, which the game does not have then")
        if action == HandChange.Action.ADD:
            hands.insert(index if isinstance(index, int) else len(hands), after)
        elif action == HandChange.Action.CHANGE and isinstance(index, int):
            hands[index] = after
        elif action == HandChange.Action.DELETE and isinstance(index, int):
            del hands[index]
        elif action in (HandChange.Action.SHEET, HandChange.Action.IMPORT):
            hands = list(after["hands"]) if isinstance(after, dict) else list(after or [])
    return hands


@dataclass(frozen=True, slots=True)
class KeptHead:
    """Where a head a player kept (its first digits at least) stands in the game's history today."""

    found: bool
    entry: int | None  # its entry's number, from 1
    later: int  # entries written after it (corrections, confirmations, seals)


MIN_KEPT_DIGITS = 8


def kept_head(game: Game, head: str) -> KeptHead:
    """A head kept from the game page, the confirmation or the printed result, looked for in the history: found,
    the chain holds (the caller checks ``verify_game``) and nothing written since is hidden; not found, the
    history was rewritten since."""
    prefix = head.strip().lower()
    if len(prefix) < MIN_KEPT_DIGITS:
        return KeptHead(False, None, 0)
    seals = list(HandChange.objects.filter(game=game).order_by("id").values_list("hash", flat=True))
    for number, seal_ in enumerate(seals, start=1):
        if seal_.startswith(prefix):
            return KeptHead(True, number, len(seals) - number)
    return KeptHead(False, None, 0)


def game_head(game: Game) -> str:
    """The hash of the game's last history entry: what a player keeps to check the game later."""
    return HandChange.objects.filter(game=game).order_by("-id").values_list("hash", flat=True).first() or EMPTY


def event_head(event: Event) -> str:
    """One hash over every game's head, in game order, and the head of the event's own penalties once it has
    any: what an event publishes to be checked against later."""
    heads: list[list[Any]] = [[game_id, head] for game_id, head in _game_heads(event)]
    own = EventChange.objects.filter(event=event).order_by("-id").values_list("hash", flat=True).first()
    if own:
        heads.append(["penalties", own])
    return hashlib.sha256(canonical(heads)).hexdigest()


def _game_heads(event: Event) -> list[tuple[int, str]]:
    # One row per game, its last entry's hash: not every entry of the event.
    latest = HandChange.objects.filter(game=OuterRef("pk")).order_by("-id").values("hash")[:1]
    return [
        (game_id, head or EMPTY)
        for game_id, head in event.games.order_by("pk").annotate(head=Subquery(latest)).values_list("pk", "head")
    ]


def _what(content: Mapping[str, Any]) -> str:
    hand = f" hand {content['index'] + 1}" if isinstance(content.get("index"), int) else ""
    return f"{content.get('action')}{hand}, version {content.get('version')}, at {content.get('at')}"


def event_change(event: Event, action: str, *, before: Any, after: Any, user: Writer | None) -> EventChange:
    """An entry sealed onto the event's own chain; the caller holds the event's row lock, so it cannot fork."""
    last = EventChange.objects.filter(event=event).order_by("-id").first()
    entry = EventChange(
        event=event,
        action=action,
        before=before,
        after=after,
        author=user.get_username() if user is not None and user.is_authenticated else "",
        at=sealed_time(timezone.now()),
        version=last.version + 1 if last else 1,
        previous=last.hash if last else "",
    )
    entry.key, entry.hash = seal(content_of(entry), entry.previous)
    entry.save()
    return entry
