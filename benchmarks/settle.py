"""Benchmark: replay generated complete games through the rule engine (rules/).

Run it from the project root::

    .venv/bin/python benchmarks/settle.py [--games N] [--seed S] [--ruleset KEY]

For each preset it first plays ``--games`` random but valid games hand by hand
with ``play_hand`` (untimed; the engine's dealer, round and end logic decides
when a game is over), then times replaying all of them with ``play_game``,
three times, and reports the best run: complete games per second and hands
per second, on one core in one process. The project's target is at least
2,000 complete four-player riichi hanchan per second; MCR (16 hands) and the
other table sizes (2 to 12 players, more hands per game) are measured beside it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import resource
import time
from collections import Counter
from dataclasses import dataclass

from rules.errors import Refusal
from rules.game import default_names, play_game, play_hand
from rules.hands import ABORT_REASONS, Abort, Chombo, Draw, HandResult, Ron, Tsumo, Win
from rules.presets import get_preset
from rules.ruleset import Ruleset
from rules.state import GameState, start_state

DEFAULT_PRESETS = (
    "wrc-2025",
    "ema-2016",
    "jpml-a",
    "tenhou",
    "mahjong-soul",
    "mcr",
    "sanma",
    "two-player",
    "five-player-2",
    "eight-player",
    "twelve-player",
)
TARGET_GAMES_PER_SECOND = 2000
REPEATS = 3
HAND_CAP_PER_SEAT = 10  # safety cap on hands per generated game, per player; a real game ends long before
MAX_TRIES = 50  # outcomes drawn for one hand before the game is given up

# Valid (han, fu) pairs with rough real-game weights; fu None from 5 han up.
RON_VALUES: tuple[tuple[tuple[int, int | None], int], ...] = (
    ((1, 30), 14),
    ((1, 40), 10),
    ((2, 30), 12),
    ((2, 40), 8),
    ((3, 30), 8),
    ((3, 40), 5),
    ((4, 30), 4),
    ((2, 25), 4),
    ((5, None), 6),
    ((6, None), 3),
    ((8, None), 1),
    ((1, 110), 1),
)
# A tsumo adds pinfu tsumo (20 fu) and chiitoitsu tsumo (25 fu, 3 han+); 2 han 25 fu is a ron only.
TSUMO_VALUES = (*(entry for entry in RON_VALUES if entry[0] != (2, 25)), ((2, 20), 8), ((3, 25), 4))
YAKUMAN_CHANCE = 0.004  # per win
DOUBLE_RON_CHANCE = 0.03  # per ron, where a second winner can stand
NAGASHI_CHANCE = 0.01  # per exhaustive draw, where the ruleset has nagashi mangan
RIICHI_CHANCE = 0.3  # per player and hand
TENPAI_CHANCE = 0.45  # per player without riichi at an exhaustive draw

# Outcome weights (percent): ron, tsumo, exhaustive draw, abortive draw, chombo.
OUTCOME_WEIGHTS = {"ron": 45, "tsumo": 30, "draw": 20, "abort": 2, "chombo": 1}
# Abortive draws a generated hand may name; a triple ron (and rule 0's N - 1 rons) come from rons, all-riichi
# from the riichi drawn.
NAMED_ABORTS = tuple(r for r in ABORT_REASONS if r not in ("four_riichi", "triple_ron", "all_others_ron"))

Game = tuple[GameState, tuple[HandResult, ...]]


@dataclass
class Generated:
    games: list[Game]
    final_states: list[GameState]
    hands: int
    capped: int
    refused: int  # generated outcomes the engine refused (another one was drawn)
    outcomes: Counter[str]


def _value(rng: random.Random, table: tuple[tuple[tuple[int, int | None], int], ...]) -> tuple[int, int | None]:
    pairs = [pair for pair, _ in table]
    weights = [weight for _, weight in table]
    return rng.choices(pairs, weights)[0]


def _win(rng: random.Random, winner: int, *, tsumo: bool) -> Win:
    if rng.random() < YAKUMAN_CHANCE:
        return Win(winner=winner, yakuman=1)
    han, fu = _value(rng, TSUMO_VALUES if tsumo else RON_VALUES)
    return Win(winner=winner, han=han, fu=fu)


def _riichi(rng: random.Random, ruleset: Ruleset, state: GameState) -> frozenset[int]:
    return frozenset(
        p
        for p in range(ruleset.players)
        if rng.random() < RIICHI_CHANCE and (not ruleset.busting or state.scores[p] >= ruleset.riichi_deposit)
    )


def _double_ron_allowed(ruleset: Ruleset) -> bool:
    """Whether a second ron on the same discard can be paid (under a pure head bump it never is)."""
    return ruleset.multiple_ron != "head_bump"


# MCR: fan without flowers (8 to 88, mostly small), flowers per win, false wins per hand.
MCR_FANS = ((8, 30), (9, 15), (10, 12), (12, 10), (14, 6), (16, 8), (24, 5), (32, 3), (48, 2), (64, 1), (88, 1))
MCR_FALSE_WIN_CHANCE = 0.01
MCR_OUTCOME_WEIGHTS = {"ron": 60, "tsumo": 25, "draw": 15}


def random_mcr_hand(rng: random.Random, ruleset: Ruleset) -> HandResult:
    """One random MCR hand: one winner per discard, 8+ fan and some flowers, now and then a false win."""
    n = ruleset.players
    kind = rng.choices(list(MCR_OUTCOME_WEIGHTS), list(MCR_OUTCOME_WEIGHTS.values()))[0]
    false_wins = (rng.randrange(n),) if rng.random() < MCR_FALSE_WIN_CHANCE else ()
    winner = rng.choice([p for p in range(n) if p not in false_wins])
    win = Win(
        winner=winner,
        fan=_value(rng, tuple(((fan, None), w) for fan, w in MCR_FANS))[0],
        flowers=rng.choice((0, 0, 1, 1, 2, 3)),
    )
    if kind == "ron":
        return Ron(loser=rng.choice([p for p in range(n) if p != winner]), wins=(win,), false_wins=false_wins)
    if kind == "tsumo":
        return Tsumo(win=win, false_wins=false_wins)
    return Draw(false_wins=false_wins)


def random_hand(rng: random.Random, ruleset: Ruleset, state: GameState) -> HandResult:
    """One random but valid hand result in ``state``, with roughly real-game frequencies."""
    if ruleset.is_mcr:
        return random_mcr_hand(rng, ruleset)
    n = ruleset.players
    kinds = [k for k in OUTCOME_WEIGHTS if k != "abort" or ruleset.abortive_draws]
    kind = rng.choices(kinds, [OUTCOME_WEIGHTS[k] for k in kinds])[0]
    riichi = _riichi(rng, ruleset, state)
    if kind == "ron":
        loser = rng.randrange(n)
        others = [p for p in range(n) if p != loser]
        count = 2 if _double_ron_allowed(ruleset) and rng.random() < DOUBLE_RON_CHANCE else 1
        winners = rng.sample(others, count)
        return Ron(loser=loser, wins=tuple(_win(rng, w, tsumo=False) for w in winners), riichi=riichi)
    if kind == "tsumo":
        return Tsumo(win=_win(rng, rng.randrange(n), tsumo=True), riichi=riichi)
    if kind == "draw":
        if ruleset.nagashi_mangan and rng.random() < NAGASHI_CHANCE:
            return Draw(nagashi=(rng.randrange(n),), riichi=riichi)
        tenpai = riichi | {p for p in range(n) if rng.random() < TENPAI_CHANCE}
        return Draw(tenpai=frozenset(tenpai), riichi=riichi)
    if kind == "abort":
        reason = rng.choice([r for r in ruleset.abort_reasons if r in NAMED_ABORTS])
        return Abort(reason=reason, riichi=frozenset() if reason in ("nine_terminals", "four_winds") else riichi)
    return Chombo(player=rng.randrange(n))


def _kind(result: HandResult) -> str:
    if isinstance(result, Ron):
        return "double ron" if len(result.wins) > 1 else "ron"
    return type(result).__name__.lower()


def generate(*, ruleset: Ruleset, games: int, rng: random.Random) -> Generated:
    """Play ``games`` complete games hand by hand; the engine decides when each one ends."""
    out = Generated(games=[], final_states=[], hands=0, capped=0, refused=0, outcomes=Counter())
    names = default_names(ruleset.players)
    for _ in range(games):
        start = start_state(ruleset=ruleset)
        state = start
        hands: list[HandResult] = []
        while not state.finished and len(hands) < HAND_CAP_PER_SEAT * ruleset.players:
            for _try in range(MAX_TRIES):
                result = random_hand(rng, ruleset, state)
                try:
                    record = play_hand(ruleset=ruleset, state=state, result=result, names=names)
                except Refusal:
                    out.refused += 1
                    continue
                break
            else:
                raise SystemExit(f"{ruleset.key}: no valid hand found in {MAX_TRIES} tries at {state}")
            hands.append(result)
            out.outcomes[_kind(result)] += 1
            state = record.after
        if not state.finished:
            out.capped += 1
        out.games.append((start, tuple(hands)))
        out.final_states.append(state)
        out.hands += len(hands)
    return out


def replay(ruleset: Ruleset, games: list[Game], names: tuple[str, ...]) -> float:
    """Seconds to replay every game once with play_game."""
    begin = time.perf_counter()
    for start, hands in games:
        play_game(ruleset=ruleset, start=start, hands=hands, names=names)
    return time.perf_counter() - begin


def check_replay(ruleset: Ruleset, generated: Generated, names: tuple[str, ...]) -> None:
    """The replay must end every game where the hand-by-hand play did (untimed)."""
    for (start, hands), expected in zip(generated.games, generated.final_states, strict=True):
        got = play_game(ruleset=ruleset, start=start, hands=hands, names=names).state
        if got != expected:
            raise SystemExit(f"{ruleset.key}: replay ended in {got}, hand-by-hand play in {expected}")


def maxrss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024  # bytes on macOS, KiB on Linux


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000, help="games generated and replayed per preset")
    parser.add_argument("--seed", type=int, default=2025, help="random seed (each preset draws its own stream)")
    parser.add_argument(
        "--ruleset",
        action="append",
        metavar="KEY",
        help=f"preset to run (repeatable); default: {', '.join(DEFAULT_PRESETS)}",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    keys: list[str] = list(dict.fromkeys(args.ruleset or DEFAULT_PRESETS))  # in order, once each
    rulesets: list[Ruleset] = []
    for key in keys:
        try:
            rulesets.append(get_preset(key))
        except Refusal as exc:
            parser.error(str(exc))

    print(
        f"Replaying {args.games} generated games per preset with play_game, seed {args.seed}, "
        f"best of {REPEATS} timed runs, one process; target >= {TARGET_GAMES_PER_SECOND:,} hanchan/s."
    )
    header = (
        f"{'preset':<14} {'games':>6} {'hands':>7} {'hands/game':>10} {'best s':>8} "
        f"{'games/s':>9} {'hands/s':>9}  {'target':>14}"
    )
    print(header)
    print("-" * len(header))

    total_games = total_hands = total_capped = 0
    total_time = 0.0
    notes: list[str] = []
    for ruleset in rulesets:
        rng = random.Random(f"{args.seed}:{ruleset.key}")
        names = default_names(ruleset.players)
        gen_begin = time.perf_counter()
        generated = generate(ruleset=ruleset, games=args.games, rng=rng)
        gen_seconds = time.perf_counter() - gen_begin
        check_replay(ruleset, generated, names)
        best = min(replay(ruleset, generated.games, names) for _ in range(REPEATS))

        games = len(generated.games)
        games_per_s = games / best
        # The target is for four-player riichi hanchan; longer games are reported, not judged.
        hanchan = ruleset.players == 4 and not ruleset.is_mcr
        verdict = ("ok" if games_per_s >= TARGET_GAMES_PER_SECOND else "BELOW") if hanchan else "n/a"
        print(
            f"{ruleset.key:<14} {games:>6} {generated.hands:>7} {generated.hands / games:>10.2f} {best:>8.3f} "
            f"{games_per_s:>9,.0f} {generated.hands / best:>9,.0f}  "
            f">= {TARGET_GAMES_PER_SECOND:,} {verdict:>5}"
        )
        mix = ", ".join(f"{kind} {count / generated.hands:.1%}" for kind, count in generated.outcomes.most_common())
        ends = Counter(s.end_reason for s in generated.final_states)
        cap = HAND_CAP_PER_SEAT * ruleset.players
        notes.append(
            f"  {ruleset.key}: generated in {gen_seconds:.2f} s; {generated.capped} hit the "
            f"{cap}-hand cap; {generated.refused} outcomes refused and redrawn\n"
            f"    hands: {mix}\n"
            f"    ends: " + ", ".join(f"{reason} {count}" for reason, count in ends.most_common())
        )
        total_capped += generated.capped
        if hanchan:
            total_games += games
            total_hands += generated.hands
            total_time += best

    print("-" * len(header))
    if total_games:  # none when only other table sizes or MCR were asked for
        games_per_s = total_games / total_time
        verdict = "ok" if games_per_s >= TARGET_GAMES_PER_SECOND else "BELOW"
        print(
            f"{'4p riichi':<14} {total_games:>6} {total_hands:>7} {total_hands / total_games:>10.2f} "
            f"{total_time:>8.3f} {games_per_s:>9,.0f} {total_hands / total_time:>9,.0f}  "
            f">= {TARGET_GAMES_PER_SECOND:,} {verdict:>5}"
        )
    print()
    print(f"Generation (untimed), games that hit the hand cap: {total_capped}")
    print("\n".join(notes))
    print(f"\nPeak RSS (ru_maxrss): {maxrss_mb():.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
