"""The account forms: signing up through an invitation or with a player's code, and claiming a record.

Django's UserCreationForm checks the user name (free, whatever its case) and runs the password validators
(AUTH_PASSWORD_VALIDATORS), each error under its field; the services create the account.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.contrib.auth.forms import SetPasswordForm, UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import password_validators_help_texts
from django.utils.translation import gettext_lazy as _

CODE_ATTRS = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}


class SignUpForm(UserCreationForm[User]):
    """User name, e-mail (for a forgotten password) and the password twice."""

    email = forms.EmailField(
        label=_("E-mail"),
        help_text=_("for a new password if you forget yours"),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta:
        model = User
        fields = ("username", "email")
        field_classes: ClassVar[dict[str, type[forms.Field]]] = {"username": UsernameField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("User name")
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})
        self.fields["password1"].label = _("Password")
        self.fields["password2"].label = _("Password again")
        # Django's validators say what a password needs, in the reader's language, as one line of text.
        self.fields["password1"].help_text = " ".join(password_validators_help_texts())
        self.fields["password2"].help_text = ""
        for name in ("password1", "password2"):
            self.fields[name].widget.attrs["autocomplete"] = "new-password"

    def account(self) -> dict[str, str]:
        """What the services take to create the account."""
        return {
            "username": self.cleaned_data["username"],
            "email": self.cleaned_data["email"],
            "password": self.cleaned_data["password1"],
        }


if TYPE_CHECKING:  # the stubs make it generic; Django's class is not subscriptable at run time
    _SetPassword = SetPasswordForm[User]
else:
    _SetPassword = SetPasswordForm


class NewPasswordForm(_SetPassword):
    """Django's new password form (the reset link's), its validators' rules said in one line of text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].help_text = " ".join(password_validators_help_texts())
        for name in ("new_password1", "new_password2"):
            self.fields[name].widget.attrs["autocomplete"] = "new-password"


class ClaimForm(forms.Form):
    code = forms.CharField(
        label=_("Your personal code"),
        max_length=20,
        help_text=_("on the slip the organiser gave you: XXXXX-XXXXX"),
        widget=forms.TextInput(attrs=CODE_ATTRS),
    )


class ClaimSignUpForm(SignUpForm):
    """A visitor's account, created with the player's code."""

    code = ClaimForm.base_fields["code"]

    class Meta(SignUpForm.Meta):
        pass

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = False  # the code is the way in; an address only for a forgotten password
        self.fields["username"].widget.attrs.pop("autofocus", None)
        self.fields["code"].widget.attrs["autofocus"] = True
        self.order_fields(["code", "username", "email", "password1", "password2"])
