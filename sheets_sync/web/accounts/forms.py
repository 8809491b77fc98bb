"""The account forms: the e-mail is the user name, in any case one person."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, SetPasswordForm

from sheets_sync.web.forms_said import speak
from sheets_sync.web.words import WORDS, request_language, word

__all__ = ["normal_email", "said", "axes_username", "SignupForm", "EmailLoginForm", "EmailResetForm", "NewPasswordForm"]


def normal_email(value: str) -> str:
    return (value or "").strip().lower()


def said(exc: forms.ValidationError, lang: str) -> list[str]:
    """Django's password validators speak English only: their known codes in the page's language."""
    return [word(f"password.{e.code}", lang) if f"password.{e.code}" in WORDS else " ".join(e.messages)
            for e in exc.error_list]


def axes_username(request, credentials: dict | None) -> str:
    """django-axes counts failures per typed e-mail in any case (``A@x.ru`` and ``a@x.ru`` are one)."""
    credentials = credentials or {}
    return normal_email(credentials.get("username") or request.POST.get("username", ""))


class SignupForm(forms.Form):
    email = forms.EmailField(max_length=150)
    password1 = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}), strip=False)
    password2 = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}), strip=False)

    def __init__(self, *args, lang: str = "ru", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang
        for name in self.fields:
            self.fields[name].label = word(f"signup.{name}", lang)
        speak(self, lang)

    def clean_email(self) -> str:
        email = normal_email(self.cleaned_data["email"])
        if get_user_model().objects.filter(username__iexact=email).exists():
            raise forms.ValidationError(word("signup.taken", self.lang))
        return email

    def clean(self) -> dict:
        data = super().clean()
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", word("signup.mismatch", self.lang))
        elif first:
            user = get_user_model()(username=data.get("email", ""), email=data.get("email", ""))
            try:
                password_validation.validate_password(first, user)
            except forms.ValidationError as exc:
                self.add_error("password1", said(exc, self.lang))
        return data

    def save(self):
        email = self.cleaned_data["email"]
        return get_user_model().objects.create_user(username=email, email=email,
                                                    password=self.cleaned_data["password1"])


class EmailLoginForm(AuthenticationForm):
    """Django's sign-in (django-axes counts its failures) with the e-mail in any case."""

    def __init__(self, request=None, *args, **kwargs) -> None:
        if request is not None and request.method == "POST" and "username" in request.POST:
            data = request.POST.copy()
            data["username"] = normal_email(data["username"])
            kwargs["data"] = data
            args = ()
        super().__init__(request, *args, **kwargs)
        lang = request_language(request) if request is not None else "ru"
        self.fields["username"].label = word("login.email", lang)
        self.fields["password"].label = word("login.password", lang)
        self.error_messages = {**self.error_messages, "invalid_login": word("login.invalid", lang),
                               "inactive": word("login.invalid", lang)}
        speak(self, lang)


class NewPasswordForm(SetPasswordForm):
    """The reset link's form: the validators' and the mismatch's words in the page's language."""

    def __init__(self, user, *args, lang: str = "ru", **kwargs) -> None:
        super().__init__(user, *args, **kwargs)
        self.lang = lang
        self.error_messages = {**self.error_messages, "password_mismatch": word("signup.mismatch", lang)}
        speak(self, lang)

    def validate_password_for_user(self, user, password_field_name: str = "new_password2") -> None:
        password = self.cleaned_data.get(password_field_name)
        if password:
            try:
                password_validation.validate_password(password, user)
            except forms.ValidationError as exc:
                self.add_error(password_field_name, said(exc, self.lang))


class EmailResetForm(PasswordResetForm):
    def __init__(self, *args, lang: str = "ru", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        speak(self, lang)

    def clean_email(self) -> str:
        return normal_email(self.cleaned_data["email"])
