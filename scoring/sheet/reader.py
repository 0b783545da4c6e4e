"""Reading a score sheet: the whole document is checked before anything is computed.

``read_sheet`` turns the JSON of SCORE_SHEET.md into rules/ objects and
reports every problem it finds, each as ``path: message``. ``score_sheet``
then replays the game; problems that only show during the replay (a riichi a
player cannot pay, a hand after the end) are reported the same way.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.errors import Problem, RuleError
from rules.game import GameRecord, ValueTiles, play_game
from rules.hands import Abort, Chombo, Draw, HandResult, Ron, Tsumo, Win
from rules.presets import get_preset
from rules.ruleset import Ruleset
from rules.settle import check_hand
from rules.state import GameState, start_state
from scoring.mcr_tiles import score_mcr
from scoring.riichi_tiles import score_riichi
from scoring.schema import schema_problems, sort_key
from scoring.tiles import HONOR_NAMES, MCR_FLAGS, RIICHI_FLAGS, TileHand, WinContext, read_tile_hand


class SheetError(ValueError):
    """A sheet that cannot be scored; ``problems`` holds one entry per problem, full paths."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True, slots=True)
class Sheet:
    """A checked score sheet, ready to replay."""

    ruleset: Ruleset
    names: tuple[str, ...]
    start: GameState
    hands: tuple[HandResult, ...]
    penalties: dict[int, Fraction]
    penalty_list: tuple[tuple[int, Fraction, str], ...]
    ended_by_time: bool


@dataclass(frozen=True, slots=True)
class ScoredSheet:
    sheet: Sheet
    record: GameRecord


# Fields each result may carry besides "result" and "note".
_ALLOWED = {
    "ron": {"winner", "loser", "han", "fu", "yakuman", "fan", "flowers", "pao", "tiles", "wins", "riichi",
            "false_wins"},
    "tsumo": {"winner", "han", "fu", "yakuman", "fan", "flowers", "pao", "tiles", "riichi", "false_wins"},
    "draw": {"tenpai", "nagashi", "riichi", "false_wins"},
    "abort": {"reason", "riichi"},
    "chombo": {"player", "riichi"},
}
_VALUE_KEYS = ("han", "fu", "yakuman", "fan", "flowers", "pao", "tiles")


def read_sheet(data: Any) -> Sheet:
    """Check a whole sheet and build its rules/ objects; SheetError lists every problem."""
    problems = schema_problems(data)
    # A hand or penalty with a bad shape is skipped below, so that the other
    # hands are still checked; a bad header stops here.
    skipped = {_entry_of(p.field) for p in problems}
    if any(entry is None for entry in skipped):
        raise SheetError(problems)

    ruleset = _read_ruleset(data)
    names = tuple(data["players"])
    if len(names) != ruleset.players:
        raise SheetError([Problem("players", f"this ruleset is for {ruleset.players} players; "
                                  f"the sheet names {len(names)}")])
    reader = _HandReader(ruleset=ruleset, names=names)
    start = _read_start(ruleset, data.get("start") or {})

    hands: list[HandResult] = []
    for index, raw in enumerate(data["hands"]):
        if ("hands", index) in skipped:
            continue
        try:
            hand = reader.hand(raw)
            check_hand(ruleset=ruleset, result=hand, names=names)
        except RuleError as exc:
            problems.extend(p.at(f"hands[{index}]") for p in exc.problems)
            continue
        hands.append(hand)

    penalties: dict[int, Fraction] = {}
    penalty_list: list[tuple[int, Fraction, str]] = []
    for index, raw in enumerate(data.get("penalties", [])):
        if ("penalties", index) in skipped:
            continue
        try:
            player = reader.player(raw["player"], "player")
        except RuleError as exc:
            problems.extend(p.at(f"penalties[{index}]") for p in exc.problems)
            continue
        points = Fraction(str(raw["points"]))
        penalties[player] = penalties.get(player, Fraction(0)) + points
        penalty_list.append((player, points, raw.get("reason", "")))

    if problems:
        raise SheetError(sorted(problems, key=lambda p: sort_key(p.field)))
    return Sheet(ruleset=ruleset, names=names, start=start, hands=tuple(hands), penalties=penalties,
                 penalty_list=tuple(penalty_list), ended_by_time=data.get("end") == "time")


