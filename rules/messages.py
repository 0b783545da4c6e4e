"""Every message of the rule engine, by code: the one table of English templates.

A refusal (rules.errors.Problem) carries a stable ``code`` and its
``params``; its English text is ``render(code, params)``, so the command line,
the text output and ``str()`` read as they always did. The pages and the API
translate the same code instead (``scoring.messages``): the templates use
``%(name)s`` placeholders, and ``_`` marks them for ``makemessages`` (a no-op
here: rules/ stays free of Django).

``WORDS`` are the engine's own words that end up in results and hand
descriptions (limit names, why a game ended, abortive-draw reasons, result
kinds); they are stored as they are written here and translated when shown.
A parameter named in ``WORD_PARAMS`` holds one of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping


def _(template: str) -> str:
    """Marks a template for makemessages; the text is used as it is (English)."""
    return template


MESSAGES: dict[str, str] = {
    # players (rules.hand_checks, the score sheet's reader)
    "no_such_player": _("no player number %(player)s at a %(players)s-player table"),
    "unknown_player": _("unknown player %(ref)r (the players are %(players)s)"),
    "player_count": _("this ruleset is for %(players)s players; the sheet names %(count)s"),
    "listed_twice": _("a player is listed twice"),
    "ron_needs_winner": _("a ron needs a winner"),
    "loser_required": _("is required for a ron"),
    "winner_required_ron": _("is required for a ron (or give a list of wins)"),
    "winner_required_tsumo": _("is required for a tsumo"),
    "win_on_own_discard": _("%(player)s cannot win on their own discard (also the loser)"),
    "winner_twice": _("%(player)s is listed as a winner twice"),
    "riichi_cannot_pay": _("%(player)s has %(points)s points and cannot pay the %(stick)s-point riichi stick"),
    # draws and abortive draws
    "no_nagashi_mangan": _("this ruleset has no nagashi mangan"),
    "one_of": _("must be one of: %(choices)s"),
    "triple_ron_not_abortive": _(
        "a triple ron is not an abortive draw under multiple_ron %(option)s: record it as a ron with its wins"
    ),
    "no_abortive_draws": _("this ruleset has no abortive draws"),
    "four_riichi_needs_all": _("four_riichi needs a riichi from all %(players)s players in this hand"),
    # the value of a win (rules.hand_checks, rules.hand_value)
    "fan_in_riichi": _("fan and flowers are for MCR; a riichi win has han and fu"),
    "yakuman_and_han": _("give either yakuman or han/fu, not both"),
    "yakuman_count": _("a yakuman count is 1 or more"),
    "win_needs_value": _("a win needs han and fu, or yakuman"),
    "win_needs_fan": _("a win needs fan"),
    "yakuman_only": _("only yakuman may win under this ruleset"),
    "yakuman_only_kazoe": _("only yakuman may win under this ruleset (%(han)s han or more counts)"),
    "below_min_han": _("%(han)s han is below this ruleset's minimum of %(minimum)s han"),
    "no_pao": _("this ruleset has no pao (liability) payments"),
    "pao_only_yakuman": _("pao only applies to a yakuman"),
    "pao_own_win": _("%(player)s cannot be liable for their own win"),
    "han_at_least_1": _("a win needs at least 1 han"),
    "han_needs_fu": _("%(han)s han needs fu (fu may be left out from 5 han up)"),
    "no_such_fu": _("%(fu)s fu does not exist: fu are 20, 25 or a multiple of 10 up to 110"),
    "fu_20_needs_2_han": _("20 fu is only possible with 2 han or more (pinfu and menzen tsumo)"),
    "fu_25_ron": _("25 fu is only possible with %(han)s han or more on a ron (chiitoitsu)"),
    "fu_25_tsumo": _("25 fu is only possible with %(han)s han or more on a tsumo (chiitoitsu)"),
    # MCR (rules.mcr)
    "mcr_chombo": _(
        "in MCR a false win does not end the hand: list the offender in false_wins on the hand as it was finished"
    ),
    "mcr_no_abort": _("MCR has no abortive draws"),
    "mcr_no_riichi": _("MCR has no riichi"),
    "mcr_no_tenpai": _("MCR has no tenpai payments or nagashi: a draw just moves to the next hand"),
    "mcr_one_winner": _("MCR allows one winner per discard: the first player in turn after the discarder wins"),
    "mcr_false_winner": _("%(player)s declared a false win in this hand and cannot win it"),
    "false_wins_each": _("%(player)s is charged %(count)s false wins in one hand; at most %(most)s"),
    "live_not_false_win": _("%(player)s plays on after a false win but is not among the false wins"),
    "mcr_han": _("an MCR win has fan (and flowers), not han, fu or yakuman"),
    "mcr_no_pao": _("MCR has no pao"),
    "below_min_fan": _("%(fan)s fan is below the minimum of %(minimum)s (flowers do not count towards it)"),
    # the solo race to tenpai (rules.solo, seed 001 "1인 마작")
    "solo_players": _("the solo game is played by one player"),
    "one_player_is_solo": _("a table of one player is the solo race to tenpai: use the ruleset solo (scoring solo)"),
    "solo_only": _("is a rule of the solo race to tenpai (scoring solo)"),
    "solo_sum_needs_attempts": _("sum_of_attempts adds up a fixed number of attempts: set solo_attempts"),
    "solo_results": _("the solo game records attempts: tenpai (with draws and the hand's value) or noten"),
    "attempt_outside_solo": _("tenpai and noten are attempts of the solo race to tenpai (ruleset solo)"),
    "solo_riichi": _(
        "the solo game has no riichi: with one player at the table, a riichi is every player's "
        "riichi, which makes the hand an abortive draw"
    ),
    "solo_draws": _(
        "must be 0 to %(most)s: the %(tiles)s tiles less the %(dealt)s dealt and the dead wall of %(dead_wall)s"
    ),
    "tenpai_needs_value": _("a tenpai needs the hand's value: han and fu, yakuman, or its tiles"),
    "solo_no_calls": _("the solo game has no calls: one player, nobody discards a tile to call"),
    "solo_tile_twice": _("%(tile)s is written twice: the solo game's 34 tiles hold one of each"),
    "solo_tenhou": _("tenhou is a hand tenpai as dealt, with 0 draws; this one took %(draws)s"),
    "solo_no_ura": _("ura dora need a riichi, and the solo game has none"),
    "solo_no_start": _("a solo game starts with its first attempt: it has no round, honba or scores to take up"),
    "solo_no_penalties": _("the solo game ranks draws and value, not points: it takes no penalty"),
    # the game (rules.state, rules.game, rules.presets)
    "round_form": _("%(label)r is not a round: a wind letter (%(letters)s) and a hand number, such as E1"),
    "round_hand": _("%(label)s: a %(players)s-player round has hands 1 to %(players)s"),
    "round_past_end": _("%(label)s is past the end of this ruleset's game"),
    "not_negative": _("must not be negative"),
    "scores_count": _("needs %(players)s scores, one per player"),
    "game_over": _("the game has already ended (%(end_reason)s); no more hands can be added"),
    "unknown_ruleset": _("unknown ruleset %(key)r; the presets are: %(presets)s"),
    # ruleset parameters (rules.parameters, rules.ruleset)
    "unknown_parameter": _("unknown ruleset parameter"),
    # the score sheet's shape (scoring.sheet.schema)
    "required": _("is required"),
    "required_for": _("is required for a %(result)s"),
    "unknown_field": _("unknown field"),
    "not_null": _("must not be null"),
    "a_number": _("must be a number"),
    "a_whole_number": _("must be a whole number"),
    "true_or_false": _("must be true or false"),
    "a_text": _("must be text"),
    "a_list": _("must be a list"),
    "an_object": _("must be an object ({...})"),
    "at_least": _("must be at least %(minimum)s"),
    "at_most": _("must be at most %(maximum)s"),
    "points_list": _("must be a list of at most %(count)s numbers"),
    "uma_form": _('must be a list such as [15, 5, -5, -15] or {"by_plus_count": {...}}'),
    "plus_count_key": _('by_plus_count keys are player counts or "default", not %(key)r'),
    "plus_count_default": _('by_plus_count needs a "default" list'),
    "plus_count_range": _("a plus count is 0 to %(players)s"),
    "values_per_rank": _("needs %(players)s values, one per rank"),
    "uma_per_rank": _("needs %(players)s values, one per rank (or [] for none)"),
    "round_winds_max": _("a %(players)s-player game has at most %(count)s"),
    "return_below_start": _("must not be below start_points"),
    "chombo_penalty_sign": _("is added to the offender's points: use 0 or a negative number such as -20"),
    "chombo_flat_amount": _("must be above 0 when chombo_payment is flat"),
    "tsumo_equal_shares": _("must be equal_shares when dealer_bonus is false (nobody pays a dealer's double share)"),
    "five_player_rule": _("five_player_rule_2 is for %(players)s players"),
    "mcr_rotation_players": _("the MCR seat rotation is for %(players)s players"),
    "rotation_mcr_only": _("only MCR games rotate seats"),
    "either_value": _("must be %(choices)s"),
    "riichi_deposit_positive": _("must be above 0 in riichi"),
    # a line of a pasted or uploaded list (rules.csv_line)
    "csv_quote_open": _('a quote (") is left open: quotes go in pairs, around a whole value'),
    "csv_quote_then_text": _('a closing quote (") must be followed by the separator or the end of the line'),
    "csv_value_too_long": _("a value is longer than a list can hold"),
    # stages of an event: the cut, the carry, seating by rank (rules.stages)
    "player_listed_twice": _("player %(player)s is listed more than once"),
    "stage_top_over": _("the stage before ranks only %(count)s players, fewer than %(top)s"),
    "carry_form": _("must be all, half, none or a fraction from 0 to 1 such as 1/3, not %(value)r"),
    "table_points_mixed": _("either every line has table points (MCR) or none has"),
    "tiebreaks_mixed": _("every line needs the same number of tiebreak values"),
    "carry_no_table_points": _("table points are carried only from a stage ranked on them (MCR)"),
    "not_entered": _("player %(player)s has results in this stage but did not enter it"),
    "cut_not_at_line": _("player %(player)s is neither above the line nor tied at it"),
    "cut_left_out": _("player %(player)s is above the line and goes through: the decision cannot leave them out"),
    "cut_tied_count": _("names %(count)s of the players tied at the line; %(places)s of them go through"),
    "tables_not_filled": _("%(count)s players do not fill tables of %(size)s"),
    "seed_for_drawn_winds": _("is required to draw the seat winds"),
}

WORDS: dict[str, str] = {
    # limit hands (rules.hands.Limit); a counted multiple is MULTIPLE_YAKUMAN
    "mangan": _("mangan"),
    "haneman": _("haneman"),
    "baiman": _("baiman"),
    "sanbaiman": _("sanbaiman"),
    "yakuman": _("yakuman"),
    "kazoe yakuman": _("kazoe yakuman"),
    # why a game ended (GameState.end_reason)
    "bust": _("bust"),
    "chombo": _("chombo"),
    "goal reached": _("goal reached"),
    "end of the extra round": _("end of the extra round"),
    "agari-yame": _("agari-yame"),
    "end of the game": _("end of the game"),
    "time": _("time"),
    "the last dealer stopped": _("the last dealer stopped"),
    "the player stopped": _("the player stopped"),
    # abortive draws (rules.hands.AbortReason): English shows the stored value, as the score sheet writes it
    "nine_terminals": _("nine_terminals"),
    "four_winds": _("four_winds"),
    "four_riichi": _("four_riichi"),
    "four_kans": _("four_kans"),
    "triple_ron": _("triple_ron"),
    "all_others_ron": _("all_others_ron"),
    # result kinds (rules.hands.Outcome)
    "ron": _("ron"),
    "tsumo": _("tsumo"),
    "draw": _("draw"),
    "abort": _("abortive draw"),
    "tenpai": _("tenpai"),
    "noten": _("noten"),
}
# A limit of several counted yakuman, as hand_value writes it ("2x yakuman").
MULTIPLE_YAKUMAN = _("%(count)sx yakuman")

# Parameters that hold one of WORDS (translated with the message).
WORD_PARAMS = frozenset({"end_reason", "result"})


def render(code: str, params: Mapping[str, object]) -> str:
    """The English text of message ``code``."""
    return MESSAGES[code] % params


def multiple_yakuman(count: int) -> str:
    """The stored name of a limit of ``count`` counted yakuman: "2x yakuman"."""
    return MULTIPLE_YAKUMAN % {"count": count}


_MULTIPLE = re.compile(r"(\d+)x yakuman")


def word(value: str, gettext: Callable[[str], str] = _) -> str:
    """One of the engine's stored words (a limit, why a game ended, an abortive draw's reason) through
    ``gettext`` (English by default); any other value as it is."""
    if value in WORDS:
        return gettext(WORDS[value])
    multiple = _MULTIPLE.fullmatch(value)
    if multiple:
        return gettext(MULTIPLE_YAKUMAN) % {"count": int(multiple.group(1))}
    return value
