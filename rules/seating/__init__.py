"""Seating for the next round of a tournament: who plays whom, and from which seat.

Organisers seat one round at a time. ``history`` holds the earlier rounds
(rounds → tables → player ids in seat order, East first); from it come the
pairs that have already met and how often each player sat each seat. Nothing
is kept between calls.

- ``next_round``: ``random_seating`` and ``swiss_seating``: byes, then who
  sits together, then each table's seat order, within a time limit that
  grows with the field (``time_limit_for``);
- ``banded``: swiss tables within one table of the rank table, exactly;
- ``search``: who sits together, by a local search over one round;
- ``affine``: who sits together when q² players sit at tables of q, q a prime
  power, by the affine plane AG(2, q);
- ``seat_order``: the seat order of a table, an assignment problem solved exactly;
- ``history``: tables and seatings, and what the earlier rounds tell
  (``count_repeats``, ``wind_counts``);
- ``schedule``: ``schedule_from_csv`` reads a predefined schedule instead.
"""

from rules.seating.affine import AFFINE_CANDIDATES, AFFINE_LOOK_AHEAD
from rules.seating.history import TABLE_SIZES, History, Placement, Seating, Table, count_repeats, wind_counts
from rules.seating.next_round import TIME_LIMIT_MAX, random_seating, swiss_seating, time_limit_for
from rules.seating.schedule import schedule_from_csv
from rules.seating.search import MAX_STEPS, SWISS_SPREAD

__all__ = [
    "AFFINE_CANDIDATES",
    "AFFINE_LOOK_AHEAD",
    "MAX_STEPS",
    "SWISS_SPREAD",
    "TABLE_SIZES",
    "TIME_LIMIT_MAX",
    "History",
    "Placement",
    "Seating",
    "Table",
    "count_repeats",
    "random_seating",
    "schedule_from_csv",
    "swiss_seating",
    "time_limit_for",
    "wind_counts",
]
