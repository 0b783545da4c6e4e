"""An event in stages driven through the API exactly as a client does it (tests/api/test_stage_formats.py):
stages added, cuts previewed and confirmed, rounds added to a stage and seated, games written by their end
scores (a sheet resumed at those scores and ended by the clock), standings read per stage.

The standings are recomputed after the transaction commits, which a test's transaction never does: ``standings``
recomputes them first, as the on-commit job would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scoring.services.standings import standings_recompute
from tests.conftest import client_for, rows
from tests.factories import EventFactory, registered
from tournament.models import Event

WINDS = ("East", "South", "West", "North")


@dataclass
class Flow:
    """One event and its organiser's client; players by name."""

    event: Event
    api: APIClient
    ids: dict[str, int]
    names: dict[int, str] = field(default_factory=dict)

    @classmethod
    def start(cls, organiser: User, names: list[str], **event: Any) -> Flow:
        created = EventFactory.create(organisers=[organiser], **event)
        players = registered(created, *names)
        return cls(created, client_for(organiser), {p.name: p.pk for p in players}, {p.pk: p.name for p in players})

    @property
    def slug(self) -> str:
        return self.event.slug

    def named(self, ids: list[int]) -> list[str]:
        return [self.names[i] for i in ids]

    # --- stages and cuts -------------------------------------------------------------------------------------

    def add_stage(self, **body: Any) -> int:
        answer = self.api.post(f"/api/v1/events/{self.slug}/stages/", body, format="json")
        assert answer.status_code == 201, answer.json()
        number: int = answer.json()["number"]
        return number

    def cut(self, number: int) -> dict[str, Any]:
        """The preview of the cut into stage ``number``: through and tied by name, each player's carry."""
        answer = self.api.get(f"/api/v1/events/{self.slug}/stages/{number}/cut")
        assert answer.status_code == 200, answer.json()
        return self._cut_by_name(answer.json())

    def confirm(self, number: int, through: list[str] | None = None) -> dict[str, Any]:
        body = {} if through is None else {"through": [self.ids[n] for n in through]}
        answer = self.api.post(f"/api/v1/events/{self.slug}/stages/{number}/cut", body, format="json")
        assert answer.status_code == 201, answer.json()
        return self._cut_by_name(answer.json())

    def _cut_by_name(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            **body,
            "through": self.named(body["through"]),
            "tied_at_line": self.named(body["tied_at_line"]),
            "carried": {p["name"]: p["carried"] for p in body["players"]},
            "carried_table_points": {p["name"]: p["carried_table_points"] for p in body["players"]},
        }

    # --- rounds, seating, games ------------------------------------------------------------------------------

    def add_round(self, stage: int) -> int:
        answer = self.api.post(f"/api/v1/events/{self.slug}/rounds/", {"stage": stage}, format="json")
        assert answer.status_code == 201, answer.json()
        assert answer.json()["stage"] == stage
        number: int = answer.json()["number"]
        return number

    def seat(self, round_number: int, method: str = "rank", seed: int | None = None) -> list[dict[str, Any]]:
        """Seat the round; its tables as {"game": id, "seats": [(wind, name), ...]}, East first."""
        answer = self.api.post(
            f"/api/v1/events/{self.slug}/rounds/{round_number}/seating", {"method": method, "seed": seed}, format="json"
        )
        assert answer.status_code == 201, answer.json()
        return [
            {"game": t["game"], "seats": [(s["wind"], s["player"]["name"]) for s in t["seats"]]}
            for t in answer.json()["tables"]
        ]

    def schedule(self, tables: list[tuple[int, int, list[str]]]) -> dict[int, list[dict[str, Any]]]:
        """Seat rounds from a predefined schedule, (round, table, players East first); each round's tables."""
        answer = self.schedule_csv(tables)
        assert answer.status_code == 201, answer.json()
        return {
            r["round"]: [
                {"game": t["game"], "seats": [(s["wind"], s["player"]["name"]) for s in t["seats"]]}
                for t in r["tables"]
            ]
            for r in answer.json()
        }

    def schedule_csv(self, tables: list[tuple[int, int, list[str]]]) -> Any:
        lines = ["round,table,east,south,west,north"]
        lines += [",".join(map(str, [r, t, *(self.ids[n] for n in seats)])) for r, t, seats in tables]
        answer = self.api.post(f"/api/v1/events/{self.slug}/schedule", {"csv": "\n".join(lines)}, format="json")
        return answer

    def league_game(self, seats: list[str], scores: list[int]) -> int:
        """A game outside any round (a league's), recorded by its end scores in seat order."""
        answer = self.api.post(
            "/api/v1/games/", {"event": self.slug, "players": [self.ids[n] for n in seats]}, format="json"
        )
        assert answer.status_code == 201, answer.json()
        game: int = answer.json()["id"]
        assert self.write(game, scores).status_code == 200
        return game

    def write(self, game: int, scores: list[int], *, api: APIClient | None = None, query: str = "") -> Any:
        """The game's end scores in seat order, written as a sheet (resumed at them, ended by the clock)."""
        api = api or self.api
        version = api.get(f"/api/v1/games/{game}/").json()["version"]
        answer = api.put(
            f"/api/v1/games/{game}/sheet{query}",
            {"start": {"scores": scores}, "end": "time", "hands": []},
            format="json",
            HTTP_IF_MATCH=f'"{version}"',
        )
        return answer

    def play(self, tables: list[dict[str, Any]], scores: list[list[int]]) -> None:
        for table, table_scores in zip(tables, scores, strict=True):
            answer = self.write(table["game"], table_scores)
            assert answer.status_code == 200, answer.json()

    # --- standings -------------------------------------------------------------------------------------------

    def standings(self, stage: int | None = None) -> list[dict[str, Any]]:
        """Rows as (rank, name, carried, points, stage) after the recompute the commit would have run."""
        standings_recompute(self.event)
        query = "" if stage is None else f"?stage={stage}"
        return rows(self.api.get(f"/api/v1/events/{self.slug}/standings/{query}"))

    def table(self, stage: int | None = None) -> list[tuple[Any, ...]]:
        return [(r["rank"], r["player"]["name"], r["carried"], r["points"], r["stage"]) for r in self.standings(stage)]
