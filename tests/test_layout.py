"""The house stays small: no module over 400 lines, no function of 50 lines or more (migrations, tests and
benchmarks aside). A module that grows past the limit is split where it reads naturally."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PACKAGES = ("rules", "tournament", "scoring", "api", "web", "config")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 49


def modules() -> list[Path]:
    found = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py") if "migrations" not in path.parts]
    assert len(found) > 50  # the walk found the code
    return found


def test_no_module_is_over_400_lines():
    long = {
        str(path.relative_to(ROOT)): count
        for path in modules()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_reaches_50_lines():
    long = {}
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"] = length
    assert long == {}
