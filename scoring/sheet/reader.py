"""Reading a score sheet: the whole document is checked before anything is computed.

``read_sheet`` turns the JSON of docs/score-sheet.md into rules/ objects and
reports every problem it finds, each as ``path: message``. ``score_sheet``
then replays the game; problems that only show during the replay (a riichi a
player cannot pay, a hand after the end) are reported the same way.

From here on players are seats: the index of a player in the sheet's
``players`` (0 = the first dealer). A score sheet names them by name; a
stored game names them by player id and gives ``labels``, the names its
messages use. Names are put back only when a result is shown
(``scoring.sheet.output``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.errors import Problem, Refusal
from rules.final import FinalRow, final_results
from rules.game import GameRecord, play_game
from rules.hands import SOLO_RESULTS, Abort, Chombo, Draw, HandResult, Outcome, Ron, Tsumo, Win
from rules.presets import get_preset
from rules.ruleset import Ruleset
from rules.settle import check_hand
from rules.state import GameState, start_state
from scoring.sheet import solo
from scoring.sheet.record import PlayerRef, allowed_fields, win_fields
from scoring.sheet.schema import BY_ID, BY_NAME, sort_key
from scoring.sheet.schema_memo import sheet_problems
from scoring.tiles.notation import MCR_FLAGS, RIICHI_FLAGS, read_tile_hand
from scoring.tiles.valuer import tile_valuer


@dataclass(frozen=True, slots=True)
class Sheet:
    """A checked score sheet, ready to replay."""

    ruleset: Ruleset
    names: tuple[str, ...]  # how messages name each seat's player
    start: GameState
    hands: tuple[HandResult, ...]
    penalties: dict[int, Fraction]
    penalty_list: tuple[tuple[int, Fraction, str], ...]
    ended_by_time: bool


@dataclass(frozen=True, slots=True)
class ScoredSheet:
    sheet: Sheet
    record: GameRecord
    # The final rows once computed: a stored game's result, its results rows and its statistics all read them.
    _final: list[tuple[FinalRow, ...]] = field(default_factory=list, init=False, repr=False, compare=False)

    def final_rows(self) -> tuple[FinalRow, ...]:
        """Ranks and final points of the game as it stands (docs/rules.md §5)."""
        if not self._final:
            self._final.append(self._final_rows())
        return self._final[0]

    def _final_rows(self) -> tuple[FinalRow, ...]:
        if self.sheet.ruleset.is_solo:
            return solo.final_rows(self.sheet.ruleset, self.record)
        state = self.record.state
        return final_results(
            ruleset=self.sheet.ruleset,
            scores=state.scores,
            deposits=state.deposits,
            finished=state.finished,
            chombos=state.chombos,
            penalties=self.sheet.penalties,
        )


_VALUE_KEYS = tuple(f.name for f in win_fields() if f.name != "winner")


def read_sheet(data: Any, *, labels: Sequence[str] | None = None, checked: int = 0) -> Sheet:
    """Check a whole sheet and build its rules/ objects; Refusal lists every problem.

    Without ``labels`` the sheet names its players by name (the public
    format); with them, by player id, ``labels`` giving the names that
    messages use, in the same order. ``checked``: how many leading hands
    already passed the schema (a stored game's hands the write leaves as
    they were): only the others are checked against it again, so a hand
    added to a long game costs the same as one added to a short one. The
    rules check every hand whatever ``checked`` says. A solo sheet's hand without a result is a tenpai.
    """
    data = solo.with_results(data)
    problems = _schema_problems(data, players=BY_NAME if labels is None else BY_ID, checked=checked)
    # A hand or penalty with a bad shape is skipped below, so that the other
    # hands are still checked; a bad header stops here.
    skipped = {_entry_of(p.field) for p in problems}
    problems += _missing_in_skipped(data, skipped, problems)
    if any(entry is None for entry in skipped):
        raise Refusal(problems)

    ruleset = _read_ruleset(data)
    refs = tuple(data["players"])
    header = solo.header_problems(data) if ruleset.is_solo else []
    if len(refs) != ruleset.players:
        header.append(Problem.of("players", "player_count", players=ruleset.players, count=len(refs)))
    if header:
        raise Refusal(sorted(header, key=lambda p: sort_key(p.field)))
    names = tuple(labels) if labels is not None else tuple(str(ref) for ref in refs)
    reader = _HandReader(ruleset=ruleset, refs=refs, names=names)
    start = _read_start(ruleset, data.get("start") or {})
    hands = _read_hands(reader, data["hands"], skipped, problems)
    penalties = _read_penalties(reader, data.get("penalties", []), skipped, problems)
    if problems:
        raise Refusal(sorted(problems, key=lambda p: sort_key(p.field)))
    totals: dict[int, Fraction] = {}
    for player, points, _reason in penalties:
        totals[player] = totals.get(player, Fraction(0)) + points
    return Sheet(
        ruleset=ruleset,
        names=names,
        start=start,
        hands=tuple(hands),
        penalties=totals,
        penalty_list=tuple(penalties),
        ended_by_time=data.get("end") == "time",
    )


def missing_parts(raw: Any, *, mcr: bool) -> list[Problem]:
    """Every part a win lacks, at once: who won, who dealt in, what the hand is worth (an empty ron names all
    three, not one per try)."""
    if not isinstance(raw, Mapping) or raw.get("result") not in ("ron", "tsumo") or "wins" in raw:
        return []
    kind = raw["result"]
    out = []
    if kind == "ron" and "loser" not in raw:
        out.append(Problem.of("loser", "loser_required"))
    if "winner" not in raw:
        out.append(Problem.of("winner", f"winner_required_{kind}"))
    if not any(key in raw for key in ("han", "yakuman", "fan", "tiles")):
        out.append(Problem.of("fan", "win_needs_fan") if mcr else Problem.of("han", "win_needs_value"))
    return out


def _missing_in_skipped(data: Any, skipped: set[tuple[str, int] | None], found: list[Problem]) -> list[Problem]:
    """For hands the schema refused, the missing parts it does not name itself."""
    if not isinstance(data, Mapping) or not isinstance(data.get("hands"), list):
        return []
    overrides = data.get("overrides")
    mcr = data.get("ruleset") == "mcr" or (isinstance(overrides, Mapping) and overrides.get("scoring") == "mcr")
    named = {p.field for p in found}
    out = []
    for entry in sorted(e for e in skipped if e is not None and e[0] == "hands"):
        for problem in missing_parts(data["hands"][entry[1]], mcr=mcr):
            field = f"hands[{entry[1]}].{problem.field}"
            if field not in named:
                out.append(problem.moved(field))
    return out


def _read_hands(
    reader: _HandReader, raw_hands: Sequence[Any], skipped: set[tuple[str, int] | None], problems: list[Problem]
) -> list[HandResult]:
    """The hands the schema let through, each checked against the rules; problems go to ``problems``."""
    hands: list[HandResult] = []
    for index, raw in enumerate(raw_hands):
        if ("hands", index) in skipped:
            continue
        try:
            hand = reader.hand(raw)
            check_hand(ruleset=reader.ruleset, result=hand, names=reader.names)
        except Refusal as exc:
            problems.extend(p.at(f"hands[{index}]") for p in exc.problems)
            continue
        hands.append(hand)
    return hands


def _read_penalties(
    reader: _HandReader, raw_penalties: Sequence[Any], skipped: set[tuple[str, int] | None], problems: list[Problem]
) -> list[tuple[int, Fraction, str]]:
    penalties: list[tuple[int, Fraction, str]] = []
    for index, raw in enumerate(raw_penalties):
        if ("penalties", index) in skipped:
            continue
        try:
            player = reader.player(raw["player"], "player")
        except Refusal as exc:
            problems.extend(p.at(f"penalties[{index}]") for p in exc.problems)
            continue
        penalties.append((player, Fraction(str(raw["points"])), raw.get("reason", "")))
    return penalties


def _schema_problems(data: Any, *, players: str, checked: int) -> list[Problem]:
    hands = data.get("hands") if isinstance(data, dict) else None
    if not checked or not isinstance(hands, list):
        return sheet_problems(data, players=players)
    problems = sheet_problems({**data, "hands": hands[checked:]}, players=players)
    return [
        p.moved(_HAND_INDEX.sub(lambda m: f"hands[{int(m.group(1)) + checked}]", p.field, count=1)) for p in problems
    ]


_HAND_INDEX = re.compile(r"^hands\[(\d+)\]")


def _entry_of(field: str) -> tuple[str, int] | None:
    """("hands", 3) for a problem under hands[3]; None for one outside any hand or penalty."""
    match = re.match(r"(hands|penalties)\[(\d+)\]", field)
    return (match.group(1), int(match.group(2))) if match else None


def score_sheet(data: Any, *, labels: Sequence[str] | None = None, checked: int = 0) -> ScoredSheet:
    """Read and replay a sheet (players by id with ``labels``, see ``read_sheet``); Refusal if it is invalid."""
    sheet = read_sheet(data, labels=labels, checked=checked)
    try:
        record = play_game(
            ruleset=sheet.ruleset,
            start=sheet.start,
            hands=sheet.hands,
            names=sheet.names,
            ended_by_time=sheet.ended_by_time,
            value_tiles=tile_valuer(sheet.ruleset),
        )
    except Refusal as exc:
        raise exc.at("hands") from None
    return ScoredSheet(sheet=sheet, record=record)


def _read_ruleset(data: Mapping[str, Any]) -> Ruleset:
    base = get_preset(data["ruleset"])
    try:
        ruleset = Ruleset.build(base=base, overrides=data.get("overrides") or {})
    except Refusal as exc:
        raise exc.at("overrides") from None
    return ruleset


def _read_start(ruleset: Ruleset, start: Mapping[str, Any]) -> GameState:
    try:
        return start_state(
            ruleset=ruleset,
            round_label=start.get("round", "E1"),
            honba=start.get("honba", 0),
            deposits=start.get("deposits", 0),
            scores=start.get("scores"),
        )
    except Refusal as exc:
        raise exc.at("start") from None


class _HandReader:
    """Turns one hand's JSON into a rules/ hand, naming players by their seat."""

    def __init__(self, *, ruleset: Ruleset, refs: tuple[PlayerRef, ...], names: tuple[str, ...]) -> None:
        self.ruleset = ruleset
        self.names = names
        self.seat: dict[PlayerRef, int] = {}
        for i, ref in enumerate(refs):
            self.seat.setdefault(ref, i)
        listed = names if refs == names else [f"{name} ({ref})" for name, ref in zip(names, refs, strict=True)]
        self.listing = ", ".join(str(name) for name in listed)

    def player(self, ref: PlayerRef, field: str) -> int:
        if ref not in self.seat:
            raise Refusal.of(field, "unknown_player", ref=ref, players=self.listing)
        return self.seat[ref]

    def players(self, refs: Sequence[PlayerRef], field: str) -> list[int]:
        return [self.player(ref, f"{field}[{i}]") for i, ref in enumerate(refs)]

    def hand(self, raw: Mapping[str, Any]) -> HandResult:
        kind = Outcome(raw["result"])
        missing = missing_parts(raw, mcr=self.ruleset.is_mcr)
        if missing:
            raise Refusal(missing)
        misplaced = sorted(set(raw) - allowed_fields()[kind] - {"result", "note"})
        if misplaced:
            raise Refusal.one(misplaced[0], self._misplaced(kind, misplaced[0]))
        riichi = frozenset(self.players(raw.get("riichi", []), "riichi"))
        false_wins = tuple(self.players(raw.get("false_wins", []), "false_wins"))
        live = frozenset(self.players(raw.get("false_wins_live", []), "false_wins_live"))
        if (false_wins or live) and not self.ruleset.is_mcr:
            raise Refusal.one(
                "false_wins" if false_wins else "false_wins_live",
                "false wins are an MCR rule; in riichi a false win is a chombo "
                '(record {"result": "chombo", "player": ...})',
            )
        if kind in SOLO_RESULTS:
            return solo.read_attempt(raw, riichi=riichi)
        if kind == "ron":
            return Ron(
                loser=self.player(raw["loser"], "loser"),
                wins=self._ron_wins(raw),
                riichi=riichi,
                false_wins=false_wins,
                false_wins_live=live,
            )
        if kind == "tsumo":
            return Tsumo(win=self._win(raw, ""), riichi=riichi, false_wins=false_wins, false_wins_live=live)
        if kind == "draw":
            return Draw(
                tenpai=frozenset(self.players(raw.get("tenpai", []), "tenpai")),
                nagashi=tuple(self.players(raw.get("nagashi", []), "nagashi")),
                riichi=riichi,
                false_wins=false_wins,
            )
        if kind == "abort":
            return Abort(reason=raw.get("reason"), riichi=riichi)
        return Chombo(player=self.player(raw["player"], "player"), riichi=riichi)

    def _ron_wins(self, raw: Mapping[str, Any]) -> tuple[Win, ...]:
        if "wins" in raw:
            for field in ("winner", *_VALUE_KEYS):
                if field in raw:
                    raise Refusal.one(field, "with a list of wins, give each winner and value inside wins")
            return tuple(self._win(win, f"wins[{i}]") for i, win in enumerate(raw["wins"]))
        if "winner" not in raw:
            raise Refusal.of("winner", "winner_required_ron")
        return (self._win(raw, ""),)

    def _win(self, raw: Mapping[str, Any], prefix: str) -> Win:
        def at(field: str) -> str:
            return f"{prefix}.{field}" if prefix else field

        if "tiles" in raw:
            given = [key for key in ("han", "fu", "yakuman", "fan", "flowers") if key in raw]
            if given:
                raise Refusal.one(
                    at(given[0]),
                    "give the tiles or the value, not both"
                    + (" (flowers go inside tiles)" if given[0] == "flowers" else ""),
                )
            flags = MCR_FLAGS if self.ruleset.is_mcr else RIICHI_FLAGS
            try:
                tiles = read_tile_hand(raw["tiles"], flags=flags)
            except Refusal as exc:
                raise exc.at(at("tiles")) from None
            return Win(
                winner=self.player(raw["winner"], at("winner")),
                tiles=tiles,
                pao=self.player(raw["pao"], at("pao")) if "pao" in raw else None,
            )
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
        owners = [str(result) for result, fields in allowed_fields().items() if field in fields]
        return f"a {kind} has no {field} (that belongs to a " + " or ".join(owners) + ")"
