"""A predefined schedule read from CSV instead of seating one round at a time."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.csv_line import csv_values
from rules.errors import Problem, Refusal
from rules.ruleset import SEAT_WINDS, WINDS
from rules.seating.history import Table, check_table_size

FIXED_COLUMNS = ("round", "table")  # the columns before the seats
# Bounds the rules do not give (docs/bounds.md): a schedule is for one event, not a season of them.
MAX_ROUNDS = 100
MAX_TABLES = 500  # tables in one round: 2,000 players at four


def schedule_from_csv(*, text: str, players: Sequence[int] | None = None, table_size: int) -> list[list[Table]]:
    """A predefined schedule: rounds (in round order) of tables (in table order).

    The header is ``round,table`` and one column per seat: either seat names
    in any order (the ruleset's seat winds, ``east,south,west,north`` for
    four, or ``seat1`` … ``seat8`` for any size) or any other names, read in
    seat order. Every problem found is reported at once, as ``line N``.
    """
    check_table_size(table_size)
    rows, unread = _lines(text)
    header = rows[0][1] if rows and rows[0][0] == 1 else None
    expected = ",".join([*FIXED_COLUMNS, *_seat_names(table_size)])
    if unread and unread[0].field == "line 1":
        raise Refusal(unread[0])
    if header is None:
        raise Refusal(Problem("line 1", f"the schedule is empty: expected the header {expected}"))
    columns = _csv_columns([h.strip().lower() for h in header], table_size)
    if columns is None:
        raise Refusal(Problem("line 1", f"expected the header {expected} (seat columns by name or position)"))
    round_col, table_col, seat_cols = columns
    schedule = _Schedule(
        table_size=table_size,
        width=len(header),
        round_col=round_col,
        table_col=table_col,
        seat_cols=seat_cols,
        known=set(players) if players is not None else None,
        problems=unread,
    )
    for line, row in rows[1:]:
        if any(cell.strip() for cell in row):
            schedule.add_row(line, row)
    return schedule.rounds()


def _lines(text: str) -> tuple[list[tuple[int, list[str]]], list[Problem]]:
    """Each line's values by line number, and a problem for each line that is not CSV (a quote left open would
    run on into the lines after it: one table a line, a quote is closed on its own line)."""
    rows: list[tuple[int, list[str]]] = []
    problems: list[Problem] = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        try:
            rows.append((number, csv_values(line)))
        except Refusal as exc:
            problems += exc.at(f"line {number}").problems
    return rows, problems


@dataclass
class _Schedule:
    """The tables read so far, and every problem found on the way."""

    table_size: int
    width: int  # values per row, as many as the header has
    round_col: int
    table_col: int
    seat_cols: list[int]
    known: set[int] | None  # the tournament's players; None: any id
    problems: list[Problem] = field(default_factory=list)
    tables: dict[int, dict[int, Table]] = field(default_factory=dict)  # round -> table number -> table
    table_numbers: dict[int, set[int]] = field(default_factory=dict)  # round -> table numbers, complete or not
    first_line: dict[int, int] = field(default_factory=dict)  # round -> line of its first table
    seen: dict[tuple[int, int], int] = field(default_factory=dict)  # (round, player) -> line

    def add_row(self, line: int, row: list[str]) -> None:
        """One table of one round; problems are noted, not raised."""
        where = f"line {line}"
        if len(row) != self.width:
            self.problems.append(Problem(where, f"has {len(row)} values, the header has {self.width}"))
            return
        round_no = _positive(row[self.round_col], "round", MAX_ROUNDS, where, self.problems)
        table_no = _positive(row[self.table_col], "table", MAX_TABLES, where, self.problems)
        seats = self._seats(row, where)
        if round_no is None or table_no is None:
            return
        self.first_line.setdefault(round_no, line)
        self._check_players(seats, round_no=round_no, line=line)
        numbers = self.table_numbers.setdefault(round_no, set())
        if table_no in numbers:
            self.problems.append(Problem(where, f"round {round_no} already has a table {table_no}"))
        elif len(seats) == self.table_size:
            self.tables.setdefault(round_no, {})[table_no] = Table(number=table_no, seats=tuple(seats))
        numbers.add(table_no)

    def _seats(self, row: list[str], where: str) -> list[int]:
        """The players of a row in seat order, leaving out the cells that are no player of the tournament."""
        seats: list[int] = []
        for name, col in zip(_seat_names(self.table_size), self.seat_cols, strict=True):
            value = _integer(row[col])
            if value is None:
                self.problems.append(Problem(where, f"{name} must be a player id (an integer), not {_shown(row[col])}"))
            elif self.known is not None and value not in self.known:
                self.problems.append(Problem(where, f"{name}: player {value} is not in this tournament"))
            else:
                seats.append(value)
        return seats

    def _check_players(self, seats: list[int], *, round_no: int, line: int) -> None:
        """Each player sits once at a table, and at one table per round."""
        where = f"line {line}"
        at_table: set[int] = set()
        for player in seats:
            if player in at_table:
                self.problems.append(Problem(where, f"player {player} sits twice at this table"))
                continue
            at_table.add(player)
            other = self.seen.setdefault((round_no, player), line)
            if other != line:
                self.problems.append(Problem(where, f"player {player} already sits in round {round_no} (line {other})"))

    def rounds(self) -> list[list[Table]]:
        """The schedule, once the rounds follow each other and no table number is missing; else Refusal."""
        problems = self.problems
        if not self.first_line and not problems:
            problems.append(Problem("line 2", "the schedule has no tables"))
        for expected_round, round_no in enumerate(sorted(self.first_line), start=1):
            if round_no != expected_round:
                problems.append(
                    Problem(
                        f"line {self.first_line[round_no]}",
                        f"round {round_no} follows round {expected_round - 1}: round {expected_round} is missing",
                    )
                )
                break
        for round_no, numbers in self.table_numbers.items():
            missing = sorted(set(range(1, max(numbers) + 1)) - numbers)
            if missing:
                problems.append(
                    Problem(
                        f"line {self.first_line[round_no]}",
                        f"round {round_no} has no table {', '.join(map(str, missing))}",
                    )
                )
        if problems:
            problems.sort(key=lambda problem: int(problem.field.split()[1]))  # in file order
            raise Refusal(problems)
        return [[in_round[t] for t in sorted(in_round)] for _, in_round in sorted(self.tables.items())]


def _seat_names(table_size: int) -> list[str]:
    """Column names of the seats: the ruleset's seat winds where they are all different, else seat1, seat2, …"""
    winds = [w.lower() for w in SEAT_WINDS.get(table_size, WINDS[:table_size])]
    return winds if len(set(winds)) == table_size else [f"seat{i + 1}" for i in range(table_size)]


