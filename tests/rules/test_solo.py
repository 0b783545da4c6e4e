"""The solo race to tenpai (seed 001 "1인 마작", rules.solo): one player, 34 tiles, draws until tenpai.

Seed 001, line 612: one player takes 14 of the 34 tiles and draws until tenpai; line 614: "텐파이까지 몇 순 걸렸는지를
겨룬다. 같은 순수라면 점수가 높은 쪽이 위가 된다" (they compete on the draws to tenpai; at equal draws the higher
score ranks higher). Rule 0.8 (line 596): a dead wall of 2; rule 0.6 (line 592): the dealer is always East.
Every value below is the dealer's score-table value, 6 × base points rounded up to 100, base = fu × 2^(han+2).
"""

from __future__ import annotations

import pytest

from rules.errors import Refusal
from rules.game import play_game
from rules.hands import Attempt, Chombo, Outcome, Ron, Win
from rules.presets import build_ruleset, get_preset, preset_doc
from rules.ruleset import Ruleset
from rules.solo import MAX_DRAWS, NOTEN_DRAWS, SoloScore, attempt_score, rank_scores, solo_total
from rules.state import start_state

SOLO = get_preset("solo")
SUM_OF_3 = build_ruleset(key="solo", overrides={"solo_ranking": "sum_of_attempts", "solo_attempts": 3})


def tenpai(draws: int, han: int = 0, fu: int | None = None, yakuman: int = 0) -> Attempt:
    return Attempt(draws=draws, win=Win(winner=0, han=han, fu=fu, yakuman=yakuman))


NOTEN = Attempt(draws=MAX_DRAWS)


def play(ruleset: Ruleset, *attempts: Attempt):
    return play_game(ruleset=ruleset, start=start_state(ruleset=ruleset), hands=attempts)


def scores(ruleset: Ruleset, *attempts: Attempt) -> list[SoloScore]:
    record = play(ruleset, *attempts)
    return [attempt_score(ruleset=ruleset, attempt=h.result, settlement=h.settlement) for h in record.hands]


def test_the_preset_is_one_player_with_no_points():
    params = SOLO.as_dict()
    assert {
        name: params[name] for name in ("players", "scoring", "round_winds", "uma", "solo_ranking", "solo_attempts")
    } == {
        "players": 1,
        "scoring": "solo",
        "round_winds": 1,
        "uma": [],
        "solo_ranking": "best_attempt",
        "solo_attempts": None,
    }
    assert SOLO.seat_winds == ("East",)  # rule 0.6: the dealer is always East
    doc = preset_doc("solo")
    assert "seed 001" in doc
    assert "1인 마작" in doc
    assert "(?)" in doc


def test_the_wall_gives_18_draws():
    # 34 tiles (rule 0.2, N × 34 with N = 1), 14 taken before the first draw (line 612), a dead wall of 2 (rule 0.8).
    assert MAX_DRAWS == 34 - 14 - 2 == 18
    assert NOTEN_DRAWS == 19


@pytest.mark.parametrize(
    ("attempt", "value"),
    [
        (tenpai(5, 1, 30), 1500),  # base 240: 1440, rounded up
        (tenpai(5, 2, 30), 2900),  # base 480: 2880
        (tenpai(5, 2, 20), 2000),  # pinfu tsumo: base 320: 1920
        (tenpai(5, 3, 25), 4800),  # chiitoitsu tsumo shape: base 800: 4800 (25 fu needs 3 han on a tsumo)
        (tenpai(5, 3, 40), 7700),  # base 1280: 7680
        (tenpai(5, 4, 30), 11600),  # base 1920: 11520, no kiriage in the preset
        (tenpai(5, 5), 12000),  # mangan: base 2000
        (tenpai(5, 13), 48000),  # kazoe yakuman: base 8000
        (tenpai(5, yakuman=2), 96000),  # a double yakuman counts (multiple_yakuman)
        (NOTEN, 0),
    ],
)
def test_an_attempt_is_worth_the_dealers_value(attempt, value):
    [score] = scores(SOLO, attempt)
    assert score.value == value
    assert score.draws == (NOTEN_DRAWS if attempt.win is None else attempt.draws)


@pytest.mark.parametrize(
    ("attempts", "ranks"),
    [
        # Fewest draws first; at equal draws the higher value (line 614).
        ([tenpai(7, 2, 30), tenpai(5, 1, 30), NOTEN, tenpai(5, 3, 40)], [3, 2, 4, 1]),
        # More draws lose to fewer whatever the value: a yakuman after 9 draws ranks below 1 han 30 fu after 8.
        ([tenpai(9, yakuman=1), tenpai(8, 1, 30)], [2, 1]),
        # Equal draws and equal value share the rank; 0 draws (tenpai as dealt) is the best there is.
        ([tenpai(4, 2, 30), tenpai(4, 2, 30), tenpai(0, 1, 30)], [2, 2, 1]),
        # 2 han 70 fu (6800) beats 3 han 30 fu (5800) at equal draws: the value, not the han, decides.
        ([tenpai(6, 3, 30), tenpai(6, 2, 70)], [2, 1]),
        # Any tenpai, even after all 18 draws, beats a wall that ran out.
        ([NOTEN, tenpai(18, 1, 30)], [2, 1]),
    ],
)
def test_attempts_rank_by_draws_then_value(attempts, ranks):
    assert rank_scores(scores(SOLO, *attempts)) == ranks


