"""The rules in an organiser's words: the New-event form's rule sets and the settings page's rules say what a rule
does, in each of the four languages, and never cite a spec (seed, section, docs/rules.md, SCORE_SHEET)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from rules.presets import preset_keys
from tests.factories import EventFactory
from tournament.models import Event
from web.console_forms import EventCreateForm
from web.preset_words import PRESET_WORDS
from web.rules_form import RulesForm

LANGUAGES = ("en", "ko", "ja", "zh-hans")
TRANSLATED = ("ko", "ja", "zh-hans")
SPEC_WORDS = ("seed", "§", "docs/rules.md", "SCORE_SHEET")


def preset_labels() -> dict[str, str]:
    field = EventCreateForm().fields["ruleset_key"]
    return {key: str(label) for key, label in field.choices}  # type: ignore[attr-defined]


def settings_words(key: str) -> dict[str, str]:
    """Every word the settings page's rules show for preset ``key``: each rule's help text and each option."""
    form = RulesForm(key=key, overrides={})
    words = {}
    for name, field in form.fields.items():
        if field.help_text:
            words[f"{name} help"] = str(field.help_text)
        for value, label in getattr(field, "choices", ()):
            words[f"{name}={value}"] = str(label)
    return words


def field_labels(key: str) -> dict[str, str]:
    return {name: str(field.label) for name, field in RulesForm(key=key, overrides={}).fields.items()}


def in_language(language: str, read: Any, *args: Any) -> dict[str, str]:
    with translation.override(language):
        words: dict[str, str] = read(*args)
    return words


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_rule_word_cites_a_spec(language: str):
    shown = dict(in_language(language, preset_labels))
    for key in ("wrc-2025", "mcr", "solo", "nine-player", "two-player"):  # the riichi, MCR and solo forms
        shown |= {f"{key}: {name}": words for name, words in in_language(language, settings_words, key).items()}
        shown |= {f"{key}: {name} label": words for name, words in in_language(language, field_labels, key).items()}
    cited = {name: words for name, words in shown.items() if any(spec in words for spec in SPEC_WORDS)}
    assert cited == {}


def test_every_rule_set_has_a_sentence_for_organisers():
    assert set(PRESET_WORDS) == set(preset_keys())
    labels = in_language("en", preset_labels)
    assert labels["wrc-2025"].startswith("WRC 2025, the World Riichi Championship rules: 30,000 points")
    assert [key for key, label in labels.items() if not label.endswith(".") or label.startswith(f"{key}:")] == []


def rule_words(language: str) -> dict[str, str]:
    """The rule sets' sentences and the riichi, MCR and solo settings' words, in ``language``."""
    words = in_language(language, preset_labels)
    for key in ("wrc-2025", "mcr", "solo"):
        words |= {f"{key}: {name}": said for name, said in in_language(language, settings_words, key).items()}
    return words


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_rule_word_is_translated(language: str):
    english, shown = rule_words("en"), rule_words(language)
    assert shown.keys() == english.keys()
    untranslated = {name: words for name, words in shown.items() if words == english[name]}
    assert untranslated == {}


def test_the_rule_names_are_korean_on_the_korean_page():
    english = in_language("en", field_labels, "wrc-2025")
    korean = in_language("ko", field_labels, "wrc-2025")
    assert {name for name, label in korean.items() if label == english[name]} == set()


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_read_without_a_spec(client: Client, language: str):
    organiser = User.objects.create_user("org", password="x", is_staff=True)
    EventFactory.create(slug="spring", public=False, status=Event.Status.DRAFT, organisers=[organiser])
    client.force_login(organiser)
    client.cookies["django_language"] = language
    for url in ("/events/new/", "/events/spring/manage/settings/"):
        page = client.get(url).content.decode()
        assert not [spec for spec in SPEC_WORDS if spec in page], url
    with translation.override(language):
        sentence = str(PRESET_WORDS["mcr"])
    assert sentence in client.get("/events/new/").content.decode().replace("&#x27;", "'")
