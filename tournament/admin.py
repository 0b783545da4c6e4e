"""Admin for players, events and who sits where (scoring.admin adds the actions that score and seat)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from tournament.models import Event, Player, Registration, Round, Seat, Table, Team


class RegistrationInline(admin.TabularInline[Registration, Event]):
    model = Registration
    extra = 0
    autocomplete_fields = ("player",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("name", "federation_id", "country", "club")
    search_fields = ("name", "federation_id", "club")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ("name", "kind", "status", "ruleset_key", "public", "starts_on")
    list_filter = ("kind", "status", "public", "ruleset_key")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}  # noqa: RUF012 - Django's own class attribute
    filter_horizontal = ("organisers", "referees")
    inlines = (RegistrationInline,)
    actions: tuple[str, ...] = ("publish",)

    @admin.action(description="Publish (make public)")
    def publish(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        count = queryset.update(public=True)
        self.message_user(request, f"{count} event(s) published.", messages.SUCCESS)


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    autocomplete_fields = ("player",)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ("event", "number", "starts_at", "time_limit_minutes")
    list_filter = ("event",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("round", "number")
    list_filter = ("round__event",)
    inlines = (SeatInline,)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    list_display = ("name", "event")


