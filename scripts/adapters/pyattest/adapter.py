"""pyattest behind the exec contract, for the app-attest family: attestations through Attestation + AppleConfig
with our test root, assertions through Assertion with the attested key. pyattest documents that an assertion
check is the signature only, so the counter, RP ID and challenge of assertions are listed in adapter.json as the
caller's; the only relying-party code here stores the attested key by key id.

For the per-request family (docs/protocols/per-request-device-attestation.md) pyattest verifies what it documents:
the iOS attestation (AppleConfig), each request's App Attest assertion over the client data this adapter rebuilds
from the request (§3.2), and the Android Play Integrity token (GooglePlayIntegrityApiConfig, offline, with the
case's decryption and verification keys). Everything else is the API's, which pyattest leaves to its caller (its
README points to django-dreiattest for "a full implementation with key generation and storage"): challenges,
session tokens, headers, the client-data binding and the account token are this adapter's own minimal relying-party
code, answered with the statuses of §5, and adapter.json lists those request.* rules as out of pyattest's scope."""
import asyncio
import base64
import hashlib
import os
import re
import sys
from datetime import datetime

import pyattest.verifiers.apple_attestation as apple_attestation
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from pyattest.assertion import Assertion
from pyattest.exceptions import (InvalidAaguidException, InvalidAppIdException, InvalidAppIntegrity,
                                 InvalidCertificateChainException, InvalidCounterException, InvalidCredentialIdException,
                                 InvalidDeviceIntegrity, InvalidKeyIdException, InvalidNonceException,
                                 ExtensionNotFoundException, PyAttestException)
from pyattest.attestation import Attestation
from pyattest.configs.apple import AppleConfig
from pyattest.configs.google_play_integrity_api import GooglePlayIntegrityApiConfig
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_public_key
from pyhanko_certvalidator import ValidationContext
from pyhanko_certvalidator.errors import PathBuildingError, PathValidationError, ValidationError

# The exec-contract helper from this checkout's vectors/python (the attest-harness-vectors package), whether or not
# that package is installed in the venv: the adapters run with only requirements.txt installed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "vectors", "python"))
from attest_harness_vectors.exec_adapter import Unsupported, run  # noqa: E402

class UnknownKey(Exception):
    """This adapter's own refusal of an assertion for a key it never attested (not LookupError: KeyError is one, and a
    KeyError from pyattest reading an attestation object is a crash)."""


#: What pyattest raises when it refuses evidence: its own exceptions (pyattest.exceptions), cryptography's
#: InvalidSignature from the assertion check, and pyhanko-certvalidator's errors from path validation; UnknownKey is
#: this adapter's own refusal of an assertion for a key it never attested. Anything else (a KeyError from an
#: attestation object it cannot read) is a crash, never a refusal.
REFUSALS = (PyAttestException, InvalidSignature, ValidationError, PathBuildingError, PathValidationError, UnknownKey)

#: The rule a refusal is under, from pyattest's exception types (README.md lists them). InvalidCertificateChainException
#: and InvalidSignature name a shared step (path validation, a signature), so they name no rule.
RULES = [
    (InvalidAaguidException, r"", "appattest.aaguid"),
    (InvalidCounterException, r"", "appattest.counter"),
    (InvalidCredentialIdException, r"", "appattest.credentialId"),
    (InvalidKeyIdException, r"", "appattest.keyId"),
    (InvalidNonceException, r"", "appattest.nonce"),
    (ExtensionNotFoundException, r"", "appattest.nonce"),
    (InvalidAppIdException, r"", "appattest.rpIdHash"),
]

#: The same exceptions as the Play Integrity verifier raises them (pyattest/verifiers/google_play_integrity_attestation.py):
#: InvalidNonceException for requestDetails.nonce, InvalidAppIdException for either package name, InvalidKeyIdException
#: for the signing-certificate digest, InvalidAppIntegrity and InvalidDeviceIntegrity for the two verdicts. A token that
#: does not decrypt or verify is a bare PyAttestException, which names no rule (the JWE and the JWS are one step there).
INTEGRITY_RULES = [
    (InvalidNonceException, r"", "integrity.nonce"),
    (InvalidAppIdException, r"", "integrity.package"),
    (InvalidKeyIdException, r"", "integrity.certificateDigest"),
    (InvalidAppIntegrity, r"", "integrity.appRecognition"),
    (InvalidDeviceIntegrity, r"", "integrity.deviceIntegrity"),
]


def freeze(context):
    """Path validation at the case's time: pyattest builds its ValidationContext without a moment."""
    moment = datetime.fromisoformat(context["time"].replace("Z", "+00:00"))
    apple_attestation.ValidationContext = lambda **kwargs: ValidationContext(moment=moment, **kwargs)


def verify(kind, inputs, context, state):
    if kind.startswith("per-request."):
        return per_request(kind, inputs, context, state)
    freeze(context)
    p = context["parameters"]
    config = AppleConfig(key_id=inputs["keyId"], app_id=p["appId"], production=p.get("environment") == "production",
                         root_ca=context["trustAnchors"][0].encode())
    if kind == "app-attest.attestation":
        attestation = Attestation(inputs["attestationObject"], inputs["challenge"], config)
        asyncio.run(attestation.verify())
        certificate = x509.load_der_x509_certificate(attestation.data["certs"].last.dump())
        state[inputs["keyId"]] = certificate.public_key()
    elif kind == "app-attest.assertion":
        key = state.get(inputs["keyId"])
        if key is None:
            raise UnknownKey("no attested key with this id")
        Assertion(inputs["assertion"], hashlib.sha256(inputs["clientData"]).digest(), key, config).verify()
    else:
        raise Unsupported(kind)


