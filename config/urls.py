"""URL wiring: the pages and referee entry, the admin, the REST API under /api/v1/ and its OpenAPI docs, /health/."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView

from config.converters import RowId
from config.health import health
from config.views import SwaggerDocs
from web.views.accounts import PasswordResetConfirm

# Before the apps' urls are read (include() reads them): they name rows by <id:...>.
register_converter(RowId, "id")

urlpatterns = [
    path("", include("web.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # Referees sign in here (the admin's login takes staff only).
    path("accounts/login/", auth_views.LoginView.as_view(template_name="pages/login.html"), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # A forgotten password, by e-mail (Django's views; the new password also ends a sign-in lockout).
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(
            template_name="accounts/password_reset_form.html",
            email_template_name="accounts/password_reset_email.txt",
            subject_template_name="accounts/password_reset_subject.txt",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path("accounts/reset/<uidb64>/<token>/", PasswordResetConfirm.as_view(), name="password_reset_confirm"),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(template_name="accounts/password_reset_complete.html"),
        name="password_reset_complete",
    ),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SwaggerDocs.as_view(url_name="schema"), name="docs"),
    # For load balancers and `docker compose`: no login, never cached, exempt from the HTTPS redirect.
    path("health/", health, name="health"),
]
# A server error or an unknown address under /api/ answers JSON in the common error shape; elsewhere Django's page.
handler500 = "config.views.server_error"
handler404 = "config.views.page_not_found"
