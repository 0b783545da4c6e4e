"""What a clone needs, it holds: the code cites the docs in ``docs/``, never a spec outside the repository, and
every citation lands on a page and a section that exist (``docs/rules.md §3``, ``docs/score-sheet.md "Tiles"``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# The spec files the project was started from, and the README sections that moved into docs/.
OUTSIDE = re.compile(r"\.\./shared|(?<![\w/-])(RULES|SCORE_SHEET|DESIGN)\.md|README(\.md)?('s)? \"")
CITATION = re.compile(r"docs/([a-z0-9-]+)\.md(?: §(\d+)| \"([^\"]+)\")?")
TEXT = (".py", ".html", ".js", ".css", ".toml", ".yml", ".yaml", ".cfg", ".txt", ".md", "Makefile", "Dockerfile", "run")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = [ROOT / name for name in listed.split() if name.endswith(TEXT) and not name.startswith("docs/")]
    assert len(files) > 100  # git listed the repository
    return files


def headings(page: Path) -> list[str]:
    return [line.lstrip("#").strip() for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")]


def test_no_reference_leaves_the_repository():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in tracked_text_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line) and "test_doc_references" not in path.name
    ]
    assert found == []


def citations() -> list[tuple[str, str, str | None, str | None]]:
    return [
        (f"{path.relative_to(ROOT)}", match[1], match[2], match[3])
        for path in tracked_text_files()
        for match in CITATION.finditer(path.read_text(encoding="utf-8"))
    ]


def test_the_code_cites_the_docs():
    assert len(citations()) > 100


@pytest.mark.parametrize(("source", "page", "section", "title"), sorted(set(citations()), key=str))
def test_every_citation_lands(source: str, page: str, section: str | None, title: str | None):
    path = ROOT / "docs" / f"{page}.md"
    assert path.is_file(), f"{source} cites docs/{page}.md, which does not exist"
    titles = headings(path)
    if section is not None:
        assert any(heading.startswith(f"{section}. ") for heading in titles), f"{source}: no §{section} in {page}"
    if title is not None:
        assert any(heading.startswith(title) for heading in titles), f'{source}: no "{title}" in {page}'
