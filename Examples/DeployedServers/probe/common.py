"""Helpers shared by the probe scripts: a cookie session that prints each exchange, and the Django login."""
from __future__ import annotations

import json
import os
import re
import sys

import requests

VERBOSE = os.environ.get("PROBE_VERBOSE") == "1"


def password() -> str:
    pw = os.environ.get("ATTEST_SITE_PASSWORD", "")
    if not pw:
        sys.exit("set ATTEST_SITE_PASSWORD to the password the site was started with")
    return pw


class Client:
    """One browser: a cookie jar, and a log line per exchange."""

    def __init__(self, base: str, name: str = "client"):
        self.base = base.rstrip("/")
        self.name = name
        self.http = requests.Session()

    def csrf(self) -> str:
        return self.http.cookies.get("csrftoken", "")

    def request(self, method: str, path: str, *, csrf_header: bool = True, quiet: bool = False, **kw):
        headers = dict(kw.pop("headers", {}) or {})
        if csrf_header and method != "GET" and self.csrf():
            headers["X-CSRFToken"] = self.csrf()
        r = self.http.request(method, self.base + path, headers=headers, allow_redirects=False, **kw)
        if not quiet:
            self.log(r)
        return r

    def log(self, r):
        cookies = [c.split(";")[0].split("=")[0] for c in r.raw.headers.getlist("Set-Cookie")]
        loc = r.headers.get("Location")
        line = f"  [{self.name}] {r.request.method} {r.request.path_url} -> {r.status_code}"
        if loc:
            line += f" Location: {loc}"
        if cookies:
            line += f" Set-Cookie: {','.join(cookies)}"
        print(line)
        ctype = r.headers.get("Content-Type", "")
        if "json" in ctype:
            text = r.text if VERBOSE or len(r.text) < 400 else r.text[:400] + "..."
            print("      " + text)
        elif VERBOSE and r.text:
            print("      " + r.text[:300].replace("\n", " "))

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        return self.request("POST", path, **kw)

    def post_json(self, path, body, **kw):
        return self.request("POST", path, data=json.dumps(body), headers={"Content-Type": "application/json"}, **kw)

    def login(self, login_path: str, username: str, pw: str, extra: dict | None = None):
        """GET the login form (csrftoken cookie, csrfmiddlewaretoken field), POST it back."""
        page = self.get(login_path)
        m = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        token = m.group(1) if m else ""
        form = {"csrfmiddlewaretoken": token, "username": username, "password": pw}
        form.update(extra or {})
        return self.post(login_path, data=form, csrf_header=False)


def section(title: str):
    print()
    print("== " + title)


def check(label: str, ok: bool):
    print(f"  => {label}: {'YES' if ok else 'NO'}")
    return ok
