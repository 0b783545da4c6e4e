"""rules.ranks: the ranking's key as bytes, and the ranks a change to a few lines moves, agree with ranking every
line again (rules.stages.stage_standings) over many random standings, ties and unranked lines included."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from rules.ranks import SCALE, better_before, rank_shifts, sort_key, touched_ranks
from rules.stages import Line, stage_standings
from rules.standings import NO_AVERAGE_RANK, NO_BEST_GAME

# Few distinct values, so that many lines tie on some or all of the key.
VALUES = (F(-35, 10), F(0), F(12, 100), F(12, 100), F(7), F(-7), F(15))


def test_the_bytes_order_is_the_keys_order_reversed_and_equal_keys_are_equal_bytes():
    rng = random.Random(1)
    keys = [tuple(rng.choice(VALUES) for _ in range(3)) for _ in range(300)]
    keys += [(F(0), -NO_AVERAGE_RANK, NO_BEST_GAME), (F(-(10**8)), F(0), F(0)), (F(10**8), F(0), F(0))]
    for a in keys:
        for b in keys[:40]:
            first, second = sort_key(a), sort_key(b)
            assert first is not None
            assert second is not None
            assert (first == second) == (a == b)
            assert (first < second) == (a > b)


def test_a_key_not_kept_exactly_has_no_bytes():
    assert sort_key((F(1, 3),)) is None  # a third: never a standings value, and not a whole number of millionths
    assert sort_key((F(1, SCALE),)) is not None
    assert sort_key((F(2**130),)) is None


def ranked(lines: dict[int, tuple[F, ...] | None]) -> dict[int, int | None]:
    """Every line ranked again by the stages' ranking (None: not ranked, as with too few games)."""
    results = [Line(player=p, points=key[0], tiebreaks=key[1:]) for p, key in lines.items() if key is not None]
    ranks: dict[int, int | None] = {p: None for p, key in lines.items() if key is None}
    ranks.update(
        (line.player, line.rank) for line in stage_standings(entrants=[r.player for r in results], results=results)
    )
    return ranks


def random_key(rng: random.Random) -> tuple[F, ...] | None:
    return None if rng.random() < 0.1 else (rng.choice(VALUES), rng.choice(VALUES))


@pytest.mark.parametrize("seed", range(200))
def test_moving_the_ranks_a_change_passes_gives_the_ranking_of_every_line_again(seed: int):
    rng = random.Random(seed)
    before = {p: random_key(rng) for p in range(rng.randrange(1, 30))}
    touched = rng.sample(sorted(before), min(len(before), rng.randrange(1, 5)))
    after = {**before, **{p: random_key(rng) for p in touched}}
    old_ranks, new_ranks = ranked(before), ranked(after)
    code = {p: None if key is None else sort_key(key) for p, key in after.items()}
    old_code = {p: None if key is None else sort_key(key) for p, key in before.items()}
    moves = [(old_code[p], code[p]) for p in touched]
    # The untouched lines: each moves by the shift of the range its key is in.
    for p in set(before) - set(touched):
        key = code[p]
        if key is None:
            continue
        by = sum(s.by for s in rank_shifts(moves) if s.after < key and (s.upto is None or key <= s.upto))
        assert (old_ranks[p] or 0) + by == new_ranks[p]
    # The touched lines: counted from the first untouched line at or after their key, as stored before.
    untouched = sorted((key, old_ranks[p] or 0) for p in set(before) - set(touched) if (key := code[p]) is not None)
    better = {}
    for p in touched:
        if (mine := code[p]) is None:
            continue
        first = next(((key, rank) for key, rank in untouched if key >= mine), None)
        if first is None:
            better[p] = sum(1 for key, _ in untouched if key < mine)
        else:
            better[p] = better_before(first[1], first[0], [old for old, _ in moves])
    assert touched_ranks({p: code[p] for p in touched}, better) == {p: new_ranks[p] for p in touched}
