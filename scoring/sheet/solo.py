"""The solo race to tenpai in the score sheet (docs/solo.md; the rules are rules.solo).

A solo sheet names one player and lists attempts as its hands::

    {"ruleset": "solo", "players": ["Ann"], "hands": [
        {"draws": 7, "han": 2, "fu": 30},
        {"result": "tenpai", "draws": 5, "tiles": {"concealed": "123m456m789p234s5z", "win": "5z"}},
        {"result": "noten"}]}

``result`` may be left out of a solo sheet's hand: it is a tenpai. Its tiles are the 13 tenpai tiles and, as
``win``, the tile they wait on; no calls, each tile once (34 tiles), no ura dora (no riichi). Here the sheet
is read into ``rules.hands.Attempt`` and its output gains each attempt's draws, value and rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, TypedDict

from rules.errors import Problem, Refusal
from rules.final import FinalRow
from rules.game import GameRecord
from rules.hands import Attempt, Outcome, Win
from rules.presets import get_preset
from rules.ruleset import Ruleset
from rules.solo import MAX_DRAWS, SoloScore, attempt_score, rank_scores, solo_total
from scoring.tiles.notation import RIICHI_FLAGS, TileHand, read_tile_hand

_TILE_FIELD = "tiles"


class AttemptLine(TypedDict):
    """One attempt of the result's ``attempts``: numbered from 1 in the order played, ranked, counted or not."""

    attempt: int
    rank: int
    draws: int
    value: int
    counted: bool


def is_solo_sheet(data: Any) -> bool:
    """Whether a sheet, before it is read, is of the solo game: its preset's scoring, or its overrides'."""
    if not isinstance(data, Mapping):
        return False
    overrides = data.get("overrides")
    if isinstance(overrides, Mapping) and "scoring" in overrides:
        return bool(overrides["scoring"] == "solo")
    try:
        return isinstance(data.get("ruleset"), str) and get_preset(data["ruleset"]).is_solo
    except Refusal:
        return False


def with_results(data: Any) -> Any:
    """The sheet with ``"result": "tenpai"`` in each of a solo sheet's hands that leaves it out."""
    if not is_solo_sheet(data) or not isinstance(data.get("hands"), list):
        return data
    return {**data, "hands": [with_result(hand) for hand in data["hands"]]}


def with_result(record: Any) -> Any:
    """One solo hand with its result: an attempt written down without one reached tenpai."""
    if isinstance(record, Mapping) and "result" not in record:
        return {"result": str(Outcome.TENPAI), **record}
    return record


def header_problems(data: Mapping[str, Any]) -> list[Problem]:
    """What a solo sheet cannot carry: a start to take up, penalties on points it does not have."""
    problems = []
    if data.get("start"):
        problems.append(Problem.of("start", "solo_no_start"))
    if data.get("penalties"):
        problems.append(Problem.of("penalties", "solo_no_penalties"))
    return problems


def read_attempt(raw: Mapping[str, Any], *, riichi: frozenset[int]) -> Attempt:
    """One attempt of the sheet's only player (seat 0): a tenpai with its draws and value, or a noten."""
    if raw["result"] == Outcome.NOTEN:
        return Attempt(draws=MAX_DRAWS, riichi=riichi)
    if "tiles" in raw:
        given = [key for key in ("han", "fu", "yakuman") if key in raw]
        if given:
            raise Refusal.one(given[0], "give the tiles or the value, not both")
        try:
            tiles = _solo_tiles(read_tile_hand(raw["tiles"], flags=RIICHI_FLAGS), draws=raw["draws"])
        except Refusal as exc:
            raise exc.at(_TILE_FIELD) from None
        return Attempt(draws=raw["draws"], win=Win(winner=0, tiles=tiles), riichi=riichi)
    win = Win(winner=0, han=raw.get("han", 0), fu=raw.get("fu"), yakuman=raw.get("yakuman", 0))
    return Attempt(draws=raw["draws"], win=win, riichi=riichi)


def _solo_tiles(hand: TileHand, *, draws: int) -> TileHand:
    """The tenpai tiles as the solo game's 34 tiles allow them: no call, each tile once among the 13 (the tile
    waited on, ``win``, completes the hand's pair: it is the 35th, the one the wall never gives); tenhou only for
    a hand tenpai as dealt (seed 001 line 636: such a hand is "at a stretch, tenhou")."""
    problems: list[Problem] = []
    if "tenhou" in hand.flags and draws:
        problems.append(Problem.of("flags", "solo_tenhou", draws=draws))
    if hand.melds:
        problems.append(Problem.of("melds", "solo_no_calls"))
    twice = sorted(kind for kind, count in Counter(t.kind for t in hand.concealed).items() if count > 1)
    problems += [Problem.of("concealed", "solo_tile_twice", tile=f"{number}{suit}") for suit, number in twice]
    if hand.ura:
        problems.append(Problem.of("ura", "solo_no_ura"))
    if problems:
        raise Refusal(problems)
    return hand


# --- the result -----------------------------------------------------------------------------------------------------


def scores(ruleset: Ruleset, record: GameRecord) -> list[SoloScore]:
    """Each attempt's draws and value, in the order played."""
    return [
        attempt_score(ruleset=ruleset, attempt=hand.result, settlement=hand.settlement)
        for hand in record.hands
        if isinstance(hand.result, Attempt)
    ]


def final_rows(ruleset: Ruleset, record: GameRecord) -> tuple[FinalRow, ...]:
    """The one player's line: the draws and value the ruleset counts (``score`` holds the value); no points."""
    total = solo_total(ruleset=ruleset, scores=scores(ruleset, record))
    zero = Fraction(0)
    return (
        FinalRow(
            player=0,
            rank=1,
            score=total.score.value if total else 0,
            uma=zero,
            oka=zero,
            penalty=zero,
            points=zero,
            table_points=None,
            chombos=0,
            draws=total.score.draws if total else None,
        ),
    )


def attempts_json(ruleset: Ruleset, record: GameRecord) -> list[AttemptLine]:
    """The attempts best first (``attempt`` numbers them from 1 in the order played), each with its rank and
    whether the player's result counts it."""
    played = scores(ruleset, record)
    total = solo_total(ruleset=ruleset, scores=played)
    counted = set(total.counted) if total else set()
    ranks = rank_scores(played)
    rows: list[AttemptLine] = [
        {"attempt": i + 1, "rank": ranks[i], "draws": score.draws, "value": score.value, "counted": i in counted}
        for i, score in enumerate(played)
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["attempt"]))
