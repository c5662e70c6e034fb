"""Smoke test for server.py: starts it on a free port, drives it with urllib and a cookie jar (including one full
registration and login with a software authenticator, "none" attestation, and "packed" registrations under a test
CA valid only in 2020 to check the X-Test-Now clock hook), stops it with SIGTERM.

    python smoke_test.py        (with the interpreter of a venv holding requirements.txt)

Exit status 0 when every check passes."""
import base64
import datetime
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import urllib.request
from http.cookiejar import CookieJar
from urllib.error import HTTPError

import cbor2
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
RP_ID, ORIGIN = "example.test", "https://example.test"
failures = []


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check(label, condition, detail=""):
    print(f"{'ok  ' if condition else 'FAIL'} {label}" + (f"  [{detail}]" if detail and not condition else ""))
    if not condition:
        failures.append(label)


class Client:
    def __init__(self, base):
        self.base, self.jar = base, CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, path, body=None, raw=None, method="POST", headers=None):
        data = raw if raw is not None else json.dumps(body if body is not None else {}).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with self.opener.open(request, timeout=10) as r:
                status, headers, payload = r.status, r.headers, r.read()
        except HTTPError as e:
            status, headers, payload = e.code, e.headers, e.read()
        assert headers.get("Content-Type") == "application/json", headers.get("Content-Type")
        return status, json.loads(payload), headers

    def sid(self):
        return next((c.value for c in self.jar if c.name == "sid"), None)


def certificate(subject, key, issuer, issuer_key, ca):
    """A certificate valid during 2020 only."""
    name = lambda attrs: x509.Name([x509.NameAttribute(oid, value) for oid, value in attrs])
    return (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(datetime.datetime(2020, 1, 1)).not_valid_after(datetime.datetime(2021, 1, 1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
            .sign(issuer_key, hashes.SHA256()))


class TestCA:
    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.name = [(NameOID.COMMON_NAME, "Smoke Test Root")]
        self.cert = certificate(self.name, self.key, self.name, self.key, ca=True)
        self.pem = self.cert.public_bytes(serialization.Encoding.PEM).decode()


class Authenticator:
    """A software authenticator: one P-256 credential, UP+UV; "none" attestation, or "packed" with an attestation
    certificate issued by a TestCA."""

    def __init__(self, ca=None):
        self.key, self.id, self.count = ec.generate_private_key(ec.SECP256R1()), os.urandom(32), 0
        self.ca, self.attestation_key = ca, ec.generate_private_key(ec.SECP256R1())

    def client_data(self, kind, challenge):
        return json.dumps({"type": kind, "challenge": challenge, "origin": ORIGIN}).encode()

    def create(self, options):
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        auth_data = (hashlib.sha256(RP_ID.encode()).digest() + bytes([0x45]) + self.count.to_bytes(4, "big")
                     + bytes(16) + len(self.id).to_bytes(2, "big") + self.id + cose)
        client_data = self.client_data("webauthn.create", options["challenge"])
        if self.ca is None:
            fmt, statement = "none", {}
        else:
            leaf = certificate([(NameOID.COUNTRY_NAME, "US"), (NameOID.ORGANIZATION_NAME, "Smoke Test"),
                                (NameOID.ORGANIZATIONAL_UNIT_NAME, "Authenticator Attestation"),
                                (NameOID.COMMON_NAME, "Smoke Test Authenticator")],
                               self.attestation_key, self.ca.name, self.ca.key, ca=False)
            signature = self.attestation_key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                                  ec.ECDSA(hashes.SHA256()))
            fmt, statement = "packed", {"alg": -7, "sig": signature,
                                        "x5c": [leaf.public_bytes(serialization.Encoding.DER)]}
        attestation = cbor2.dumps({"fmt": fmt, "attStmt": statement, "authData": auth_data})
        return {"id": b64url(self.id), "rawId": b64url(self.id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation)}}

    def get(self, options, user_handle):
        self.count += 1
        client_data = self.client_data("webauthn.get", options["challenge"])
        auth_data = hashlib.sha256(RP_ID.encode()).digest() + bytes([0x05]) + self.count.to_bytes(4, "big")
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(self.id), "rawId": b64url(self.id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature), "userHandle": user_handle}}


