"""What the edge of the system keeps about requests from outside: the answers to idempotent requests
(scoring.edge.keys) and the wrong codes typed at a table or by a player (scoring.services.codes)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class IdempotentRequest(models.Model):
    """A creating request made with an ``Idempotency-Key`` and the answer it got, by reference where it showed a
    game (``resource``, ``version``: rebuilt from the game, docs/api.md), else its ``body``: the same key and body
    again within a day get that answer back and create nothing (a retried request, a double tap)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="what was asked: method, path and body, hashed")
    status = models.PositiveSmallIntegerField(null=True)
    resource = models.CharField(max_length=40, blank=True, help_text="what the answer showed: game:<id>")
    version = models.PositiveIntegerField(null=True, help_text="the resource's version the answer showed")
    body = models.JSONField(null=True, help_text="an answer that is no resource's (or written before references)")
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("user", "key"), name="one_request_per_idempotency_key"),
            # A table's code owns its keys as nobody, and NULL owners never collide above: they wait on this one.
            models.UniqueConstraint(
                fields=("key",), condition=models.Q(user__isnull=True), name="one_ownerless_request_per_key"
            ),
        )
        indexes = (models.Index(fields=("created_at",)),)

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class CodeFailure(models.Model):
    """A wrong code someone typed (scoring.services.codes): counted against the guesser and, per hour, the code."""

    scope = models.CharField(max_length=60, help_text="whose code was tried: table:<id> or player:<event>:<id>")
    guesser = models.CharField(max_length=64, help_text="a hash of the browser's session, or of its address")
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = (models.Index(fields=("scope", "at"), name="code_failure_scope_at"),)

    def __str__(self) -> str:
        return f"wrong code for {self.scope} at {self.at:%Y-%m-%d %H:%M}"
