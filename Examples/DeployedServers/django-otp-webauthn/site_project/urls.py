"""URLs: django-otp-webauthn's routes (README step 4), Django's auth views (LoginView at /accounts/login/), a sign-up
page (Django's UserCreationForm) and a home page."""
from django.urls import include, path

from . import views

urlpatterns = [
    path("webauthn/", include("django_otp_webauthn.urls", namespace="otp_webauthn")),
    path("accounts/signup/", views.SignUpView.as_view(), name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", views.home, name="home"),
]
