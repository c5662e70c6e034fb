"""A small WebAuthn relying-party server of the kind a py_webauthn user writes: the library's documented
registration and authentication flow behind four JSON routes, sessions by cookie, in-memory storage.

    python server.py --config CONFIG.json [--port 0] [--verbose]

It is an example third-party integration for attest-harness to black-box test; see README.md."""
import argparse
import json
import secrets
import signal
import sys
import threading
from collections import OrderedDict
from datetime import datetime, timezone
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import webauthn
import webauthn.helpers.validate_certificate_chain  # noqa: F401 (loads the module patched per request)
import webauthn.registration.formats.android_safetynet  # noqa: F401 (its timestamp check is patched per request)
from OpenSSL.crypto import X509Store
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, options_to_json
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.structs import (AttestationConveyancePreference, AttestationFormat,
                                      AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor,
                                      UserVerificationRequirement)

MAX_BODY = 1 << 20
MAX_SESSIONS = 10000
CERT_STORE_MODULE = sys.modules["webauthn.helpers.validate_certificate_chain"]
REAL_CERT_STORE = CERT_STORE_MODULE._generate_new_cert_store
SAFETYNET_MODULE = sys.modules["webauthn.registration.formats.android_safetynet"]
REAL_SAFETYNET_TIMESTAMP = SAFETYNET_MODULE.verify_safetynet_timestamp

config = {}
sessions = OrderedDict()  # sid -> {"pending": {...}}
users = {}                # username -> 16-byte user id
credentials = {}          # credential id bytes -> {"public_key", "sign_count", "user_id"}
lock = threading.Lock()   # one request at a time: the certificate-store hook below is a module global


class HTTPError(Exception):
    def __init__(self, status, body):
        super().__init__(body)
        self.status, self.body = status, body


def describe(error):
    return f"{type(error).__name__}: {error}"


def load_config(path):
    with open(path) as f:
        c = json.load(f)
    algorithms = []
    for value in c.get("algorithms", []):
        try:
            algorithms.append(COSEAlgorithmIdentifier(int(value)))
        except ValueError:
            pass  # an algorithm the library does not know is simply not offered
    anchors = [pem.encode() for pem in c.get("trustAnchors", [])]
    return {"rpId": c["rpId"], "rpName": c.get("rpName", c["rpId"]), "origins": list(c["origins"]),
            "algorithms": algorithms,
            "userVerification": UserVerificationRequirement(c.get("userVerification", "preferred")),
            "attestation": AttestationConveyancePreference(c.get("attestation", "none")),
            "roots": {fmt: anchors for fmt in AttestationFormat}}


def freeze_clock(header):
    """py_webauthn's documented test hook: certificate validation at the given moment instead of now."""
    if header is None:
        CERT_STORE_MODULE._generate_new_cert_store = REAL_CERT_STORE
        SAFETYNET_MODULE.verify_safetynet_timestamp = REAL_SAFETYNET_TIMESTAMP
        return
    try:
        moment = datetime.fromisoformat(header.strip().replace("Z", "+00:00"))
    except ValueError:
        raise HTTPError(400, {"error": "X-Test-Now is not an ISO-8601 time"})
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc).replace(tzinfo=None)  # X509Store.set_time reads it as UTC

    def store():
        s = X509Store()
        s.set_time(moment)
        return s

    CERT_STORE_MODULE._generate_new_cert_store = store

    def safetynet_timestamp(timestamp_ms):
        """The library's own window (10 s either side), around the test clock instead of the machine's."""
        now = int(moment.replace(tzinfo=timezone.utc).timestamp()) * 1000
        if timestamp_ms > now + 10_000:
            raise ValueError(f"Payload timestamp {timestamp_ms} was later than {now} + 10000")
        if timestamp_ms < now - 10_000:
            raise ValueError("Payload has expired")

    SAFETYNET_MODULE.verify_safetynet_timestamp = safetynet_timestamp


def json_object(raw):
    body = json.loads(raw)
    if not isinstance(body, dict):
        raise ValueError("body is not a JSON object")
    return body


def username(raw):
    try:
        name = json_object(raw).get("name")
    except Exception as e:
        raise HTTPError(400, {"error": describe(e)})
    if not isinstance(name, str) or not name:
        raise HTTPError(400, {"error": "name must be a non-empty string"})
    return name


def register_begin(session, raw):
    name = username(raw)
    user_id = users.setdefault(name, secrets.token_bytes(16))
    options = webauthn.generate_registration_options(
        rp_id=config["rpId"], rp_name=config["rpName"], user_name=name, user_id=user_id,
        attestation=config["attestation"],
        authenticator_selection=AuthenticatorSelectionCriteria(user_verification=config["userVerification"]),
        supported_pub_key_algs=config["algorithms"])
    session["pending"] = {"challenge": options.challenge, "user_id": user_id, "ceremony": "register"}
    return 200, {"publicKey": json.loads(options_to_json(options))}


