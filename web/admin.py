"""The Django admin: every model of the event's structure and of its games, in one place.

The admin is a user interface like the pages, so it sits above both apps and
calls their services: hands are edited inline under their game through the
same replayed, versioned write as the API; rounds are seated and standings
recomputed by actions that call the services.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import BaseInlineFormSet, ModelForm
from django.http import HttpRequest

from rules.errors import Refusal
from scoring.models import Hand, HandChange, Penalty, Standing
from scoring.services import penalties
from scoring.services.games import round_seat, seating_warnings
from scoring.services.hands import game_put_sheet as put_sheet
from scoring.services.replay import replay
from scoring.services.standings import standings_batch, standings_recompute
from scoring.sheet.record import HandRecord
from tournament.models import Event, Game, Player, Registration, Round, Seat, Table, Team
from tournament.services.seating import Method
from web import refusals

# New rows of the inline hands go after every stored one, whatever indices those have.
_AFTER_EVERY_HAND = 10**9


class RegistrationInline(admin.TabularInline[Registration, Event]):
    model = Registration
    extra = 0
    autocomplete_fields = ("player",)
    # A code is reissued from the console or the API, which record who did it: not typed over here.
    readonly_fields = ("code_version", "code_reissued_at", "code_reissued_by")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("name", "federation_id", "country", "club", "online_name")
    search_fields = ("name", "federation_id", "club", "online_name")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ("name", "kind", "status", "ruleset_key", "public", "starts_on")
    list_filter = ("kind", "status", "public", "ruleset_key")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}  # noqa: RUF012 - Django's own class attribute
    filter_horizontal = ("organisers", "referees")
    inlines = (RegistrationInline,)
    actions = ("publish", "recompute_standings")

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # Every registration the inline saves or deletes asks for a recompute: one for the whole form.
        with standings_batch():
            super().save_related(request, form, formsets, change)

    @admin.action(description="Publish (make public)")
    def publish(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        count = queryset.update(public=True)
        self.message_user(request, f"{count} event(s) published.", messages.SUCCESS)

    @admin.action(description="Recompute the standings")
    def recompute_standings(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        for event in queryset:
            standings_recompute(event)
        self.message_user(request, f"Standings recomputed for {queryset.count()} event(s).", messages.SUCCESS)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ("event", "number", "starts_at", "time_limit_minutes")
    list_filter = ("event",)
    actions = ("seat_random", "seat_swiss")

    @admin.action(description="Seat these rounds at random (no repeated pairs where avoidable)")
    def seat_random(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._seat(request, queryset, Method.RANDOM)

    @admin.action(description="Seat these rounds swiss, by the current standings")
    def seat_swiss(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._seat(request, queryset, Method.SWISS)

    def _seat(self, request: HttpRequest, queryset: QuerySet[Round], method: Method) -> None:
        for round_ in queryset.select_related("event").order_by("number"):
            for warning in seating_warnings(event=round_.event, number=round_.number, method=method):
                self.message_user(request, f"{round_}: {warning.message}", messages.WARNING)
            try:
                games = round_seat(event=round_.event, number=round_.number, method=method)
            except Refusal as exc:
                self.message_user(request, f"{round_}: " + "; ".join(refusals.texts(exc, paths=True)), messages.ERROR)
            else:
                self.message_user(request, f"{round_}: {len(games)} tables seated.", messages.SUCCESS)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("round", "number")
    list_filter = ("round__event",)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    list_display = ("name", "event")


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    readonly_fields = ("player", "position", "substitute")
    can_delete = False


class HandFormSet(BaseInlineFormSet[Hand, Game, ModelForm[Hand]]):
    """Hands edited in the admin as score-sheet records (players by id), checked by replaying the game.

    Saving goes through scoring.services.hands like any other write: the game is
    replayed, the history keeps the change, nothing is saved if any hand is
    refused, and a game changed by someone else since the page was opened is
    not overwritten.
    """

    def records(self) -> list[HandRecord]:
        kept = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or data.get("record") in (None, ""):
                continue
            kept.append((form.instance.index if form.instance.pk else _AFTER_EVERY_HAND, data["record"]))
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
        except Refusal as exc:
            raise ValidationError(refusals.texts(exc, paths=True)) from None


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
                raise ValidationError(
                    f"someone changed this game since you opened it (now version {current}); "
                    "reload the page and make your change again"
                )
        return seen


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    form = GameForm
    list_display = (
        "id",
        "event",
        "table",
        "status",
        "platform",
        "log_id",
        "log_check",
        "version",
        "played_on",
        "updated_at",
    )
    list_filter = ("event", "status", "platform", "log_check")
    search_fields = ("log_id",)
    readonly_fields = (
        "version",
        "status",
        "confirmed_by",
        "result",
        "ruleset_key",
        "ruleset_overrides",
        "platform",
        "log_id",
        "log_check",
        "log_differences",
    )
    inlines = (SeatInline, HandInline)

    @admin.display(description="players' word")
    def confirmed_by(self, obj: Game) -> str:
        """Given on the confirmation page with the players' codes, never here."""
        words = obj.confirmations.select_related("player").order_by("at")
        return (
            "; ".join(
                f"{w.player.name}: {w.get_verdict_display()}" + (f" ({w.reason})" if w.reason else "") for w in words
            )
            or "—"
        )

    def get_inlines(self, request: HttpRequest, obj: Game | None) -> list[type[InlineModelAdmin[Any, Any]]]:
        # A new game gets its players first (games are created through the API or seating).
        return list(self.inlines) if obj is not None else []

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        """Nothing here: the clock and start are saved with the hands below, as one replayed write."""

    def construct_change_message(
        self, request: HttpRequest, form: Any, formsets: Any, add: bool = False
    ) -> list[dict[str, Any]]:
        # The formsets are not saved row by row (the sheet write below is); the history is in HandChange.
        return super().construct_change_message(request, form, [], add)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if not isinstance(formset, HandFormSet):
            return
        data = form.cleaned_data
        try:
            put_sheet(
                game_id=form.instance.pk,
                hands=formset.records(),
                user=request.user,
                version=data.get("seen_version"),
                start=data["start"],
                ended_by_time=data["ended_by_time"],
            )
        except Refusal as exc:  # checked in clean(); only a race (a VersionConflict, its text its own) gets here
            self.message_user(
                request, f"Not saved: {'; '.join(refusals.texts(exc, paths=True)) or exc}", messages.ERROR
            )
        else:
            # The date is not part of the replay; it changes only with the write that succeeded.
            Game.objects.filter(pk=form.instance.pk).update(played_on=data["played_on"])