def _csv_columns(header: list[str], table_size: int) -> tuple[int, int, list[int]] | None:
    """The round, table and seat columns (in seat order) of a header, or None if it does not fit the table size."""
    if any(name not in header for name in FIXED_COLUMNS) or len(header) != len(FIXED_COLUMNS) + table_size:
        return None
    round_col, table_col = (header.index(name) for name in FIXED_COLUMNS)
    others = [i for i in range(len(header)) if i not in (round_col, table_col)]
    by_name = {name: i for i, name in enumerate(_seat_names(table_size))}
    by_name.update({f"seat{i + 1}": i for i in range(table_size)})
    named = [seat for seat in (by_name.get(header[i]) for i in others) if seat is not None]
    if len(set(named)) == table_size:
        seat_cols = [0] * table_size
        for col, seat in zip(others, named, strict=True):
            seat_cols[seat] = col
        return round_col, table_col, seat_cols
    return round_col, table_col, others


def _integer(cell: str) -> int | None:
    text = cell.strip()
    # ASCII digits, and no more than an id has: int() would take "١٢" and choke on 5,000 digits.
    if not re.fullmatch(r"-?[0-9]{1,18}", text):
        return None
    return int(text)


def _positive(cell: str, name: str, most: int, where: str, problems: list[Problem]) -> int | None:
    value = _integer(cell)
    if value is None or not 1 <= value <= most:
        problems.append(Problem(where, f"{name} must be a number from 1 to {most}, not {_shown(cell)}"))
        return None
    return value


def _shown(cell: str) -> str:
    """A cell as a message quotes it, cut short: the message must not repeat a whole line of nonsense."""
    text = cell.strip()
    return repr(text) if len(text) <= 20 else repr(text[:20]) + "…"
