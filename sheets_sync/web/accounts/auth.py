"""Sign-up, sign-in, sign-out and the password reset: Django's views, the e-mail as the user name.

Sign-in goes through django-axes (5 failures lock the e-mail and address for 15 minutes, with a
page saying so); the reset link goes by mail, or to the server's log when no mail server is set
(:mod:`sheets_sync.web.mail`). Reset letters are limited per e-mail address and per client address
(:mod:`sheets_sync.web.throttle`): a form held down must not flood anybody's mailbox.

Sign-up, like sign-in, goes on to a safe ``next`` address of this site: an invitation opened signed
out comes back to itself once the account exists.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from sheets_sync.web import throttle
from sheets_sync.web.accounts.forms import EmailLoginForm, EmailResetForm, NewPasswordForm, SignupForm
from sheets_sync.web.words import request_language, word

__all__ = ["signup", "SignIn", "SignOut", "Reset", "ResetSent", "ResetConfirm", "ResetComplete"]


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    goal = _next(request)
    if request.user.is_authenticated:
        return redirect(goal or "tournaments")
    lang = request_language(request)
    form = SignupForm(request.POST or None, lang=lang, initial={"email": request.GET.get("email", "")})
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, word("signup.welcome", lang))
        return redirect(goal or "tournaments")
    return render(request, "accounts/signup.html", {"form": form, "next": goal})


def _next(request: HttpRequest) -> str:
    """Where sign-up goes on to (an invitation opened signed out): an address of this site only."""
    goal = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(goal, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return goal if safe else ""


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
        lang = request_language(self.request)
        error = _reset_refusal(self.request, form.cleaned_data["email"], lang)
        if error:
            return self.render_to_response(self.get_context_data(form=form, error=error), status=429)
        self.extra_email_context = {"lang": lang}  # the mail in the page's language
        return super().form_valid(form)


def _reset_refusal(request: HttpRequest, email: str, lang: str) -> str | None:
    """Why no letter goes now (with when to ask again), or None. Counted for any address typed, known
    or not: the answer tells nothing about who has signed up."""
    for limit, who, key in ((throttle.RESET_PER_CLIENT, throttle.client_address(request), "reset.too_many_client"),
                            (throttle.RESET_PER_ADDRESS, email, "reset.too_many_address")):
        wait = throttle.take(limit, who)
        if wait:
            return word(key, lang, wait=throttle.wait_words(wait, lang))
    return None


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