@admin.register(HandChange)
class HandChangeAdmin(admin.ModelAdmin[HandChange]):
    # The author is what the seal covers; the account it links to is shown beside it.
    list_display = ("game", "index", "action", "author", "at", "version", "key")
    list_filter = ("action",)
    readonly_fields = (
        "game",
        "index",
        "action",
        "before",
        "after",
        "author",
        "user",
        "at",
        "version",
        "previous",
        "key",
        "hash",
    )


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin[Penalty]):
    """Penalties are sealed into a history (scoring.services.penalties): a game's is replayed into its result at
    once. Where one stands (its event, its game) is fixed once it is given."""

    list_display = ("event", "player", "game", "points", "reason", "created_at")
    list_filter = ("event",)

    def get_readonly_fields(self, request: HttpRequest, obj: Penalty | None = None) -> tuple[str, ...]:
        return ("event", "game") if obj is not None else ()

    def save_model(self, request: HttpRequest, obj: Penalty, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user if request.user.is_authenticated else None
        penalties.penalty_save(penalty=obj, user=request.user)

    def delete_model(self, request: HttpRequest, obj: Penalty) -> None:
        penalties.penalty_delete(penalty=obj, user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Penalty]) -> None:
        for penalty in queryset:
            penalties.penalty_delete(penalty=penalty, user=request.user)


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin[Standing]):
    list_display = ("event", "rank", "player", "points", "games", "average_rank")
    list_filter = ("event",)
