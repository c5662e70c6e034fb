"""Creates (or resets) the accounts attest-harness drives: alice and bob, with the password in the environment
variable ATTEST_SITE_PASSWORD. No password is written to any file."""
import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

USERNAMES = ("alice", "bob")


class Command(BaseCommand):
    help = "Create the users alice and bob with the password from ATTEST_SITE_PASSWORD."

    def handle(self, *args, **options):
        password = os.environ.get("ATTEST_SITE_PASSWORD", "")
        if not password:
            raise CommandError("ATTEST_SITE_PASSWORD is not set (or empty)")
        User = get_user_model()
        for username in USERNAMES:
            user, _ = User.objects.get_or_create(username=username)
            user.set_password(password)
            user.is_active = True
            user.save()
        self.stdout.write("accounts: " + ", ".join(USERNAMES))
