"""URLs: django-passkeys' template routes and DRF API (docs/template-setup.md, docs/drf-setup.md), the login view
its docs describe, and a home page."""
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from . import auth, views

urlpatterns = [
    path("passkeys/", include("passkeys.urls")),
    path("api/passkeys/", include("passkeys.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("auth/login/", auth.login_view, name="login"),
    path("auth/logout/", auth.logout_view, name="logout"),
    path("", views.home, name="home"),
]
