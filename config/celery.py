"""The Celery app. Eager (in-process) unless CELERY_BROKER_URL is set."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("mahjong_tournament")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Periodic work, run by `celery -A config beat` beside the worker (docs/deployment.md). Without a broker nothing
# runs it: the keys are then purged by the writes themselves (scoring.edge.keys.PURGE_EVERY).
app.conf.beat_schedule = {
    "purge-idempotency-keys": {"task": "scoring.purge_idempotency_keys", "schedule": 3600.0},
}
