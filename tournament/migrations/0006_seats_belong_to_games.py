"""A seat belongs to its game now: the table link goes, the game link is required, the constraints follow."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0005_seats_from_game_players"),
    ]

    operations = [
        migrations.RemoveField(model_name="seat", name="table"),
        migrations.AlterField(
            model_name="seat",
            name="game",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="seats",
                                    to="tournament.game"),
        ),
        migrations.AlterModelOptions(name="seat", options={"ordering": ("game", "position")}),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(fields=("game", "position"), name="one_player_per_seat"),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(fields=("game", "player"), name="one_seat_per_player_per_game"),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(condition=models.Q(position__lt=8), name="seat_position_0_to_7"),
        ),
    ]
