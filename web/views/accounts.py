"""Accounts without the admin: sign-up through an invitation link, a player claiming their record, a password reset.

Sign-up is open to the invited only: the holder of an event's referee or organiser link, or a player with their
personal code. Django's own auth views send and check the password reset; a password set through it ends the
username's sign-in lockout (``invites.password_reset_unlock``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import SetPasswordForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from rules.errors import Refusal
from scoring.services.claims import account_claim, player_claim
from tournament.models import Event
from tournament.selectors import event_shown
from tournament.services import invites
from tournament.users import signed_in
from web import refusals
from web.account_forms import ClaimForm, ClaimSignUpForm, NewPasswordForm, SignUpForm
from web.guesser import guesser

BACKEND = "django.contrib.auth.backends.ModelBackend"  # who signs in a new account (axes counts only failures)


def _landing(event: Event, role: invites.Role) -> HttpResponse:
    """Where a new referee or co-organiser lands: their tables, or the event's console."""
    if role == "organiser":
        return redirect("console", slug=event.slug)
    return redirect(reverse("my-events") + "#tables")


def _joined(request: HttpRequest, event: Event, role: invites.Role) -> HttpResponse:
    messages.success(
        request,
        _("You are an organiser of %(name)s.") % {"name": event.name}
        if role == "organiser"
        else _("You are a referee of %(name)s.") % {"name": event.name},
    )
    return _landing(event, role)


def _invite_post(
    request: HttpRequest, event: Event, role: invites.Role, invite: str, form: SignUpForm | None
) -> HttpResponse | str:
    """The posted sign-up (signed out) or acceptance (signed in): the next page, or the error to show."""
    try:
        if form is None:
            invites.invite_accept(event=event, user=signed_in(request.user), role=role, invite=invite)
        elif form.is_valid():
            user = invites.signup_by_invite(event=event, role=role, invite=invite, **form.account())
            login(request, user, backend=BACKEND)
        else:
            return ""
    except Refusal as exc:
        if form is not None and all(p.field != "invite" for p in exc.problems):
            refusals.on_form(form, exc)
            return ""
        return " ".join(refusals.texts(exc))
    return _joined(request, event, role)


def _invite(request: HttpRequest, slug: str, invite: str, role: invites.Role) -> HttpResponse:
    """A referee's or co-organiser's link: a signed-in user accepts it in one tap; a visitor creates an account
    through it (or signs in and comes back). A made-up or old link to a private event does not tell its name."""
    event = get_object_or_404(Event, slug=slug)
    valid = invites.invite_valid(event, role, invite)
    shown = valid or event_shown(event, request.user)
    signed_in = request.user.is_authenticated
    form = None if signed_in else SignUpForm(request.POST if request.method == "POST" else None)
    error = "" if valid else invites.invite_refusal(role)
    if request.method == "POST" and valid:
        answer = _invite_post(request, event, role, invite, form)
        if isinstance(answer, HttpResponse):
            return answer
        error = answer
    status = 200 if not error else (400 if shown and request.method == "POST" else 404)
    if form is not None and form.is_bound and form.errors and not error:
        status = 400
    return render(
        request,
        "accounts/invite.html",
        {
            "event": event,
            "error": error,
            "shown": shown,
            "role": role,
            "form": form,
            "sign_in": reverse("login") + "?next=" + request.path,
        },
        status=status,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def referee_join(request: HttpRequest, slug: str, invite: str) -> HttpResponse:
    return _invite(request, slug, invite, "referee")


@require_http_methods(["GET", "HEAD", "POST"])
def organiser_join(request: HttpRequest, slug: str, invite: str) -> HttpResponse:
    return _invite(request, slug, invite, "organiser")


def _claim_post(request: HttpRequest, form: ClaimForm | ClaimSignUpForm) -> HttpResponse | Refusal:
    """The claim, once the form is valid: the next page, or the refusal (its problems put on the form)."""
    try:
        if isinstance(form, ClaimSignUpForm):
            user, player = account_claim(code=form.cleaned_data["code"], guesser=guesser(request), **form.account())
            login(request, user, backend=BACKEND)
        else:
            player = player_claim(
                user=signed_in(request.user), code=form.cleaned_data["code"], guesser=guesser(request)
            )
    except Refusal as exc:
        refusals.on_form(form, exc)
        return exc
    messages.success(
        request,
        _("Your account holds the record of %(name)s: your games, codes and statistics are on this page.")
        % {"name": player.name},
    )
    return redirect(reverse("my-events") + "#me")


@require_http_methods(["GET", "HEAD", "POST"])
def claim(request: HttpRequest) -> HttpResponse:
    """A player links their own record to an account (a new one, for a visitor) with their personal code."""
    posted = request.POST if request.method == "POST" else None
    form: ClaimForm | ClaimSignUpForm = ClaimForm(posted) if request.user.is_authenticated else ClaimSignUpForm(posted)
    refusal = None
    if posted is not None and form.is_valid():
        answer = _claim_post(request, form)
        if isinstance(answer, HttpResponse):
            return answer
        refusal = answer
    response = render(
        request,
        "accounts/claim.html",
        {"form": form, "sign_in": reverse("login") + "?next=" + reverse("claim")},
        status=400 if form.errors else 200,
    )
    return refusals.answer(response, refusal)


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """Django's: the new password, from the e-mailed link; it also ends a sign-in lockout of the account."""

    template_name = "accounts/password_reset_confirm.html"
    form_class = NewPasswordForm
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: SetPasswordForm[Any]) -> HttpResponse:
        response = super().form_valid(form)
        invites.password_reset_unlock(form.user)
        return response
