"""Admin for games with their hands inline (edited through the services, which replay and keep the history)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import BaseInlineFormSet, ModelForm
from django.http import HttpRequest

from scoring.models import Game, GamePlayer, Hand, HandChange, Penalty, Standing
from scoring.services import InvalidInput, VersionConflict, replay, round_seat, standings_recompute
from scoring.services import game_put_sheet as put_sheet
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


class HandFormSet(BaseInlineFormSet[Hand, Game, ModelForm[Hand]]):
    """Hands edited in the admin as score-sheet records (players by id), checked by replaying the game.

    Saving goes through scoring.services like any other write: the game is
    replayed, the history keeps the change, nothing is saved if any hand is
    refused, and a game changed by someone else since the page was opened is
    not overwritten.
    """

    def records(self) -> list[dict[str, Any]]:
        kept = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or data.get("record") in (None, ""):
                continue
            kept.append((form.instance.index if form.instance.pk else 10**9, data["record"]))
        return [record for _index, record in sorted(kept, key=lambda pair: pair[0])]

    def clean(self) -> None:
        super().clean()
        if any(self.errors) or self.instance.pk is None:
            return
        bad = [r for r in self.records() if not isinstance(r, dict)]
        if bad:
            raise ValidationError("each hand is a JSON object (a score-sheet hand record)")
        try:
            replay(self.instance, self.records())
        except InvalidInput as exc:
            raise ValidationError([str(p) for p in exc.problems]) from None


class HandInline(admin.TabularInline[Hand, Game]):
    model = Hand
    formset = HandFormSet
    extra = 1
    fields = ("index", "record", "entered_by", "entered_at")
    readonly_fields = ("index", "entered_by", "entered_at")
    ordering = ("index",)


class GameForm(ModelForm[Game]):
    seen_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Game
        fields = ("event", "table", "played_on", "ended_by_time", "start")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["seen_version"].initial = self.instance.version
            for name in ("event", "table"):
                self.fields[name].disabled = True  # the players sit at this table in this event's rules

    def clean_seen_version(self) -> int | None:
        seen: int | None = self.cleaned_data.get("seen_version")
        if self.instance.pk and seen is not None:
            current = Game.objects.filter(pk=self.instance.pk).values_list("version", flat=True).first()
            if current != seen:
                raise ValidationError(f"someone changed this game since you opened it (now version {current}); "
                                      "reload the page and make your change again")
        return seen


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    form = GameForm
    list_display = ("id", "event", "table", "status", "version", "played_on", "updated_at")
    list_filter = ("event", "status")
    readonly_fields = ("version", "status", "result")
    inlines = (GamePlayerInline, HandInline)

    def get_inlines(self, request: HttpRequest, obj: Game | None) -> list[type[InlineModelAdmin[Any, Any]]]:
        # A new game gets its players first (games are created through the API or seating).
        return list(self.inlines) if obj is not None else []

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        """Nothing here: the clock and start are saved with the hands below, as one replayed write."""

    def construct_change_message(self, request: HttpRequest, form: Any, formsets: Any,
                                 add: bool = False) -> list[dict[str, Any]]:
        # The formsets are not saved row by row (the sheet write below is); the history is in HandChange.
        return super().construct_change_message(request, form, [], add)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if not isinstance(formset, HandFormSet):
            return
        data = form.cleaned_data
        try:
            put_sheet(game_id=form.instance.pk, hands=formset.records(), user=request.user,
                      version=data.get("seen_version"), start=data["start"], ended_by_time=data["ended_by_time"])
        except (InvalidInput, VersionConflict) as exc:  # checked in clean(); only a race gets here
            self.message_user(request, f"Not saved: {exc}", messages.ERROR)
        else:
            # The date is not part of the replay; it changes only with the write that succeeded.
            Game.objects.filter(pk=form.instance.pk).update(played_on=data["played_on"])


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
