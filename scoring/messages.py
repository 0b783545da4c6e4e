"""The rule engine's messages and words in the reader's language.

rules/ gives every refusal a code and its parameters, and renders them in
English itself (rules.messages). Here the same templates go through Django's
gettext, so that the pages and the API show them in the active language (the
LocaleMiddleware picks it from the cookie or Accept-Language). The Korean
catalogue translates each template; tests/rules/test_messages.py keeps it
complete.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext

from rules import messages
from rules.errors import Problem
from rules.messages import MESSAGES, WORD_PARAMS, render


def message(problem: Problem) -> str:
    """The problem's message in the active language. One that is not the English text of its code (no code,
    or another system's code such as DRF's "required" with DRF's own, translated, message) is shown as it is."""
    if problem.code not in MESSAGES or not _english_of_its_code(problem):
        return problem.message
    return translate(problem.code, problem.params)


def _english_of_its_code(problem: Problem) -> bool:
    try:
        return render(problem.code, problem.params) == problem.message
    except (KeyError, TypeError, ValueError):  # a code without its parameters: a message passed on as text
        return False


def translate(code: str, params: Mapping[str, object]) -> str:
    """Message ``code`` of rules.messages with ``params``, in the active language."""
    shown = {
        key: word(value) if key in WORD_PARAMS and isinstance(value, str) else value for key, value in params.items()
    }
    return gettext(MESSAGES[code]) % shown


def field_message(problem: Problem) -> str:
    """``field: message`` in the active language, as str(problem) is in English."""
    text = message(problem)
    return f"{problem.field}: {text}" if problem.field else text


def word(value: str) -> str:
    """One of the engine's words (a limit, why a game ended, an abortive draw's reason) in the active language;
    any other value as it is."""
    return messages.word(value, gettext)
