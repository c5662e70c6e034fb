"""URLs: django-otp-webauthn's routes (README step 4), Django's auth views (LoginView at /accounts/login/), a home
page."""
from django.urls import include, path

from . import views

urlpatterns = [
    path("webauthn/", include("django_otp_webauthn.urls", namespace="otp_webauthn")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", views.home, name="home"),
]