def register_finish(session, raw):
    pending = session.pop("pending", None)
    if pending is None or pending["ceremony"] != "register":
        return 400, {"verified": False, "error": "no registration in progress"}
    try:
        verified = webauthn.verify_registration_response(
            credential=json_object(raw), expected_challenge=pending["challenge"],
            expected_rp_id=config["rpId"], expected_origin=config["origins"],
            require_user_verification=config["userVerification"] == UserVerificationRequirement.REQUIRED,
            supported_pub_key_algs=config["algorithms"], pem_root_certs_bytes_by_fmt=config["roots"])
    except Exception as e:
        return 400, {"verified": False, "error": describe(e)}
    credential_id = bytes(verified.credential_id)
    credentials[credential_id] = {"public_key": verified.credential_public_key,
                                  "sign_count": verified.sign_count, "user_id": pending["user_id"]}
    return 200, {"verified": True, "credentialId": bytes_to_base64url(credential_id)}


def login_begin(session, raw):
    name = username(raw)
    if name not in users:
        return 404, {"error": "unknown user"}
    user_id = users[name]
    allowed = [PublicKeyCredentialDescriptor(id=cid) for cid, c in credentials.items() if c["user_id"] == user_id]
    options = webauthn.generate_authentication_options(
        rp_id=config["rpId"], allow_credentials=allowed, user_verification=config["userVerification"])
    session["pending"] = {"challenge": options.challenge, "user_id": user_id, "ceremony": "login"}
    return 200, {"publicKey": json.loads(options_to_json(options))}


def login_finish(session, raw):
    pending = session.pop("pending", None)
    if pending is None or pending["ceremony"] != "login":
        return 400, {"verified": False, "error": "no login in progress"}
    try:
        body = json_object(raw)
        raw_id = body.get("rawId")
        if not isinstance(raw_id, str):
            raise ValueError("rawId must be a string")
        record = credentials.get(base64url_to_bytes(raw_id))
        if record is None:
            return 400, {"verified": False, "error": "unknown credential"}
        verified = webauthn.verify_authentication_response(
            credential=body, expected_challenge=pending["challenge"], expected_rp_id=config["rpId"],
            expected_origin=config["origins"], credential_public_key=record["public_key"],
            credential_current_sign_count=record["sign_count"],
            require_user_verification=config["userVerification"] == UserVerificationRequirement.REQUIRED)
    except Exception as e:
        return 400, {"verified": False, "error": describe(e)}
    record["sign_count"] = verified.new_sign_count
    return 200, {"verified": True}


ROUTES = {"/api/register/begin": register_begin, "/api/register/finish": register_finish,
          "/api/login/begin": login_begin, "/api/login/finish": login_finish}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30
    verbose = False

    def log_message(self, format, *args):
        if self.verbose:
            super().log_message(format, *args)

    def reply(self, status, body, cookie=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if cookie:
            self.send_header("Set-Cookie", cookie)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_error(self, code, message=None, explain=None):
        """Errors the standard library answers itself (malformed request line, unknown method) in JSON too."""
        self.close_connection = True
        self.reply(code, {"error": message or self.responses.get(code, ("error",))[0]})

    def session(self):
        """The client's session and, for a client without a valid one, the cookie that creates it."""
        try:
            morsel = SimpleCookie(self.headers.get("Cookie", "")).get("sid")
        except CookieError:
            morsel = None
        if morsel is not None and morsel.value in sessions:
            sessions.move_to_end(morsel.value)
            return sessions[morsel.value], None
        sid = secrets.token_urlsafe(32)
        sessions[sid] = {}
        while len(sessions) > MAX_SESSIONS:
            sessions.popitem(last=False)
        return sessions[sid], f"sid={sid}; Path=/; HttpOnly"

    def body(self):
        length = self.headers.get("Content-Length", "0")
        if self.headers.get("Transfer-Encoding") or not length.isdigit():
            self.close_connection = True
            raise HTTPError(400, {"error": "a body needs a valid Content-Length"})
        length = int(length)
        if length > MAX_BODY:
            self.close_connection = True
            left = min(length, 16 * MAX_BODY)  # read (up to 16 MiB) so the client sees the 413, not a reset
            self.connection.settimeout(1)
            try:
                while left > 0 and (chunk := self.rfile.read(min(left, 65536))):
                    left -= len(chunk)
            except OSError:
                pass
            raise HTTPError(413, {"error": "request body too large"})
        return self.rfile.read(length)

    def handle_any(self):
        cookie = None
        try:
            raw = self.body()
            with lock:
                session, cookie = self.session()
                route = ROUTES.get(self.path) if self.command == "POST" else None
                if route is None:
                    raise HTTPError(404, {"error": "not found"})
                freeze_clock(self.headers.get("X-Test-Now"))
                status, body = route(session, raw)
        except HTTPError as e:
            status, body = e.status, e.body
        except Exception as e:  # never a traceback to the client
            print(f"internal error on {self.command} {self.path}: {describe(e)}", file=sys.stderr, flush=True)
            status, body = 500, {"error": "internal error"}
        self.reply(status, body, cookie)

    do_POST = do_GET = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = handle_any


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if Handler.verbose:  # a client that hung up mid-response, say; nothing to tell the client
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description="Example py_webauthn relying-party server")
    parser.add_argument("--config", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--verbose", action="store_true", help="log requests to stderr")
    args = parser.parse_args()
    try:
        config.update(load_config(args.config))
    except Exception as e:
        print(f"bad config {args.config}: {describe(e)}", file=sys.stderr)
        return 2
    Handler.verbose = args.verbose
    server = Server(("127.0.0.1", args.port), Handler)
    stop = threading.Event()
    # A parent may start us with these blocked (the mask is inherited across exec): stopping must still work.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    while not stop.wait(1):
        pass
    server.shutdown()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
