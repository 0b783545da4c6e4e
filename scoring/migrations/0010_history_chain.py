"""Seal the existing history into hash chains: each game's entries in id order, the author's name kept.

The hashing is copied here on purpose: a migration must give the same hashes however the code changes later
(scoring.services.chain is the live copy; tests/scoring/test_chain.py checks the two agree).
"""

import hashlib
import json

import django.utils.timezone
from django.db import migrations, models


def _seal(content, previous):
    text = json.dumps({"previous": previous, "entry": content}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal_history(apps, schema_editor):
    HandChange = apps.get_model("scoring", "HandChange")
    previous_by_game = {}
    for change in HandChange.objects.select_related("user").order_by("game_id", "id").iterator():
        change.author = change.user.username if change.user_id else ""
        # Milliseconds, as the code seals new entries: every JSON copy (a backup among them) keeps them.
        change.at = change.at.replace(microsecond=change.at.microsecond // 1000 * 1000)
        previous = previous_by_game.get(change.game_id, "")
        content = {"index": change.index, "action": change.action, "before": change.before, "after": change.after,
                   "author": change.author, "at": change.at.isoformat(), "version": change.version}
        change.previous = previous
        change.hash = _seal(content, previous)
        change.save(update_fields=["author", "at", "previous", "hash"])
        previous_by_game[change.game_id] = change.hash


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0009_history_import_action'),
    ]

    operations = [
        migrations.AddField(
            model_name='handchange',
            name='author',
            field=models.CharField(blank=True, help_text='who made the change; blank for a script', max_length=150),
        ),
        migrations.AddField(
            model_name='handchange',
            name='hash',
            field=models.CharField(blank=True, help_text="SHA-256 over this entry's content and the previous hash (scoring.services.chain)", max_length=64),
        ),
        migrations.AddField(
            model_name='handchange',
            name='previous',
            field=models.CharField(blank=True, help_text="the hash of the game's entry before this one; blank for the first", max_length=64),
        ),
        migrations.AlterField(
            model_name='handchange',
            name='at',
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.RunPython(seal_history, migrations.RunPython.noop)  # the columns go with the fields,
    ]
