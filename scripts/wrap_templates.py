"""Break the templates' long lines only where a line break changes nothing a browser shows.

``python scripts/wrap_templates.py templates`` rewrites the ``*.html`` files whose lines are over 120 characters;
``--check`` only lists them. djLint's own ``--reformat`` is not used: it puts spaces inside inline elements
(``<a> Points </a>``, a space after a label before its input), which the pages then show.

A new line goes only where whitespace is already (between words, between a tag's attributes), or where every
way the template can render puts it beside a block (a ``<div>``, ``<td>``, ``<li>``...) or beside whitespace:
there the browser drops it. Never inside a template tag, a quoted attribute value or a ``{% blocktranslate %}``
body (its text is the message id the catalogues translate).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

LIMIT = 120
TEMPLATE = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}")
# Elements laid out as blocks, table or list parts, or SVG shapes: the whitespace beside them shows nothing.
BLOCKS = frozenset(
    {
        "html",
        "head",
        "body",
        "header",
        "main",
        "nav",
        "section",
        "article",
        "aside",
        "footer",
        "div",
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "th",
        "td",
        "caption",
        "colgroup",
        "col",
        "form",
        "fieldset",
        "legend",
        "details",
        "summary",
        "meta",
        "link",
        "title",
        "br",
        "hr",
        "figure",
        "figcaption",
        "option",
        "optgroup",
        "select",
        "svg",
        "g",
        "path",
        "line",
        "circle",
        "rect",
        "polyline",
    }
)
# The classes web/static/site/*.css display inline, inline-block or inline-flex: such an element is no block.
INLINE_CLASSES = frozenset(
    {
        "entry-title",
        "entry-next",
        "ov-state",
        "ov-last",
        "figures",
        "event",
        "inline",
        "states",
        "state",
        "move",
        "tag",
        "tile",
        "hand-group",
        "in-hand",
        "sign",
        "button",
    }
)
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
RAW = frozenset({"pre", "textarea", "script", "style"})
# Template tags that render nothing where they stand (control flow is followed; blocks are not).
SILENT = frozenset(
    {
        "load",
        "with",
        "endwith",
        "localize",
        "endlocalize",
        "autoescape",
        "endautoescape",
        "get_current_language",
        "get_available_languages",
        "comment-line",
    }
)
BARRIERS = frozenset({"block", "endblock", "extends"})


@dataclass
class Token:
    kind: str  # "text", "ws" (whitespace in text), "tag" (HTML), "tpl" (template), "trans" (a blocktranslate)
    text: str
    start: int
    name: str = ""  # the HTML element or the template tag
    closing: bool = False
    block: bool = False
    construct: Construct | None = None


@dataclass
class Construct:
    """An {% if %} or {% for %}: the indexes of its branch heads (if, elif, else / for, empty) and of its end."""

    heads: list[int] = field(default_factory=list)
    end: int = -1

    def has_else(self, toks: list[Token]) -> bool:
        return any(toks[h].name == "else" for h in self.heads)


def scan_tag(src: str, i: int) -> int:
    """The end of the HTML tag opening at i: its '>' outside quotes and template tags."""
    quote = ""
    j = i + 1
    while j < len(src):
        m = TEMPLATE.match(src, j)
        if m:
            j = m.end()
            continue
        c = src[j]
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == ">":
            return j + 1
        j += 1
    raise ValueError(f"an HTML tag is not closed at character {i}")


def tpl_name(text: str) -> str:
    if text.startswith("{#"):
        return "comment-line"
    if text.startswith("{{"):
        return "{{"
    m = re.match(r"\{%-?\s*(\w+)", text)
    name = m.group(1) if m else ""
    return "url-as" if name == "url" and re.search(r"\sas\s+\w+\s*%\}$", text) else name


def tokens(src: str) -> list[Token]:
    out: list[Token] = []
    i = text_start = 0

    def flush(end: int) -> None:
        for m in re.finditer(r"\s+|\S+", src[text_start:end]):
            out.append(Token("ws" if m.group().isspace() else "text", m.group(), text_start + m.start()))

    while i < len(src):
        m = TEMPLATE.match(src, i)
        if m:
            flush(i)
            name = tpl_name(m.group())
            end = m.end()
            if name in ("blocktranslate", "blocktrans"):
                close = re.compile(r"\{%\s*endblocktrans(late)?\s*%\}").search(src, end)
                if close is None:
                    raise ValueError(f"{{% blocktranslate %}} is not closed at character {i}")
                end = close.end()
                out.append(Token("trans", src[i:end], i, name=name))
            else:
                out.append(Token("tpl", m.group(), i, name=name))
            i = text_start = end
        elif src[i] == "<" and i + 1 < len(src) and (src[i + 1].isalpha() or src[i + 1] in "/!"):
            flush(i)
            end = src.index("-->", i) + 3 if src.startswith("<!--", i) else scan_tag(src, i)
            raw = src[i:end]
            name_m = re.match(r"</?\s*([a-zA-Z][a-zA-Z0-9-]*)", raw)
            out.append(
                Token("tag", raw, i, name=name_m.group(1).lower() if name_m else "!", closing=raw.startswith("</"))
            )
            i = text_start = end
        else:
            i += 1
    flush(len(src))
    return out


def classes(tag: str) -> set[str]:
    m = re.search(r'\bclass="([^"]*)"', TEMPLATE.sub(" ", tag))
    return set(m.group(1).split()) if m else set()


def mark_blocks(toks: list[Token]) -> None:
    """Which HTML tags make a block: a block element without an inline class; a closing tag as its opening."""
    stack: list[tuple[str, bool]] = []
    for t in toks:
        if t.kind != "tag" or t.name == "!":
            continue
        if not t.closing:
            t.block = t.name in BLOCKS and not classes(t.text) & INLINE_CLASSES
            if t.name not in VOID and not t.text.endswith("/>"):
                stack.append((t.name, t.block))
            continue
        opened = [k for k, (name, _) in enumerate(stack) if name == t.name]
        if opened:
            t.block = stack[opened[-1]][1]
            del stack[opened[-1] :]
        # Closed in another branch than it opened: a block only if that kind of element never is inline here.
        else:
            t.block = t.name in BLOCKS and t.name not in {"form", "p", "h1", "dl"}


def link_constructs(toks: list[Token]) -> None:
    stack: list[Construct] = []
    for n, t in enumerate(toks):
        if t.kind != "tpl":
            continue
        if t.name in ("if", "for"):
            stack.append(Construct(heads=[n]))
            t.construct = stack[-1]
        elif t.name in ("elif", "else", "empty") and stack:
            stack[-1].heads.append(n)
            t.construct = stack[-1]
        elif t.name in ("endif", "endfor") and stack:
            stack[-1].end = n
            t.construct = stack.pop()


class Flow:
    """What a browser can find on either side of a point of the template, over every way it renders.

    Each side is a set of "block" (a block element), "ws" (whitespace), "other" (text, an inline element, what
    a tag renders) or "unknown" (the edge of the file or of a {% block %}).
    """

    def __init__(self, toks: list[Token]) -> None:
        self.toks = toks
        self.memo: dict[tuple[str, int], frozenset[str]] = {}

    def kind(self, t: Token) -> str:
        if t.kind == "ws":
            return "ws"
        if t.kind == "tag" and t.block:
            return "block"
        return "other"

    def cached(self, side: str, i: int, compute: Callable[[int], frozenset[str]]) -> frozenset[str]:
        key = (side, i)
        if key not in self.memo:
            self.memo[key] = frozenset()  # a loop back to here adds nothing new
            self.memo[key] = compute(i)
        return self.memo[key]

    def left(self, i: int) -> frozenset[str]:
        """Before the point just ahead of token i."""
        return self.cached("left", i, self._left)

    def _left(self, i: int) -> frozenset[str]:
        if i <= 0:
            return frozenset({"unknown"})
        t = self.toks[i - 1]
        if t.kind != "tpl" or t.name in ("{{", "url", "translate", "trans", "include", "static", "csrf_token"):
            return frozenset({self.kind(t)})
        if t.name in SILENT or t.name == "url-as":
            return self.left(i - 1)
        c = t.construct
        if c is None or t.name in BARRIERS:
            return frozenset({"unknown"})
        if t.name in ("endif", "endfor"):
            found = frozenset[str]().union(*(self.left(h) for h in [*c.heads[1:], c.end]))
            if t.name == "endfor" or not c.has_else(self.toks):
                found |= self.left(c.heads[0])  # no branch taken, or no turn of the loop
            return found
        # At the start of a branch: before the whole construct, or the end of the loop's previous turn.
        found = self.left(c.heads[0])
        if t.name == "for":
            found |= self.left(c.heads[1] if len(c.heads) > 1 else c.end)
        return found

    def right(self, i: int) -> frozenset[str]:
        """After the point just ahead of token i."""
        return self.cached("right", i, self._right)

    def _right(self, i: int) -> frozenset[str]:
        if i >= len(self.toks):
            return frozenset({"unknown"})
        t = self.toks[i]
        if t.kind != "tpl" or t.name in ("{{", "url", "translate", "trans", "include", "static", "csrf_token"):
            return frozenset({self.kind(t)})
        if t.name in SILENT or t.name == "url-as":
            return self.right(i + 1)
        c = t.construct
        if c is None or t.name in BARRIERS:
            return frozenset({"unknown"})
        after = self.right(c.end + 1)
        if t.name == "if":
            found = frozenset[str]().union(*(self.right(h + 1) for h in c.heads))
            return found if c.has_else(self.toks) else found | after
        if t.name == "for":
            return frozenset[str]().union(*(self.right(h + 1) for h in c.heads)) | after
        if t.name in ("elif", "else", "endif"):  # the end of a branch taken
            return after
        # The end of a loop's turn (at {% empty %} or {% endfor %}): the next turn or past the loop.
        return self.right(c.heads[0] + 1) | after

    def quiet(self, i: int) -> bool:
        """Whether whitespace put just ahead of token i shows nowhere."""
        return self.left(i) <= {"block", "ws"} or self.right(i) <= {"block", "ws"}


@dataclass
class Break:
    at: int  # where the new line starts
    cut: int  # the whitespace replaced there (0: a newline is inserted)
    rank: int  # 0 reads best


def tag_breaks(t: Token) -> list[Break]:
    """Whitespace between a tag's attributes (outside quoted values and template tags)."""
    out: list[Break] = []
    quote = ""
    j = 1
    while j < len(t.text):
        m = TEMPLATE.match(t.text, j)
        if m:
            j = m.end()
            continue
        c = t.text[j]
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c.isspace():
            k = j
            while k < len(t.text) and t.text[k].isspace():
                k += 1
            if "\n" not in t.text[j:k] and k < len(t.text) and t.text[k] not in ">/":
                out.append(Break(t.start + j, k - j, 2))
            j = k
            continue
        j += 1
    return out


