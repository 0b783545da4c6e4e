"""``{{ label|round_label }}``: a stored round label ("E1") as the reader says it (web.round_words)."""

from __future__ import annotations

from django import template

from web import round_words

register = template.Library()


@register.filter(name="round_label")
def round_label(label: object) -> str:
    return round_words.round_label(label)
