"""The rules a Tenhou private or tournament lobby declares in its log (``GO csrule``), as ruleset overrides.

Since 2023 a lobby playing its own rules writes ``GO type`` with the 0x100 bit and a ``csrule`` attribute of
comma-separated fields. No public description of the attribute was found; what is read here was worked out from
a real log (dnovikoff/tenhou ``log/test_data/newattr2023.xml``, a private East-only lobby whose end points follow
these fields exactly) and from Tenhou's ranked rules. ``(?)`` marks what is inferred rather than shown:

- ``[0]``, ``[1]``: two hexadecimal words of rule switches (``0FE0BF0B``, ``0000001F``). Not decoded (?); they are
  taken as Tenhou's usual rules, which the hand-by-hand check against the log's own payments confirms or refutes.
- ``[4]``: start points (30000).
- ``[5]``: return points (30000) (?: equal to ``[4]`` in the one log; the order of ``[5]`` and ``[6]`` is inferred).
- ``[6]``: the score that ends a game extended past its last round, Tenhou's 30000 in ranked games (?).
- ``[21]``–``[35]``: five sets of uma for 2nd, 3rd and 4th place, in thousands; first place takes the rest (the
  log's 5, −5, −15: first +15). Five sets suggest uma by the number of players above the return points (?), in an
  order no log shows: a lobby whose sets differ is refused rather than guessed.
- Tied players share uma (?): the log's two pairs tied at 30700 and 29300 end +10.7 and −10.7, the shares of
  15 + 5 and −5 − 15, where Tenhou's ranked lobbies rank ties by seat.
- Every other field was empty in the log; one that is not is a rule not decoded here, and the log is refused
  naming it.
"""

from __future__ import annotations

from typing import Any

from rules.errors import Problem, Refusal

SWITCHES = (0, 1)
START, RETURN, GOAL = 4, 5, 6
UMA_FIRST, UMA_SETS, UMA_PER_SET = 21, 5, 3  # five sets of 2nd/3rd/4th place uma
DECODED = frozenset({*SWITCHES, START, RETURN, GOAL, *range(UMA_FIRST, UMA_FIRST + UMA_SETS * UMA_PER_SET)})
FOUR_PLAYERS = 4


def lobby_overrides(csrule: str, *, players: int) -> dict[str, Any]:
    """The overrides of Tenhou's rules that ``csrule`` declares; Refusal naming each field it cannot express."""
    fields = csrule.split(",")
    where = "GO csrule"
    if players != FOUR_PLAYERS:
        raise Refusal.one(where, "a three-player lobby's own rules are not decoded (only four-player ones)")
    if len(fields) < UMA_FIRST + UMA_SETS * UMA_PER_SET:
        raise Refusal.one(
            where, f"{len(fields)} fields, fewer than the {UMA_FIRST + UMA_SETS * UMA_PER_SET} a lobby's rules hold"
        )
    problems = [
        Problem(
            f"{where}[{i}]",
            f"{value!r} declares a lobby rule not decoded here, which no rule set here can be said to play",
        )
        for i, value in enumerate(fields)
        if value and i not in DECODED
    ]
    points = {
        name: _number(fields, i, problems)
        for name, i in (("start_points", START), ("return_points", RETURN), ("goal_points", GOAL))
    }
    sets = [
        tuple(_number(fields, UMA_FIRST + k * UMA_PER_SET + j, problems) for j in range(UMA_PER_SET))
        for k in range(UMA_SETS)
    ]
    if len(set(sets)) > 1:
        problems.append(
            Problem(
                f"{where}[{UMA_FIRST}:{UMA_FIRST + UMA_SETS * UMA_PER_SET}]",
                f"uma that changes between its five sets {sets} is not decoded here (which set "
                "applies when is not known)",
            )
        )
    if problems:
        raise Refusal(problems)
    rest = sets[0]
    return {**points, "uma": [-sum(rest), *rest], "ties": "split"}


def _number(fields: list[str], index: int, problems: list[Problem]) -> int:
    try:
        return int(fields[index])
    except ValueError:
        problems.append(Problem(f"GO csrule[{index}]", f"{fields[index]!r} is not a whole number"))
        return 0
