"""A refusal on a page: the one place that shows a rules.errors.Refusal (of any layer) to a person.

A page with a form shows each problem next to the field it names
(``on_form``); a problem whose field the form does not show goes on top of
the form, with its path. A page without one shows every problem as a message
(``as_messages``) or in its own notice (``texts``). Every message is in the
reader's language (scoring.messages). ``answer`` turns the page's 400 into
a 429 with Retry-After when the refusal is for too many wrong codes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse

from rules.errors import Problem, Refusal
from scoring.messages import field_message, message
from tournament.errors import TooManyTries

Refused = Refusal | Sequence[Problem]


def _problems(refused: Refused) -> Sequence[Problem]:
    return refused.problems if isinstance(refused, Refusal) else refused


def path_field(path: str) -> str:
    """The form field a problem's path names: its first part (``players[2]`` -> players, ``start.round`` ->
    start); "" for the input as a whole."""
    return re.split(r"[.\[]", path, maxsplit=1)[0]


def on_form(
    form: forms.BaseForm,
    refused: Refused,
    *,
    field: Callable[[str], str] = path_field,
    rest: forms.BaseForm | None = None,
) -> None:
    """Each problem next to the field of ``form`` that ``field`` maps its path to; one the form has no visible
    field for goes to ``rest`` (a second form on the page) if given, else on top of ``form`` with its path."""
    others = []
    for problem in _problems(refused):
        name = field(problem.field)
        if name and name in form.fields and not isinstance(form.fields[name].widget, forms.HiddenInput):
            form.add_error(name, message(problem))
        elif rest is not None:
            others.append(problem)
        else:
            form.add_error(None, field_message(problem))
    if others and rest is not None:
        on_form(rest, others, field=field)


def texts(refused: Refused, *, paths: bool = False) -> list[str]:
    """Every problem's message, with its path when ``paths`` (a page that shows no field to put it beside)."""
    return [field_message(p) if paths else message(p) for p in _problems(refused)]


def as_messages(request: HttpRequest, refused: Refused, *, extra_tags: str = "") -> None:
    """Every problem as an error message of the next page (``extra_tags`` places it, e.g. on a table's card)."""
    for text in texts(refused):
        messages.error(request, text, extra_tags=extra_tags)


def answer(response: HttpResponse, refused: Refusal | None) -> HttpResponse:
    """``response`` as it is, unless ``refused`` is for too many wrong codes: then 429 with Retry-After."""
    if isinstance(refused, TooManyTries):
        response.status_code, response["Retry-After"] = 429, str(refused.retry_after)
    return response
