"""MkDocs hook: pages that list what the code declares are written from the code, so they cannot drift.

A page holds a marker such as ``<!-- generated: presets -->``; the build replaces it with a table read from
the rule engine's registry (``rules/``) or the score sheet's JSON Schema (``scoring/sheet``), both free of
Django.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.parameters import PARAMETERS
from rules.presets import get_preset, preset_doc, preset_keys
from rules.ruleset import Ruleset
from scoring.sheet.schema import score_sheet_schema


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _bounds(param: Any) -> str:
    if param.choices:
        return " \\| ".join(f"`{choice}`" for choice in param.choices)
    parts = [str(param.kind)]
    if param.minimum is not None or param.maximum is not None:
        parts.append(
            f"{param.minimum if param.minimum is not None else '…'} to "
            f"{param.maximum if param.maximum is not None else '…'}"
        )
    if param.nullable:
        parts.append("or null")
    return ", ".join(parts)


def parameters_table() -> str:
    rows = ["| name | values | what it does |", "| --- | --- | --- |"]
    rows += [f"| `{name}` | {_cell(_bounds(param))} | {_cell(param.help)} |" for name, param in PARAMETERS.items()]
    return "\n".join(rows)


def defaults_table() -> str:
    rows = ["| parameter | default |", "| --- | --- |"]
    rows += [
        f"| `{name}` | `{_cell(json.dumps(value, ensure_ascii=False))}` |"
        for name, value in Ruleset().as_dict().items()
        if name != "key"
    ]
    return "\n".join(rows)


def presets_table() -> str:
    default = Ruleset().as_dict()
    out: list[str] = []
    for key in preset_keys():
        doc = preset_doc(key)
        title, _, rest = doc.partition("\n")
        out.append(f"## `{key}`\n\n**{title.strip()}** {' '.join(rest.split())}\n")
        changed = {
            name: value
            for name, value in get_preset(key).as_dict().items()
            if name != "key" and default.get(name) != value
        }
        out.append("| parameter | value |\n| --- | --- |")
        out += [f"| `{name}` | `{_cell(json.dumps(value, ensure_ascii=False))}` |" for name, value in changed.items()]
        out.append("")
    return "\n".join(out)


def schema_block() -> str:
    return "```json\n" + json.dumps(score_sheet_schema(), indent=2, ensure_ascii=False) + "\n```"


GENERATED = {
    "parameters": parameters_table,
    "presets": presets_table,
    "defaults": defaults_table,
    "schema": schema_block,
}


def on_page_markdown(markdown: str, **_: Any) -> str:
    for name, build in GENERATED.items():
        marker = f"<!-- generated: {name} -->"
        if marker in markdown:
            markdown = markdown.replace(marker, build())
    return markdown
