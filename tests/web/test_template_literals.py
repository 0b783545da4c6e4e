"""No template compares against the value of a model's choice (``game.status == "finished"``): the templates ask
the model or the presenter for a boolean or a label (``game.is_finished``, ``event.has_teams``,
``s.state_class``), so a renamed or added choice is handled in Python, where mypy and the tests see it, rather
than silently missed in the markup."""

from __future__ import annotations

import re
from pathlib import Path

from django.apps import apps
from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
TAG = re.compile(r"\{%.*?%\}")
# A quoted string on either side of == or !=.
COMPARED = re.compile(r"""(?:==|!=)\s*(["'])(.*?)\1|(["'])(.*?)\3\s*(?:==|!=)""")


def choice_values() -> set[str]:
    """Every value of every model field's choices (the empty one, "none chosen", apart)."""
    values: set[str] = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            values |= {str(value) for value, _label in getattr(field, "flatchoices", None) or () if value != ""}
    return values


def compared_literals(text: str) -> list[str]:
    """The string literals that a template tag of ``text`` compares something with."""
    return [m.group(2) if m.group(1) else m.group(4) for tag in TAG.findall(text) for m in COMPARED.finditer(tag)]


def test_the_check_reads_comparisons_in_template_tags_only():
    assert compared_literals('{% if game.status == "finished" %}x{% endif %}') == ["finished"]
    assert compared_literals("{% elif 'teams' != event.entrants %}") == ["teams"]
    assert compared_literals('<p>"finished" == "finished"</p>{{ x }}') == []
    assert compared_literals("{% if game.is_finished %}") == []


def test_no_template_compares_with_a_choice_of_a_model():
    values = choice_values()
    assert {"finished", "draft", "teams", "differs", "disputed", "tenhou"} <= values  # the models were read
    found = [
        f"{path.relative_to(TEMPLATES)}: {literal!r}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for literal in compared_literals(path.read_text(encoding="utf-8"))
        if literal in values
    ]
    assert found == []
