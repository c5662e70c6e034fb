"""Probes a running django-otp-webauthn test site (site.sh start django-otp-webauthn) with a software
authenticator and prints every exchange. PROBE.md beside the site records what it showed. The py_webauthn
message behind each generic 422 is in the site's app.log (logger django_otp_webauthn).

  ATTEST_SITE_PASSWORD=... python probe_django_otp_webauthn.py [http://localhost:8742]
"""
from __future__ import annotations

import copy
import re
import sys

import softauthn as sa
from common import Client, check, password, section

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://localhost:8742"
ORIGIN = BASE.rstrip("/")
PW = password()
LOGIN = "/accounts/login/"
W = "/webauthn"


def whoami(client: Client):
    r = client.get("/", quiet=True)
    if r.status_code != 200:
        return None
    user = re.search(r'id="username">([^<]*)<', r.text).group(1)
    verified = re.search(r'id="verified">([^<]*)<', r.text).group(1)
    return f"{user} (second factor verified: {verified})"


def password_session(user: str) -> Client:
    c = Client(BASE, user)
    c.login(LOGIN, user, PW)
    return c


def anon() -> Client:
    c = Client(BASE, "anon")
    c.get(LOGIN, quiet=True)  # the csrftoken cookie, as a browser on the login page has it
    return c


def reg_begin(c: Client):
    return c.post(W + "/registration/begin/").json()


def reg_complete(c: Client, cred: dict):
    return c.post_json(W + "/registration/complete/", cred)


def auth_begin(c: Client):
    return c.post(W + "/authentication/begin/").json()


def auth_complete(c: Client, assertion: dict, query: str = ""):
    return c.post_json(W + "/authentication/complete/" + query, assertion)


accepted = {}

# ---------------------------------------------------------------- login
section("login flow (django.contrib.auth.views.LoginView)")
c = Client(BASE, "anon")
c.get("/")
page = c.get(LOGIN)
print("  form has csrfmiddlewaretoken:", 'name="csrfmiddlewaretoken"' in page.text, "| cookie csrftoken:", bool(c.csrf()))
c.post(LOGIN, data={"username": "alice", "password": PW}, csrf_header=False)
r = c.login(LOGIN, "alice", "wrong")
check("wrong password -> 200 with the form error", r.status_code == 200 and "didn't match" in r.text)
old_csrf = c.csrf()
r = c.login(LOGIN, "alice", PW)
check("login -> 302 Location /", r.status_code == 302 and r.headers["Location"] == "/")
check("csrftoken rotated", c.csrf() != old_csrf)
print("  whoami:", whoami(c))
alice = c
alice.name = "alice"
r = Client(BASE, "nx").login(LOGIN + "?next=/somewhere", "bob", PW)

# ---------------------------------------------------------------- registration
section("registration: preconditions")
a = anon()
a.post(W + "/registration/begin/")
alice.post(W + "/registration/begin/", csrf_header=False)

section("registration: options and a valid credential (password-only session, no device yet)")
opts = reg_begin(alice)
cj, alice_cred = sa.register(opts, ORIGIN)
r = reg_complete(alice, cj)
check("valid registration -> 200 {id}", r.status_code == 200 and "id" in r.json())
print("  whoami:", whoami(alice))
print("  -- complete again without a new begin")
reg_complete(alice, cj)

section("registration: negative cases")
for label, origin, kw in [
    ("wrong challenge", ORIGIN, dict(challenge=sa.b64u(b"x" * 64))),
    ("origin http://evil.example", "http://evil.example", {}),
    ("origin https://evil.localhost", "https://evil.localhost", {}),
    ("origin http://localhost:1", "http://localhost:1", {}),
    ("type webauthn.get", ORIGIN, dict(kind="webauthn.get")),
    ("RP ID hash of evil.example", ORIGIN, dict(rp_id="evil.example")),
    ("UP flag clear", ORIGIN, dict(flags=sa.UV)),
    ("BS set without BE", ORIGIN, dict(flags=sa.UP | sa.UV | sa.BS)),
    ("packed attestation with a garbage signature", ORIGIN, dict(fmt="packed", att_stmt={"alg": -7, "sig": b"\x30\x00"})),
    ("unknown attestation format 'nonsense'", ORIGIN, dict(fmt="nonsense", att_stmt={"x": 1})),
]:
    opts = reg_begin(alice)
    cj, _ = sa.register(opts, origin, **kw)
    print(f"  -- {label}")
    reg_complete(alice, cj)
