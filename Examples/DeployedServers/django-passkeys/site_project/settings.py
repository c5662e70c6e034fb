"""Settings for a django-passkeys 2.1 test site, configured as the package's documentation says
(README "Usage", docs/index.md "Common Setup", docs/drf-setup.md), for attest-harness to drive over HTTP.

Environment (site.sh sets all of them):
  ATTEST_SITE_DATA_DIR    directory holding the SQLite database (required; a fresh temp dir per start)
  ATTEST_SITE_PORT        the port the site is reached on, http://localhost:PORT (default 8741)
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
PORT = int(os.environ.get("ATTEST_SITE_PORT", "8741"))

SECRET_KEY = os.environ.get("ATTEST_SITE_SECRET_KEY") or secrets.token_urlsafe(50)
DEBUG = os.environ.get("ATTEST_SITE_DEBUG") == "1"
ALLOWED_HOSTS = ["localhost", "127.0.0.1"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # docs/drf-setup.md "2. Configure"
    "rest_framework",
    # README "Usage" step 1
    "passkeys",
    # drf-spectacular's own setup, for the /api/schema/ route that docs/drf-setup.md adds
    "drf_spectacular",
    # this project: templates and the create_attest_accounts command
    "site_project",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
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

LOGIN_URL = "/auth/login/"
LOGIN_REDIRECT_URL = "/"

# README "Usage" step 4 / docs/index.md "Common Setup"
AUTHENTICATION_BACKENDS = ["passkeys.backend.PasskeyModelBackend"]
FIDO_SERVER_ID = "localhost"
FIDO_SERVER_NAME = "attest-harness django-passkeys"
KEY_ATTACHMENT = None  # docs/settings.md: None allows platform and roaming authenticators

REST_FRAMEWORK = {
    # drf-spectacular's setup
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # No DEFAULT_THROTTLE_RATES, as in the docs: DRF's default {"anon": None} leaves the AnonRateThrottle on
    # authenticate/options switched off, so a test run is never throttled.
}

# Tracebacks of 500s go to stderr (the server log) whatever DEBUG is.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "passkeys": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}
