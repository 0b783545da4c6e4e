"""Admin for games with their hands inline (read-only: hands change through the services, which replay)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from scoring.models import Game, GamePlayer, Hand, HandChange, Penalty, Standing
from scoring.services import InvalidInput, round_seat, standings_recompute
from tournament.admin import EventAdmin, RoundAdmin
from tournament.models import Event, Round

# tournament/ may not import scoring/ (DESIGN.md's arrows), so the actions that
# score and seat are added here, on the admin classes tournament registers.
admin.site.unregister(Event)
admin.site.unregister(Round)


@admin.register(Event)
class ScoringEventAdmin(EventAdmin):
    actions = ("publish", "recompute_standings")

    @admin.action(description="Recompute the standings")
    def recompute_standings(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        for event in queryset:
            standings_recompute(event)
        self.message_user(request, f"Standings recomputed for {queryset.count()} event(s).", messages.SUCCESS)


@admin.register(Round)
class ScoringRoundAdmin(RoundAdmin):
    actions = ("seat_random", "seat_swiss")

    @admin.action(description="Seat these rounds at random (no repeated pairs where avoidable)")
    def seat_random(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._seat(request, queryset, "random")

    @admin.action(description="Seat these rounds swiss, by the current standings")
    def seat_swiss(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._seat(request, queryset, "swiss")

    def _seat(self, request: HttpRequest, queryset: QuerySet[Round], method: str) -> None:
        for round_ in queryset.select_related("event").order_by("number"):
            try:
                games = round_seat(event=round_.event, number=round_.number, method=method)
            except InvalidInput as exc:
                self.message_user(request, f"{round_}: " + "; ".join(str(p) for p in exc.problems), messages.ERROR)
            else:
                self.message_user(request, f"{round_}: {len(games)} tables seated.", messages.SUCCESS)


class GamePlayerInline(admin.TabularInline[GamePlayer, Game]):
    model = GamePlayer
    extra = 0
    readonly_fields = ("player", "seat", "substitute")
    can_delete = False


class HandInline(admin.TabularInline[Hand, Game]):
    # Read-only: a change must go through scoring.services so the game is replayed and the history kept.
    model = Hand
    extra = 0
    readonly_fields = ("index", "record", "entered_by", "entered_at")
    can_delete = False
    ordering = ("index",)

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("id", "event", "table", "status", "version", "updated_at")
    list_filter = ("event", "status")
    readonly_fields = ("version", "result", "status")
    inlines = (GamePlayerInline, HandInline)


@admin.register(HandChange)
class HandChangeAdmin(admin.ModelAdmin[HandChange]):
    list_display = ("game", "index", "action", "user", "at", "version")
    list_filter = ("action",)
    readonly_fields = ("game", "index", "action", "before", "after", "user", "at", "version")


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin[Penalty]):
    list_display = ("event", "player", "game", "points", "reason", "created_at")
    list_filter = ("event",)


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin[Standing]):
    list_display = ("event", "rank", "player", "points", "games", "average_rank")
    list_filter = ("event",)
