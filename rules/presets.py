"""The preset registry: every federation ruleset an organiser can pick (docs/rules.md §8).

Each preset is a function whose docstring names its source and flags the
values the sources do not settle, marked (?): they are kept as docs/rules.md
writes them, and an organiser may override any of them. Unless a preset says
otherwise: honba 300, riichi stick 1000, noten total 3000, tenpai renchan, no
busting, no agari-yame, no nagashi, no abortive draws, pao on, covering
only the fed yakuman (seed 000 §5.1's reading: ``pao_scope: fed_yakuman``,
marked (?) where a preset's own source does not say), ties split, a
hanchan (``Ruleset`` holds these defaults).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.errors import Refusal
from rules.ruleset import Ruleset

_FACTORIES: dict[str, Callable[[], Ruleset]] = {}
_CACHE: dict[str, Ruleset] = {}


def preset(key: str) -> Callable[[Callable[[], dict[str, Any]]], Callable[[], dict[str, Any]]]:
    """Register a preset; the function returns its parameters (JSON values) over the defaults."""

    def register(func: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
        def build() -> Ruleset:
            params = func()
            base_key = params.pop("based_on", None)
            base = get_preset(base_key) if base_key else Ruleset()
            return Ruleset.build(base=base, overrides=params, key=key)

        _FACTORIES[key] = build
        build.__doc__ = func.__doc__
        return func

    return register


def preset_keys() -> tuple[str, ...]:
    return tuple(_FACTORIES)


def get_preset(key: str) -> Ruleset:
    """The preset ``key``; Refusal naming the known keys if there is none."""
    if key not in _FACTORIES:
        raise Refusal.of("ruleset", "unknown_ruleset", key=key, presets=", ".join(_FACTORIES))
    if key not in _CACHE:
        _CACHE[key] = _FACTORIES[key]()
    return _CACHE[key]


def preset_doc(key: str) -> str:
    get_preset(key)
    return (_FACTORIES[key].__doc__ or "").strip()


def build_ruleset(*, key: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    """A preset with an organiser's overrides, checked as a whole."""
    return Ruleset.build(base=get_preset(key), overrides=overrides or {}, key=key)


UMA_15_5 = [15, 5, -5, -15]


@preset("wrc-2025")
def _wrc_2025() -> dict[str, Any]:
    """World Riichi Championship rules 2025.

    30000/30000, uma 15/5/−5/−15, head bump, kiriage mangan, chombo −30
    deducted after the game and the hand replayed.
    Uncertain (?): multiple yakuman counted (docs/rules.md says so; Pantheon's WRC
    ruleset caps them); leftover riichi sticks to first place; no kazoe
    yakuman (not in docs/rules.md; taken from the WRC practice and Pantheon); pao
    covers only the fed yakuman (the seed's reading).
    """
    return {
        "uma": UMA_15_5,
        "chombo_penalty": -30,
        "kiriage_mangan": True,
        "multiple_yakuman": True,
        "kazoe_yakuman": False,
        "deposits_at_end": "first_place",
    }


@preset("ema-2016")
def _ema_2016() -> dict[str, Any]:
    """EMA Riichi Competition Rules 2016.

    30000/30000, uma 15/5/−5/−15, chombo −20 deducted. Every ron on one
    discard wins; each winner gets the honba; each winner takes back the
    riichi stick they put out, the winner first in turn after the discarder
    takes the rest. No kiriage, no kazoe, leftover sticks to first place.
    Uncertain (?): multiple yakuman are not counted (EMA caps at one yakuman,
    as Pantheon's EMA ruleset does; docs/rules.md does not say); pao covers only
    the fed yakuman (the seed's reading; with single yakuman only, it never
    matters).
    """
    return {
        "uma": UMA_15_5,
        "chombo_penalty": -20,
        "multiple_ron": "all",
        "multiple_ron_honba": "each_winner",
        "multiple_ron_deposits": "own_back_rest_first",
        "kiriage_mangan": False,
        "kazoe_yakuman": False,
        "multiple_yakuman": False,
        "deposits_at_end": "first_place",
    }


@preset("ema-2025")
def _ema_2025() -> dict[str, Any]:
    """EMA Riichi Competition Rules 2025: as ema-2016, with kiriage mangan."""
    return {"based_on": "ema-2016", "kiriage_mangan": True}


@preset("jpml-a")
def _jpml_a() -> dict[str, Any]:
    """Japan Professional Mahjong League official rules (seed 000 §5.1).

    30000/30000, uma by the number of players at or above 30000: one →
    +12/−1/−3/−8, two → +8/+4/−4/−8, three → +8/+3/+1/−12, otherwise
    +8/+4/−4/−8; ties split the uma. Head bump; abortive draws (nine
    terminals, four winds, four riichi, four kans); 4 han 30 fu is 7700/11600
    (no kiriage); 11 han and up is sanbaiman (no kazoe); double and triple
    yakuman count; sticks left at the end are lost; pao for big three
    dragons, big four winds and four kans, covering only the fed yakuman
    (pao_scope fed_yakuman). Chombo −20 deducted.
    Uncertain (?): a double-wind pair is 2 fu (JPML practice; scoring from tiles).
    """
    return {
        "uma": {
            "by_plus_count": {
                "1": [12, -1, -3, -8],
                "2": [8, 4, -4, -8],
                "3": [8, 3, 1, -12],
                "default": [8, 4, -4, -8],
            }
        },
        "chombo_penalty": -20,
        "abortive_draws": True,
        "kiriage_mangan": False,
        "kazoe_yakuman": False,
        "multiple_yakuman": True,
        "deposits_at_end": "lost",
        "pao": True,
        "double_wind_pair_fu": 2,
    }


