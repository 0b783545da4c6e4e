"""Requests that fuzzing answered with a 5xx (issue 25), one per row: each is now a 4xx (or a redirect), shows no
traceback, and writes nothing. A row is the smallest request of what the fuzzer sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import EventFactory, RoundFactory, TableFactory, played, registered
from tests.written import snapshot
from tournament.models import Event

pytestmark = pytest.mark.django_db
ANONYMOUS, SIGNED_IN, ORGANISER = "anonymous", "signed in", "organiser"
LOG = (
    Path(__file__).parents[1] / "fixtures" / "online" / "tenhou" / "mjx-2010081709gm-00a9-0000-fe3371ad.xml"
).read_bytes()
IMPORT = "/api/v1/events/{slug}/games/import"


@pytest.fixture
def world(organiser: User) -> dict[str, Any]:
    event = EventFactory.create(slug="fuzz", organisers=[organiser], referees=[organiser], status=Event.Status.DRAFT)
    players = registered(event, "Ann", "Bo", "Cy", "Di")
    round_ = RoundFactory.create(event=event, number=1)
    table = TableFactory.create(round=round_, number=1, code_salt="0123456789abcdef")
    game = played(event, players, [{"result": "draw", "tenpai": []}], table=table)
    return {"game": game.pk, "slug": event.slug}


ROWS: list[tuple[str, str, str, str, Any]] = [
    # who, method, path, what the row is, the form (a dict) or None
    (
        ANONYMOUS,
        "POST",
        "/games/{game}/code/",
        "a table code typed on a Korean keyboard",
        {"code": "ㅁㅁㅁㅁㅁ-ㅁㅁㅁㅁㅁ"},
    ),
    (ANONYMOUS, "GET", "/language/?next=x", "a next that is a bare word", None),
    (ANONYMOUS, "GET", "/language/?next=%00&language=ko", "a NUL in next", None),
    (ANONYMOUS, "GET", "/api/v1/events/%00/", "a NUL as the slug", None),
    (ANONYMOUS, "GET", "/api/v1/events/%00/standings/", "a NUL as the slug of a nested path", None),
    (ANONYMOUS, "POST", "/accounts/login/", "a username over 255 characters", {"username": "u" * 300, "password": "x"}),
    (
        ANONYMOUS,
        "POST",
        "/admin/login/",
        "a username over 255 characters at the admin's login",
        {"username": "u" * 300, "password": "x"},
    ),
    (SIGNED_IN, "OPTIONS", "/api/v1/games/{game}/hands/", "OPTIONS on the hands", None),
    (SIGNED_IN, "OPTIONS", "/api/v1/games/{game}/sheet", "OPTIONS on the sheet", None),
    (SIGNED_IN, "OPTIONS", "/api/v1/games/{game}/hands/0/", "OPTIONS on a hand", None),
    (ORGANISER, "POST", "/events/{slug}/manage/rounds/1/end/", "a superscript digit as the game", {"game": "²"}),
    (ORGANISER, "POST", "/events/{slug}/manage/rounds/1/codes/", "a superscript digit as the table", {"table": "²"}),
    (ORGANISER, "POST", "/events/{slug}/manage/rounds/1/end/", "a game id past any column", {"game": "9" * 30}),
    (ORGANISER, "POST", "/events/{slug}/manage/rounds/1/codes/", "a table past any column", {"table": "9" * 30}),
    (
        ORGANISER,
        "POST",
        "/events/{slug}/manage/players/",
        "a roster field over 128 KB",
        {"text": "Ann, " + "x" * (130 * 1024)},
    ),
    (
        ORGANISER,
        "POST",
        "/events/{slug}/manage/players/",
        "a roster field over 128 KB, registered",
        {"text": "Ann, " + "x" * (130 * 1024), "action": "register"},
    ),
    (
        ORGANISER,
        "POST",
        "/events/{slug}/manage/players/",
        "a NUL in an uploaded roster",
        {"file": b"Ann\x00Lee\nBo Kim\n", "action": "register"},
    ),
    (
        ORGANISER,
        "POST",
        "/events/{slug}/manage/players/",
        "a NUL in a pasted roster",
        {"text": "Ann\x00Lee\n", "action": "register"},
    ),
    (
        ORGANISER,
        "POST",
        "/events/{slug}/manage/settings/",
        "a rule's number written 1e40000000",
        {
            "name": "Fuzz",
            "kind": "tournament",
            "ranking": "total",
            "team_ranking": "none",
            "rule-uma_1": "1e40000000",
            "rule-start_points": "1e40000000",
            "rule-riichi_deposit": "9" * 5000,
        },
    ),
    # A log is the body itself (raw bytes): refused at once, before any arithmetic on its numbers.
    (
        ORGANISER,
        "POST",
        IMPORT,
        "a log whose end points read 1e40000000",
        LOG.replace(b'owari="201,-20.0,', b'owari="201,1e40000000,'),
    ),
    (ORGANISER, "POST", IMPORT, "a log of deep JSON", b'{"log": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    (ORGANISER, "POST", IMPORT, "a log with a 5,000-digit integer", b'{"log": [[' + b"9" * 5000 + b"]]}"),
    (ORGANISER, "POST", IMPORT, "a log declaring Shift_JIS", b'<?xml version="1.0" encoding="Shift_JIS"?><mjloggm/>'),
]


@pytest.mark.parametrize(("who", "method", "path", "what", "form"), ROWS, ids=[row[3] for row in ROWS])
def test_a_request_that_once_answered_5xx_is_refused_and_writes_nothing(
    world: dict[str, Any], organiser: User, who: str, method: str, path: str, what: str, form: Any
):
    client = Client(raise_request_exception=False)
    if who == SIGNED_IN:
        client.force_login(User.objects.create_user("stranger"))
    elif who == ORGANISER:
        client.force_login(organiser)
    if isinstance(form, dict):
        form = {k: SimpleUploadedFile("roster.csv", v) if isinstance(v, bytes) else v for k, v in form.items()}
    before = snapshot()
    if isinstance(form, bytes):
        response = client.post(path.format(**world), form, content_type="application/octet-stream")
    elif method == "POST":
        response = client.post(path.format(**world), form or {})
    else:
        response = client.generic(method, path.format(**world))
    assert response.status_code < 500, what
    if path == IMPORT:
        assert response.status_code == 400, what  # refused, naming where: not imported, not differing
    assert b"Traceback" not in response.content
    if response.status_code >= 400 or method != "POST":
        assert snapshot() == before, what


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/events/{slug}/players/{huge}/code",
        "/events/{slug}/manage/players/{huge}/",
        "/events/{slug}/manage/players/{huge}/withdraw/",
    ],
)
def test_a_player_number_past_a_bigint_is_not_found(path: str):
    """A foreign key's lookup takes no number past a bigint (SQLite: OverflowError): found by the API fuzz."""
    from tests.conftest import client_for

    organiser = User.objects.create_user("huge-org")
    event = EventFactory.create(organisers=[organiser])
    client = client_for(organiser) if path.startswith("/api/") else Client()
    client.force_login(organiser)
    url = path.format(slug=event.slug, huge=10**22)
    assert client.post(url).status_code == 404
