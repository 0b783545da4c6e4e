"""Events, their players and their rounds."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.errors import Refusal
from tournament.models import MERS_KEYS, Event, Player, Registration, Round, Stage, Team, text_problems
from tournament.services.roster import registration_add
from tournament.users import RequestUser

SLUG_BASE_LENGTH = 70  # leaves room in the 80-character slug for a "-123" suffix
MAX_ROUNDS = 50  # a season of weekly club nights; more at once is a typing mistake


def event_create(*, organiser: User, **fields: Any) -> Event:
    """A new event with a slug made from its name (unique, numbered on a clash; the EMA rankings' keys count as
    taken, since a rated event's rating is listed under its slug); ``organiser`` runs it."""
    base = slugify(fields["name"])[:SLUG_BASE_LENGTH] or "event"
    slug, n = base, 1
    while slug in MERS_KEYS or Event.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    with transaction.atomic():
        event = Event.objects.create(slug=slug, **fields)
        event.organisers.add(organiser)
    return event


def player_register(*, event: Event, team: str = "", substitute: bool = False, **fields: Any) -> Registration:
    """A new player registered in the event (in ``team`` if named, created on first use)."""
    player = Player(**fields)
    problems = text_problems(player)
    if team:
        problems += [p.moved("team") for p in text_problems(Team(name=team))]
    if problems:
        raise Refusal(problems)
    with transaction.atomic():
        player.save()
        return registration_add(event=event, player=player, team=team, substitute=substitute)


def round_add(*, event: Event, **fields: Any) -> Round:
    """The event's next round, numbered after the last one (two organisers adding at once get two numbers)."""
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()  # one round added at a time per event
        last = event.rounds.order_by("-number").first()
        fields["stage"] = _round_stage(event, fields.get("stage"), last)
        return Round.objects.create(event=event, number=(last.number + 1) if last else 1, **fields)


def _round_stage(event: Event, asked: int | None, last: Round | None) -> int:
    """The stage a new round belongs to: the one asked for, or the last round's (a later stage's once its cut is
    confirmed). Stages play in order: no round of a stage after a round of a later one."""
    numbers = {1, *Stage.objects.filter(event=event).values_list("number", flat=True)}
    entered = max(Stage.objects.filter(event=event, through__isnull=False).values_list("number", flat=True), default=1)
    stage = asked if asked is not None else max(last.stage if last else 1, entered)
    if stage not in numbers:
        raise Refusal.one("stage", f"this event has no stage {stage}")
    if last is not None and stage < last.stage:
        raise Refusal.one(
            "stage", f"round {last.number} is of stage {last.stage}: a round of stage {stage} cannot follow it"
        )
    return stage


def rounds_schedule(
    *,
    event: Event,
    count: int,
    first_start: datetime | None = None,
    time_limit_minutes: int | None = None,
    break_minutes: int = 0,
) -> list[Round]:
    """Add ``count`` rounds after the event's last, each starting when the one before ends plus the break."""
    if not 0 <= count <= MAX_ROUNDS:
        raise Refusal.one("rounds", _("must be between 0 and %(most)s") % {"most": MAX_ROUNDS})
    step = timedelta(minutes=(time_limit_minutes or 0) + break_minutes)
    return [
        round_add(
            event=event,
            time_limit_minutes=time_limit_minutes,
            starts_at=first_start + step * n if first_start is not None else None,
        )
        for n in range(count)
    ]


def event_publish(*, event: Event, public: bool) -> Event:
    """Show the event on the public pages (a draft becomes running), or hide it again."""
    event.public = public
    if public and event.status == Event.Status.DRAFT:
        event.status = Event.Status.RUNNING
    event.save(update_fields=["public", "status"])
    return event


# The refusal, in the reader's language, where the console and the API refuse a new event.
CREATORS_ONLY = gettext_lazy(
    "Only organisers create events on this site: ask its administrator for the permission to add events."
)


def may_create_events(user: RequestUser) -> bool:
    """Whether ``user`` may create an event (settings.EVENT_CREATORS): anyone signed in, or organisers only,
    the users with the permission ``tournament.add_event``."""
    if not user.is_authenticated:
        return False
    return settings.EVENT_CREATORS != "organisers" or bool(user.has_perm("tournament.add_event"))


def referee_remove(*, event: Event, user_id: int) -> None:
    """The user is no longer a referee of the event: ``Event.can_score`` reads the list on every write, so they
    stop scoring at once (an organiser stays one)."""
    event.referees.remove(user_id)


def event_open(
    *,
    organiser: User,
    rounds: int = 0,
    first_start: datetime | None = None,
    time_limit_minutes: int | None = None,
    break_minutes: int = 0,
    **fields: Any,
) -> Event:
    """A new event with its schedule of rounds, as the organiser's console creates it; a public one runs."""
    if fields.get("public"):
        fields.setdefault("status", Event.Status.RUNNING)
    with transaction.atomic():
        event = event_create(organiser=organiser, **fields)
        rounds_schedule(
            event=event,
            count=rounds,
            first_start=first_start,
            time_limit_minutes=time_limit_minutes,
            break_minutes=break_minutes,
        )
    return event
