"""Game moves here from scoring, and a game's players are its seats: one Seat model instead of Seat + GamePlayer.

The game's table keeps its name (scoring_game) until 0005 renames it, so no
row moves; only Django's idea of which app owns the model changes. Seats were
written twice (a table's Seat rows and its game's GamePlayer rows); they are
rebuilt from GamePlayer, which also knows the substitutes. A table seated
without a game (only the admin allowed that) gets an empty game, so that no
seat is lost.
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0003_translated_choices"),
        ("scoring", "0005_translated_choices"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Game",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("status", models.CharField(choices=[("playing", "playing"), ("finished", "finished")],
                                                    default="playing", max_length=20)),
                        ("version", models.PositiveIntegerField(default=1)),
                        ("start", models.JSONField(blank=True, default=dict,
                                                   help_text="the sheet's start: round, honba, deposits, scores")),
                        ("ended_by_time", models.BooleanField(default=False)),
                        ("played_on", models.DateField(default=django.utils.timezone.localdate,
                                                       help_text="a league counts the games in its date range")),
                        ("result", models.JSONField(blank=True, default=dict,
                                                    help_text="the replayed score sheet's output, players by seat "
                                                    "(derived)")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("event", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                    related_name="games", to="tournament.event")),
                        ("table", models.OneToOneField(blank=True, null=True,
                                                       on_delete=django.db.models.deletion.SET_NULL,
                                                       related_name="game", to="tournament.table")),
                    ],
                    options={"ordering": ("-created_at", "-id"), "db_table": "scoring_game"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RemoveConstraint(model_name="seat", name="one_player_per_seat"),
        migrations.RemoveConstraint(model_name="seat", name="one_seat_per_player_at_a_table"),
        migrations.RemoveConstraint(model_name="seat", name="seat_position_0_to_7"),
        migrations.AlterField(
            model_name="seat",
            name="table",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="seats",
                                    to="tournament.table"),
        ),
        migrations.AddField(
            model_name="seat",
            name="game",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="seats",
                                    to="tournament.game"),
        ),
        migrations.AddField(
            model_name="seat",
            name="substitute",
            field=models.BooleanField(default=False, help_text="fills in for an absent player in this game"),
        ),
    ]
