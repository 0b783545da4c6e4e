"""The state of a game between two hands, and where a game starts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import Problem, Refusal
from rules.options import Extension, SeatRotation
from rules.ruleset import Ruleset

# MCR seats after each round wind (seed 002 §2, docs/rules.md §6): with players
# A B C D in E S W N, rounds seat them A B C D / B A D C / C D B A / D C A B.
MCR_ROUND_SEATS = ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 1, 0), (3, 2, 0, 1))


def round_seats(*, ruleset: Ruleset, round_wind: int) -> tuple[int, ...]:
    """Players in seat order (East first) for the first hand of a round wind."""
    if ruleset.seat_rotation == SeatRotation.MCR:
        return MCR_ROUND_SEATS[round_wind % len(MCR_ROUND_SEATS)]
    return tuple(range(ruleset.players))


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands before a hand: round, hand, honba, sticks, scores."""

    round_wind: int  # 0 = East, 1 = South, ...
    hand: int  # 1-based; the hand's dealer is seats[hand - 1]
    honba: int
    deposits: int  # riichi sticks on the table
    scores: tuple[int, ...]
    seats: tuple[int, ...]
    chombos: tuple[int, ...]
    finished: bool = False
    end_reason: str | None = None
    # The last dealer has just won where the rules let them stop: the game is
    # over unless another hand is played (five-player rule 2).
    may_stop: bool = False
    played: int = 0  # hands played since the start (or the resumed start): the solo game counts its attempts

    @property
    def dealer(self) -> int:
        return self.seats[self.hand - 1]

    def label(self, ruleset: Ruleset) -> str:
        """The round as referees write it: E1, S4, W2, …"""
        return f"{ruleset.round_wind_letters[self.round_wind]}{self.hand}"

    def turn_distance(self, source: int, target: int) -> int:
        """How many turns after ``source`` the player ``target`` plays (head bump order)."""
        return (self.seats.index(target) - self.seats.index(source)) % len(self.seats)

    def seat_wind(self, player: int) -> int:
        """The player's seat this hand counted from the dealer: 0 = East (the dealer), 1 = South, …"""
        return (self.seats.index(player) - (self.hand - 1)) % len(self.seats)

    def seat_wind_name(self, ruleset: Ruleset, player: int) -> str:
        """East, South, …, Flower or a dragon at larger tables (docs/rules.md §7)."""
        return ruleset.seat_winds[self.seat_wind(player)]

    def round_wind_name(self, ruleset: Ruleset) -> str:
        return ruleset.round_wind_names[self.round_wind]


def parse_round(*, ruleset: Ruleset, label: str) -> tuple[int, int]:
    """ "S3" -> (1, 3). The letter is the round wind, the number the hand in it."""
    letters = ruleset.round_wind_letters
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    if len(label) < 2 or label[0] not in letters or not re.fullmatch(r"[0-9]{1,2}", label[1:]):
        raise Refusal.of("round", "round_form", label=label, letters=", ".join(letters))
    wind, hand = letters.index(label[0]), int(label[1:])
    if not 1 <= hand <= ruleset.players:
        raise Refusal.of("round", "round_hand", label=label, players=ruleset.players)
    last_wind = ruleset.round_winds - 1 + (1 if ruleset.extension == Extension.UNTIL_GOAL else 0)
    if wind > min(last_wind, len(letters) - 1):
        raise Refusal.of("round", "round_past_end", label=label)
    return wind, hand


def start_state(
    *, ruleset: Ruleset, round_label: str = "E1", honba: int = 0, deposits: int = 0, scores: Sequence[int] | None = None
) -> GameState:
    """The state a game (or a resumed game) starts in; checks every field."""
    problems: list[Problem] = []
    wind, hand = 0, 1
    try:
        wind, hand = parse_round(ruleset=ruleset, label=round_label)
    except Refusal as exc:
        problems.extend(exc.problems)
    if honba < 0:
        problems.append(Problem.of("honba", "not_negative"))
    if deposits < 0:
        problems.append(Problem.of("deposits", "not_negative"))
    if scores is None:
        scores = [ruleset.start_points] * ruleset.players
    elif len(scores) != ruleset.players:
        problems.append(Problem.of("scores", "scores_count", players=ruleset.players))
    if problems:
        raise Refusal(problems)
    return GameState(
        round_wind=wind,
        hand=hand,
        honba=honba,
        deposits=deposits,
        scores=tuple(scores),
        seats=round_seats(ruleset=ruleset, round_wind=wind),
        chombos=(0,) * ruleset.players,
    )
