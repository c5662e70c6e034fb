"""Probes a running django-passkeys test site (site.sh start django-passkeys) with a software authenticator and
prints every exchange. PROBE.md beside the site records what it showed.

  ATTEST_SITE_PASSWORD=... python probe_django_passkeys.py [http://localhost:8741] [--expiry]

--expiry also waits out the 5-minute state-token lifetime (adds about 5 minutes).
"""
from __future__ import annotations

import copy
import json
import re
import sys
import time

import softauthn as sa
from common import Client, check, password, section

args = [a for a in sys.argv[1:] if not a.startswith("--")]
BASE = args[0] if args else "http://localhost:8741"
ORIGIN = BASE.rstrip("/")
PW = password()
LOGIN = "/auth/login/"
API = "/api/passkeys"


def logged_in_as(client: Client) -> str | None:
    r = client.get(API + "/", quiet=True)
    if r.status_code != 200:
        return None
    home = client.get("/", quiet=True)
    m = re.search(r'id="username">([^<]*)<', home.text)
    return m.group(1) if m else "?"


def reg_options(client: Client):
    r = client.post(API + "/register/options")
    return r.json()["options"]["publicKey"], r.json()["state_token"]


def reg_verify(client: Client, token: str, credential: dict, key_name: str = "probe"):
    return client.post_json(API + "/register/verify", {"state_token": token, "key_name": key_name, "credential": credential})


def auth_options(client: Client, username: str | None = None):
    body = {} if username is None else {"username": username}
    r = client.post_json(API + "/authenticate/options", body)
    return r.json()["options"]["publicKey"], r.json()["state_token"]


def auth_verify(client: Client, token: str, credential: dict):
    return client.post_json(API + "/authenticate/verify", {"state_token": token, "credential": credential})


def fresh_alice() -> Client:
    c = Client(BASE, "alice")
    c.login(LOGIN, "alice", PW)
    return c


# ---------------------------------------------------------------- login
section("login flow")
c = Client(BASE, "anon")
c.get("/")
page = c.get(LOGIN)
print("  login form has csrfmiddlewaretoken:", 'name="csrfmiddlewaretoken"' in page.text, "| cookie csrftoken:", bool(c.csrf()))
c.post(LOGIN, data={"username": "alice", "password": PW, "passkeys": ""}, csrf_header=False)  # no token
r = c.login(LOGIN, "alice", "wrong-password", {"passkeys": ""})
check("wrong password re-renders the form with 'Invalid Username or password'", r.status_code == 200 and "Invalid Username or password" in r.text)
r = c.login(LOGIN, "alice", "", {})
print(f"  empty password and no 'passkeys' field -> {r.status_code}")
before = c.csrf()
r = c.login(LOGIN, "alice", PW)
check("password login answers 302 to /", r.status_code == 302 and r.headers.get("Location") == "/")
check("csrftoken rotated on login", c.csrf() != before)
print("  logged in as:", logged_in_as(c))

alice = c
alice.name = "alice"

# ---------------------------------------------------------------- registration
section("registration: preconditions")
Client(BASE, "anon").post(API + "/register/options")
alice.post(API + "/register/options", csrf_header=False)

section("registration: options and a valid credential")
opts, token = reg_options(alice)
print("  state_token payload (before the first ':'), base64url JSON:", sa.unb64u(token.split(":")[0]).decode())
cred_json, alice_cred = sa.register(opts, ORIGIN)
r = reg_verify(alice, token, cred_json, "alice-key")
check("valid registration -> 201", r.status_code == 201)

section("registration: the same state token again, for a second new credential (no single use)")
cred2_json, alice_cred2 = sa.register(opts, ORIGIN)
r = reg_verify(alice, token, cred2_json, "alice-key-2")
check("state token reused -> 201", r.status_code == 201)

section("registration: the same credential again")
r = reg_verify(alice, token, cred_json, "again")

