"""Game flow: one hand after another, the dealer, honba, sticks and the end (RULES.md §3).

``play_hand`` settles a hand and moves the game on; ``play_game`` replays a
whole list of hands. Both return new objects and keep nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rules.errors import RuleError
from rules.final import is_first
from rules.hands import HandResult, Settlement
from rules.ruleset import Ruleset
from rules.settle import settle
from rules.state import GameState, round_seats

# Values the wins typed as tiles, knowing the state they were played in
# (seat and round winds, the dealer); supplied by the score sheet's adapters.
ValueTiles = Callable[[GameState, HandResult], HandResult]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as played: the state before, what happened, the state after."""

    before: GameState
    result: HandResult
    settlement: Settlement
    after: GameState


@dataclass(frozen=True, slots=True)
class GameRecord:
    hands: tuple[HandRecord, ...]
    state: GameState  # after the last hand

    @property
    def finished(self) -> bool:
        return self.state.finished


def default_names(players: int) -> tuple[str, ...]:
    return tuple(f"player {i + 1}" for i in range(players))


def play_hand(*, ruleset: Ruleset, state: GameState, result: HandResult,
              names: Sequence[str] | None = None, value_tiles: ValueTiles | None = None) -> HandRecord:
    """Settle ``result`` in ``state`` and return the hand with the next state."""
    names = names or default_names(ruleset.players)
    if state.finished:
        raise RuleError.one("", f"the game has already ended ({state.end_reason}); no more hands can be added")
    if value_tiles is not None:
        result = value_tiles(state, result)
    settlement = settle(ruleset=ruleset, state=state, result=result, names=names)
    return HandRecord(before=state, result=result, settlement=settlement,
                      after=_next_state(ruleset=ruleset, state=state, settlement=settlement))


def play_game(*, ruleset: Ruleset, start: GameState, hands: Sequence[HandResult],
              names: Sequence[str] | None = None, ended_by_time: bool = False,
              value_tiles: ValueTiles | None = None) -> GameRecord:
    """Replay every hand from ``start``; a problem is raised under ``[i]`` for hand i."""
    state = start
    records: list[HandRecord] = []
    for index, result in enumerate(hands):
        try:
            record = play_hand(ruleset=ruleset, state=state, result=result, names=names, value_tiles=value_tiles)
        except RuleError as exc:
            raise exc.at(f"[{index}]") from None
        records.append(record)
        state = record.after
    if ended_by_time and not state.finished:
        state = replace(state, finished=True, end_reason="time")
    elif state.may_stop and not state.finished:
        state = replace(state, finished=True, end_reason="the last dealer stopped")
    return GameRecord(hands=tuple(records), state=state)


def _next_state(*, ruleset: Ruleset, state: GameState, settlement: Settlement) -> GameState:
    scores = tuple(s + d for s, d in zip(state.scores, settlement.deltas, strict=True))
    chombos = state.chombos
    if settlement.chombo_player is not None:
        chombos = tuple(c + (p == settlement.chombo_player) for p, c in enumerate(chombos))
    moved = replace(state, scores=scores, chombos=chombos, deposits=settlement.deposits_after,
                    honba=settlement.honba_after, may_stop=False)

    if ruleset.busting and any(s < 0 for s in scores):
        return replace(moved, finished=True, end_reason="bust")
    if settlement.replay:
        if ruleset.chombo_ends_game:
            return replace(moved, finished=True, end_reason="chombo")
        return moved

    n = ruleset.players
    planned_last = ruleset.round_winds - 1
    goal_met = any(s >= ruleset.goal_points for s in scores)
    extending = ruleset.extension == "until_goal"

    if state.round_wind > planned_last:
        # Extension (Tenhou's West round): sudden death once anyone reaches the goal.
        if goal_met:
            return replace(moved, finished=True, end_reason="goal reached")
        if not settlement.dealer_stays and state.hand == n:
            return replace(moved, finished=True, end_reason="end of the extra round")
    elif state.round_wind == planned_last and state.hand == n:
        if settlement.dealer_stays and ruleset.last_dealer_may_stop and settlement.kind in ("ron", "tsumo"):
            return replace(moved, may_stop=True)
        if settlement.dealer_stays:
            dealer_won_or_tenpai = settlement.kind in ("ron", "tsumo", "draw")
            if (ruleset.agari_yame and dealer_won_or_tenpai and (goal_met or not extending)
                    and is_first(ruleset=ruleset, scores=scores, player=state.dealer)):
                return replace(moved, finished=True, end_reason="agari-yame")
        elif not extending or goal_met or planned_last + 1 >= len(ruleset.round_wind_letters):
            return replace(moved, finished=True, end_reason="end of the game")

    if settlement.dealer_stays:
        return moved
    if state.hand < n:
        return replace(moved, hand=state.hand + 1)
    wind = state.round_wind + 1
    return replace(moved, round_wind=wind, hand=1, seats=round_seats(ruleset=ruleset, round_wind=wind))