@pytest.mark.parametrize(
    ("ruleset", "attempts", "total", "counted"),
    [
        # Best attempt: 5 draws and 7700 (3 han 40 fu), the fourth attempt.
        (SOLO, [tenpai(7, 2, 30), tenpai(5, 1, 30), NOTEN, tenpai(5, 3, 40)], SoloScore(5, 7700), (3,)),
        # Of two equal best attempts the first counts.
        (SOLO, [tenpai(4, 2, 30), tenpai(4, 2, 30)], SoloScore(4, 2900), (0,)),
        # Sum over 3: 7 + 5 + 19 (noten) = 31 draws, 2900 + 1500 + 0 = 4400.
        (SUM_OF_3, [tenpai(7, 2, 30), tenpai(5, 1, 30), NOTEN], SoloScore(31, 4400), (0, 1, 2)),
        # Sum over 3 after two: 12 draws so far, 4400.
        (SUM_OF_3, [tenpai(7, 2, 30), tenpai(5, 1, 30)], SoloScore(12, 4400), (0, 1)),
    ],
)
def test_several_attempts_count_as_the_organiser_chose(ruleset, attempts, total, counted):
    found = solo_total(ruleset=ruleset, scores=scores(ruleset, *attempts))
    assert found is not None
    assert (found.score, found.counted) == (total, counted)


def test_no_attempt_no_total():
    assert solo_total(ruleset=SOLO, scores=[]) is None


def test_a_game_of_any_number_of_attempts_is_finished_from_the_first():
    record = play(SOLO, tenpai(7, 2, 30))
    assert (record.state.finished, record.state.end_reason) == (True, "the player stopped")
    record = play(SOLO, tenpai(7, 2, 30), NOTEN, tenpai(3, 1, 30))
    assert record.state.finished
    assert record.state.played == 3
    assert [h.settlement.kind for h in record.hands] == [Outcome.TENPAI, Outcome.NOTEN, Outcome.TENPAI]
    assert all(h.settlement.deltas == (0,) and not h.settlement.payments for h in record.hands)


def test_a_fixed_number_of_attempts_ends_the_game():
    record = play(SUM_OF_3, tenpai(7, 2, 30), NOTEN)
    assert not record.state.finished
    record = play(SUM_OF_3, tenpai(7, 2, 30), NOTEN, tenpai(3, 1, 30))
    assert (record.state.finished, record.state.end_reason) == (True, "end of the game")
    with pytest.raises(Refusal) as refused:
        play(SUM_OF_3, tenpai(7, 2, 30), NOTEN, tenpai(3, 1, 30), tenpai(2, 1, 30))
    assert [(p.field, p.code) for p in refused.value.problems] == [("[3]", "game_over")]


@pytest.mark.parametrize(
    ("ruleset", "attempt", "field", "code"),
    [
        (SOLO, tenpai(19, 1, 30), "[0].draws", "solo_draws"),  # past the 18 draws the wall gives
        (SOLO, tenpai(-1, 1, 30), "[0].draws", "solo_draws"),
        (SOLO, tenpai(3), "[0].han", "tenpai_needs_value"),
        (SOLO, tenpai(3, 1, 20), "[0].fu", "fu_20_needs_2_han"),
        (SOLO, tenpai(3, 2, 25), "[0].fu", "fu_25_tsumo"),  # valued as a tsumo: 25 fu needs 3 han
        (SOLO, tenpai(3, 2, 30, yakuman=1), "[0].yakuman", "yakuman_and_han"),
        (SOLO, Attempt(draws=3, win=Win(winner=0, fan=8)), "[0].fan", "fan_in_riichi"),
        # Rule 0.4 and the story (lines 640-646): one player in riichi is an abortive draw.
        (SOLO, Attempt(draws=3, win=Win(winner=0, han=1, fu=30), riichi=frozenset({0})), "[0].riichi", "solo_riichi"),
        (SOLO, Ron(loser=0, wins=(Win(winner=0, han=1, fu=30),)), "[0].result", "solo_results"),
        (SOLO, Chombo(player=0), "[0].result", "solo_results"),
        (get_preset("wrc-2025"), tenpai(3, 1, 30), "[0].result", "attempt_outside_solo"),
    ],
)
def test_refused_attempts_name_the_field(ruleset, attempt, field, code):
    with pytest.raises(Refusal) as refused:
        play(ruleset, attempt)
    assert [(p.field, p.code) for p in refused.value.problems] == [(field, code)]


@pytest.mark.parametrize(
    ("key", "overrides", "field", "code"),
    [
        ("solo", {"players": 2, "uma": []}, "players", "solo_players"),
        ("wrc-2025", {"players": 1, "uma": [], "round_winds": 1}, "players", "one_player_is_solo"),
        ("solo", {"solo_ranking": "sum_of_attempts"}, "solo_attempts", "solo_sum_needs_attempts"),
        ("wrc-2025", {"solo_attempts": 3}, "solo_attempts", "solo_only"),
        ("wrc-2025", {"solo_ranking": "sum_of_attempts"}, "solo_ranking", "solo_only"),
        ("solo", {"solo_attempts": 0}, "solo_attempts", "at_least"),
        ("solo", {"solo_attempts": 101}, "solo_attempts", "at_most"),
    ],
)
def test_ruleset_checks(key, overrides, field, code):
    with pytest.raises(Refusal) as refused:
        build_ruleset(key=key, overrides=overrides)
    assert (field, code) in [(p.field, p.code) for p in refused.value.problems]
