"""The solo race to tenpai: seed 001's "1인 마작" (the N-player document, N = 1).

What the seed says, and what this module makes of it:

- line 612: "1인 마작은, 34매의 패를 자기가 섞고, 쌓고, 주사위를 굴리고, 14패를 가져오고 나서 쯔모를 반복,
  텐파이(聽牌)까지의 빠르기를 겨루는 것으로 할 수 있다." — one player shuffles and builds the 34 tiles, rolls the
  dice, takes 14 tiles and then draws again and again: they compete on how fast they reach tenpai. A hand is
  an ``Attempt``: the draws after the 14 dealt tiles (0: tenpai as dealt, the seed's story at line 636 calls
  such a hand "at a stretch, tenhou").
- line 614: "텐파이(聽牌)까지 몇 순() 걸렸는지를 겨룬다. 같은 순()수라면 점수가 높은 쪽이 위가 된다." — they
  compete on how many draws (순) it took; at equal draws, the higher score ranks higher: ``SoloScore.key``.
- rule 0.2 (line 584, "N인 마작은 N x 34매의 패를 사용한다"): 34 tiles, one of each, so no pair, pon or kan
  can be made, and with no other player nobody discards a tile to call: no calls.
- rule 0.8 (line 596, "왕패(王牌) 2매로 한다"): a dead wall of 2. So the wall gives at most
  34 − 14 − 2 = ``MAX_DRAWS`` (18) draws.
- rule 0.6 (line 592, "친()은 항상 동가(東家)가 된다"): the dealer is always East, so the one player is the
  East dealer of every attempt, and a hand's value is the dealer's.
- rule 0.4 (line 588: all N players in riichi is an abortive draw) and the seed's story (lines 640–646: the
  player declares riichi, then "아차! 유국(流局)이네", "oops, an abortive draw"): a riichi ends the attempt with
  nothing, so an attempt records no riichi.

Where the seed is silent (?), the choices made here (docs/solo.md):

- (?) the value: a tenpai hand never wins (line 612: "날 수는 없으나", it cannot win), so it is valued as the
  riichi hand it would be if its wait came by the player's own draw: han/fu (or yakuman) checked as for a
  tsumo (25 fu needs 3 han), or its tiles scored as a tsumo by the East dealer; its points are the dealer's
  score-table value, 6 × base points rounded up to 100 (2 han 30 fu: 2900; a mangan: 12000).
- (?) the head: line 520 lets the solo game's head be "또이쯔(塔子)" (a pair, or a partial run), which the
  single wait of line 612 ("대기는 반드시 단기대기") does not need: tiles are scored as the standard hand the tile
  waited on would complete, its pair included.
- (?) an attempt whose wall runs out before tenpai (``noten``) counts as ``NOTEN_DRAWS`` (19, one more than
  the wall holds: slower than any tenpai) and value 0.
- (?) several attempts (the seed ranks one): the ruleset's ``solo_ranking`` counts each player's best attempt,
  or the sum over ``solo_attempts`` attempts; a game is finished after ``solo_attempts`` attempts, or (none
  set) from its first attempt on, further attempts still welcome.
- (?) equal on draws and value, attempts and players share the rank (as tied players do in every ruleset).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import Problem, Refusal
from rules.hand_value import HandValue, check_han_fu, hand_value, ron_value
from rules.hands import Attempt, HandResult, Outcome, Settlement, Win, WinOutcome
from rules.options import SoloRanking
from rules.presets import preset
from rules.ruleset import Ruleset
from rules.state import GameState

SOLO_TILES = 34  # rule 0.2: N × 34 tiles, one of each kind
DEALT = 14  # line 612: the tiles taken before the first draw
DEAD_WALL = 2  # rule 0.8
MAX_DRAWS = SOLO_TILES - DEALT - DEAD_WALL  # 18: the draws the wall gives
NOTEN_DRAWS = MAX_DRAWS + 1  # (?) what an attempt that never reached tenpai counts as


@preset("solo")
def _solo() -> dict[str, Any]:
    """The solo race to tenpai (seed 001 "1인 마작", lines 612–614).

    One player, 34 tiles (one of each), no calls; the player draws until
    tenpai, and attempts rank by the fewest draws, then by the higher value
    (the tenpai hand's riichi value as the East dealer). At most 18 draws:
    34 tiles less the 14 dealt and the dead wall of 2 (rule 0.8). No points,
    no uma, no riichi (one player in riichi is all players in riichi: an
    abortive draw, rule 0.4 and the seed's story).
    Uncertain (?): the value of a hand that cannot win (its value as a
    dealer's tsumo, 6 × base rounded up to 100); a noten attempt counts as
    19 draws and value 0; several attempts rank by the best one
    (solo_ranking best_attempt, any number of attempts a game) or by their
    sum over solo_attempts (sum_of_attempts).
    """
    return {
        "players": 1,
        "scoring": "solo",
        "start_points": 0,
        "return_points": 0,
        "uma": [],
        "honba_points": 0,
        "noten_payment_total": 0,
        "round_winds": 1,
        "chombo_penalty": 0,
        "pao": False,
        "deposits_at_end": "lost",
    }


@dataclass(frozen=True, slots=True, order=True)
class SoloScore:
    """What ranks an attempt, or a player's attempts together: the draws, then the value in points."""

    draws: int
    value: int

    @property
    def key(self) -> tuple[int, int]:
        """Lower is better: fewer draws, then a higher value."""
        return (self.draws, -self.value)


@dataclass(frozen=True, slots=True)
class SoloTotal:
    """A player's attempts as the ruleset counts them: the score, and which attempts (0-based) it counts."""

    score: SoloScore
    counted: tuple[int, ...]


# --- one attempt ----------------------------------------------------------------------------------------------------


def check_attempt(*, ruleset: Ruleset, result: HandResult) -> HandValue | None:
    """Refuse what no attempt can be, and any other hand in the solo game; the tenpai hand's value (None for a
    noten attempt, and for one given as tiles: they are valued before the attempt is settled)."""
    if not isinstance(result, Attempt):
        raise Refusal.of("result", "solo_results")
    if not ruleset.is_solo:
        raise Refusal.of("result", "attempt_outside_solo")
    if result.riichi:
        raise Refusal.of("riichi", "solo_riichi")
    if not 0 <= result.draws <= MAX_DRAWS:
        raise Refusal.of("draws", "solo_draws", most=MAX_DRAWS, tiles=SOLO_TILES, dealt=DEALT, dead_wall=DEAD_WALL)
    if result.win is None:
        return None
    if result.win.tiles is not None:
        return None  # valued from its tiles before it is settled
    return attempt_value(ruleset=ruleset, win=result.win)


def attempt_value(*, ruleset: Ruleset, win: Win) -> HandValue:
    """The tenpai hand's value from han/fu or yakuman, checked as a tsumo's (?)."""
    problems: list[Problem] = []
    if win.fan or win.flowers:
        problems.append(Problem.of("fan", "fan_in_riichi"))
    if win.yakuman and (win.han or win.fu is not None):
        problems.append(Problem.of("yakuman", "yakuman_and_han"))
    if problems:
        raise Refusal(problems)
    if win.yakuman:
        return hand_value(ruleset=ruleset, yakuman=win.yakuman)
    if not win.han:
        raise Refusal.of("han", "tenpai_needs_value")
    check_han_fu(han=win.han, fu=win.fu, tsumo=True)
    return hand_value(ruleset=ruleset, han=win.han, fu=win.fu)


def points(*, ruleset: Ruleset, base: int) -> int:
    """A hand's value in points: the East dealer's score-table value, 6 × base rounded up to 100 (?)."""
    return ron_value(ruleset=ruleset, base=base, dealer=True)


def settle_attempt(*, ruleset: Ruleset, state: GameState, result: HandResult) -> Settlement:
    """An attempt moves no points: it is kept with its value, and the game counts it."""
    value = check_attempt(ruleset=ruleset, result=result)
    assert isinstance(result, Attempt), "check_attempt refuses anything else"
    wins: tuple[WinOutcome, ...] = ()
    if result.win is not None:
        win = result.win
        value = value or attempt_value(ruleset=ruleset, win=win)  # tiles: the valuer put in their han and fu
        wins = (
            WinOutcome(
                winner=win.winner,
                han=value.han,
                fu=value.fu,
                yakuman=value.yakuman,
                base=value.base,
                limit=value.limit,
                items=win.items,
            ),
        )
    return Settlement(
        kind=Outcome.TENPAI if result.win is not None else Outcome.NOTEN,
        deltas=(0,) * ruleset.players,
        payments=(),
        deposits_after=state.deposits,
        dealer_stays=True,
        honba_after=state.honba,
        wins=wins,
    )


def attempt_score(*, ruleset: Ruleset, attempt: Attempt, settlement: Settlement) -> SoloScore:
    """What ranks one attempt: a noten one counts as ``NOTEN_DRAWS`` and value 0 (?)."""
    if settlement.kind == Outcome.NOTEN or not settlement.wins:
        return SoloScore(draws=NOTEN_DRAWS, value=0)
    return SoloScore(draws=attempt.draws, value=points(ruleset=ruleset, base=settlement.wins[0].base))


# --- several attempts -----------------------------------------------------------------------------------------------


def rank_scores(scores: Sequence[SoloScore]) -> list[int]:
    """Each score's rank among them (1 = best): fewest draws, then the higher value; equal ones share the rank."""
    keys = sorted(score.key for score in scores)
    return [keys.index(score.key) + 1 for score in scores]


def solo_total(*, ruleset: Ruleset, scores: Sequence[SoloScore]) -> SoloTotal | None:
    """A player's attempts as the ruleset ranks them (None before the first): the best one (the earliest of equal
    ones), or the sum of draws and of values over all of them (a game holds at most ``solo_attempts``)."""
    if not scores:
        return None
    if ruleset.solo_ranking == SoloRanking.SUM_OF_ATTEMPTS:
        return SoloTotal(
            SoloScore(draws=sum(s.draws for s in scores), value=sum(s.value for s in scores)), tuple(range(len(scores)))
        )
    best = min(range(len(scores)), key=lambda i: (scores[i].key, i))
    return SoloTotal(scores[best], (best,))


def solo_end(*, ruleset: Ruleset, played: int) -> tuple[str | None, bool]:
    """After ``played`` attempts: whether the game ended (its ``solo_attempts`` made), or may stop here (no number
    set: every attempt may be the last)."""
    if ruleset.solo_attempts is None:
        return None, True
    return ("end of the game" if played >= ruleset.solo_attempts else None), False


def solo_key(*, ruleset: Ruleset, score: SoloScore, games: int) -> tuple[int, ...]:
    """What ranks a player's line in the standings, higher first: fewer draws, then a higher value; for the sum of
    attempts, the games counted first (?): a player who has not made every attempt yet has fewer draws to add up,
    and must not pass one who has."""
    key = (-score.draws, score.value)
    return (games, *key) if ruleset.solo_ranking == SoloRanking.SUM_OF_ATTEMPTS else key