section("registration: negative cases (each with fresh options)")
cases = {
    "wrong challenge": dict(challenge=sa.b64u(b"x" * 32)),
    "wrong origin http://evil.example": dict(),
    "type webauthn.get": dict(kind="webauthn.get"),
    "RP ID hash of evil.example": dict(rp_id="evil.example"),
    "UP flag clear": dict(flags=sa.UV),
}
for label, kw in cases.items():
    opts, token = reg_options(alice)
    origin = "http://evil.example" if "origin" in label else ORIGIN
    cj, _ = sa.register(opts, origin, **kw)
    print(f"  -- {label}")
    reg_verify(alice, token, cj)

opts, token = reg_options(alice)
cj, _ = sa.register(opts, ORIGIN)
print("  -- tampered state token")
reg_verify(alice, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"), cj)
print("  -- credential with id != rawId")
cj2 = copy.deepcopy(cj)
cj2["id"] = sa.b64u(b"other-id-000000000000")
reg_verify(alice, token, cj2)

section("registration: accepted although they should not be")
accepted = {}
for label, origin, kw in [
    ("origin https://evil.localhost (any subdomain of the RP ID)", "https://evil.localhost", {}),
    ("origin http://localhost:1 (another port)", "http://localhost:1", {}),
    ("UV flag clear", ORIGIN, dict(flags=sa.UP)),
    ("BS set without BE (impossible flags)", ORIGIN, dict(flags=sa.UP | sa.UV | sa.BS)),
    ("packed attestation with a garbage signature", ORIGIN, dict(fmt="packed", att_stmt={"alg": -7, "sig": b"\x30\x00"})),
    ("unknown attestation format 'nonsense'", ORIGIN, dict(fmt="nonsense", att_stmt={"x": 1})),
    ("crossOrigin true with topOrigin https://evil.example", ORIGIN, dict(client_extra={"crossOrigin": True, "topOrigin": "https://evil.example"})),
]:
    opts, token = reg_options(alice)
    cj, _ = sa.register(opts, origin, **kw)
    print(f"  -- {label}")
    r = reg_verify(alice, token, cj)
    accepted[label] = r.status_code == 201

print("  -- credential type 'not-public-key'")
opts, token = reg_options(alice)
cj, _ = sa.register(opts, ORIGIN)
cj["type"] = "not-public-key"
r = reg_verify(alice, token, cj)
accepted["type not-public-key"] = r.status_code == 201

print("  -- id and rawId (equal) differ from the credential id in the attested credential data")
opts, token = reg_options(alice)
cj, _ = sa.register(opts, ORIGIN, envelope_id=b"unbound-credential-id-0001")
r = reg_verify(alice, token, cj, "unbound")
accepted["id/rawId not the attested credential id"] = r.status_code == 201

print("  -- RS1 (-65535) credential, an algorithm the options do not offer")
opts, token = reg_options(alice)
print("     offered algs:", [p["alg"] for p in opts["pubKeyCredParams"]])
rs1_json, rs1_cred = sa.register(opts, ORIGIN, sa.Credential(alg=-65535))
r = reg_verify(alice, token, rs1_json, "rs1")
accepted["RS1 credential"] = r.status_code == 201

section("registration: bob's state token in alice's session")
bob = Client(BASE, "bob")
bob.login(LOGIN, "bob", PW)
bob_opts, bob_token = reg_options(bob)
cj, _ = sa.register(bob_opts, ORIGIN)
r = reg_verify(alice, bob_token, cj, "cross-user")
check("alice registers with a state token issued to bob's session", r.status_code == 201)

section("bob registers his own credential")
opts, token = reg_options(bob)
bob_json, bob_cred = sa.register(opts, ORIGIN)
reg_verify(bob, token, bob_json, "bob-key")

# ---------------------------------------------------------------- authentication
section("authentication: options")
anon = Client(BASE, "anon")
opts_any, _ = auth_options(anon)
opts_alice, _ = auth_options(anon, "alice")
print("  allowCredentials for {}:", opts_any.get("allowCredentials"), "| for alice:", len(opts_alice.get("allowCredentials") or []))
auth_options(anon, "nobody")

section("authentication: a valid assertion (usernameless options)")
opts, token = auth_options(anon)
assertion = sa.assert_(opts, ORIGIN, alice_cred)
body_token = token
r = auth_verify(anon, token, assertion)
check("valid assertion -> 200, token_type session", r.status_code == 200 and r.json().get("token_type") == "session")
print("  now logged in as:", logged_in_as(anon))

section("authentication: replay of the same verify request")
r = auth_verify(anon, body_token, assertion)
check("same session, same body -> 200", r.status_code == 200)
fresh = Client(BASE, "replay-new-client")
r = auth_verify(fresh, body_token, assertion)
check("new client (no cookies), same body -> 200 and logged in", r.status_code == 200 and logged_in_as(fresh) == "alice")

section("authentication: sign count")
opts, token = auth_options(Client(BASE, "anon"))
alice_cred.sign_count = 50
r = auth_verify(Client(BASE, "c50"), token, sa.assert_(opts, ORIGIN, alice_cred, bump=False))
opts, token = auth_options(Client(BASE, "anon"))
r = auth_verify(Client(BASE, "c3"), token, sa.assert_(opts, ORIGIN, alice_cred, sign_count=3))
check("counter 3 after 50 -> accepted", r.status_code == 200)
opts, token = auth_options(Client(BASE, "anon"))
r = auth_verify(Client(BASE, "c0"), token, sa.assert_(opts, ORIGIN, alice_cred, sign_count=0))
check("counter 0 after 50 -> accepted", r.status_code == 200)

section("authentication: negative cases")
neg = {
    "bad signature": dict(bad_signature=True),
    "wrong challenge": dict(challenge=sa.b64u(b"y" * 32)),
    "origin http://evil.example": dict(),
    "type webauthn.create": dict(kind="webauthn.create"),
    "RP ID hash of evil.example": dict(rp_id="evil.example"),
    "UP flag clear": dict(flags=sa.UV),
}
for label, kw in neg.items():
    a = Client(BASE, "anon")
    opts, token = auth_options(a)
    origin = "http://evil.example" if "origin" in label else ORIGIN
    print(f"  -- {label}")
    auth_verify(a, token, sa.assert_(opts, origin, alice_cred, **kw))
a = Client(BASE, "anon")
opts, token = auth_options(a)
print("  -- unknown credential id")
auth_verify(a, token, sa.assert_(opts, ORIGIN, sa.Credential()))
print("  -- id != rawId")
x = sa.assert_(opts, ORIGIN, alice_cred)
x["rawId"] = sa.b64u(bob_cred.credential_id)
auth_verify(a, token, x)
print("  -- tampered state token")
auth_verify(a, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"), sa.assert_(opts, ORIGIN, alice_cred))
print("  -- missing credential.id")
x = sa.assert_(opts, ORIGIN, alice_cred)
del x["id"]
auth_verify(a, token, x)
print("  -- credential without response")
auth_verify(a, token, {"id": sa.b64u(alice_cred.credential_id), "rawId": sa.b64u(alice_cred.credential_id), "type": "public-key"})

section("authentication: accepted although they should not be")
for label, origin, kw in [
    ("origin https://evil.localhost", "https://evil.localhost", {}),
    ("origin http://localhost:1", "http://localhost:1", {}),
    ("userHandle of bob on alice's credential", ORIGIN, dict(user_handle=bob_cred.user_handle)),
    ("userHandle null (usernameless flow)", ORIGIN, dict(user_handle=None)),
    ("UV flag clear", ORIGIN, dict(flags=sa.UP)),
    ("BS set without BE", ORIGIN, dict(flags=sa.UP | sa.UV | sa.BS)),
    ("BE set (registered with BE clear)", ORIGIN, dict(flags=sa.UP | sa.UV | sa.BE | sa.BS)),
]:
    a = Client(BASE, "anon")
    opts, token = auth_options(a)
    print(f"  -- {label}")
    r = auth_verify(a, token, sa.assert_(opts, origin, alice_cred, **kw))
    accepted["auth: " + label] = r.status_code == 200

a = Client(BASE, "anon")
opts, token = auth_options(a)
print("  -- credential type 'not-public-key'")
x = sa.assert_(opts, ORIGIN, alice_cred)
x["type"] = "not-public-key"
r = auth_verify(a, token, x)
accepted["auth: type not-public-key"] = r.status_code == 200

a = Client(BASE, "anon")
opts, token = auth_options(a, "alice")
print("  -- bob's credential answering options issued for username alice")
r = auth_verify(a, token, sa.assert_(opts, ORIGIN, bob_cred))
accepted["auth: bob's credential on alice's options"] = r.status_code == 200 and logged_in_as(a) == "bob"
a = Client(BASE, "anon")
opts, token = auth_options(a)
print("  -- RS1 credential")
r = auth_verify(a, token, sa.assert_(opts, ORIGIN, rs1_cred))
accepted["auth: RS1 credential"] = r.status_code == 200

section("authentication from a logged-in session")
al = fresh_alice()
opts, token = auth_options(al)
print("  options from alice's session without username: allowCredentials", len(opts.get("allowCredentials") or []))
al.post_json(API + "/authenticate/verify", {"state_token": token, "credential": sa.assert_(opts, ORIGIN, bob_cred)}, csrf_header=False)
r = auth_verify(al, token, sa.assert_(opts, ORIGIN, bob_cred))
print("  alice's session, bob's credential -> now logged in as:", logged_in_as(al))

section("disabled passkey")
key_id = max(k["id"] for k in bob.get(API + "/").json() if k["name"] == "bob-key")
bob.request("PATCH", f"{API}/{key_id}", json={"enabled": False})
a = Client(BASE, "anon")
opts, token = auth_options(a)
auth_verify(a, token, sa.assert_(opts, ORIGIN, bob_cred))
bob.request("PATCH", f"{API}/{key_id}", json={"enabled": True})

# ---------------------------------------------------------------- template (session) flow
section("template flow: /passkeys/auth/begin/ then the login form with the hidden 'passkeys' field")
t = Client(BASE, "template")
t.get(LOGIN)
r = t.get("/passkeys/auth/begin/")
opts = r.json()["publicKey"]
assertion = sa.assert_(opts, ORIGIN, alice_cred)
form = {"csrfmiddlewaretoken": t.csrf(), "username": "", "password": "", "passkeys": json.dumps(assertion)}
r = t.post(LOGIN, data=form, csrf_header=False)
check("passkey login through the form -> 302 /", r.status_code == 302)
r = t.post(LOGIN, data=dict(form, csrfmiddlewaretoken=t.csrf()), csrf_header=False)
check("same form again in the same session (state popped) -> 200 'Invalid'", r.status_code == 200 and "Invalid" in r.text)

section("template flow: registration through /passkeys/reg/begin/ and /passkeys/reg/complete/")
tr = fresh_alice()
r = tr.get("/passkeys/reg/begin/")
opts = r.json()["publicKey"]
cj, _ = sa.register(opts, ORIGIN)
tr.post_json("/passkeys/reg/complete/", cj, csrf_header=False)
tr.post_json("/passkeys/reg/complete/", cj)
tr.post_json("/passkeys/reg/complete/", cj)

if "--expiry" in sys.argv:
    section("state token lifetime: options, wait 301 s, verify")
    a = Client(BASE, "anon")
    opts, token = auth_options(a)
    time.sleep(301)
    auth_verify(a, token, sa.assert_(opts, ORIGIN, alice_cred))

section("summary: accepted (True) for what a strict verifier refuses")
for k, v in accepted.items():
    print(f"  {v!s:5}  {k}")
