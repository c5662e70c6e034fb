"""Settings for a django-otp-webauthn 0.10.3 test site, configured as the package's README "Quick start guide"
says, with Django's CsrfViewMiddleware on and Django's own LoginView at /accounts/login/, for attest-harness to
drive over HTTP.

Environment (site.sh sets all of them):
  ATTEST_SITE_DATA_DIR    directory holding the SQLite database (required; a fresh temp dir per start)
  ATTEST_SITE_PORT        the port the site is reached on; the WebAuthn origin is http://localhost:PORT (default 8742)
  ATTEST_SITE_SECRET_KEY  Django SECRET_KEY (default: a random one per process; site.sh passes one per start
                          so that manage.py and the server agree)
  ATTEST_SITE_DEBUG       "1" turns DEBUG on (default off)
"""
import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

DATA_DIR = os.environ.get("ATTEST_SITE_DATA_DIR", "")
if not DATA_DIR:
    raise ImproperlyConfigured("ATTEST_SITE_DATA_DIR must name the directory for the SQLite database")
PORT = int(os.environ.get("ATTEST_SITE_PORT", "8742"))

SECRET_KEY = os.environ.get("ATTEST_SITE_SECRET_KEY") or secrets.token_urlsafe(50)
DEBUG = os.environ.get("ATTEST_SITE_DEBUG") == "1"
ALLOWED_HOSTS = ["localhost", "127.0.0.1"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # README step 2
    "django_otp_webauthn",
    "django_otp",
    # this project: templates and the create_attest_accounts command
    "site_project",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # README step 3: after AuthenticationMiddleware
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "site_project.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "site_project.wsgi.application"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(DATA_DIR, "db.sqlite3"),
        # The server runs threads; IMMEDIATE transactions and a lock timeout keep concurrent writes from
        # failing with "database is locked".
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
    }
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = os.path.join(DATA_DIR, "static")

# Django's defaults, spelled out: LoginView at /accounts/login/ redirects to LOGIN_REDIRECT_URL.
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"

# README step 6
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "django_otp_webauthn.backends.WebAuthnBackend",
]

# README step 5
OTP_WEBAUTHN_RP_NAME = "attest-harness django-otp-webauthn"
OTP_WEBAUTHN_RP_ID = "localhost"
OTP_WEBAUTHN_ALLOWED_ORIGINS = [f"http://localhost:{PORT}"]

# Tracebacks of 500s go to stderr (app.log) whatever DEBUG is, and so do the py_webauthn exceptions that
# django-otp-webauthn logs (logger "django_otp_webauthn") before it answers with its own generic message.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "django_otp_webauthn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}
