"""Sign-up, sign-in, sign-out and the password reset: Django's views, the e-mail as the user name.

Sign-in goes through django-axes (5 failures lock the e-mail and address for 15 minutes, with a
page saying so); the reset link goes by mail, or to the server's log when no mail server is set
(:mod:`sheets_sync.web.mail`).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods

from sheets_sync.web.accounts.forms import EmailLoginForm, EmailResetForm, NewPasswordForm, SignupForm
from sheets_sync.web.words import request_language, word

__all__ = ["signup", "SignIn", "SignOut", "Reset", "ResetSent", "ResetConfirm", "ResetComplete"]


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("tournaments")
    lang = request_language(request)
    form = SignupForm(request.POST or None, lang=lang)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, word("signup.welcome", lang))
        return redirect("tournaments")
    return render(request, "accounts/signup.html", {"form": form})


class SignIn(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = EmailLoginForm
    redirect_authenticated_user = True


class SignOut(auth_views.LogoutView):
    """POST only (Django's rule since 5.0): a link or an image cannot sign anybody out."""


class Reset(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    form_class = EmailResetForm
    success_url = reverse_lazy("password_reset_done")

    def get_form_kwargs(self) -> dict:
        return {**super().get_form_kwargs(), "lang": request_language(self.request)}

    def form_valid(self, form):
        self.extra_email_context = {"lang": request_language(self.request)}  # the mail in the page's language
        return super().form_valid(form)


class ResetSent(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class ResetConfirm(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    form_class = NewPasswordForm
    success_url = reverse_lazy("password_reset_complete")

    def get_form_kwargs(self) -> dict:
        return {**super().get_form_kwargs(), "lang": request_language(self.request)}


class ResetComplete(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"

