"""Online game logs into an event: the query, and what became of each log."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.errors import ErrorSerializer, ProblemSerializer
from rules.presets import preset_keys
from scoring.services.online import Outcome


class LogImportQuerySerializer(serializers.Serializer[Any]):
    create_players = serializers.BooleanField(
        default=False, help_text="register platform names the event does not know as new players"
    )
    keep_mismatches = serializers.BooleanField(
        default=False, help_text='import a game that differs from its log, marked "differs from the log"'
    )
    ruleset = serializers.ChoiceField(
        choices=preset_keys(),
        required=False,
        help_text="the preset for logs that cannot say (a Mahjong Soul export: mahjong-soul)",
    )


class LogResultSerializer(serializers.Serializer[Any]):
    # A declared field named like Field.source: DRF's metaclass takes it out of the class body.
    source = serializers.CharField(help_text='the uploaded file\'s name, or "body"')  # type: ignore[assignment]
    outcome = serializers.ChoiceField(
        choices=[o.value for o in Outcome],
        help_text=(
            "imported (matches its log), kept (imported, differs from its log), already_imported (this log's game, "
            "nothing added), differs (refused: the rules give other numbers than the log), unreadable (refused)"
        ),
    )
    game = serializers.IntegerField(allow_null=True, source="game.pk", default=None)
    log_id = serializers.CharField(allow_blank=True, help_text="the platform's log id, or the content's hash")
    problems = ProblemSerializer(many=True, help_text="why it was refused, or where it differs from the log")


class LogImportSerializer(serializers.Serializer[Any]):
    results = LogResultSerializer(many=True)


class LogImportRefusedSerializer(ErrorSerializer):
    """No log was imported: why, per log (``results`` is left out when the request itself was refused)."""

    results = LogResultSerializer(many=True, required=False)
