"""A log's sheet replayed by the engine and compared with what the platform recorded, hand by hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.errors import Refusal
from rules.game import HandRecord
from rules.hands import Ron, Tsumo
from scoring.logs.model import OnlineGame, RecordedHand
from scoring.sheet.reader import ScoredSheet, score_sheet

# Kiriage mangan turns 4 han 30 fu and 3 han 60 fu into a mangan: the only hands whose value it changes.
KIRIAGE_HANDS = {(4, 30), (3, 60)}


@dataclass(frozen=True, slots=True)
class Checked:
    """The replay, and every place it differs from the log (empty when the game matches)."""

    scored: ScoredSheet | None
    differences: list[str]

    @property
    def matches(self) -> bool:
        return self.scored is not None and not self.differences


def check_game(game: OnlineGame) -> Checked:
    """Replay ``game``'s sheet and compare each hand, then the end scores and points, with the log."""
    try:
        scored = score_sheet(game.sheet())
    except Refusal as exc:
        return Checked(None, [f"{p.field}: {p.message}" if p.field else p.message for p in exc.problems])
    ruleset = scored.sheet.ruleset
    differences = [
        line
        for index, (played, logged) in enumerate(zip(scored.record.hands, game.recorded, strict=False))
        if (line := _hand_difference(index, played, logged, played.before.label(ruleset)))
    ]
    if len(scored.record.hands) != len(game.recorded):
        differences.append(f"the log has {len(game.recorded)} hands, the rules played {len(scored.record.hands)}")
    if not differences:
        differences += _final_differences(game, scored)
    return Checked(scored, differences)


def _hand_difference(index: int, played: HandRecord, logged: RecordedHand, label: str) -> str | None:
    where = f"hand {index + 1} ({logged.round}-{logged.honba})"
    state = played.before
    if (label, state.honba, state.deposits) != (logged.round, logged.honba, logged.deposits):
        return (
            f"{where}: the log plays it as {logged.round} with {logged.honba} honba and {logged.deposits} "
            f"sticks, the rules as {label} with {state.honba} and {state.deposits}"
        )
    deltas = tuple(played.settlement.deltas)
    if deltas == logged.deltas:
        return None
    return f"{where}: the log records {_by_seat(logged.deltas)}, the rules give {_by_seat(deltas)}" + _hint(played)


def _final_differences(game: OnlineGame, scored: ScoredSheet) -> list[str]:
    if not scored.record.state.finished:
        return ["the log ends the game, the rules would play on"]
    rows = sorted(scored.final_rows(), key=lambda r: r.player)
    out = []
    scores = tuple(r.score for r in rows)
    if game.final_scores is not None and scores != game.final_scores:
        out.append(f"end scores: the log records {_by_seat(game.final_scores)}, the rules give {_by_seat(scores)}")
    points = tuple(r.points for r in rows)
    if game.final_points is not None and points != game.final_points:
        out.append(f"points: the log records {_points(game.final_points)}, the rules give {_points(points)}")
    return out


def _by_seat(values: Sequence[int]) -> str:
    return " ".join(f"P{seat} {_signed(v)}" for seat, v in enumerate(values) if v)


def _points(values: Sequence[Fraction]) -> str:
    return " ".join(f"P{seat} {float(v):+.1f}".replace("-", "−") for seat, v in enumerate(values))


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}"


def _hint(played: HandRecord) -> str:
    result = played.result
    wins = result.wins if isinstance(result, Ron) else (result.win,) if isinstance(result, Tsumo) else ()
    return " (kiriage mangan?)" if any((w.han, w.fu) in KIRIAGE_HANDS for w in wins) else ""
