"""Fuzzing the API from its own OpenAPI schema (schemathesis, in process against the WSGI application).

Every operation gets bodies, query strings and headers generated from the
schema (fitting it, and deliberately not fitting it), as the event's
organiser, against an event with players, rounds and a game with hands, so
that the writes really write. A bounded, derandomised run (the same requests
on every machine): no answer may be a 5xx or show a traceback, and a refused
request (4xx) must leave the database as it was. Each request runs in a
savepoint rolled back afterwards, so every one meets the same data.

The run is cut in two halves (every other operation), each in a test module of its own
(tests/api/test_fuzz.py and tests/api/test_fuzz_second_half.py), so that ``make test``'s workers, which take a
module each, run them side by side. The fixtures are in tests/api/conftest.py.
"""

from __future__ import annotations

import contextlib
import copy
import json
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.core.result import Ok

from tests.written import snapshot

Operation = schemathesis.APIOperation[Any, Any, Any, Any]
Case = schemathesis.Case[Any]

# Requests per operation and way of generating: 51 operations x 3 ways x 25, less what a way cannot vary, and
# MUTATIONS for each of the 12 writes that has a valid body: about 3,700 requests, in two halves (below).
EXAMPLES = 25
MUTATIONS = 40
MINIMUM_REQUESTS = 2_000
WRITES = ("POST", "PUT", "PATCH", "DELETE")


@dataclass
class Run:
    """What the fuzzing saw."""

    requests: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    written: dict[str, int] = field(default_factory=dict)  # successful writes per operation
    failures: list[str] = field(default_factory=list)


def operations() -> list[Operation]:
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    document = json.loads(OpenApiJsonRenderer().render(schema))
    loaded = schemathesis.openapi.from_dict(document)
    found = [result.ok() for result in loaded.get_all_operations() if isinstance(result, Ok)]
    assert len(found) > 20  # every operation of the schema loads
    return found


def exercise(
    operation: Operation, strategy: st.SearchStrategy[Case], app: WSGIHandler, run: Run, examples: int = EXAMPLES
) -> None:
    """Send ``examples`` generated requests of one operation and note what each answered."""

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def send(case: Case) -> None:
        with transaction.atomic():
            before = snapshot()
            response = case.call(app=app)
            after = snapshot()
            transaction.set_rollback(True)
        run.requests += 1
        code = response.status_code
        run.statuses[code] = run.statuses.get(code, 0) + 1
        text = response.content.decode("utf-8", "replace") if response.content else ""
        request = f"{case.method} {case.formatted_path} query={case.query} body={str(case.body)[:300]}"
        if code >= 500 or "Traceback" in text:
            run.failures.append(f"{code} for {request}: {text[:300]}")
        elif code >= 400 and before != after:
            run.failures.append(f"{code} but the database changed ({before} -> {after}) for {request}")
        elif code < 300 and case.method in WRITES:
            run.written[operation.label] = run.written.get(operation.label, 0) + 1

    with contextlib.suppress(Unsatisfiable):  # nothing of this operation can break its schema (its path fixed)
        send()


# --- mutations of valid bodies ----------------------------------------------------------------------------------
# Generated bodies seldom make a hand the rules accept, so the write paths behind the checks are reached from
# valid bodies with one or two values replaced by the kind of value that broke them before.


