"""Admin for games with their hands inline (read-only: hands change through the services, which replay)."""

from __future__ import annotations

from django.contrib import admin

from scoring.models import Game, GamePlayer, Hand, HandChange, Penalty, Standing


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
