"""Load a demo event: eight players, two rounds of two tables played out hand by hand, a third round seated;
and a demo cup in two stages: two qualifying rounds played, the cut to a final of the top four confirmed
(half their points carried) and the final table seated by rank.

Idempotent: an existing demo event is left as it is. The hands go through
the same service as a referee's entries, so the demo shows real replays,
history and standings. Prints where to look.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand

from rules.errors import Refusal
from scoring.services.games import game_create, round_seat
from scoring.services.hands import game_record_hand
from scoring.services.stages import cut_confirm, stage_add
from scoring.services.standings import standings_batch, standings_recompute
from scoring.services.table_codes import round_codes_issue, table_code
from scoring.sheet.record import HandRecord
from tournament.models import Event, Game, Player, Round, Table
from tournament.services.events import round_add
from tournament.services.invites import invite_renew
from tournament.services.roster import registration_add
from tournament.services.seating import Method

SLUG = "demo-open"
CUP = "demo-cup"
NAMES = ("Aiko", "Bram", "Chen", "Dana", "Emil", "Fumi", "Gus", "Hana")
# Round 1 and round 2 tables (indexes into NAMES, East first): nobody meets twice. Round 3 waits for its hands.
ROUNDS = (((0, 1, 2, 3), (4, 5, 6, 7)), ((5, 0, 7, 2), (1, 4, 3, 6)))
ROUND_3 = ((2, 4, 1, 7), (6, 3, 5, 0))
VALUES = ((1, 30), (2, 30), (3, 30), (2, 40), (3, 40), (4, 30), (1, 40), (5, None), (6, None))


class Command(BaseCommand):
    help = "Create the demo event (idempotent) and print the URLs to look at."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")

    def handle(self, *args: Any, **options: Any) -> None:
        base = options["base_url"].rstrip("/")
        user = User.objects.filter(username="demo").first()
        if user is None:
            user = User.objects.create_superuser("demo", "demo@example.org", "demo")
        event = Event.objects.filter(slug=SLUG).first()
        if event is None:
            event = self._build(user)
        if not Event.objects.filter(slug=CUP).exists():
            self._cup(user, list(Player.objects.filter(registrations__event=event).order_by("pk")))
        waiting = event.games.filter(status="playing").select_related("table").order_by("pk").first()
        self.stdout.write(
            f"Demo event {event.name!r} ({event.games.count()} games)\n"
            f"  standings:  {base}/events/{SLUG}/standings/\n"
            f"  event:      {base}/events/{SLUG}/\n"
            f"  console:    {base}/events/{SLUG}/manage/  (login demo / demo: players, rounds, "
            "settings)\n"
            + (self._round_lines(base, event, waiting) if waiting else "")
            + f"  in stages:  {base}/events/{CUP}/standings/  (console: {base}/events/{CUP}/manage/)\n"
            f"  API docs:   {base}/api/docs/  (standings: {base}/api/v1/events/{SLUG}/standings/)\n"
            f"  admin:      {base}/admin/  (login demo / demo)\n"
        )

    @staticmethod
    def _round_lines(base: str, event: Event, waiting: Game) -> str:
        """The round waiting for its hands: its page, a table's code for its players, the referees' link."""
        table = waiting.table
        assert table is not None, "the demo's games are seated at tables"
        round_codes_issue(round_=table.round)
        table.refresh_from_db()
        if not event.referee_invite:
            invite_renew(event=event, role="referee")
        return (
            f"  round {table.round.number}:    {base}/events/{SLUG}/manage/rounds/{table.round.number}/  "
            "(table codes, cards to print, the clock)\n"
            f"  enter hands: {base}/games/{waiting.pk}/entry/  (login demo / demo)\n"
            f"  table code: {base}/games/{waiting.pk}/code/  (table {table.number}'s players, no account: "
            f"{table_code(table)})\n"
            f"  referees:   {base}/events/{SLUG}/referee/{event.referee_invite}/  (signed in, one tap joins)\n"
        )

    def _build(self, user: User) -> Event:
        event = Event.objects.create(
            name="Demo Open", slug=SLUG, ruleset_key="wrc-2025", public=True, status=Event.Status.RUNNING
        )
        event.organisers.add(user)
        players = [Player.objects.create(name=name) for name in NAMES]
        with standings_batch():  # one recompute for the eight
            for player in players:
                registration_add(event=event, player=player)
        rng = random.Random(2026)
        for number, tables in enumerate(ROUNDS, start=1):
            round_ = Round.objects.create(event=event, number=number)
            for t, seats in enumerate(tables, start=1):
                table = Table.objects.create(round=round_, number=t)
                game = game_create(event=event, player_ids=[players[i].pk for i in seats], table=table)
                self._play(game.pk, [players[i].pk for i in seats], rng, user)
        round_3 = Round.objects.create(event=event, number=3)
        for t, seats in enumerate(ROUND_3, start=1):
            table = Table.objects.create(round=round_3, number=t)
            game_create(event=event, player_ids=[players[i].pk for i in seats], table=table)
        standings_recompute(event)
        return event

    def _cup(self, user: User, players: list[Player]) -> None:
        cup = Event.objects.create(
            name="Demo Cup", slug=CUP, ruleset_key="wrc-2025", public=True, status=Event.Status.RUNNING
        )
        cup.organisers.add(user)
        with standings_batch():
            for player in players:
                registration_add(event=cup, player=player)
        rng = random.Random(2027)
        for number in (1, 2):
            round_add(event=cup)
            for game in round_seat(event=cup, number=number, method=Method.RANDOM, seed=number):
                self._play(
                    game.pk, list(game.seats.order_by("position").values_list("player_id", flat=True)), rng, user
                )
        final = stage_add(
            event=cup, data={"name": "Final", "entry_top": 4, "carry": "half", "seating": "rank"}, user=user
        )
        cut_confirm(stage=final, through=None, user=user)
        round_add(event=cup, stage=2)
        round_seat(event=cup, number=3, method=Method.RANK)
        standings_recompute(cup)

    def _play(self, game_id: int, ids: list[int], rng: random.Random, user: User) -> None:
        """Random but valid hands until the game ends (an invalid draw of the dice is simply redrawn)."""
        for _ in range(40):
            record = self._hand(ids, rng)
            try:
                game = game_record_hand(game_id=game_id, record=record, user=user, version=None)
            except Refusal:
                continue
            if game.status == game.Status.FINISHED:
                return

    @staticmethod
    def _hand(ids: list[int], rng: random.Random) -> HandRecord:
        kind = rng.choices(("ron", "tsumo", "draw"), (50, 30, 20))[0]
        riichi = [p for p in ids if rng.random() < 0.2]
        if kind == "draw":
            return {
                "result": "draw",
                "tenpai": sorted(set(riichi) | {p for p in ids if rng.random() < 0.4}),
                "riichi": riichi,
            }
        winner = rng.choice(ids)
        han, fu = rng.choice(VALUES)
        record: HandRecord = {"result": kind, "winner": winner, "han": han, "riichi": riichi}
        if fu is not None:
            record["fu"] = fu
        if kind == "ron":
            record["loser"] = rng.choice([p for p in ids if p != winner])
        return record
