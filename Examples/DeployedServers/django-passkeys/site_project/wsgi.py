"""WSGI entry point (gunicorn site_project.wsgi:application)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_project.settings")

application = get_wsgi_application()
