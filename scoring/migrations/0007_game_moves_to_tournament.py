"""Game belongs to the tournament app now (tournament 0004); GamePlayer is gone (its rows became Seats)."""

import django.db.models.deletion
from django.db import migrations, models


def _game_fk(related_name, **options):
    return models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name=related_name,
                             to="tournament.game", **options)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0006_results_by_seat"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(model_name="hand", name="game", field=_game_fk("hands")),
                migrations.AlterField(model_name="handchange", name="game", field=_game_fk("changes")),
                migrations.AlterField(model_name="penalty", name="game",
                                      field=_game_fk("penalties", null=True, blank=True)),
                migrations.AlterField(model_name="gameresult", name="game", field=_game_fk("results")),
            ],
            database_operations=[],
        ),
        migrations.DeleteModel(name="GamePlayer"),
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="Game")],
                                            database_operations=[]),
    ]
