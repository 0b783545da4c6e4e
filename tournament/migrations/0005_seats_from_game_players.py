"""Seats rebuilt from the games' players (GamePlayer), in a migration of their own: PostgreSQL cannot alter a
table in the transaction that wrote rows with deferred foreign keys into it."""

from django.db import migrations
from django.utils import timezone


def seats_from_game_players(apps, schema_editor):
    Game = apps.get_model("tournament", "Game")
    Seat = apps.get_model("tournament", "Seat")
    Table = apps.get_model("tournament", "Table")
    GamePlayer = apps.get_model("scoring", "GamePlayer")
    for table in Table.objects.filter(game__isnull=True).select_related("round__event"):
        seats = Seat.objects.filter(table=table)
        if seats.exists():
            # Played when its round was (a league counts games by date), else when the event began.
            round_ = table.round
            played_on = (timezone.localdate(round_.starts_at) if round_.starts_at else round_.event.starts_on
                         or timezone.localdate())
            game = Game.objects.create(event_id=round_.event_id, table=table, played_on=played_on)
            seats.update(game=game)
    Seat.objects.filter(game__isnull=True).delete()
    Seat.objects.bulk_create(
        [Seat(game_id=gp.game_id, player_id=gp.player_id, position=gp.seat, substitute=gp.substitute)
         for gp in GamePlayer.objects.order_by("game_id", "seat")],
        batch_size=1000,
    )


def game_players_from_seats(apps, schema_editor):
    """Back to 0004: every seat a GamePlayer again, and a table's seats its game's."""
    Seat = apps.get_model("tournament", "Seat")
    GamePlayer = apps.get_model("scoring", "GamePlayer")
    GamePlayer.objects.all().delete()
    GamePlayer.objects.bulk_create(
        [GamePlayer(game_id=s.game_id, player_id=s.player_id, seat=s.position, substitute=s.substitute)
         for s in Seat.objects.order_by("game_id", "position")],
        batch_size=1000,
    )
    for seat in Seat.objects.filter(game__table__isnull=False).select_related("game"):
        seat.table_id = seat.game.table_id
        seat.save(update_fields=["table"])
    Seat.objects.filter(table__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0004_game_and_its_seats"),
    ]

    operations = [
        migrations.RunPython(seats_from_game_players, game_players_from_seats, elidable=False),
    ]
