"""Statistics rows are kept for finished games only (``scoring.services.game_stats``): the rows a game still being
played was given before are deleted (every statistic already left them out)."""

from typing import Any

from django.db import migrations


def unfinished_deleted(apps: Any, schema_editor: Any) -> None:
    apps.get_model("scoring", "GameStats").objects.filter(finished=False).delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0023_standings_sort_key")]

    operations = [migrations.RunPython(unfinished_deleted, migrations.RunPython.noop)]