opts = reg_begin(alice)
print("  -- RS1 (-65535) credential; offered algs:", [p["alg"] for p in opts["pubKeyCredParams"]])
cj, _ = sa.register(opts, ORIGIN, sa.Credential(alg=-65535))
reg_complete(alice, cj)
opts = reg_begin(alice)
cj, _ = sa.register(opts, ORIGIN)
print("  -- id != rawId")
cj2 = copy.deepcopy(cj)
cj2["id"] = sa.b64u(b"another-id-0000000000")
reg_complete(alice, cj2)
opts = reg_begin(alice)
cj, _ = sa.register(opts, ORIGIN)
cj["type"] = "not-public-key"
print("  -- credential type 'not-public-key'")
reg_complete(alice, cj)
opts = reg_begin(alice)
print("  -- malformed JSON body")
alice.request("POST", W + "/registration/complete/", data="{not json", headers={"Content-Type": "application/json"})
opts = reg_begin(alice)
print("  -- the already registered credential again")
cj, _ = sa.register(opts, ORIGIN, alice_cred)
reg_complete(alice, cj)

opts = reg_begin(alice)
print("  -- id and rawId (equal) differ from the credential id in the attested credential data")
cj, _ = sa.register(opts, ORIGIN, envelope_id=b"unbound-credential-id-0001")
r = reg_complete(alice, cj)
accepted["registration: id/rawId not the attested credential id"] = r.status_code == 200

opts = reg_begin(alice)
cj, _ = sa.register(opts, ORIGIN)
print("  -- minimal body: id, rawId, type, response.clientDataJSON, response.attestationObject")
reg_complete(alice, {"id": cj["id"], "rawId": cj["rawId"], "type": "public-key",
                     "response": {k: cj["response"][k] for k in ("clientDataJSON", "attestationObject")}})

section("registration: accepted")
for label, kw in [
    ("UV flag clear (userVerification preferred)", dict(flags=sa.UP)),
    ("crossOrigin true, topOrigin https://evil.example", dict(client_extra={"crossOrigin": True, "topOrigin": "https://evil.example"})),
]:
    opts = reg_begin(alice)
    cj, _ = sa.register(opts, ORIGIN, **kw)
    print(f"  -- {label}")
    r = reg_complete(alice, cj)
    accepted["registration: " + label] = r.status_code == 200

section("registration precondition: alice has a device; a new password-only session may not add one")
alice2 = password_session("alice")
print("  whoami:", whoami(alice2))
alice2.post(W + "/registration/begin/")
alice2.post_json(W + "/registration/complete/", {})
bob = password_session("bob")
opts = reg_begin(bob)
bob_json, bob_cred = sa.register(opts, ORIGIN)
reg_complete(bob, bob_json)

# ---------------------------------------------------------------- authentication
section("authentication: passwordless (anonymous session)")
a = anon()
a.post(W + "/authentication/begin/", csrf_header=False)
opts = auth_begin(a)
r = auth_complete(a, sa.assert_(opts, ORIGIN, alice_cred))
check("valid assertion -> 200 {id, redirect_url}", r.status_code == 200)
print("  whoami:", whoami(a))
replay_body = sa.assert_(opts, ORIGIN, alice_cred, bump=False)

section("authentication: replay")
print("  -- the same complete request again, same session")
auth_complete(a, replay_body)
print("  -- the same body after a new begin (new challenge)")
b = anon()
auth_begin(b)
auth_complete(b, replay_body)
print("  -- the same body from a new client that never called begin")
auth_complete(anon(), replay_body)

section("authentication: ?next=")
for nxt in ("/somewhere/", "http://evil.example/"):
    a = anon()
    opts = auth_begin(a)
    auth_complete(a, sa.assert_(opts, ORIGIN, alice_cred), "?next=" + nxt)

section("authentication: sign count")
alice_cred.sign_count = 50
a = anon()
opts = auth_begin(a)
auth_complete(a, sa.assert_(opts, ORIGIN, alice_cred, bump=False))
a = anon()
opts = auth_begin(a)
print("  -- counter 50 again")
auth_complete(a, sa.assert_(opts, ORIGIN, alice_cred, bump=False))
a = anon()
opts = auth_begin(a)
print("  -- counter 3 after 50")
auth_complete(a, sa.assert_(opts, ORIGIN, alice_cred, sign_count=3))
print("  -- bob's credential, counter 0 at registration and 0 at every assertion")
for _ in range(2):
    a = anon()
    opts = auth_begin(a)
    r = auth_complete(a, sa.assert_(opts, ORIGIN, bob_cred, sign_count=0))
