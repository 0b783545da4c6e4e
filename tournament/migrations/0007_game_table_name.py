"""The game table takes its app's name (scoring 0006 let go of the model)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0006_seats_belong_to_games"),
        ("scoring", "0007_game_moves_to_tournament"),
    ]

    operations = [
        migrations.AlterModelTable(name="game", table=None),
    ]