@preset("jpml-wrc")
def _jpml_wrc() -> dict[str, Any]:
    """JPML's WRC rules (seed 000 §5.2): as jpml-a, with uma 15/5/−5/−15 whatever
    the plus count, kiriage mangan and chombo −30."""
    return {"based_on": "jpml-a", "uma": UMA_15_5, "kiriage_mangan": True, "chombo_penalty": -30}


@preset("saikouisen")
def _saikouisen() -> dict[str, Any]:
    """Saikouisen Japan Pro Mahjong Association (seed 000 §5.3).

    30000/30000 (no oka), uma 10000-30000 (+30/+10/−10/−30), tenpai renchan,
    noten 3000, no abortive draws, no pao, multiple yakuman, no kazoe,
    kiriage mangan, no agari-yame.
    Uncertain (?): chombo −20 deducted (the seed names no amount); leftover
    sticks to first place.
    """
    return {
        "uma": [30, 10, -10, -30],
        "chombo_penalty": -20,
        "kiriage_mangan": True,
        "multiple_yakuman": True,
        "kazoe_yakuman": False,
        "pao": False,
        "abortive_draws": False,
        "agari_yame": False,
    }


@preset("saikouisen-classic")
def _saikouisen_classic() -> dict[str, Any]:
    """Saikouisen Classic rules (seed 000 §5.4): as saikouisen, with uma
    4000-12000 (+12/+4/−4/−12), no noten payments, no kiriage, and the dealer
    keeps the seat only on a win. Chombo −16 deducted after the game."""
    return {
        "based_on": "saikouisen",
        "uma": [12, 4, -4, -12],
        "noten_payment_total": 0,
        "kiriage_mangan": False,
        "renchan": "win",
        "chombo_penalty": -16,
    }


@preset("npm")
def _npm() -> dict[str, Any]:
    """Japan Pro Mahjong Association (NPM, seed 000 §5.5).

    25000/30000: 1 point per 1000 from 30000, uma +30/+10/−10/−30 plus the
    20-point oka, i.e. +50/+10/−10/−30; ties split the uma. 7700/11600 are
    rounded up to mangan (kiriage). Head bump only. No nagashi, no abortive
    draws, no pao. Pure double/triple yakuman count. Sticks left at the end
    are lost. Chombo: −40 after the ranking, nothing to the table, the hand
    replayed.
    Uncertain (?): kazoe yakuman (the seed does not say; kept on).
    """
    return {
        "start_points": 25000,
        "return_points": 30000,
        "uma": [30, 10, -10, -30],
        "chombo_penalty": -40,
        "kiriage_mangan": True,
        "multiple_ron": "head_bump",
        "deposits_at_end": "lost",
        "pao": False,
        "multiple_yakuman": True,
        "nagashi_mangan": False,
        "abortive_draws": False,
    }


@preset("m-league")
def _m_league() -> dict[str, Any]:
    """M.League rules.

    25000/30000, uma +30/+10/−10/−30 plus the 20-point oka, head bump,
    kiriage mangan, pao.
    Uncertain (?): pao covers only the fed yakuman (the seed's reading);
    chombo −20 deducted; kazoe yakuman and multiple yakuman
    (kept at the defaults); leftover sticks to first place.
    """
    return {
        "start_points": 25000,
        "return_points": 30000,
        "uma": [30, 10, -10, -30],
        "chombo_penalty": -20,
        "multiple_ron": "head_bump",
        "kiriage_mangan": True,
        "pao": True,
    }


@preset("tenhou")
def _tenhou() -> dict[str, Any]:
    """Tenhou (tenhou.net) ranked hanchan.

    25000/30000, uma +20/+10/−10/−20 plus the 20-point oka. Busting below 0;
    the last dealer stops when first (agari-yame and tenpai-yame); when
    nobody has 30000 after South 4 the game goes into West until someone has
    (sudden death, no North). Kazoe and multiple yakuman; double ron, a
    triple ron is an abortive draw; honba and sticks to the winner first in
    turn after the discarder; abortive draws and nagashi mangan. Chombo:
    reverse mangan at the table, no deduction. Ties by seat order. End
    scores rounded to the nearest thousand, a 500 away from zero (198 of
    198 real end scores ending in 500: 38500 → 39000, −7500 → −8000), first
    place taking the remainder. Pao covers the whole hand, honba included
    (pao_scope whole_hand): a real record charges the liable player −64900
    for a non-dealer's 64000 double yakuman tsumo with 3 honba, another the
    liable player −16300 and the discarder −16000 for a yakuman ron with 1
    honba.
    Uncertain (?): a double yakuman ron with pao is halved whole (no record).
    """
    return {
        "start_points": 25000,
        "return_points": 30000,
        "uma": [20, 10, -10, -20],
        "busting": True,
        "agari_yame": True,
        "extension": "until_goal",
        "goal_points": 30000,
        "kazoe_yakuman": True,
        "multiple_yakuman": True,
        "kiriage_mangan": False,
        "multiple_ron": "double_only_triple_abort",
        "multiple_ron_honba": "first_winner",
        "multiple_ron_deposits": "first_winner",
        "abortive_draws": True,
        "nagashi_mangan": True,
        "chombo_payment": "reverse_mangan",
        "chombo_penalty": 0,
        "ties": "seat_order",
        "final_rounding": "nearest_thousand",
        "deposits_at_end": "first_place",
        "pao_scope": "whole_hand",
    }