accepted["authentication: counter 0 every time (both zero)"] = r.status_code == 200

section("authentication: negative cases")
for label, origin, kw in [
    ("bad signature", ORIGIN, dict(bad_signature=True)),
    ("wrong challenge", ORIGIN, dict(challenge=sa.b64u(b"y" * 64))),
    ("origin http://evil.example", "http://evil.example", {}),
    ("origin https://evil.localhost", "https://evil.localhost", {}),
    ("origin http://localhost:1", "http://localhost:1", {}),
    ("type webauthn.create", ORIGIN, dict(kind="webauthn.create")),
    ("RP ID hash of evil.example", ORIGIN, dict(rp_id="evil.example")),
    ("UP flag clear", ORIGIN, dict(flags=sa.UV)),
    ("UV flag clear (passwordless: userVerification required)", ORIGIN, dict(flags=sa.UP)),
    ("BS set without BE", ORIGIN, dict(flags=sa.UP | sa.UV | sa.BS)),
]:
    a = anon()
    opts = auth_begin(a)
    print(f"  -- {label}")
    auth_complete(a, sa.assert_(opts, origin, alice_cred, **kw))
a = anon()
opts = auth_begin(a)
print("  -- unknown credential")
auth_complete(a, sa.assert_(opts, ORIGIN, sa.Credential()))
a = anon()
opts = auth_begin(a)
print("  -- id != rawId")
x = sa.assert_(opts, ORIGIN, alice_cred)
x["id"] = sa.b64u(bob_cred.credential_id)
auth_complete(a, x)
a = anon()
opts = auth_begin(a)
x = sa.assert_(opts, ORIGIN, alice_cred)
x["type"] = "not-public-key"
print("  -- credential type 'not-public-key'")
auth_complete(a, x)
a = anon()
opts = auth_begin(a)
x = sa.assert_(opts, ORIGIN, alice_cred)
print("  -- minimal body: id, rawId, type, response without userHandle")
auth_complete(a, {"id": x["id"], "rawId": x["rawId"], "type": "public-key",
                  "response": {k: x["response"][k] for k in ("clientDataJSON", "authenticatorData", "signature")}})
a = anon()
auth_begin(a)
print("  -- without X-CSRFToken")
a.post_json(W + "/authentication/complete/", sa.assert_(opts, ORIGIN, alice_cred), csrf_header=False)

section("authentication: accepted although a strict verifier refuses")
for label, kw in [
    ("userHandle of bob on alice's credential", dict(user_handle=bob_cred.user_handle)),
    ("userHandle null in the usernameless flow", dict(user_handle=None)),
    ("userHandle of 64 random bytes", dict(user_handle=b"\x01" * 64)),
    ("BE and BS set (registered with BE clear)", dict(flags=sa.UP | sa.UV | sa.BE | sa.BS)),
    ("crossOrigin true, topOrigin https://evil.example", dict(client_extra={"crossOrigin": True, "topOrigin": "https://evil.example"})),
]:
    a = anon()
    opts = auth_begin(a)
    print(f"  -- {label}")
    r = auth_complete(a, sa.assert_(opts, ORIGIN, alice_cred, **kw))
    accepted["authentication: " + label] = r.status_code == 200
    if "bob" in label:
        print("     whoami:", whoami(a))

section("authentication as a second factor (password session)")
al = password_session("alice")
opts = auth_begin(al)
print("  allowCredentials:", len(opts["allowCredentials"]), "userVerification:", opts["userVerification"])
print("  -- bob's credential in alice's session")
auth_complete(al, sa.assert_(opts, ORIGIN, bob_cred))
opts = auth_begin(al)
print("  -- alice's credential, UV clear")
r = auth_complete(al, sa.assert_(opts, ORIGIN, alice_cred, flags=sa.UP))
print("  whoami:", whoami(al))
print("  -- registration now allowed in this session")
opts = reg_begin(al)
cj, _ = sa.register(opts, ORIGIN)
reg_complete(al, cj)

section("summary: accepted (True) for what a strict verifier refuses")
for k, v in accepted.items():
    print(f"  {v!s:5}  {k}")