def deep(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


NASTY: tuple[Any, ...] = (
    "\x00",
    "Ann\x00",
    "\ud800",
    "x\udfff",
    "\x1b[31m",
    "line\nbreak",
    "x" * 600,
    "",
    "١٢",
    "E²",
    10**20,
    -(10**20),
    2**63,
    2**31,
    10**7 + 1,
    -1,
    0,
    14,
    7,
    1001,
    1e308,
    -1e308,
    1e-300,
    0.5,
    float("nan"),
    float("inf"),
    True,
    None,
    [],
    {},
    [None],
    {"": 0},
    {"\ud800": 1},
    deep(25),
)


def seeds(data: dict[str, Any]) -> dict[str, list[Any]]:
    """A valid body for each write (operation label -> bodies), on the fixture's objects."""
    ids = data["ids"]
    ron = {"result": "ron", "winner": ids[0], "loser": ids[1], "han": 3, "fu": 40, "riichi": [ids[0]], "note": "ok"}
    tiles = {
        "result": "tsumo",
        "winner": ids[3],
        "tiles": {"concealed": "234m456m67s88p", "win": "8s", "melds": ["pon 777z"], "dora": "3m", "flags": ["haitei"]},
    }
    sheet = {
        "ruleset": "wrc-2025",
        "players": ids[:4],
        "start": {"round": "E2", "honba": 1, "deposits": 1, "scores": [31000, 29000, 30000, 29000]},
        "hands": [ron, {"result": "draw", "tenpai": [ids[1]], "riichi": [ids[2]]}],
        "end": "time",
    }
    csv = "round,table,east,south,west,north\n1,1,{},{},{},{}\n1,2,{},{},{},{}\n".format(*ids)
    return {
        "POST /api/v1/events/": [
            {
                "name": "New",
                "ruleset": "wrc-2025",
                "tiebreaks": ["score"],
                "overrides": {
                    "start_points": 25000,
                    "return_points": 30000,
                    "uma": [20, 10, -10, -20],
                    "chombo_penalty": -20,
                },
            }
        ],
        "PATCH /api/v1/events/{slug}/": [{"name": "Renamed", "min_games": 2, "tiebreaks": ["first_places"]}],
        "POST /api/v1/events/{slug}/players/": [{"name": "Ed", "club": "Lyon", "team": "Lyon", "substitute": True}],
        "POST /api/v1/events/{slug}/rounds/": [{"starts_at": "2025-05-01T10:00:00Z", "time_limit_minutes": 90}],
        "POST /api/v1/events/{slug}/rounds/{number}/seating": [{"method": "random", "seed": 7}],
        "POST /api/v1/events/{slug}/schedule": [{"csv": csv}],
        "POST /api/v1/games/": [{"event": "fuzz", "players": ids[4:], "substitutes": [], "played_on": "2025-05-01"}],
        "PATCH /api/v1/games/{game_id}/": [{"end": "time", "substitutes": [ids[0]]}],
        "POST /api/v1/games/{game_id}/hands/": [ron, tiles],
        "PUT /api/v1/games/{game_id}/hands/{index}/": [ron],
        "PATCH /api/v1/games/{game_id}/hands/{index}/": [{"han": 3, "fu": 30, "note": "corrected"}],
        "PUT /api/v1/games/{game_id}/sheet": [sheet, {"hands": [ron, tiles]}],
    }


def paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a body a value can be put: each value, each list item, and a new key in each object."""
    found = [at]
    if isinstance(value, dict):
        found.append((*at, "extra"))
        for key, item in value.items():
            found += paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*at, index))
    return found


def mutated(body: Any, changes: list[tuple[tuple[Any, ...], Any]]) -> Any:
    body = copy.deepcopy(body)
    for path, change in changes:
        value = copy.deepcopy(change)  # a fresh list or dict each time: never one put inside itself
        if not path:
            body = value
            continue
        holder = body
        for step in path[:-1]:
            # An earlier change may have replaced what this path goes through: then it reaches nothing.
            try:
                holder = holder[step] if isinstance(holder, (dict, list)) else None
            except (KeyError, IndexError, TypeError):
                holder = None
        if isinstance(holder, dict) or (isinstance(holder, list) and isinstance(path[-1], int)):
            holder[path[-1]] = value
    return body


def mutations(operation: Operation, bodies: list[Any], **fixed: Any) -> st.SearchStrategy[Case]:
    def case(body: Any, changes: list[tuple[tuple[Any, ...], Any]]) -> Case:
        # Sent as written here: escapes for lone surrogates, NaN and Infinity as Python's JSON writes them.
        raw = json.dumps(mutated(body, changes)).encode("ascii")
        return operation.Case(body=raw, media_type="application/json", **fixed)

    return st.sampled_from(bodies).flatmap(
        lambda body: st.builds(
            case,
            st.just(body),
            st.lists(st.tuples(st.sampled_from(paths(body)), st.sampled_from(NASTY)), min_size=1, max_size=2),
        )
    )


def fuzz(half: int, app: WSGIHandler, data: dict[str, Any]) -> Run:
    """Every other operation of the schema (``half`` 0 or 1), fuzzed in the three ways and, for a write with a
    valid body, by its mutations."""
    game, event = data["game"], data["event"]
    auth = {"Authorization": f"Token {data['token']}"}
    real = {"game_id": game.pk, "slug": event.slug, "index": 1, "number": 1, "key": "wrc-2025"}
    valid = seeds(data)
    run = Run()
    for operation in operations()[half::2]:
        known = {name: value for name, value in real.items() if name in operation.path_parameters}
        fixed = {**auth, "If-Match": f'"{game.version}"'}
        ways = [
            # Bodies that fit the schema, on the real objects: the writes get through to the services.
            operation.as_strategy(headers=fixed, path_parameters=known),
            # Bodies that do not fit it, on the real objects.
            operation.as_strategy(
                generation_mode=schemathesis.GenerationMode.NEGATIVE, headers=fixed, path_parameters=known
            ),
            # Everything generated but the credentials: ids, slugs and If-Match that may name nothing.
            operation.as_strategy(headers=auth),
        ]
        for strategy in ways:
            exercise(operation, strategy, app, run)
        if operation.label in valid:
            exercise(
                operation,
                mutations(operation, valid[operation.label], headers=fixed, path_parameters=known),
                app,
                run,
                MUTATIONS,
            )
    return run


def check(run: Run, writes: int) -> None:
    """No failure, the half's share of the requests, and successful writes of at least ``writes`` operations."""
    summary = f"{run.requests} requests, statuses {sorted(run.statuses.items())}, writes {run.written}"
    print(summary)  # the figures, for the run's log
    assert run.failures == [], summary + "\n" + "\n".join(run.failures[:20])
    assert run.requests >= MINIMUM_REQUESTS // 2, summary
    # The run reached the services: most writes succeeded at least once (the rest need ids it cannot guess).
    assert len(run.written) >= writes, summary
