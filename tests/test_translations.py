"""Every message the code shows has a translation in every language the site offers (Korean, Japanese, Simplified
Chinese): the messages are extracted from the code afresh, as `makemessages` does, into a temporary directory and
looked up in each catalogue; a translation is neither empty nor fuzzy and keeps the placeholders of its message."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils.translation import to_locale

LOCALES = [to_locale(code) for code, _name in settings.LANGUAGES if code != "en"]
CATALOGUES = Path(settings.LOCALE_PATHS[0])
PERCENT = re.compile(r"%(?:\([^)]*\))?[#0 +-]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa%]")
BRACES = re.compile(r"\{[^{}]*\}")
LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$')
FIELDS = {"msgctxt": "context", "msgid": "msgid", "msgid_plural": "plural"}
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


@dataclass
class Entry:
    msgid: str = ""
    context: str = ""
    plural: str | None = None
    strs: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str, str]:
        return self.context, self.msgid


def unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), text)


def parse(text: str) -> dict[tuple[str, str], Entry]:
    """The live entries of a .po file (obsolete `#~` entries and the header aside), by (context, msgid). An entry
    ends where the next one's comments or msgctxt/msgid begin, blank line or not, as msgfmt reads it."""
    entries: dict[tuple[str, str], Entry] = {}
    entry, part = Entry(), ""
    for line in [*text.splitlines(), "#"]:
        match = LINE.match(line)
        if entry.strs and (line.startswith("#") or (match and match.group(1) in ("msgctxt", "msgid"))):
            if entry.msgid:
                entries[entry.key] = entry
            entry, part = Entry(), ""
        if line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif match or line.startswith('"'):
            part, value = (match.group(1), unquote(match.group(2))) if match else (part, unquote(line[1:-1]))
            if part.startswith("msgstr"):
                entry.strs.append(value if match else entry.strs.pop() + value)
            else:
                name = FIELDS[part]
                setattr(entry, name, (getattr(entry, name) if not match else "") + value)
    return entries


def placeholders(entry: Entry, text: str) -> set[str]:
    found = set(PERCENT.findall(text)) if "python-format" in entry.flags else set()
    return found | (set(BRACES.findall(text)) if "python-brace-format" in entry.flags else set())


def problems(code: dict[tuple[str, str], Entry], catalogue: dict[tuple[str, str], Entry]) -> list[str]:
    """What is wrong with a catalogue against the messages of the code, one line per message."""
    found = []
    for key, wanted in code.items():
        label = (f"[{key[0]}] " if key[0] else "") + repr(key[1][:90])
        entry = catalogue.get(key)
        if entry is None:
            found.append(f"missing: {label}")
        elif not entry.strs or not all(entry.strs):
            found.append(f"untranslated: {label}")
        elif "fuzzy" in entry.flags:
            found.append(f"fuzzy: {label}")
        else:
            allowed = [placeholders(wanted, text) for text in (wanted.msgid, wanted.plural) if text is not None]
            wrong = [text for text in entry.strs if placeholders(wanted, text) not in allowed]
            if wrong:
                found.append(f"placeholders differ: {label} -> {wrong[0][:90]!r}")
    return found


@pytest.fixture(scope="module")
def code_messages(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Entry]:
    """The messages of the code, extracted as the project's `makemessages` run extracts them (a few seconds)."""
    out = tmp_path_factory.mktemp("locale")
    with override_settings(LOCALE_PATHS=[str(out)]), pytest.MonkeyPatch.context() as patch:
        patch.chdir(settings.BASE_DIR)
        call_command("makemessages", locale=["en"], ignore_patterns=[".venv"], no_obsolete=True, verbosity=0)
    messages = parse((out / "en" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))
    assert len(messages) > 1000  # the extraction walked the templates and the code
    return messages


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_translated(code_messages, locale):
    catalogue = parse((CATALOGUES / locale / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))
    found = problems(code_messages, catalogue)
    heading = f"{locale}: {len(found)} of {len(code_messages)} messages lack a translation:"
    assert not found, "\n".join([heading, *found])


def test_the_languages_are_the_three_catalogues():
    assert sorted(LOCALES) == ["ja", "ko", "zh_Hans"]


def test_a_broken_catalogue_is_caught():
    code = parse(
        '#, python-format\nmsgid "%(n)s wins"\nmsgstr ""\n\nmsgid "Ron"\nmsgstr ""\n\n'
        'msgid "Tsumo"\nmsgstr ""\n\nmsgid "Draw"\nmsgstr ""\n\nmsgid "Chombo"\nmsgstr ""\n\n'
        '#, python-format\nmsgid "%(n)s stick"\nmsgid_plural "%(n)s sticks"\nmsgstr[0] ""\n'
    )
    catalogue = parse(
        '#, python-format\nmsgid "%(n)s wins"\nmsgstr "%(count)s和了"\n\n'
        'msgid "Ron"\nmsgstr ""\n\n#, fuzzy\nmsgid "Tsumo"\nmsgstr "ツモ"\n'
        'msgid "Chombo"\nmsgstr "チョンボ"\n'  # no blank line before it: still an entry of its own
        '#, python-format\nmsgid "%(n)s stick"\nmsgid_plural "%(n)s sticks"\n'
        'msgstr[0] ""\n"供託%(n)s本"\n'
    )
    assert problems(code, catalogue) == [
        "placeholders differ: '%(n)s wins' -> '%(count)s和了'",
        "untranslated: 'Ron'",
        "fuzzy: 'Tsumo'",
        "missing: 'Draw'",
    ]