def library(call, rules, status):
    """Runs pyattest's check; a refusal of its own (REFUSALS) is answered with the API's device-failure status and
    the rule `rules` reads from it, as the exec helper reads RULES. Anything else it raises propagates: a crash."""
    try:
        call()
    except REFUSALS as error:
        text = f"{type(error).__name__}: {error}"
        raise Refused(next((rule for kind, pattern, rule in rules if isinstance(error, kind) and re.search(pattern, text)), None),
                      status, text)


class Refused(Exception):
    """The adapter's own relying-party code refuses (a per-request API check pyattest leaves to its caller)."""

    def __init__(self, rule, status, reason):
        super().__init__(reason)
        self.verdict = {"outcome": "reject", "rule": rule, "status": status, "reason": reason}


def moment(context):
    return datetime.fromisoformat((context.get("stepTime") or context["time"]).replace("Z", "+00:00"))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def use_challenge(text, context, state):
    """§2.2: a challenge the API issued, used once, within challengeLifetime."""
    p, device = context["parameters"], context["parameters"].get("deviceFailureStatus", "403")
    issued = state.setdefault("issued", {}).get(text)
    if issued is None:
        raise Refused("request.challenge.known", device, "the challenge was not issued")
    if text in state.setdefault("used", set()):
        raise Refused("request.challenge.singleUse", device, "the challenge was used before")
    state["used"].add(text)
    if (moment(context) - issued).total_seconds() > float(p.get("challengeLifetime", "300")):
        raise Refused("request.challenge.lifetime", device, "the challenge expired")


def per_request(kind, inputs, context, state):
    """The per-request API around pyattest (docs/protocols/per-request-device-attestation.md §2 to §5)."""
    p = context["parameters"]
    device, account = p.get("deviceFailureStatus", "403"), p.get("accountFailureStatus", "401")
    try:
        if kind == "per-request.challenge":
            state.setdefault("issued", {})[b64url(inputs["challenge"])] = moment(context)
        elif kind == "per-request.attest":
            use_challenge(b64url(inputs["challenge"]), context, state)
            if inputs.get("platform") == b"ios":
                freeze(context)
                config = AppleConfig(key_id=inputs["keyId"], app_id=p["appId"], production=p.get("environment") == "production",
                                     root_ca=context["trustAnchors"][0].encode())
                attestation = Attestation(inputs["attestationObject"], inputs["challenge"], config)
                library(lambda: asyncio.run(attestation.verify()), RULES, device)
                certificate = x509.load_der_x509_certificate(attestation.data["certs"].last.dump())
                state.setdefault("keys", {})[inputs["keyId"]] = certificate.public_key()
            elif inputs.get("platform") == b"android":
                verification = load_pem_public_key(p["integrityVerificationKey"].encode())
                config = GooglePlayIntegrityApiConfig(
                    decryption_key=p["integrityDecryptionKey"],
                    verification_key=base64.b64encode(verification.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)).decode(),
                    apk_package_name=p["packageName"], production=True, verify_code_signature_hex=[p["signatureDigest"]])
                attestation = Attestation(inputs["integrityToken"].decode(), inputs["challenge"], config)
                library(lambda: asyncio.run(attestation.verify()), INTEGRITY_RULES, device)
                state.setdefault("tokens", {})[inputs["sessionToken"].decode()] = moment(context)
            else:
                raise Refused("request.headers", device, "platform is neither ios nor android")
        elif kind == "per-request.request":
            headers = {key[len("header."):]: value.decode() for key, value in inputs.items() if key.startswith("header.")}
            apple = [headers.get(name) for name in ("X-Apple-App-Attest-Assertion", "X-Apple-App-Attest-Key-ID", "X-Apple-App-Attest-Challenge")]
            token = headers.get("X-Android-Device-Token")
            platform = headers.get("X-Platform")
            if platform == "ios" and all(apple) and token is None:
                assertion, key_id, challenge = apple
                use_challenge(challenge, context, state)
                key = state.setdefault("keys", {}).get(base64.b64decode(key_id))
                if key is None:
                    raise Refused("request.keyId", device, "the key id names no attested key")
                body = inputs.get("body", b"")
                client_data = "\n".join([challenge, inputs["method"].decode().upper(), inputs["target"].decode(),
                                          hashlib.sha256(body).hexdigest()]).encode()
                freeze(context)
                config = AppleConfig(key_id=base64.b64decode(key_id), app_id=p["appId"], production=p.get("environment") == "production",
                                     root_ca=context["trustAnchors"][0].encode())
                library(Assertion(base64.b64decode(assertion), hashlib.sha256(client_data).digest(), key, config).verify, RULES, device)
            elif platform == "android" and token is not None and not any(apple):
                issued = state.setdefault("tokens", {}).get(token)
                if issued is None:
                    raise Refused("request.sessionToken.known", device, "the session token was not issued")
                if (moment(context) - issued).total_seconds() > float(p.get("tokenLifetime", "86400")):
                    raise Refused("request.sessionToken.lifetime", device, "the session token expired")
            else:
                raise Refused("request.headers", device, "X-Platform does not match the proof headers")
            if headers.get("Authorization") != "Bearer " + p.get("accountToken", ""):
                raise Refused("request.accountToken", account, "the account token is not the user's")
        else:
            raise Unsupported(kind)
    except Refused as refusal:
        return refusal.verdict
    return None


if __name__ == "__main__":
    run("pyattest", verify, refusals=REFUSALS, rules=RULES)
