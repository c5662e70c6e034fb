"""Waits out 301 s between issuing options and completing them, on either site, to see whether the server
enforces a lifetime on its ceremony state.

  ATTEST_SITE_PASSWORD=... python probe_state_lifetime.py django-passkeys [http://localhost:8741]
  ATTEST_SITE_PASSWORD=... python probe_state_lifetime.py django-otp-webauthn [http://localhost:8742]
"""
import sys
import time

import softauthn as sa
from common import Client, password, section

site = sys.argv[1]
PW = password()
if site == "django-passkeys":
    base = sys.argv[2] if len(sys.argv) > 2 else "http://localhost:8741"
    c = Client(base, "alice")
    c.login("/auth/login/", "alice", PW)
    r = c.post("/api/passkeys/register/options")
    opts, tok = r.json()["options"]["publicKey"], r.json()["state_token"]
    cj, cred = sa.register(opts, base)
    c.post_json("/api/passkeys/register/verify", {"state_token": tok, "credential": cj})
    r = c.post("/api/passkeys/register/options")
    ropts, rtok = r.json()["options"]["publicKey"], r.json()["state_token"]
    a = Client(base, "anon")
    r = a.post_json("/api/passkeys/authenticate/options", {})
    aopts, atok = r.json()["options"]["publicKey"], r.json()["state_token"]
    section("waiting 301 s")
    time.sleep(301)
    cj2, _ = sa.register(ropts, base)
    c.post_json("/api/passkeys/register/verify", {"state_token": rtok, "credential": cj2})
    a.post_json("/api/passkeys/authenticate/verify", {"state_token": atok, "credential": sa.assert_(aopts, base, cred)})
else:
    base = sys.argv[2] if len(sys.argv) > 2 else "http://localhost:8742"
    c = Client(base, "alice")
    c.login("/accounts/login/", "alice", PW)
    opts = c.post("/webauthn/registration/begin/").json()
    cj, cred = sa.register(opts, base)
    c.post_json("/webauthn/registration/complete/", cj)
    ropts = c.post("/webauthn/registration/begin/").json()
    a = Client(base, "anon")
    a.get("/accounts/login/")
    aopts = a.post("/webauthn/authentication/begin/").json()
    section("waiting 301 s")
    time.sleep(301)
    cj2, _ = sa.register(ropts, base, sa.Credential())
    c.post_json("/webauthn/registration/complete/", cj2)
    a.post_json("/webauthn/authentication/complete/", sa.assert_(aopts, base, cred))