def candidates(toks: list[Token]) -> list[Break]:
    flow = Flow(toks)
    found: list[Break] = []
    raw = ""
    for n, t in enumerate(toks):
        if t.kind == "tag" and t.name in RAW:
            raw = "" if t.closing else t.name
        if raw:
            continue
        if t.kind == "ws" and "\n" not in t.text:
            found.append(Break(t.start, len(t.text), 1))
        elif t.kind == "tag":
            found += tag_breaks(t)
        if n and toks[n - 1].kind != "ws" and t.kind != "ws" and flow.quiet(n):
            before_block = t.kind == "tag" and t.block and not t.closing
            after_block = toks[n - 1].kind == "tag" and toks[n - 1].block and toks[n - 1].closing
            found.append(Break(t.start, 0, 0 if before_block or after_block else 1))
    return found


def choose(line: int, end: int, breaks: list[Break]) -> Break | None:
    """Where to end the line from `line` to `end`: the last good break within the limit, a block's edge first."""
    inside = [b for b in breaks if line + 20 <= b.at < end and b.at - line <= LIMIT]
    for rank, least in ((0, LIMIT * 2 // 5), (1, LIMIT * 2 // 5), (2, 20)):
        ranked = [b for b in inside if b.rank <= rank and b.at - line >= least]
        if ranked:
            return ranked[-1]
    if inside:
        return inside[-1]
    later = [b for b in breaks if line + LIMIT < b.at < end]
    return later[0] if later else None


def wrap(src: str) -> str:
    toks = tokens(src)
    mark_blocks(toks)
    link_constructs(toks)
    breaks = sorted(candidates(toks), key=lambda b: b.at)
    line = 0
    while line < len(src):
        end = src.find("\n", line)
        end = len(src) if end < 0 else end
        pick = choose(line, end, breaks) if end - line > LIMIT else None
        if pick is None:
            line = end + 1
            continue
        src = src[: pick.at] + "\n" + src[pick.at + pick.cut :]
        breaks = [Break(b.at + 1 - pick.cut, b.cut, b.rank) for b in breaks if b.at > pick.at]
        line = pick.at + 1
    return src


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="list the files it would change; change nothing")
    args = parser.parse_args(argv)
    files = [f for p in args.paths for f in (sorted(p.rglob("*.html")) if p.is_dir() else [p])]
    changed = [f for f in files if wrap(f.read_text(encoding="utf-8")) != f.read_text(encoding="utf-8")]
    for f in changed:
        if args.check:
            print(f"would wrap {f}")
        else:
            f.write_text(wrap(f.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"{len(changed)} of {len(files)} templates {'to wrap' if args.check else 'wrapped'}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
