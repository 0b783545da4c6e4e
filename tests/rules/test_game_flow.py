"""Game flow: length, busting, agari-yame, extension, chombo ending the game (docs/rules.md §3–4)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import Refusal
from rules.game import play_game
from rules.hands import Abort, Chombo, Draw, HandResult, Ron, Tsumo, Win
from rules.presets import get_preset
from rules.ruleset import Ruleset
from rules.state import start_state


def game(
    hands: list[HandResult],
    *,
    ruleset: Ruleset | None = None,
    round_label: str = "E1",
    scores: list[int] | None = None,
    **overrides: Any,
):
    ruleset = Ruleset.build(base=ruleset, overrides=overrides)
    start = start_state(ruleset=ruleset, round_label=round_label, scores=scores)
    return ruleset, play_game(ruleset=ruleset, start=start, hands=hands)


def ron(loser: int, winner: int, han: int = 1, fu: int | None = 30) -> Ron:
    return Ron(loser=loser, wins=(Win(winner=winner, han=han, fu=fu),))


def non_dealer_win(record_count: int) -> list[HandResult]:
    """Hands in which the player after the dealer wins off the one after, so the dealer always passes."""
    hands: list[HandResult] = []
    for i in range(record_count):
        dealer = i % 4
        hands.append(ron((dealer + 2) % 4, (dealer + 1) % 4))
    return hands


@pytest.mark.parametrize(
    ("round_winds", "hands_to_end", "labels"),
    [
        (1, 4, ["E1", "E2", "E3", "E4"]),
        (2, 8, ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]),
    ],
)
def test_game_length(round_winds, hands_to_end, labels):
    ruleset, record = game(non_dealer_win(hands_to_end), round_winds=round_winds)
    assert [h.before.label(ruleset) for h in record.hands] == labels
    assert record.finished
    assert record.state.end_reason == "end of the game"
    _, short = game(non_dealer_win(hands_to_end - 1), round_winds=round_winds)
    assert not short.finished


def test_hands_after_the_end_are_refused():
    with pytest.raises(Refusal) as caught:
        game(non_dealer_win(9))
    assert caught.value.problems[0].field == "[8]"
    assert "already ended" in caught.value.problems[0].message


def test_dealer_renchan_at_all_last_continues_the_game():
    ruleset, record = game([Tsumo(win=Win(winner=3, han=1, fu=30))], round_label="S4")
    assert not record.finished
    assert (record.state.label(ruleset), record.state.honba) == ("S4", 1)


@pytest.mark.parametrize(
    ("scores", "result", "ends"),
    [
        # Dealer (3) wins at S4 and is first: agari-yame.
        ([30000, 20000, 20000, 30000], Tsumo(win=Win(winner=3, han=1, fu=30)), True),
        # Dealer tenpai at a draw while first: tenpai-yame.
        ([30000, 20000, 20000, 31000], Draw(tenpai=frozenset({3})), True),
        # Dealer wins but is still not first: the game goes on.
        ([50000, 20000, 20000, 10000], Tsumo(win=Win(winner=3, han=1, fu=30)), False),
        # An abortive draw is no reason to stop.
        ([30000, 20000, 20000, 31000], Abort(reason="nine_terminals"), False),
    ],
)
def test_agari_yame(scores, result, ends):
    _, record = game([result], round_label="S4", scores=scores, agari_yame=True, abortive_draws=True)
    assert record.finished is ends
    if ends:
        assert record.state.end_reason == "agari-yame"


def test_without_agari_yame_the_leading_dealer_plays_on():
    _, record = game([Tsumo(win=Win(winner=3, han=1, fu=30))], round_label="S4", scores=[30000, 20000, 20000, 30000])
    assert not record.finished


def test_busting_ends_the_game_below_zero():
    # Player 3 deals in a mangan from 7000: -1000, the game is over.
    _, record = game([ron(3, 1, han=5, fu=None)], scores=[30000, 30000, 33000, 7000], busting=True)
    assert record.state.scores[3] == -1000
    assert record.finished
    assert record.state.end_reason == "bust"


def test_zero_points_does_not_bust():
    _, record = game([ron(3, 1, han=5, fu=None)], scores=[30000, 30000, 32000, 8000], busting=True)
    assert record.state.scores[3] == 0
    assert not record.finished


def test_busting_off_lets_scores_go_negative():
    _, record = game([ron(3, 1, han=6, fu=None)], scores=[30000, 30000, 32000, 8000])
    assert record.state.scores[3] == -4000
    assert not record.finished


def test_tenhou_extension_into_west_until_someone_reaches_30000():
    tenhou = get_preset("tenhou")
    # Nobody has 30000 after South 4: the game goes into West.
    ruleset, record = game([ron(0, 1)], ruleset=tenhou, round_label="S4", scores=[26000, 25000, 24000, 25000])
    assert not record.finished
    assert record.state.label(ruleset) == "W1"
    # In West, the game ends as soon as anyone has 30000 (sudden death)...
    _, record = game(
        [ron(0, 1, han=3, fu=30), ron(1, 2, han=4, fu=30)],
        ruleset=tenhou,
        round_label="W1",
        scores=[26000, 25000, 24000, 25000],
    )
    assert record.finished
    assert record.state.end_reason == "goal reached"
    assert len(record.hands) == 2
    # ...and at the latest after West 4 (no North round).
    _, record = game([ron(0, 1)], ruleset=tenhou, round_label="W4", scores=[26000, 25000, 24000, 25000])
    assert record.finished
    assert record.state.end_reason == "end of the extra round"


def test_tenhou_all_last_ends_when_someone_has_30000():
    _, record = game([ron(0, 1)], ruleset=get_preset("tenhou"), round_label="S4", scores=[31000, 25000, 19000, 25000])
    assert record.finished


def test_chombo_replays_the_hand_or_ends_the_game():
    ruleset, record = game([Chombo(player=1)], round_label="S4")
    assert not record.finished
    assert record.state.label(ruleset) == "S4"
    _, record = game([Chombo(player=1)], chombo_ends_game=True)
    assert record.finished
    assert record.state.end_reason == "chombo"


def test_start_state_checks_every_field():
    ruleset = Ruleset()
    with pytest.raises(Refusal) as caught:
        start_state(ruleset=ruleset, round_label="X9", honba=-1, deposits=-2, scores=[1, 2])
    fields = {p.field for p in caught.value.problems}
    assert fields == {"round", "honba", "deposits", "scores"}
    with pytest.raises(Refusal, match="past the end"):
        start_state(ruleset=ruleset, round_label="W1")
    assert start_state(ruleset=ruleset, round_label="S3").dealer == 2
