"""The checks on one hand as a referee wrote it: players, values, the ruleset's options.

docs/score-sheet.md "Invalid input". ``check_hand`` runs every check that does not
depend on the game's state; settlement (rules.settle) runs them again, with
the ones that do, as it values each win.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import Problem, Refusal
from rules.hand_value import KAZOE_HAN, HandValue, check_han_fu, hand_value
from rules.hands import ABORT_REASONS, Abort, AbortReason, Attempt, Chombo, Draw, HandResult, Ron, Tsumo, Win
from rules.mcr import check_mcr_hand
from rules.ruleset import Ruleset
from rules.solo import check_attempt
from rules.state import GameState


def check_hand(*, ruleset: Ruleset, result: HandResult, names: Sequence[str]) -> None:
    """Every check that does not depend on the game's state: players, values, options.

    The score sheet runs it on every hand before replaying anything, so that a
    sheet's problems are all reported at once.
    """
    if ruleset.is_solo or isinstance(result, Attempt):
        check_attempt(ruleset=ruleset, result=result)
        return
    check_players(ruleset=ruleset, result=result, names=names)
    if ruleset.is_mcr:
        check_mcr_hand(ruleset=ruleset, result=result, names=names)
        return
    if isinstance(result, Ron):
        for i, win in enumerate(result.wins):
            if win.tiles is None:
                win_value(ruleset=ruleset, win=win, tsumo=False, field=win_field(result, i), names=names)
    elif isinstance(result, Tsumo):
        if result.win.tiles is None:
            win_value(ruleset=ruleset, win=result.win, tsumo=True, field="", names=names)
    elif isinstance(result, Draw):
        check_draw(ruleset=ruleset, draw=result)
    elif isinstance(result, Abort):
        check_abort(ruleset=ruleset, abort=result)


def check_players(*, ruleset: Ruleset, result: HandResult, names: Sequence[str]) -> None:
    """Every player named is at the table; a ron has winners other than the discarder, each once."""
    n = ruleset.players
    for p in getattr(result, "riichi", ()):
        _at_table("riichi", p, n)
    if isinstance(result, Ron):
        _check_ron_players(ron=result, players=n, names=names)
    for field, player in _players_named(result):
        _at_table(field, player, n)


def _at_table(field: str, player: int | None, players: int) -> None:
    if player is not None and not 0 <= player < players:
        raise Refusal.of(field, "no_such_player", player=player, players=players)


def _players_named(result: HandResult) -> Sequence[tuple[str, int | None]]:
    """The players a tsumo, a chombo or a draw names, with the field that names each (a ron's are checked apart)."""
    if isinstance(result, Tsumo):
        return [("winner", result.win.winner), ("pao", result.win.pao)]
    if isinstance(result, Chombo):
        return [("player", result.player)]
    if isinstance(result, Draw):
        return [("tenpai", p) for p in result.tenpai] + [("nagashi", p) for p in result.nagashi]
    return []


def _check_ron_players(*, ron: Ron, players: int, names: Sequence[str]) -> None:
    # One win at a time, in order, so that the first problem is the one the sheet shows first.
    _at_table("loser", ron.loser, players)
    if not ron.wins:
        raise Refusal.of("wins", "ron_needs_winner")
    seen: set[int] = set()
    for i, win in enumerate(ron.wins):
        field = win_field(ron, i)
        _at_table(_join(field, "winner"), win.winner, players)
        _at_table(_join(field, "pao"), win.pao, players)
        if win.winner == ron.loser:
            raise Refusal.of(_join(field, "winner"), "win_on_own_discard", player=names[win.winner])
        if win.winner in seen:
            raise Refusal.of(_join(field, "winner"), "winner_twice", player=names[win.winner])
        seen.add(win.winner)


def check_riichi(*, ruleset: Ruleset, state: GameState, result: HandResult, names: Sequence[str]) -> None:
    """Where a score below 0 ends the game, a player needs the stick's value to declare riichi."""
    if not ruleset.busting:
        return
    for p in sorted(result.riichi):
        if state.scores[p] < ruleset.riichi_deposit:
            raise Refusal.of(
                "riichi", "riichi_cannot_pay", player=names[p], points=state.scores[p], stick=ruleset.riichi_deposit
            )


def check_draw(*, ruleset: Ruleset, draw: Draw) -> None:
    """Nagashi mangan only where the ruleset has it, each player once (docs/rules.md §3)."""
    if draw.nagashi and not ruleset.nagashi_mangan:
        raise Refusal.of("nagashi", "no_nagashi_mangan")
    if len(set(draw.nagashi)) != len(draw.nagashi):
        raise Refusal.of("nagashi", "listed_twice")


def check_abort(*, ruleset: Ruleset, abort: Abort) -> None:
    """An abortive draw for a known reason, where the ruleset has them (docs/rules.md §3).

    A triple ron is one only under the multiple_ron options that abort it (seed 000 §3.5, options 2 and 4).
    """
    if abort.reason is not None and abort.reason not in ABORT_REASONS:
        raise Refusal.of("reason", "one_of", choices=", ".join(ABORT_REASONS))
    if abort.reason == AbortReason.TRIPLE_RON and AbortReason.TRIPLE_RON not in ruleset.abort_reasons:
        raise Refusal.of("reason", "triple_ron_not_abortive", option=str(ruleset.multiple_ron))
    if not ruleset.abortive_draws and abort.reason != AbortReason.TRIPLE_RON:
        raise Refusal.of("result", "no_abortive_draws")
    if abort.reason is not None and abort.reason not in ruleset.abort_reasons:
        # Rule 0 (seed 001) has its three abortive draws only; the N - 1 rons are rule 0's alone.
        raise Refusal.of("reason", "one_of", choices=", ".join(ruleset.abort_reasons))
    if abort.reason == AbortReason.FOUR_RIICHI and len(abort.riichi) != ruleset.players:
        raise Refusal.of("riichi", "four_riichi_needs_all", players=ruleset.players)


def win_field(ron: Ron, index: int) -> str:
    """Where a problem with a ron's win is reported: ``wins[i]`` when there are several, else the hand itself."""
    return f"wins[{index}]" if len(ron.wins) > 1 else ""


def _join(prefix: str, field: str) -> str:
    return f"{prefix}.{field}" if prefix else field


def win_value(*, ruleset: Ruleset, win: Win, tsumo: bool, field: str, names: Sequence[str]) -> HandValue:
    """Check one win against the ruleset and value it (docs/score-sheet.md "Invalid input")."""
    _check_value_fields(win=win, field=field)
    value = _valued(ruleset=ruleset, win=win, tsumo=tsumo, field=field)
    if ruleset.yakuman_only and not value.is_yakuman:
        raise (
            Refusal.of(_join(field, "han"), "yakuman_only_kazoe", han=KAZOE_HAN)
            if ruleset.kazoe_yakuman
            else Refusal.of(_join(field, "han"), "yakuman_only")
        )
    if not value.is_yakuman and win.han < ruleset.min_han:
        raise Refusal.of(_join(field, "han"), "below_min_han", han=win.han, minimum=ruleset.min_han)
    if win.pao is not None:
        _check_pao(ruleset=ruleset, win=win, field=field, names=names)
    return value


def _check_value_fields(*, win: Win, field: str) -> None:
    """A riichi win is valued in han and fu, or in yakuman: never fan, never both (every such problem at once)."""
    problems: list[Problem] = []
    if win.fan or win.flowers:
        problems.append(Problem.of(_join(field, "fan"), "fan_in_riichi"))
    if win.yakuman and (win.han or win.fu is not None):
        problems.append(Problem.of(_join(field, "yakuman"), "yakuman_and_han"))
    if problems:
        raise Refusal(problems)


def _valued(*, ruleset: Ruleset, win: Win, tsumo: bool, field: str) -> HandValue:
    if win.yakuman:
        if win.yakuman < 1:
            raise Refusal.of(_join(field, "yakuman"), "yakuman_count")
        return hand_value(ruleset=ruleset, yakuman=win.yakuman)
    if not win.han:
        raise Refusal.of(_join(field, "han"), "win_needs_value")
    try:
        check_han_fu(han=win.han, fu=win.fu, tsumo=tsumo)
    except Refusal as exc:
        raise exc.at(field) from None
    return hand_value(ruleset=ruleset, han=win.han, fu=win.fu)


def _check_pao(*, ruleset: Ruleset, win: Win, field: str, names: Sequence[str]) -> None:
    """Pao only where the ruleset has it, for a yakuman, and on another player than the winner."""
    if not ruleset.pao:
        raise Refusal.of(_join(field, "pao"), "no_pao")
    if not win.yakuman:
        raise Refusal.of(_join(field, "pao"), "pao_only_yakuman")
    if win.pao == win.winner:
        raise Refusal.of(_join(field, "pao"), "pao_own_win", player=names[win.winner])
