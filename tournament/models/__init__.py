"""The structure of an event: players, events with their ruleset, registrations, stages, rounds, tables, games
and seats.

What happens in a game (its hands, history, results and the standings) is
the scoring app's; a Game here carries the replayed result that scoring
stores on it, players named by seat, so that renaming a player changes no
stored row.
"""

from tournament.models.events import MERS_KEYS, Event, Registration, Team, Tiebreak, text_problems, tiebreak_problems
from tournament.models.people import Player, PlayerMerge, printable, validate_trimmed
from tournament.models.play import MAX_SEATS, Game, Lineup, Round, Seat, Table, TeamSeat
from tournament.models.stages import Stage

__all__ = [
    "MAX_SEATS",
    "MERS_KEYS",
    "Event",
    "Game",
    "Lineup",
    "Player",
    "PlayerMerge",
    "Registration",
    "Round",
    "Seat",
    "Stage",
    "Table",
    "Team",
    "TeamSeat",
    "Tiebreak",
    "printable",
    "text_problems",
    "tiebreak_problems",
    "validate_trimmed",
]