def run(base, ca):
    alice = Client(base)

    # register/begin: challenge, user id, cookie
    status, body, headers = alice.call("/api/register/begin", {"name": "alice"})
    options = body.get("publicKey", {})
    check("register/begin answers 200", status == 200, status)
    check("challenge at /publicKey/challenge", isinstance(options.get("challenge"), str)
          and len(unb64url(options["challenge"])) >= 16, options.get("challenge"))
    check("16-byte user id at /publicKey/user/id", len(unb64url(options.get("user", {}).get("id", ""))) == 16)
    check("rp id and algorithms as configured", options.get("rp", {}).get("id") == RP_ID
          and [p["alg"] for p in options.get("pubKeyCredParams", [])] == [-7, -8, -257], options)
    cookie = headers.get("Set-Cookie", "")
    check("Set-Cookie sid=...; Path=/; HttpOnly", cookie.startswith("sid=") and "Path=/" in cookie
          and "HttpOnly" in cookie and alice.sid() is not None, cookie)
    first_user_id = options["user"]["id"]
    status, body, headers = alice.call("/api/register/begin", {"name": "alice"})
    check("same session: no new cookie, same user id", headers.get("Set-Cookie") is None
          and body["publicKey"]["user"]["id"] == first_user_id)

    # finish with garbage after begin: rejected, and the challenge is consumed
    status, body, _ = alice.call("/api/register/finish", {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
                                                          "response": {"clientDataJSON": "e30",
                                                                       "attestationObject": "oA"}})
    check("garbage register/finish -> 400 verified false", status == 400 and body.get("verified") is False
          and ":" in body.get("error", ""), body)
    status, body, _ = alice.call("/api/register/finish", {})
    check("second register/finish -> no registration in progress",
          status == 400 and body == {"verified": False, "error": "no registration in progress"}, body)

    # finish without begin, in a fresh session
    bob = Client(base)
    status, body, headers = bob.call("/api/register/finish", {"id": "x"})
    check("register/finish without begin -> 400", status == 400
          and body == {"verified": False, "error": "no registration in progress"}, body)
    check("fresh client gets a cookie on any route", (headers.get("Set-Cookie") or "").startswith("sid="))
    status, body, _ = bob.call("/api/login/finish", {"id": "x"})
    check("login/finish without begin -> 400", status == 400
          and body == {"verified": False, "error": "no login in progress"}, body)

    # unknown user, unknown route, wrong method
    status, body, _ = bob.call("/api/login/begin", {"name": "nobody"})
    check("login/begin unknown user -> 404", status == 404 and body == {"error": "unknown user"}, body)
    status, body, _ = bob.call("/api/nothing", {})
    check("unknown route -> 404", status == 404 and body == {"error": "not found"}, body)
    status, body, _ = bob.call("/api/register/begin", method="GET", raw=b"")
    check("GET on a POST route -> 404", status == 404 and body == {"error": "not found"}, body)

    # hostile bodies
    for label, raw in [("malformed JSON", b"{not json"), ("invalid UTF-8", b"\xff\xfe\x00"),
                       ("array body", b"[]"), ("numeric name", b'{"name": 5}'), ("empty name", b'{"name": ""}'),
                       ("deep nesting", b"[" * 100000)]:
        status, body, _ = bob.call("/api/register/begin", raw=raw)
        check(f"register/begin {label} -> 400", status == 400 and isinstance(body.get("error"), str), body)
    bob.call("/api/register/begin", {"name": "bob"})
    status, body, _ = bob.call("/api/register/finish", raw=b"{not json")
    check("register/finish malformed JSON -> 400 verified false", status == 400 and body.get("verified") is False
          and body.get("error", "").startswith("JSONDecodeError"), body)
    bob.call("/api/login/begin", {"name": "bob"})
    status, body, _ = bob.call("/api/login/finish", {"rawId": 7})
    check("login/finish rawId of wrong type -> 400", status == 400 and body.get("verified") is False, body)
    status, body, _ = bob.call("/api/register/begin", raw=b"x" * ((1 << 20) + 1))
    check("body over 1 MiB -> 413", status == 413, status)
    status, body, _ = bob.call("/api/register/begin", {"name": "bob"}, headers={"X-Test-Now": "yesterday"})
    check("bad X-Test-Now -> 400", status == 400, body)
    status, body, _ = bob.call("/api/register/begin", {"name": "bob"},
                               headers={"X-Test-Now": "2020-01-01T00:00:00Z"})
    check("ISO-8601 X-Test-Now accepted", status == 200, body)

    # one full ceremony with a software authenticator
    carol, token = Client(base), Authenticator()
    _, body, _ = carol.call("/api/register/begin", {"name": "carol"})
    user_handle = body["publicKey"]["user"]["id"]
    status, body, _ = carol.call("/api/register/finish", token.create(body["publicKey"]))
    check("registration verified", status == 200 and body == {"verified": True, "credentialId": b64url(token.id)},
          body)
    status, body, _ = carol.call("/api/login/finish", token.get({"challenge": "AAAA"}, user_handle))
    check("login/finish after register (wrong ceremony) -> 400", status == 400
          and body.get("error") == "no login in progress", body)
    status, body, _ = carol.call("/api/login/begin", {"name": "carol"})
    check("login/begin lists the credential", status == 200
          and [c["id"] for c in body["publicKey"].get("allowCredentials", [])] == [b64url(token.id)], body)
    assertion = token.get(body["publicKey"], user_handle)
    status, body, _ = carol.call("/api/login/finish", assertion)
    check("authentication verified", status == 200 and body == {"verified": True}, body)
    _, body, _ = carol.call("/api/login/begin", {"name": "carol"})
    status, body, _ = carol.call("/api/login/finish", assertion)
    check("replayed assertion -> 400", status == 400 and body.get("verified") is False, body)
    _, body, _ = carol.call("/api/login/begin", {"name": "carol"})
    stranger = token.get(body["publicKey"], user_handle)
    stranger["id"] = stranger["rawId"] = b64url(os.urandom(32))
    status, body, _ = carol.call("/api/login/finish", stranger)
    check("unknown credential -> 400", status == 400
          and body == {"verified": False, "error": "unknown credential"}, body)

    # packed attestation under a CA valid only in 2020: the X-Test-Now clock hook decides
    dave = Client(base)
    for label, now, verified in [("X-Test-Now inside the CA's validity -> verified", "2020-06-01T00:00:00Z", True),
                                 ("no X-Test-Now (real clock, CA expired) -> 400", None, False),
                                 ("X-Test-Now after the CA's validity -> 400", "2022-01-01T00:00:00Z", False),
                                 ("X-Test-Now inside again -> verified", "2020-12-31T23:00:00Z", True)]:
        headers = {"X-Test-Now": now} if now else {}
        _, body, _ = dave.call("/api/register/begin", {"name": "dave"}, headers=headers)
        status, body, _ = dave.call("/api/register/finish", Authenticator(ca).create(body["publicKey"]),
                                    headers=headers)
        check(label, (status, body.get("verified")) == ((200, True) if verified else (400, False))
              and (verified or "Certificate chain could not be validated" in body.get("error", "")), body)


def main():
    ca = TestCA()
    config = {"rpId": RP_ID, "rpName": "Smoke Test", "origins": [ORIGIN], "algorithms": [-7, -8, -257],
              "userVerification": "required", "attestation": "direct", "trustAnchors": [ca.pem]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(config, f)
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), "--config", f.name, "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        check("prints 'listening on http://127.0.0.1:PORT'", line.startswith("listening on http://127.0.0.1:"), line)
        run(line.split(" ", 2)[2], ca)
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=10)
        check("SIGTERM stops it, exit status 0", code == 0, code)
        check("nothing more on stdout", server.stdout.read() == "")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        os.unlink(f.name)
    print(f"{len(failures)} failure(s)" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
