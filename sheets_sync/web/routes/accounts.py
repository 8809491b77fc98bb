"""The accounts part's addresses (joined in :mod:`sheets_sync.web.urls`): signing up and in, the
tournament list at ``/``, adding a sheet, a new tournament, a tournament's organizers, invitations."""

from django.urls import path

from sheets_sync.web.accounts import auth, members, new, pending, sheets

urlpatterns: list = [
    path("", sheets.tournament_list, name="tournaments"),
    path("signup/", auth.signup, name="signup"),
    path("login/", auth.SignIn.as_view(), name="login"),
    path("logout/", auth.SignOut.as_view(), name="logout"),
    path("password/reset/", auth.Reset.as_view(), name="password_reset"),
    path("password/reset/sent/", auth.ResetSent.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", auth.ResetConfirm.as_view(), name="password_reset_confirm"),
    path("password/reset/done/", auth.ResetComplete.as_view(), name="password_reset_complete"),
    path("add/", sheets.add_sheet, name="add_sheet"),
    path("new/", new.new_tournament, name="new_tournament"),
    path("jobs/<int:job_id>/", pending.account_job, name="account_job"),
    path("jobs/<int:job_id>/status.json", pending.account_job_status, name="account_job_status"),
    path("o/<slug:slug>/members/", members.members, name="members"),
    path("invite/<str:token>/", members.accept_invitation, name="accept_invitation"),
]
