"""scripts/wrap_templates.py breaks a template's long lines only where the browser drops the whitespace: beside a
block, or where a space already is; never inside an inline run, a template tag or a blocktranslate body."""

from __future__ import annotations

import re

import pytest

from scripts import wrap_templates
from scripts.wrap_templates import wrap
from tests.markup import has


@pytest.fixture(autouse=True)
def _short_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wrap_templates, "LIMIT", 40)


def same_page(before: str, after: str) -> bool:
    """Equal once whitespace runs are one space and whitespace beside a block tag is gone."""

    def squeeze(html: str) -> str:
        html = re.sub(r"\s+", " ", html)
        return re.sub(r" ?(</?(?:ul|li|tr|td|div|p)\b[^>]*>) ?", r"\1", html)

    return squeeze(before) == squeeze(after)


def test_a_list_breaks_at_its_items_and_at_spaces():
    src = "<ul><li>one two three</li><li>four five six</li><li>seven eight nine</li></ul>\n"
    out = wrap(src)
    assert out != src
    assert all(len(line) <= 40 for line in out.splitlines())
    assert "\n<li>" in out
    assert same_page(src, out)


def test_an_inline_run_and_a_message_stay_whole():
    src = (
        '<p><a href="/x">Points</a><b>{{ n }}</b>{% blocktranslate %}one long message that says a lot'
        "{% endblocktranslate %}</p>\n"
    )
    out = wrap(src)
    assert '<a href="/x">Points</a><b>{{ n }}</b>{% blocktranslate %}one long message that says a lot' in out
    assert same_page(src, out)


def test_a_branch_that_may_render_nothing_is_no_block():
    # Without x, "word" and "more" meet: no whitespace may come between them, though a <div> may stand there.
    src = "<span>word{% if x %}<div>block</div>{% endif %}more</span>"
    toks = wrap_templates.tokens(src)
    wrap_templates.mark_blocks(toks)
    wrap_templates.link_constructs(toks)
    flow = wrap_templates.Flow(toks)
    quiet = {t.text: flow.quiet(n) for n, t in enumerate(toks)}  # whitespace just ahead of each token
    assert quiet == {
        "<span>": False,
        "word": False,
        "{% if x %}": False,
        "<div>": True,
        "block": True,
        "</div>": True,
        "{% endif %}": True,
        "more": False,
        "</span>": False,
    }


def test_a_wrapped_template_is_left_as_it_is():
    src = "<table><tr><td>{{ a }}</td><td>{{ b }}</td><td>{{ c }}</td><td>{{ d }}</td></tr></table>\n"
    once = wrap(src)
    assert once != src
    assert wrap(once) == once


def test_the_tests_find_markup_across_such_line_breaks():
    assert has('<td>\n<a href="/x"\nclass="y">East 1</a></td>', '<td><a href="/x" class="y">East 1</a></td>')
    assert has("<strong>East 1</strong> ·\nhonba 1", "<strong>East 1</strong> · honba 1")
    assert not has("<strong>East 1</strong>·honba 1", "<strong>East 1</strong> · honba 1")  # a space stays one
    assert not has("<td>East1</td>", "<td>East 1</td>")