def _entry_of(field: str) -> tuple[str, int] | None:
    """("hands", 3) for a problem under hands[3]; None for one outside any hand or penalty."""
    match = re.match(r"(hands|penalties)\[(\d+)\]", field)
    return (match.group(1), int(match.group(2))) if match else None


def score_sheet(data: Any) -> ScoredSheet:
    """Read and replay a sheet; SheetError if it is invalid anywhere."""
    sheet = read_sheet(data)
    try:
        record = play_game(ruleset=sheet.ruleset, start=sheet.start, hands=sheet.hands, names=sheet.names,
                           ended_by_time=sheet.ended_by_time, value_tiles=tile_valuer(sheet.ruleset))
    except RuleError as exc:
        raise SheetError([p.at("hands") for p in exc.problems]) from None
    return ScoredSheet(sheet=sheet, record=record)


# Honor numbers of the four winds; a Flower or dragon seat has no wind tile, so no wind yakuhai.
_WIND_HONORS = {name: number for number, name in enumerate(HONOR_NAMES[:4], start=1)}


def tile_valuer(ruleset: Ruleset) -> ValueTiles:
    """Values each win typed as tiles, with the winds and dealer of the hand it was played in."""
    score = score_mcr if ruleset.is_mcr else score_riichi

    def value(state: GameState, result: HandResult) -> HandResult:
        if isinstance(result, Ron):
            wins = result.wins
        elif isinstance(result, Tsumo):
            wins = (result.win,)
        else:
            return result
        if all(win.tiles is None for win in wins):
            return result
        valued: list[Win] = []
        for i, win in enumerate(wins):
            if not isinstance(win.tiles, TileHand):
                valued.append(win)
                continue
            context = WinContext(seat_wind=_WIND_HONORS.get(state.seat_wind_name(ruleset, win.winner)),
                                 round_wind=_WIND_HONORS.get(state.round_wind_name(ruleset)),
                                 dealer=win.winner == state.dealer, tsumo=isinstance(result, Tsumo),
                                 riichi=win.winner in result.riichi)
            try:
                found = score(win.tiles, ruleset=ruleset, context=context)
            except RuleError as exc:
                raise exc.at(f"wins[{i}].tiles" if len(wins) > 1 else "tiles") from None
            valued.append(dataclasses.replace(win, han=found.han, fu=found.fu, yakuman=found.yakuman,
                                              fan=found.fan, flowers=found.flowers, items=found.items, tiles=None))
        if isinstance(result, Ron):
            return dataclasses.replace(result, wins=tuple(valued))
        return dataclasses.replace(result, win=valued[0])

    return value


def _read_ruleset(data: Mapping[str, Any]) -> Ruleset:
    try:
        base = get_preset(data["ruleset"])
    except RuleError as exc:
        raise SheetError(exc.problems) from None
    try:
        ruleset = Ruleset.build(base=base, overrides=data.get("overrides") or {})
    except RuleError as exc:
        raise SheetError([p.at("overrides") for p in exc.problems]) from None
    return ruleset


def _read_start(ruleset: Ruleset, start: Mapping[str, Any]) -> GameState:
    try:
        return start_state(ruleset=ruleset, round_label=start.get("round", "E1"), honba=start.get("honba", 0),
                           deposits=start.get("deposits", 0), scores=start.get("scores"))
    except RuleError as exc:
        raise SheetError([p.at("start") for p in exc.problems]) from None


