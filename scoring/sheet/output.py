"""A scored sheet as the result object of SCORE_SHEET.md ("Output"), and as text for a referee."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.final import FinalRow, final_results
from rules.game import HandRecord
from rules.hands import Abort, Chombo, Draw, HandResult, Ron, Settlement, Tsumo, WinOutcome
from rules.ruleset import Ruleset, number_json
from rules.state import GameState
from scoring.sheet import ScoredSheet


def points_json(value: Fraction) -> float:
    """Final points as a JSON number: exact tenths, two decimals where a tie split needs them."""
    return float(round(value, 1) if (value * 10).denominator == 1 else round(value, 2))


def final_rows(scored: ScoredSheet) -> tuple[FinalRow, ...]:
    sheet, state = scored.sheet, scored.record.state
    return final_results(ruleset=sheet.ruleset, scores=state.scores, deposits=state.deposits,
                         finished=state.finished, chombos=state.chombos, penalties=sheet.penalties)


def result_json(scored: ScoredSheet) -> dict[str, Any]:
    """The result object: ruleset in force, every hand, the end and the final standings."""
    sheet, record = scored.sheet, scored.record
    names = sheet.names
    state = record.state
    out: dict[str, Any] = {
        "ruleset": sheet.ruleset.as_dict(),
        "players": list(names),
        "hands": [_hand_json(scored, h) for h in record.hands],
        "finished": state.finished,
        "end_reason": state.end_reason,
        "deposits_left": state.deposits,
    }
    if not state.finished:
        out["next"] = {"round": state.label(sheet.ruleset), "honba": state.honba, "dealer": names[state.dealer],
                       "deposits": state.deposits}
    out["final"] = [
        {
            "player": names[row.player],
            "rank": row.rank,
            "score": row.score,
            "uma": points_json(row.uma),
            "oka": points_json(row.oka),
            "penalty": points_json(row.penalty),
            "points": points_json(row.points),
            "table_points": number_json(row.table_points) if row.table_points is not None else None,
            "chombos": row.chombos,
        }
        for row in final_rows(scored)
    ]
    out["penalties"] = [{"player": names[p], "points": points_json(points), "reason": reason}
                        for p, points, reason in sheet.penalty_list]
    return out


def _hand_json(scored: ScoredSheet, hand: HandRecord) -> dict[str, Any]:
    ruleset, names = scored.sheet.ruleset, scored.sheet.names
    s = hand.settlement
    before = hand.before
    out: dict[str, Any] = {
        "round": before.label(ruleset),
        "honba": before.honba,
        "dealer": names[before.dealer],
        "deposits_before": before.deposits,
        "result": s.kind,
        "deltas": {names[p]: d for p, d in enumerate(s.deltas)},
        "scores": {names[p]: v for p, v in enumerate(hand.after.scores)},
        "deposits_after": s.deposits_after,
        "payments": [{"from": _side(names, pay.payer), "to": _side(names, pay.payee), "amount": pay.amount,
                      "reason": pay.reason} for pay in s.payments],
    }
    out["seat_winds"] = {names[p]: before.seat_wind_name(ruleset, p) for p in before.seats}
    if s.wins:
        out["wins"] = [_win_json(names, w, mcr=ruleset.is_mcr) for w in s.wins]
        if len(s.wins) == 1:
            # A single win's value sits on the hand too, as SCORE_SHEET.md "Tiles" shows it.
            out.update(_value_json(s.wins[0], mcr=ruleset.is_mcr))
    if s.abortive:
        out["abortive"] = s.abortive
    if s.chombo_player is not None:
        out["chombo"] = names[s.chombo_player]
    if hand.after.finished:
        out["game_ended"] = hand.after.end_reason
    return out


def _side(names: tuple[str, ...], player: int | None) -> str | None:
    return None if player is None else names[player]


def _win_json(names: tuple[str, ...], win: WinOutcome, *, mcr: bool) -> dict[str, Any]:
    """One win; a value computed from tiles also lists its yaku (riichi) or fans (MCR)."""
    out: dict[str, Any] = {"winner": names[win.winner], "stood": win.stood}
    out.update(_value_json(win, mcr=mcr))
    return out


def _value_json(win: WinOutcome, *, mcr: bool) -> dict[str, Any]:
    if mcr:
        out: dict[str, Any] = {"fan": win.fan, "flowers": win.flowers, "total_fan": win.fan + win.flowers}
        if win.items:
            out["fan_list"] = [{"name": name, "fan": fan} for name, fan in win.items]
        return out
    out = {"base": win.base, "limit": win.limit}
    if win.yakuman:
        out["yakuman"] = win.yakuman
    if win.han:
        out["han"] = win.han
    if win.fu is not None:
        out["fu"] = win.fu
    if win.items:
        out["yaku"] = [{"name": name, "han": han} for name, han in win.items]
    return out


# --- text ---------------------------------------------------------------------


def result_text(scored: ScoredSheet) -> str:
    """A hand-by-hand table and the final standings, for a referee to read and check."""
    sheet, record = scored.sheet, scored.record
    ruleset, names = sheet.ruleset, sheet.names
    width = max(7, *(len(n) for n in names)) + 1
    lines = [
        f"Ruleset {ruleset.key}: {ruleset.players} players, start {ruleset.start_points}, "
        f"return {ruleset.return_points}, uma {_uma_text(ruleset.as_dict()['uma'])}",
        "Seats at the start: " + _seats_text(ruleset, names, record.hands[0].before if record.hands else sheet.start),
        "",
    ]
    header = f"{'#':>3}  {'Round':<6}{'Honba':>5}  {'Dealer':<{width}}{'Sticks':>6}  {'Result':<40}" + "".join(
        f"{n:>{width}}" for n in names)
    lines += [header, "-" * len(header)]
    seats_shown: tuple[int, ...] | None = record.hands[0].before.seats if record.hands else None
    for i, hand in enumerate(record.hands, start=1):
        before, s = hand.before, hand.settlement
        if before.seats != seats_shown:
            seats_shown = before.seats
            lines.append("     seats change: " + _seats_text(ruleset, names, before))
        deltas = "".join(f"{_signed(d):>{width}}" for d in s.deltas)
        scores = "".join(f"{v:>{width}}" for v in hand.after.scores)
        lines.append(f"{i:>3}  {before.label(ruleset):<6}{before.honba:>5}  {names[before.dealer]:<{width}}"
                     f"{before.deposits:>6}  {_describe(hand.result, s, names):<40}{deltas}")
        lines.append(f"{'':>3}  {'':<6}{'':>5}  {'':<{width}}{'':>6}  {'':<40}{scores}")
        for win in s.wins:
            if win.items:
                lines.append(f"{'':>5}{names[win.winner]}: " + ", ".join(f"{name} {v}" for name, v in win.items))
        if hand.after.finished:
            lines.append(f"     game ended: {hand.after.end_reason}")
    state = record.state
    lines.append("")
    if state.finished:
        lines.append(f"Final result ({state.end_reason}); sticks left on the table: {state.deposits}")
    else:
        lines.append(f"Game in progress: next hand {state.label(ruleset)}, honba {state.honba}, "
                     f"{state.deposits} stick(s) on the table. Standings so far:")
    lines.append(f"{'Rank':>4}  {'Player':<{width}}{'Score':>8}{'Uma':>8}{'Oka':>8}{'Penalty':>9}{'Points':>9}"
                 + (f"{'Table':>7}" if ruleset.table_points is not None else ""))
    for row in final_rows(scored):
        table = f"{number_json(row.table_points):>7}" if row.table_points is not None else ""
        lines.append(f"{row.rank:>4}  {names[row.player]:<{width}}{row.score:>8}{_pts(row.uma):>8}"
                     f"{_pts(row.oka):>8}{_pts(row.penalty):>9}{_pts(row.points):>9}{table}")
    return "\n".join(lines) + "\n"


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _pts(value: Fraction) -> str:
    return f"{points_json(value):+.1f}" if (value * 10).denominator == 1 else f"{points_json(value):+.2f}"


def _uma_text(uma: Any) -> str:
    if isinstance(uma, dict):
        return "by plus count"
    return "/".join(f"{v:+g}" for v in uma) if uma else "none"


def _seats_text(ruleset: Ruleset, names: tuple[str, ...], state: GameState) -> str:
    return ", ".join(f"{names[p]} ({state.seat_wind_name(ruleset, p)})"
                     for p in sorted(state.seats, key=state.seat_wind))


def _value_text(win: WinOutcome) -> str:
    if win.fan or win.flowers:
        flowers = f" + {win.flowers} flower{'s' if win.flowers != 1 else ''}" if win.flowers else ""
        return f"{win.fan} fan{flowers}"
    if win.yakuman and not win.han:
        return win.limit or "yakuman"
    text = f"{win.han} han" + (f" {win.fu} fu" if win.fu is not None else "")
    return text + (f" {win.limit}" if win.limit else "")


def _describe(result: HandResult, s: Settlement, names: tuple[str, ...]) -> str:
    riichi = sorted(result.riichi)
    suffix = f"; riichi {', '.join(names[p] for p in riichi)}" if riichi else ""
    false_wins = getattr(result, "false_wins", ())
    if false_wins:
        suffix += f"; false win {', '.join(names[p] for p in false_wins)}"
    if isinstance(result, Ron):
        if s.abortive:
            return f"triple ron on {names[result.loser]}: abortive draw{suffix}"
        stood = [w for w in s.wins if w.stood]
        wins = " + ".join(f"{names[w.winner]} {_value_text(w)}" for w in stood)
        return f"ron on {names[result.loser]}: {wins}{suffix}"
    if isinstance(result, Tsumo):
        return f"tsumo {names[result.win.winner]} {_value_text(s.wins[0])}{suffix}"
    if isinstance(result, Draw):
        if result.nagashi:
            return f"draw, nagashi {', '.join(names[p] for p in result.nagashi)}{suffix}"
        if not result.tenpai:
            return f"draw{suffix}"
        return f"draw, tenpai {', '.join(names[p] for p in sorted(result.tenpai))}{suffix}"
    if isinstance(result, Abort):
        return f"abortive draw ({s.abortive}){suffix}"
    assert isinstance(result, Chombo)
    return f"chombo {names[result.player]} (hand replayed)"
