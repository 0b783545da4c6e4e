"""Serializer fields with the bounds every API body keeps (docs/bounds.md), shared by the serializers."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from rest_framework import serializers

from rules.text import PRINTABLE, PRINTABLE_MESSAGE
from scoring.sheet.document import MAX_INTEGER


def player_id(**kwargs: Any) -> serializers.IntegerField:
    """A player's id; bounded, so that a number no row can have is refused before it reaches a query."""
    return serializers.IntegerField(min_value=1, max_value=MAX_INTEGER, **kwargs)


def printable_text(**kwargs: Any) -> serializers.CharField:
    """Text a person reads (rules.text.PRINTABLE): no control characters."""
    return serializers.CharField(validators=[printable()], **kwargs)


def printable() -> RegexValidator:
    return RegexValidator(PRINTABLE, PRINTABLE_MESSAGE)