class _HandReader:
    """Turns one hand's JSON into a rules/ hand, naming players by their seat number."""

    def __init__(self, *, ruleset: Ruleset, names: tuple[str, ...]) -> None:
        self.ruleset = ruleset
        self.names = names
        self.index: dict[str, int] = {}
        for i, name in enumerate(names):
            self.index.setdefault(name, i)

    def player(self, name: str, field: str) -> int:
        if name not in self.index:
            raise RuleError.one(field, f"unknown player {name!r} (the players are {', '.join(self.names)})")
        return self.index[name]

    def players(self, names: Sequence[str], field: str) -> list[int]:
        return [self.player(name, f"{field}[{i}]") for i, name in enumerate(names)]

    def hand(self, raw: Mapping[str, Any]) -> HandResult:
        kind = raw["result"]
        misplaced = sorted(set(raw) - _ALLOWED[kind] - {"result", "note"})
        if misplaced:
            raise RuleError.one(misplaced[0], self._misplaced(kind, misplaced[0]))
        riichi = frozenset(self.players(raw.get("riichi", []), "riichi"))
        false_wins = tuple(self.players(raw.get("false_wins", []), "false_wins"))
        if false_wins and not self.ruleset.is_mcr:
            raise RuleError.one("false_wins", "false wins are an MCR rule; in riichi a false win is a chombo "
                                '(record {"result": "chombo", "player": ...})')
        if kind == "ron":
            return Ron(loser=self.player(raw["loser"], "loser"), wins=self._ron_wins(raw), riichi=riichi,
                       false_wins=false_wins)
        if kind == "tsumo":
            return Tsumo(win=self._win(raw, ""), riichi=riichi, false_wins=false_wins)
        if kind == "draw":
            return Draw(tenpai=frozenset(self.players(raw.get("tenpai", []), "tenpai")),
                        nagashi=tuple(self.players(raw.get("nagashi", []), "nagashi")), riichi=riichi,
                        false_wins=false_wins)
        if kind == "abort":
            return Abort(reason=raw.get("reason"), riichi=riichi)
        return Chombo(player=self.player(raw["player"], "player"), riichi=riichi)

    def _ron_wins(self, raw: Mapping[str, Any]) -> tuple[Win, ...]:
        if "wins" in raw:
            for field in ("winner", *_VALUE_KEYS):
                if field in raw:
                    raise RuleError.one(field, "with a list of wins, give each winner and value inside wins")
            return tuple(self._win(win, f"wins[{i}]") for i, win in enumerate(raw["wins"]))
        if "winner" not in raw:
            raise RuleError.one("winner", "is required for a ron (or give a list of wins)")
        return (self._win(raw, ""),)

    def _win(self, raw: Mapping[str, Any], prefix: str) -> Win:
        def at(field: str) -> str:
            return f"{prefix}.{field}" if prefix else field

        if "tiles" in raw:
            given = [key for key in ("han", "fu", "yakuman", "fan", "flowers") if key in raw]
            if given:
                raise RuleError.one(at(given[0]), "give the tiles or the value, not both"
                                    + (" (flowers go inside tiles)" if given[0] == "flowers" else ""))
            flags = MCR_FLAGS if self.ruleset.is_mcr else RIICHI_FLAGS
            try:
                tiles = read_tile_hand(raw["tiles"], flags=flags)
            except RuleError as exc:
                raise exc.at(at("tiles")) from None
            return Win(winner=self.player(raw["winner"], at("winner")), tiles=tiles,
                       pao=self.player(raw["pao"], at("pao")) if "pao" in raw else None)
        return Win(
            winner=self.player(raw["winner"], at("winner")),
            han=raw.get("han", 0),
            fu=raw.get("fu"),
            yakuman=raw.get("yakuman", 0),
            fan=raw.get("fan", 0),
            flowers=raw.get("flowers", 0),
            pao=self.player(raw["pao"], at("pao")) if "pao" in raw else None,
        )

    @staticmethod
    def _misplaced(kind: str, field: str) -> str:
        owners = [result for result, fields in _ALLOWED.items() if field in fields]
        return f"a {kind} has no {field} (that belongs to a " + " or ".join(owners) + ")"