@preset("mahjong-soul")
def _mahjong_soul() -> dict[str, Any]:
    """Mahjong Soul (Jantama) ranked hanchan.

    25000/25000, uma 15/5/−5/−15, busting, agari-yame, extension until
    30000, nagashi mangan, every ron on one discard wins (honba and sticks to
    the winner first in turn), ties by seat order, kazoe and multiple yakuman,
    abortive draws (the game has nine terminals, four winds, four riichi and
    four kans; docs/rules.md's row is silent, so the default "none" would refuse
    real game records).
    Uncertain (?): chombo as reverse mangan at the table (online play has none);
    pao covers only the fed yakuman (the seed's reading; no record says).
    """
    return {
        "start_points": 25000,
        "return_points": 25000,
        "uma": UMA_15_5,
        "busting": True,
        "agari_yame": True,
        "extension": "until_goal",
        "goal_points": 30000,
        "nagashi_mangan": True,
        "multiple_ron": "all",
        "ties": "seat_order",
        "chombo_payment": "reverse_mangan",
        "chombo_penalty": 0,
        "abortive_draws": True,
        "kazoe_yakuman": True,
        "multiple_yakuman": True,
    }


@preset("mcr")
def _mcr() -> dict[str, Any]:
    """MCR, the Chinese Official rules (seeds 002 and 004; docs/rules.md §6).

    A full game of 16 hands, East 1 to North 4; the dealer passes after every
    hand, won or drawn; no honba, no riichi, no noten payments, no abortive
    draws. A win needs 8 fan without flowers, each flower adds 1; payments
    8 + fan (self-drawn: from all three; on a discard: 8 from each, the fan
    from the discarder too); one winner per discard (head bump). The players
    change seats after each round wind (seed 002 §2). A false win: the
    offender cannot win the hand and pays 10 to each other player after it.
    Table points 4/2/1/0, shared on ties.
    Open questions: tournament rule books set other false-win amounts (e.g.
    the MCR Green Book's 30 to each); kept at the seed's 10, override
    chombo_flat_amount.
    """
    return {
        "scoring": "mcr",
        "start_points": 0,
        "return_points": 0,
        "uma": [],
        "honba_points": 0,
        "riichi_deposit": 0,
        "noten_payment_total": 0,
        "multiple_ron": "head_bump",
        "renchan": "none",
        "abortive_draws": False,
        "round_winds": 4,
        "chombo_payment": "flat",
        "chombo_flat_amount": 10,
        "chombo_penalty": 0,
        "pao": False,
        "min_fan": 8,
        "base_payment": 8,
        "table_points": [4, 2, 1, 0],
        "seat_rotation": "mcr",
        "deposits_at_end": "lost",
        "kazoe_yakuman": False,
    }


@preset("sanma")
def _sanma() -> dict[str, Any]:
    """Three players, rule 0 (seed 001 "3인 마작 제0룰"; docs/rules.md §7, §8).

    102 tiles (one of each tile taken out, no kan), chi from the left. The
    dealer wins 1.5×; on a tsumo the two others split the winner's ron value
    in halves and the dealer pays no extra. Noten total 3000. Chombo:
    reverse mangan at the table, paid as a mangan tsumo would be (a dealer
    6000 to each, a non-dealer 4000 to each), no deduction. A hanchan is E1–E3, S1–S3.
    Uncertain (?): 35000 start / 40000 return and uma +20/0/−20 (the seed
    names none); honba 300 (150 from each payer on a tsumo).
    """
    return {
        "players": 3,
        "start_points": 35000,
        "return_points": 40000,
        "uma": [20, 0, -20],
        "tsumo_payment": "equal_shares",
        "noten_payment_total": 3000,
        "chombo_payment": "reverse_mangan",
        "chombo_penalty": 0,
    }


# Two players and five to eight live in their own module, as nine to twelve do; importing them registers them after
# sanma, in this order. The solo race to tenpai (seed 001 "1인 마작") registers its preset with its own rules, in
# rules.solo.
from rules import few_and_mid_tables as _few_and_mid_tables  # noqa: E402, F401
from rules import large_tables as _large_tables  # noqa: E402, F401
from rules import solo as _solo  # noqa: E402, F401
