"""Game flow: one hand after another, the dealer, honba, sticks and the end (docs/rules.md §3).

``play_hand`` settles a hand and moves the game on; ``play_game`` replays a
whole list of hands. Both return new objects and keep nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rules.errors import Refusal
from rules.final import is_first
from rules.hands import HandResult, Outcome, Settlement
from rules.options import Extension
from rules.ruleset import Ruleset
from rules.settle import settle
from rules.solo import solo_end
from rules.state import GameState, round_seats

# Values the wins typed as tiles, knowing the state they were played in
# (seat and round winds, the dealer); supplied by the score sheet's adapters.
ValueTiles = Callable[[GameState, HandResult], HandResult]

_WINS = (Outcome.RON, Outcome.TSUMO)  # the outcomes where the dealer can have won


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


def play_hand(
    *,
    ruleset: Ruleset,
    state: GameState,
    result: HandResult,
    names: Sequence[str] | None = None,
    value_tiles: ValueTiles | None = None,
) -> HandRecord:
    """Settle ``result`` in ``state`` and return the hand with the next state."""
    names = names or default_names(ruleset.players)
    if state.finished:
        raise Refusal.of("", "game_over", end_reason=state.end_reason)
    if value_tiles is not None:
        result = value_tiles(state, result)
    settlement = settle(ruleset=ruleset, state=state, result=result, names=names)
    return HandRecord(
        before=state,
        result=result,
        settlement=settlement,
        after=_next_state(ruleset=ruleset, state=state, settlement=settlement),
    )


def play_game(
    *,
    ruleset: Ruleset,
    start: GameState,
    hands: Sequence[HandResult],
    names: Sequence[str] | None = None,
    ended_by_time: bool = False,
    value_tiles: ValueTiles | None = None,
) -> GameRecord:
    """Replay every hand from ``start``; a problem is raised under ``[i]`` for hand i."""
    state = start
    records: list[HandRecord] = []
    for index, result in enumerate(hands):
        try:
            record = play_hand(ruleset=ruleset, state=state, result=result, names=names, value_tiles=value_tiles)
        except Refusal as exc:
            raise exc.at(f"[{index}]") from None
        records.append(record)
        state = record.after
    if ended_by_time and not state.finished:
        state = replace(state, finished=True, end_reason="time")
    elif state.may_stop and not state.finished:
        state = replace(
            state, finished=True, end_reason="the player stopped" if ruleset.is_solo else "the last dealer stopped"
        )
    return GameRecord(hands=tuple(records), state=state)


def _next_state(*, ruleset: Ruleset, state: GameState, settlement: Settlement) -> GameState:
    scores = tuple(s + d for s, d in zip(state.scores, settlement.deltas, strict=True))
    chombos = state.chombos
    if settlement.chombo_player is not None:
        chombos = tuple(c + (p == settlement.chombo_player) for p, c in enumerate(chombos))
    end_reason, may_stop = _game_end(ruleset=ruleset, state=state, settlement=settlement, scores=scores)
    wind, hand, seats = state.round_wind, state.hand, state.seats
    if end_reason is None and not may_stop and not settlement.dealer_stays:
        if hand < ruleset.players:
            hand += 1
        else:
            wind, hand = wind + 1, 1
            seats = round_seats(ruleset=ruleset, round_wind=wind)
    # Built once: this runs for every hand of every replay.
    return GameState(
        round_wind=wind,
        hand=hand,
        honba=settlement.honba_after,
        deposits=settlement.deposits_after,
        scores=scores,
        seats=seats,
        chombos=chombos,
        finished=end_reason is not None,
        end_reason=end_reason,
        may_stop=may_stop,
        played=state.played + 1,
    )


def _game_end(
    *, ruleset: Ruleset, state: GameState, settlement: Settlement, scores: tuple[int, ...]
) -> tuple[str | None, bool]:
    """Why the game ends after this hand (None: it goes on), and whether the last dealer may stop here."""
    if ruleset.is_solo:
        return solo_end(ruleset=ruleset, played=state.played + 1)
    if ruleset.busting and any(s < 0 for s in scores):
        return "bust", False
    if settlement.replay:
        return ("chombo" if ruleset.chombo_ends_game else None), False
    goal_met = any(s >= ruleset.goal_points for s in scores)
    planned_last = ruleset.round_winds - 1
    if state.round_wind > planned_last:
        return _extra_round_end(ruleset=ruleset, state=state, settlement=settlement, goal_met=goal_met), False
    if state.round_wind == planned_last and state.hand == ruleset.players:
        return _all_last_end(ruleset=ruleset, state=state, settlement=settlement, scores=scores, goal_met=goal_met)
    return None, False


def _extra_round_end(*, ruleset: Ruleset, state: GameState, settlement: Settlement, goal_met: bool) -> str | None:
    """Extension (Tenhou's West round): sudden death once anyone reaches the goal."""
    if goal_met:
        return "goal reached"
    if not settlement.dealer_stays and state.hand == ruleset.players:
        return "end of the extra round"
    return None


def _all_last_end(
    *, ruleset: Ruleset, state: GameState, settlement: Settlement, scores: tuple[int, ...], goal_met: bool
) -> tuple[str | None, bool]:
    """The planned last hand: the dealer passing ends the game unless it is extended to reach the goal; a dealer
    who stays may stop after a win, or agari-yame ends it."""
    extending = ruleset.extension == Extension.UNTIL_GOAL
    if not settlement.dealer_stays:
        ends = not extending or goal_met or ruleset.round_winds >= len(ruleset.round_wind_letters)
        return ("end of the game" if ends else None), False
    if ruleset.last_dealer_may_stop and settlement.kind in _WINS:
        return None, True
    dealer_won_or_tenpai = settlement.kind in _WINS or (settlement.kind == Outcome.DRAW and ruleset.tenpai_yame)
    if (
        ruleset.agari_yame
        and dealer_won_or_tenpai
        and (goal_met or not extending)
        and is_first(ruleset=ruleset, scores=scores, player=state.dealer)
    ):
        return "agari-yame", False
    return None, False
