"""A result as text for a referee to read and check: the hands in a table, then the final standings.

It reads the stored result (players by seat, ``scoring.sheet.output``), so a
game from the database prints the same way as a sheet from a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.sheet.describe import describe
from scoring.sheet.output import NextHand, Result, ResultHand

_RESULT_WIDTH = 40  # the "Result" column at its narrowest; it widens to the longest hand's words


def result_text(result: Result, names: Sequence[str]) -> str:
    """A hand-by-hand table and the final standings."""
    ruleset = result["ruleset"]
    if ruleset.get("scoring") == "solo":
        return _solo_text(result, names)
    width = max(7, *(len(n) for n in names)) + 1
    hands = result["hands"]
    column = max([_RESULT_WIDTH, *(len(describe(hand, names)) + 1 for hand in hands)])
    first = hands[0] if hands else None
    shown = first.get("seats") if first else None
    lines = [
        f"Ruleset {ruleset['key']}: {ruleset['players']} players, start {ruleset['start_points']}, "
        f"return {ruleset['return_points']}, uma {_uma_text(ruleset['uma'])}",
        "Seats at the start: " + _seats_text(names, shown, first or result.get("next")),
        "",
    ]
    header = f"{'#':>3}  {'Round':<6}{'Honba':>5}  {'Dealer':<{width}}{'Sticks':>6}  {'Result':<{column}}" + "".join(
        f"{n:>{width}}" for n in names
    )
    lines += [header, "-" * len(header)]
    for number, hand in enumerate(hands, start=1):
        if hand.get("seats") != shown:
            shown = hand.get("seats")
            lines.append("     seats change: " + _seats_text(names, shown, hand))
        lines += _hand_lines(number, hand, names, width, column)
    return "\n".join([*lines, "", *_final_lines(result, names, width)]) + "\n"


def _hand_lines(number: int, hand: ResultHand, names: Sequence[str], width: int, column: int) -> list[str]:
    blank = f"{'':>3}  {'':<6}{'':>5}  {'':<{width}}{'':>6}  {'':<{column}}"
    lines = [
        f"{number:>3}  {hand['round']:<6}{hand['honba']:>5}  {names[hand['dealer']]:<{width}}"
        f"{hand['deposits_before']:>6}  {describe(hand, names):<{column}}"
        + "".join(f"{_signed(d):>{width}}" for d in hand["deltas"]),
        blank + "".join(f"{v:>{width}}" for v in hand["scores"]),
    ]
    for win in hand.get("wins", []):
        items = win.get("yaku") or win.get("fan_list") or []
        if items:
            lines.append(
                f"{'':>5}{names[win['winner']]}: "
                + ", ".join(f"{i['name']} {i.get('han', i.get('fan'))}" for i in items)
            )
    if hand.get("game_ended"):
        lines.append(f"     game ended: {hand['game_ended']}")
    return lines


def _final_lines(result: Result, names: Sequence[str], width: int) -> list[str]:
    table = any(row["table_points"] is not None for row in result["final"])
    if result["finished"]:
        lines = [f"Final result ({result['end_reason']}); sticks left on the table: {result['deposits_left']}"]
    else:
        following = result["next"]
        lines = [
            f"Game in progress: next hand {following['round']}, honba {following['honba']}, "
            f"{following['deposits']} stick(s) on the table. Standings so far:"
        ]
    lines.append(
        f"{'Rank':>4}  {'Player':<{width}}{'Score':>8}{'Uma':>8}{'Oka':>8}{'Penalty':>9}{'Points':>9}"
        + (f"{'Table':>7}" if table else "")
    )
    for row in result["final"]:
        points = f"{row['table_points']:>7g}" if table and row["table_points"] is not None else ""
        lines.append(
            f"{row['rank']:>4}  {names[row['player']]:<{width}}{row['score']:>8}{_pts(row['uma']):>8}"
            f"{_pts(row['oka']):>8}{_pts(row['penalty']):>9}{_pts(row['points']):>9}{points}"
        )
    return lines


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _pts(value: float) -> str:
    """Points with one decimal, two where a shared place split them finer."""
    return f"{value:+.1f}" if round(value, 1) == value else f"{value:+.2f}"


def _uma_text(uma: Any) -> str:
    if isinstance(uma, dict):
        return "by plus count"
    return "/".join(f"{v:+g}" for v in uma) if uma else "none"


def _seats_text(names: Sequence[str], seats: list[int] | None, hand: ResultHand | NextHand | None) -> str:
    """The players from the dealer round the table (``seats``: the hand's, if they moved), with their seat winds."""
    seats = seats or list(range(len(names)))
    winds = (hand.get("seat_winds") if hand is not None else None) or []
    start = seats.index(hand["dealer"]) if hand is not None and hand.get("dealer") in seats else 0
    order = seats[start:] + seats[:start]
    return ", ".join(f"{names[seat]} ({winds[seat]})" if seat < len(winds) else names[seat] for seat in order)


def _solo_text(result: Result, names: Sequence[str]) -> str:
    """The solo race to tenpai: the attempts in the order played with their rank, then what ranks the player."""
    ruleset = result["ruleset"]
    counting = (
        "each player's best attempt"
        if ruleset["solo_ranking"] == "best_attempt"
        else f"the sum over {ruleset['solo_attempts']} attempts"
    )
    lines = [
        f"Ruleset {ruleset['key']}: the solo race to tenpai of {names[0]}, ranked by {counting}",
        "",
        f"{'#':>3}  {'Rank':>4}  Attempt",
        "-" * (_RESULT_WIDTH + 11),
    ]
    for hand in result["hands"]:
        mark = "*" if hand.get("counted") else " "
        lines.append(f"{hand.get('attempt', ''):>3}  {hand.get('attempt_rank', ''):>4}{mark} {describe(hand, names)}")
    final = result["final"][0]
    state = f"finished ({result['end_reason']})" if result["finished"] else "in progress"
    lines += [
        "",
        f"Result, {state}: {final['draws']} draws, value {final['value']} "
        f"({final['attempts']} attempt{'s' if final['attempts'] != 1 else ''}; * counted)",
    ]
    return "\n".join(lines) + "\n"
