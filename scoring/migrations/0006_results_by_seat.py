"""A game's stored result named players by their display name, so a renamed player kept the old name on
every page until the game was replayed. It now names them by seat (0 = the first dealer), names being put in
when a page or an export is rendered.

Each game is replayed from its stored hands through the score sheet's reader and output, which are plain
functions of JSON (no models): the result then also carries what the pages now read from it (who dealt in,
who was in riichi or tenpai, the next hand's seat winds). A game that cannot be replayed keeps its result,
its names replaced by seats, the numbers untouched.
"""

from django.db import migrations

_ONE = ("dealer", "loser", "chombo", "winner", "player", "from", "to")
_MANY = ("riichi", "tenpai", "nagashi", "false_wins", "seats")
_PER_SEAT = ("deltas", "scores", "seat_winds")


def _by_seat(value, seat_of, key=""):
    """The result as stored before (names) with every name replaced by its seat."""
    if key in _ONE:
        return seat_of.get(value, value)
    if key in _MANY and isinstance(value, list):
        return [seat_of.get(v, v) for v in value]
    if key in _PER_SEAT and isinstance(value, dict):
        return [value[name] for name in sorted(value, key=lambda name: seat_of.get(name, len(seat_of)))]
    if key == "ruleset":
        return value
    if isinstance(value, dict):
        return {k: _by_seat(v, seat_of, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_by_seat(v, seat_of) for v in value]
    return value


def _replayed(apps, game):
    """The game's result as the engine gives it now, players by seat; None if its hands cannot be replayed."""
    from rules.errors import Refusal
    from scoring.sheet.output import result_json
    from scoring.sheet.reader import score_sheet

    seats = sorted(game.seats.select_related("player"), key=lambda seat: seat.position)
    names = [seat.player.name for seat in seats]
    labels = [f"{name} #{seat.player_id}" if names.count(name) > 1 else name for name, seat in zip(names, seats)]
    sheet = {
        "ruleset": game.event.ruleset_key,
        "overrides": game.event.ruleset_overrides,
        "players": [seat.player_id for seat in seats],
        "hands": list(apps.get_model("scoring", "Hand").objects.filter(game_id=game.pk).order_by("index")
                      .values_list("record", flat=True)),
        "penalties": [{"player": p.player_id, "points": float(p.points), "reason": p.reason}
                      for p in apps.get_model("scoring", "Penalty").objects.filter(game_id=game.pk).order_by("id")],
    }
    if game.start:
        sheet["start"] = game.start
    if game.ended_by_time:
        sheet["end"] = "time"
    try:
        return result_json(score_sheet(sheet, labels=labels))
    except (Refusal, ValueError, KeyError):
        return None


def results_by_seat(apps, schema_editor):
    Game = apps.get_model("tournament", "Game")
    for game in Game.objects.exclude(result={}).select_related("event").iterator(chunk_size=500):
        names = game.result.get("players")
        if not isinstance(names, list):
            continue  # already by seat
        result = _replayed(apps, game)
        if result is None:
            seat_of = {name: seat for seat, name in enumerate(names)}
            result = _by_seat({k: v for k, v in game.result.items() if k != "players"}, seat_of)
        Game.objects.filter(pk=game.pk).update(result=result)


def _by_name(value, names, key=""):
    """The inverse of ``_by_seat``, for migrating back."""
    def name(seat):
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else seat

    if key in _ONE:
        return name(value)
    if key in _MANY and isinstance(value, list):
        return [name(v) for v in value]
    if key in _PER_SEAT and isinstance(value, list):
        return {names[seat]: v for seat, v in enumerate(value) if seat < len(names)}
    if key == "ruleset":
        return value
    if isinstance(value, dict):
        return {k: _by_name(v, names, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_by_name(v, names) for v in value]
    return value


def results_by_name(apps, schema_editor):
    Game = apps.get_model("tournament", "Game")
    for game in Game.objects.exclude(result={}).prefetch_related("seats__player").iterator(chunk_size=500):
        if "players" in game.result:
            continue
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        counts = {}
        for seat in seats:
            counts[seat.player.name] = counts.get(seat.player.name, 0) + 1
        names = [s.player.name if counts[s.player.name] == 1 else f"{s.player.name} #{s.player_id}" for s in seats]
        result = _by_name(game.result, names)
        Game.objects.filter(pk=game.pk).update(result={"ruleset": result.get("ruleset"), "players": names,
                                                       **{k: v for k, v in result.items() if k != "ruleset"}})


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0005_translated_choices"),
        ("tournament", "0006_seats_belong_to_games"),
    ]

    operations = [
        migrations.RunPython(results_by_seat, results_by_name, elidable=False),
    ]
