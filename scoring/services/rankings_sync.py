"""What this server's events give the EMA ranking: a finished event counted for it (``Event.mers``) enters with its
final ranking (places, EMA numbers, countries), its dates, its number of players (substitutes as the EMA counts
them) and of countries, and its published weight if it has one. Rebuilt whenever its standings, settings or
players change (scoring.tasks.follow_event)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.db.models import Max, Min

from rules.rankings.mers import counted_players
from scoring.models import GameResult, MersList, RankedEvent, RankedResult, Standing
from scoring.services.rankings import ranking_changed
from tournament.models import Event, Game


@dataclass(frozen=True, slots=True)
class _Field:
    starts_on: date
    days: int
    players: int
    countries: int


def mers_list(event: Event) -> str:
    """The EMA keeps one ranking per rule set: MCR's, or riichi's."""
    return MersList.MCR if event.ruleset().is_mcr else MersList.RIICHI


def _dates(event: Event) -> tuple[date, int] | None:
    """The event's first day and its number of days: its dates, or else the days its games were played on."""
    if event.starts_on:
        return event.starts_on, (event.ends_on - event.starts_on).days + 1 if event.ends_on else 1
    played = Game.objects.filter(event=event).aggregate(first=Min("played_on"), last=Max("played_on"))
    if played["first"] is None:
        return None
    return played["first"], Game.objects.filter(event=event).values("played_on").distinct().count()


def _field(event: Event, standings: list[Standing]) -> _Field | None:
    dates = _dates(event)
    if dates is None:
        return None
    # The substitutes who played: the EMA counts up to 3 of them among the players, and their countries.
    substitutes = set(
        GameResult.objects.filter(event=event, substitute=True, finished=True)
        .exclude(player_id__in=[s.player_id for s in standings])
        .values_list("player_id", "player__country")
    )
    countries = {s.player.country.strip().casefold() for s in standings} | {
        c.strip().casefold() for _, c in substitutes
    }
    countries.discard("")
    return _Field(
        starts_on=dates[0],
        days=dates[1],
        players=counted_players(len(standings), len(substitutes)),
        countries=len(countries),
    )


def event_ranked_sync(event: Event) -> bool:
    """Put the event's final ranking into the EMA ranking, or take it out (not counted, not finished, nobody
    ranked); whether anything was there or is now."""
    with transaction.atomic():
        existing = RankedEvent.objects.select_for_update().filter(event=event).first()
        standings = list(
            Standing.objects.filter(event=event, rank__isnull=False).select_related("player")
            if event.mers and event.status == Event.Status.FINISHED
            else []
        )
        field = _field(event, standings) if standings else None
        if field is None:
            if existing is not None:
                existing.delete()
                ranking_changed(existing.ranking)
            return existing is not None
        ranked = existing or RankedEvent(event=event)
        old_list = existing.ranking if existing else None
        ranked.ranking, ranked.name = mers_list(event), event.name
        ranked.starts_on, ranked.days, ranked.players, ranked.countries = (
            field.starts_on,
            field.days,
            field.players,
            field.countries,
        )
        ranked.championship = event.mers == Event.Mers.CHAMPIONSHIP
        ranked.weight = event.mers_weight
        ranked.save()
        ranked.results.all().delete()
        RankedResult.objects.bulk_create(
            RankedResult(
                ranked_event=ranked,
                federation_id=s.player.federation_id.strip(),
                name=s.player.name,
                country=s.player.country.strip(),
                player=s.player,
                place=s.rank,
            )
            for s in standings
            if s.player.federation_id.strip() and s.rank is not None
        )
        ranking_changed(ranked.ranking)
        if old_list is not None and old_list != ranked.ranking:
            ranking_changed(old_list)
        return True
