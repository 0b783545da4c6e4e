"""Tenhou's mjlog XML (what tenhou.net/0/log/?… serves, plain or gzip) read into an ``OnlineGame``.

Only the tags that decide payments are read: ``GO`` (the lobby's rules),
``UN`` (names), ``INIT`` (each hand's round, honba, sticks and scores),
``REACH step=2`` (a riichi stick paid), ``AGARI`` and ``RYUUKYOKU`` (each
with ``sc``: every seat's score before and change, in hundreds), and the
last result's ``owari`` (end scores and points).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import unquote
from xml.etree.ElementTree import Element
from xml.parsers import expat

from defusedxml.common import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden

from rules.errors import Refusal
from scoring.logs.lobby import lobby_overrides
from scoring.logs.model import (
    OnlineGame,
    Platform,
    RecordedHand,
    log_int,
    log_number,
    round_label,
    rounding_overrides,
    tenhou_overrides,
)
from scoring.sheet.record import HandRecord, WinRecord, with_win

HUNDRED = 100
YAKUMAN_LIMIT = 5  # ten="fu,points,limit": 5 = yakuman, counted (kazoe) when no yakuman is listed
MANGAN_HAN = 5  # from 5 han the fu no longer matter

# GO type: one bit per lobby rule; red fives (0x02) and open tanyao (0x04) change no payment the log does not state.
STANDARD_LOBBY_BITS = 0xFF  # above them: custom rules (0x100), chips (0x200), ratio play (0x800), …
GO_LOBBY_RULES = 0x100  # a private or tournament lobby's own rules, declared in GO csrule (scoring.logs.lobby)
GO_HANCHAN = 0x08
GO_THREE_PLAYERS = 0x10

# Two of Tenhou's rules changed in its early years; a log's id carries its date (2010060800gm-…).
# East-only games paid uma +10/+5/−5/−10 until the summer of 2009, then the hanchan's +20/+10/−10/−20:
# the records dated up to 2009-07-31 and those with the wall's seed on INIT (the format of early 2009)
# all pay the first (6 of 6), those from 2009-08-27 on the second (44 of 44).
EARLY_EAST_ONLY_UMA = [10, 5, -5, -10]
EAST_ONLY_UMA_CHANGED = "20090801"
# The last dealer's tenpai while first did not end the game up to 2010-06-01 (5 of 5 records play on)
# and does from 2010-06-08 (the records since, and every later game the engine was checked against).
TENPAI_YAME_FROM = "20100608"
EARLY_2009 = "20090101"
NOW = "99999999"
TENHOU_LOG_ID = re.compile(r"(?P<date>\d{8})\d{2}gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}")

ABORT_REASONS = {
    "yao9": "nine_terminals",
    "kaze4": "four_winds",
    "reach4": "four_riichi",
    "kan4": "four_kans",
    "ron3": "triple_ron",
}
NAGASHI = "nm"


def read_mjlog(data: bytes, *, log_id: str) -> OnlineGame:
    """The game in ``data`` (mjlog XML); Refusal naming the tag when it cannot be read."""
    reader = _Reader(log_id)
    try:
        root, tags = _Tags().parse(data)
    except (expat.error, DefusedXmlException, ValueError, LookupError) as exc:
        # ValueError and LookupError: an encoding declared that the XML reader does not take (Shift_JIS).
        raise Refusal.one("mjlog", f"not a readable mjlog XML file ({exc})") from None
    if root != "mjloggm":
        raise Refusal.one("mjlog", f"the root element is <{root}>, not <mjloggm>")
    try:
        return reader.read(tags)
    except Refusal:
        raise
    except (KeyError, ValueError, IndexError) as exc:
        raise Refusal.one("mjlog", f"a tag lacks what Tenhou's logs always hold ({exc!r})") from None


class _Tags:
    """The root's name and the tags under it that the reader reads (READ), straight from expat.

    A log holds a thousand tags, nearly all of them draws and discards the reader ignores: building a tree of
    them (ElementTree) was most of the time spent reading a log. Of each run of ignored tags one is kept, so
    that the reader still sees where a run of wins is broken (a double ron is two AGARI tags in a row). As
    defusedxml does, an entity declaration or an external reference refuses the file (no entity expansion bomb,
    no file or URL read), as does an entity no declaration defines.
    """

    def __init__(self) -> None:
        self.root: str | None = None
        self.depth = 0
        self.tags: list[Element] = []
        self.ignoring = False  # the last tag kept is an ignored one

    def parse(self, data: bytes) -> tuple[str | None, list[Element]]:
        parser = expat.ParserCreate(None, "}")  # ElementTree's namespace separator: the tags it gave the reader
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.EntityDeclHandler = _entity_declared
        parser.UnparsedEntityDeclHandler = _unparsed_entity_declared
        parser.ExternalEntityRefHandler = _external_reference
        parser.SkippedEntityHandler = functools.partial(_undefined_entity, parser)
        parser.Parse(data, True)
        return self.root, self.tags

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth != 2:  # the root, or a tag inside a tag: the reader reads the root's children only
            if self.depth == 1:
                self.root = name if "}" not in name else "{" + name
            return
        if name.lower() in READ:
            self.tags.append(Element(name, attrs))
            self.ignoring = False
        elif not self.ignoring:
            self.tags.append(Element(name))
            self.ignoring = True

    def _end(self, name: str) -> None:
        del name
        self.depth -= 1


def _entity_declared(
    name: str,
    is_parameter: bool,
    value: str | None,
    base: str | None,
    sysid: str | None,
    pubid: str | None,
    notation: str | None,
) -> None:
    del is_parameter
    raise EntitiesForbidden(name, value, base, sysid, pubid, notation)


def _unparsed_entity_declared(
    name: str, base: str | None, sysid: str | None, pubid: str | None, notation: str | None
) -> None:
    raise EntitiesForbidden(name, None, base, sysid, pubid, notation)


def _external_reference(context: str, base: str | None, sysid: str | None, pubid: str | None) -> int:
    raise ExternalReferenceForbidden(context, base, sysid, pubid)


def _undefined_entity(parser: Any, name: str, is_parameter: bool) -> None:
    del is_parameter
    raise expat.error(f"undefined entity &{name};: line {parser.ErrorLineNumber}, column {parser.ErrorColumnNumber}")


# The tags the reader reads (lowercased), each by its method ``_<tag>``; any other tag (most are named by their
# tile: T12, D87) is passed over. Named here, not found among the reader's methods: a tag named after one of its
# other methods (<FINISH>, <STARTED>) is no tag to read.
READ = frozenset({"go", "un", "init", "reach", "agari", "ryuukyoku"})


def _handler(reader: _Reader, name: str) -> Any:
    lowered = name.lower()
    return getattr(reader, f"_{lowered}") if lowered in READ else _ignore


class _Reader:
    def __init__(self, log_id: str) -> None:
        self.log_id = log_id
        self.names: list[str] = []
        self.players = 4
        self.overrides: dict[str, Any] = {}
        self.game: OnlineGame | None = None
        self.hand: dict[str, Any] = {}  # the current hand: its INIT and riichi sticks paid
        self.pending: list[Element] = []  # AGARI tags of one discard, a double ron has two
        dated = TENHOU_LOG_ID.match(log_id)
        self.log_date = dated["date"] if dated else NOW  # a log named otherwise is taken to be recent

    def read(self, tags: Sequence[Element]) -> OnlineGame:
        for tag in tags:
            if tag.tag != "AGARI" and self.pending:
                self._close_wins()
            _handler(self, tag.tag)(tag)
        if self.pending:
            self._close_wins()
        game = self._started()
        if game.final_scores is None:
            raise Refusal.one("mjlog", "the log stops before the game ended (no owari): import complete games only")
        return game

    def _go(self, tag: Element) -> None:
        kind = log_int(tag.get("type", "0"), "GO.type")
        csrule = tag.get("csrule")
        special = kind & ~STANDARD_LOBBY_BITS
        if special & ~GO_LOBBY_RULES or (special and not csrule):
            raise Refusal.one(
                "GO",
                f"lobby type {kind:#x} plays special rules (chips, ratio play, or a lobby's own "
                "rules it does not declare), which no rule set here scores: import standard lobby "
                "games, or a lobby's that its log declares (GO csrule)",
            )
        self.players = 3 if kind & GO_THREE_PLAYERS else 4
        self.overrides = tenhou_overrides(three_players=self.players == 3, hanchan=bool(kind & GO_HANCHAN))
        if special and csrule:
            self.overrides |= lobby_overrides(csrule, players=self.players)

    def _un(self, tag: Element) -> None:
        if self.names:
            return  # a reconnection repeats UN
        self.names = [unquote(tag.get(f"n{seat}", "")) for seat in range(4)][: self.players]

    def _init(self, tag: Element) -> None:
        if tag.get("shuffle") is not None:
            self.log_date = EARLY_2009  # the wall's seed on INIT: the format of Tenhou's first half of 2009
        seed = _ints(tag.get("seed", ""), "INIT.seed")
        scores = tuple(v * HUNDRED for v in _ints(tag.get("ten", ""), "INIT.ten"))[: self.players]
        game = self._started(scores)
        self.hand = {
            "round": round_label(seed[0]),
            "honba": seed[1],
            "deposits": seed[2],
            "riichi": [],
            "where": f"hand {len(game.recorded) + 1} ({round_label(seed[0])}-{seed[1]})",
        }

    def _reach(self, tag: Element) -> None:
        if tag.get("step") == "2":
            self.hand["riichi"].append(log_int(tag.get("who", ""), "REACH.who"))

    def _agari(self, tag: Element) -> None:
        self.pending.append(tag)

    def _ryuukyoku(self, tag: Element) -> None:
        kind = tag.get("type", "")
        record: HandRecord
        if kind in ABORT_REASONS:
            record = {"result": "abort", "reason": ABORT_REASONS[kind]}
        else:
            record = {
                "result": "draw",
                "tenpai": [self.names[p] for p in range(self.players) if tag.get(f"hai{p}") is not None],
            }
            if kind == NAGASHI:
                deltas = _sc_deltas(tag.get("sc", ""), self.players)
                record["nagashi"] = [self.names[p] for p in range(self.players) if deltas[p] > 0]
        self._finish(record, [tag])

    def _close_wins(self) -> None:
        tags, self.pending = self.pending, []
        wins = [self._win(tag) for tag in tags]
        first = tags[0]
        who, from_who = log_int(first.get("who", ""), "AGARI.who"), log_int(first.get("fromWho", ""), "AGARI.fromWho")
        record: HandRecord
        if who == from_who:
            record = with_win({"result": "tsumo"}, wins[0])
        elif len(wins) == 1:
            record = with_win({"result": "ron", "loser": self.names[from_who]}, wins[0])
        else:
            record = {"result": "ron", "loser": self.names[from_who], "wins": wins}
        self._finish(record, tags)

    def _win(self, tag: Element) -> WinRecord:
        who = log_int(tag.get("who", ""), "AGARI.who")
        win: WinRecord = {"winner": self.names[who]}
        fu, _points, limit = _ints(tag.get("ten", ""), "AGARI.ten")
        yakuman = [v for v in tag.get("yakuman", "").split(",") if v]
        if yakuman:
            win["yakuman"] = len(yakuman)
        else:
            han = sum(_ints(tag.get("yaku", ""), "AGARI.yaku")[1::2])
            win["han"] = han
            if han < MANGAN_HAN or limit not in range(1, YAKUMAN_LIMIT + 1):
                win["fu"] = fu
        pao = tag.get("paoWho")
        if pao is not None and log_int(pao, "AGARI.paoWho") != who:
            win["pao"] = self.names[log_int(pao, "AGARI.paoWho")]
        return win

    def _finish(self, record: HandRecord, tags: list[Element]) -> None:
        game = self._started()
        if not self.hand:
            raise Refusal.one(f"hand {len(game.recorded) + 1}", "a result comes before any hand was dealt")
        riichi = sorted(self.hand["riichi"])
        if riichi:
            record["riichi"] = [self.names[p] for p in riichi]
        deltas = [sum(d) for d in zip(*(_sc_deltas(t.get("sc", ""), self.players) for t in tags), strict=True)]
        for p in riichi:
            deltas[p] -= 1000  # sc counts from the score after the stick was paid; the sheet's deltas include it
        game.hands.append(record)
        game.recorded.append(
            RecordedHand(
                round=self.hand["round"], honba=self.hand["honba"], deposits=self.hand["deposits"], deltas=tuple(deltas)
            )
        )
        owari = tags[-1].get("owari")
        if owari is not None:
            values = owari.split(",")
            game.final_scores = tuple(log_int(v, "owari") * HUNDRED for v in values[0::2][: self.players])
            game.final_points = tuple(log_number(v, "owari") for v in values[1::2][: self.players])
            game.overrides |= rounding_overrides(game.final_points)
            if game.overrides.get("round_winds") == 1 and self.log_date < EAST_ONLY_UMA_CHANGED:
                game.overrides["uma"] = EARLY_EAST_ONLY_UMA
            if self.log_date < TENPAI_YAME_FROM:
                game.overrides["tenpai_yame"] = False
        self.hand = {}

    def _started(self, scores: tuple[int, ...] | None = None) -> OnlineGame:
        if self.game is None:
            if not self.names or scores is None:
                raise Refusal.one("mjlog", "no players (UN) or no hand (INIT) before the first result")
            self.game = OnlineGame(
                platform=Platform.TENHOU,
                log_id=self.log_id,
                names=self.names,
                ruleset="tenhou",
                overrides=self.overrides,
            )
            default = self.overrides.get("start_points", 25000)
            if any(s != default for s in scores):
                self.game.start_scores = scores
        return self.game


def _sc_deltas(sc: str, players: int) -> list[int]:
    values = _ints(sc, "sc")
    return [values[2 * p + 1] * HUNDRED for p in range(players)]


def _ints(text: str, where: str) -> list[int]:
    return [log_int(v, where) for v in text.split(",")]


def _ignore(tag: Element) -> None:
    del tag
