"""Results of events run elsewhere, into the EMA ranking: a CSV of final rankings (``manage.py import_results``).

Columns, exactly: event_id, event_name, date, days, players, countries, weight, federation_id, name, country,
place; one line per player, the event's columns repeated on each of its lines. ``weight`` may be empty: it is then
computed from days, players and countries. A line without a federation id is a player the EMA does not rank (no
EMA number): it is read and left out. Every line is checked and every problem named by its line and column;
nothing is written unless the whole file is right. An event imported again (the same event_id) is replaced.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone

from rules.errors import Problem, Refusal
from scoring.models import MersList, RankedEvent, RankedResult
from scoring.services.rankings import ranking_changed
from tournament.models import Player

COLUMNS = (
    "event_id",
    "event_name",
    "date",
    "days",
    "players",
    "countries",
    "weight",
    "federation_id",
    "name",
    "country",
    "place",
)
EVENT_COLUMNS = COLUMNS[:7]
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
LIMITS = {"event_id": 40, "event_name": 200, "federation_id": 40, "name": 100, "country": 60}


@dataclass
class _Event:
    line: int
    values: tuple[str, ...]
    name: str = ""
    starts_on: date | None = None
    days: int = 0
    players: int = 0
    countries: int = 0
    weight: Decimal | None = None
    results: dict[str, tuple[int, str, str, int]] = field(default_factory=dict)  # federation id: line, name, …


@dataclass(frozen=True, slots=True)
class Imported:
    events: int
    results: int
    unranked: int  # lines without a federation id
    replaced: tuple[str, ...]  # the event_ids that were there before


def _whole(text: str, low: int, high: int) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and low <= int(text) <= high else None


def _text(row: dict[str, str], column: str, problems: list[str], required: bool = True) -> str:
    value = (row.get(column) or "").strip()
    if required and not value:
        problems.append(f"{column}: is required")
    elif _CONTROL.search(value):
        problems.append(f"{column}: must be printable text (no control characters)")
    elif len(value) > LIMITS[column]:
        problems.append(f"{column}: is longer than {LIMITS[column]} characters")
    return value


def _event_values(row: dict[str, str], event: _Event, problems: list[str]) -> None:
    """The event's columns of its first line, checked."""
    event.name = _text(row, "event_name", problems)
    try:
        event.starts_on = date.fromisoformat(row["date"].strip())
        if event.starts_on > timezone.localdate():
            problems.append("date: is after today; an event's results are imported once it is played")
    except ValueError:
        problems.append("date: must be a date written YYYY-MM-DD")
    for column, low, high in (("days", 1, 60), ("players", 2, 100_000), ("countries", 1, 300)):
        number = _whole(row[column].strip(), low, high)
        if number is None:
            problems.append(f"{column}: must be a whole number from {low} to {high}")
        setattr(event, column, number or 0)
    weight = row["weight"].strip()
    if weight:
        try:
            value: Decimal | None = Decimal(weight)
        except InvalidOperation:
            value = None
        if value is None or not value.is_finite() or not Decimal("0.5") <= value <= 10 or value != round(value, 2):
            problems.append("weight: must be empty (computed) or the published weight, from 0.5 to 10")
        else:
            event.weight = value


def _result(row: dict[str, str], event: _Event, number: int, problems: list[str]) -> bool:
    """The player's columns; whether the line is ranked (it has a federation id)."""
    federation_id = _text(row, "federation_id", problems, required=False)
    name = _text(row, "name", problems)
    country = _text(row, "country", problems, required=False)
    place = _whole(row["place"].strip(), 1, event.players or 100_000)
    if place is None:
        problems.append(
            f"place: must be a whole number from 1 to {event.players or 'the players'} (the event's players)"
        )
    if not federation_id:
        return False
    if federation_id in event.results:
        problems.append(
            f"federation_id: {federation_id} is already on line {event.results[federation_id][0]} of this event"
        )
    else:
        event.results[federation_id] = (number, name, country, place or 0)
    return True


def _read(text: str) -> tuple[dict[str, _Event], int, list[Problem]]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [c.strip() for c in reader.fieldnames or []]
    if sorted(header) != sorted(COLUMNS):
        missing = [c for c in COLUMNS if c not in header]
        unknown = [c for c in header if c not in COLUMNS]
        raise Refusal.one(
            "line 1",
            f"the columns must be exactly {', '.join(COLUMNS)}"
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; not known: {', '.join(unknown)}" if unknown else ""),
        )
    reader.fieldnames = header
    events: dict[str, _Event] = {}
    problems: list[Problem] = []
    unranked = 0
    for number, row in enumerate(reader, start=2):
        found: list[str] = []
        if None in row or any(value is None for value in row.values()):
            problems.append(Problem(f"line {number}", f"must have the {len(COLUMNS)} columns of the first line"))
            continue
        key = _text(row, "event_id", found)
        event = events.get(key)
        if event is None and key:
            event = events[key] = _Event(number, tuple(row[c].strip() for c in EVENT_COLUMNS))
            _event_values(row, event, found)
        elif event is not None:
            found += [
                f"{c}: differs from line {event.line}, the event's first"
                for c, v in zip(EVENT_COLUMNS, event.values, strict=True)
                if row[c].strip() != v
            ]
        if event is not None and not _result(row, event, number, found):
            unranked += 1
        problems += [Problem(f"line {number}", message) for message in found]
    if not events and not problems:
        problems.append(Problem("line 2", "the file has no results"))
    for key, event in events.items():
        if len(event.results) > event.players > 0:
            problems.append(
                Problem(
                    f"line {event.line}",
                    f"event {key} has {len(event.results)} ranked players but players says {event.players}",
                )
            )
    return events, unranked, problems


def results_import(text: str, ranking: str = MersList.RIICHI) -> Imported:
    """Check the whole file, then write its events into the ranking (replacing those imported before under the
    same event_id); Refusal naming every problem, nothing written, if any line is wrong."""
    if ranking not in MersList.values:
        raise Refusal.one("ranking", f"must be one of {', '.join(MersList.values)}")
    events, unranked, problems = _read(text)
    if problems:
        raise Refusal(problems)
    # A federation id several players share: the first of them (the last written wins).
    known = dict(
        Player.objects.filter(federation_id__in={f for e in events.values() for f in e.results})
        .order_by("-pk")
        .values_list("federation_id", "pk")
    )
    with transaction.atomic():
        replaced = tuple(
            RankedEvent.objects.filter(ranking=ranking, external_id__in=events).values_list("external_id", flat=True)
        )
        RankedEvent.objects.filter(ranking=ranking, external_id__in=events).delete()
        for key, event in events.items():
            assert event.starts_on is not None  # checked
            ranked = RankedEvent.objects.create(
                ranking=ranking,
                external_id=key,
                name=event.name,
                starts_on=event.starts_on,
                days=event.days,
                players=event.players,
                countries=event.countries,
                weight=event.weight,
            )
            RankedResult.objects.bulk_create(
                RankedResult(
                    ranked_event=ranked,
                    federation_id=fid,
                    name=name,
                    country=country,
                    player_id=known.get(fid),
                    place=place,
                )
                for fid, (_, name, country, place) in event.results.items()
            )
        ranking_changed(ranking)
    return Imported(
        events=len(events),
        results=sum(len(e.results) for e in events.values()),
        unranked=unranked,
        replaced=tuple(sorted(replaced)),
    )
