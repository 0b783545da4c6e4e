"""QR codes are drawn once per text and kept in the shared cache: a round's print page opened again draws none."""

from __future__ import annotations

from typing import Any

import pytest
import segno
from django.test import Client

from web import presenters

pytestmark = pytest.mark.django_db
DRAW = segno.make_qr  # segno's own, before the fixture counts its calls


def svg(data: str) -> str:
    return str(DRAW(data, error="m").svg_inline(omitsize=True, svgclass="qr", border=2))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts segno is asked to draw, in order."""
    texts: list[str] = []

    def counting(data: str, **options: Any) -> Any:
        texts.append(data)
        return DRAW(data, **options)

    monkeypatch.setattr(segno, "make_qr", counting)
    return texts


def test_a_code_is_drawn_once_and_then_read_from_the_cache(drawn: list[str]):
    url = "https://club.example/games/7/entry/"
    first = presenters.qr_svg(url)
    assert presenters.qr_svg(url) == first
    assert first == svg(url)
    assert drawn == [url]
    assert presenters.qr_svgs([url, "https://club.example/games/8/entry/"]).keys() == {url, drawn[-1]}
    assert drawn == [url, "https://club.example/games/8/entry/"]  # only the new one


@pytest.mark.usefixtures("game")
def test_the_print_page_draws_each_tables_code_once(drawn: list[str]):
    pages = [Client().get("/events/spring/rounds/1/print/").content.decode() for _ in range(2)]
    assert pages[0] == pages[1]
    assert len(drawn) == 1
    assert drawn[0].endswith("/entry/")
    assert svg(drawn[0]) in pages[0]
