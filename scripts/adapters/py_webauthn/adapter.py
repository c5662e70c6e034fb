"""py_webauthn (PyPI `webauthn`) behind the exec contract, for the webauthn family: registrations through
verify_registration_response with every test root for every format, assertions through
verify_authentication_response with the stored key and counter. The only relying-party code here is what every
integration must write (store the verified credential, look it up by id); the checks the library leaves to its
caller are listed in adapter.json as outside its scope."""
import io
import os
import sys
from datetime import datetime

import cbor2
import webauthn
from OpenSSL.crypto import X509Store
import webauthn.helpers.validate_certificate_chain  # noqa: F401 (loads the module patched below)
import webauthn.registration.formats.android_safetynet  # noqa: F401 (its timestamp check is patched below)
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.exceptions import (InvalidBackupFlags, InvalidJSONStructure, InvalidRegistrationResponse,
                                         InvalidAuthenticationResponse, InvalidTPMCertInfoStructure, WebAuthnException)
from webauthn.helpers.structs import AttestationFormat

# The exec-contract helper from this checkout's vectors/python (the attest-harness-vectors package), whether or not
# that package is installed in the venv: the adapters run with only requirements.txt installed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "vectors", "python"))
from attest_harness_vectors.exec_adapter import Unsupported, b64url, run  # noqa: E402

#: What py_webauthn raises when it refuses evidence: every error of webauthn.helpers.exceptions derives from
#: WebAuthnException. LookupError is this adapter's own refusal of an assertion for a credential it never stored.
#: Anything else raised (a TypeError from inside the library) is a crash, never a refusal.
REFUSALS = (WebAuthnException, LookupError)

#: The rule a refusal is under, from py_webauthn's own messages (README.md lists them). Only messages that name
#: the one check a rule makes are mapped; messages that name a shared step (a signature that does not verify, a
#: chain that does not validate, a structure that does not parse) name no rule, so those refusals are proven by
#: their control only.
RULES = [
    (InvalidRegistrationResponse, r"allApplications field was present", "android.allApplications"),
    (InvalidRegistrationResponse, r"teeEnforced\.origin .* was not KeyOrigin\.GENERATED", "android.origin"),
    (InvalidRegistrationResponse, r"teeEnforced\.purpose", "android.purpose"),
    (InvalidRegistrationResponse, r"x5c root certificate was not a known root certificate", "chain.trustAnchor"),
    (InvalidRegistrationResponse, r"Unsupported credential public key alg", "webauthn.algorithm"),
    (InvalidRegistrationResponse, r"attestationChallenge field was not the same", "webauthn.androidKey.challenge"),
    (InvalidRegistrationResponse, r"Certificate public key did not match credential public key \(Android Key\)",
     "webauthn.androidKey.publicKey"),
    (InvalidRegistrationResponse, r"Certificate public key did not match credential public key \(Apple\)",
     "webauthn.apple.publicKey"),
    (InvalidRegistrationResponse, r"Certificate nonce was not expected value \(Apple\)", "webauthn.apple.nonce"),
    (LookupError, r"no stored credential with this id", "webauthn.assertion.credential"),
    (InvalidRegistrationResponse, r"Attestation statement was missing (signature|algorithm)", "webauthn.attestation.signature"),
    (WebAuthnException, r"Client data challenge was not expected challenge", "webauthn.clientData.challenge"),
    (WebAuthnException, r"Unexpected client data origin", "webauthn.clientData.origin"),
    (WebAuthnException, r"Unexpected client data type", "webauthn.clientData.type"),
    (InvalidJSONStructure, r"", "webauthn.credential.json"),
    (WebAuthnException, r"id and raw_id were not equivalent", "webauthn.credential.json"),
    (InvalidRegistrationResponse, r"Leaf cert did not use P-256 curve \(FIDO-U2F\)|contained too many certificates \(FIDO-U2F\)",
     "webauthn.fidoU2F.certificate"),
    (InvalidBackupFlags, r"", "webauthn.flags.backupState"),
    (WebAuthnException, r"User presence was required|User was not present", "webauthn.flags.userPresent"),
    (WebAuthnException, r"User verification is required", "webauthn.flags.userVerified"),
    (InvalidRegistrationResponse, r"Unsupported attestation type", "webauthn.fmt"),
    (WebAuthnException, r"Unexpected RP ID hash", "webauthn.rpIdHash"),
    (InvalidRegistrationResponse, r"Certificate common name was not \"attest\.android\.com\"", "webauthn.safetynet.certificate"),
    (InvalidRegistrationResponse, r"Payload nonce was not expected value", "webauthn.safetynet.nonce"),
    (InvalidRegistrationResponse, r"Payload timestamp .* was later than|Payload has expired", "webauthn.safetynet.timestamp"),
    (InvalidAuthenticationResponse, r"sign count of \d+ was not greater than current count", "webauthn.signCount"),
    (InvalidRegistrationResponse, r"None attestation had unexpected attestation statement", "webauthn.attestation.structure"),
    (InvalidTPMCertInfoStructure, r"", "webauthn.tpm.certInfo"),
    (InvalidRegistrationResponse, r"CertInfo magic|CertInfo attested name|PubArea extra data did not match",
     "webauthn.tpm.certInfo"),
    (InvalidRegistrationResponse, r"Certificate Subject .* was not empty \(TPM\)|Certificate missing extension .*\(TPM\)"
     r"|Certificate Extended Key Usage OID .*\(TPM\)|Certificate Basic Constraints CA was not False \(TPM\)",
     "webauthn.tpm.certificate"),
    (InvalidRegistrationResponse, r"PubArea unique", "webauthn.tpm.pubArea"),
]


def parameters(context):
    p = context["parameters"]
    algorithms = []
    for text in p.get("algorithms", "").split(","):
        try:
            algorithms.append(COSEAlgorithmIdentifier(int(text)))
        except ValueError:
            pass
    return p, [o for o in p.get("origins", "").split(",") if o], algorithms, p.get("userVerification") == "required"


def credential_algorithm(auth_data):
    """The COSE alg of the credential key in a registration's authenticator data, or None."""
    if len(auth_data) < 55:
        return None
    length = int.from_bytes(auth_data[53:55], "big")
    try:
        key = cbor2.CBORDecoder(io.BytesIO(auth_data[55 + length:])).decode()
    except Exception:
        return None
    return key.get(3) if isinstance(key, dict) else None


def freeze(context):
    """py_webauthn's documented test hook: the certificate store's time is the case's, not the machine's; the
    SafetyNet timestamp window, the library's own check, is moved to the case's time the same way."""
    moment = datetime.fromisoformat(context["time"].replace("Z", "+00:00"))

    def store():
        s = X509Store()
        s.set_time(moment)
        return s

    sys.modules["webauthn.helpers.validate_certificate_chain"]._generate_new_cert_store = store

    def safetynet_timestamp(timestamp_ms):
        """The library's own window (10 s either side), around the case's time instead of the machine's."""
        now = int(moment.timestamp()) * 1000
        if timestamp_ms > now + 10_000:
            raise ValueError(f"Payload timestamp {timestamp_ms} was later than {now} + 10000")
        if timestamp_ms < now - 10_000:
            raise ValueError("Payload has expired")

    sys.modules["webauthn.registration.formats.android_safetynet"].verify_safetynet_timestamp = safetynet_timestamp


def verify(kind, inputs, context, state):
    freeze(context)
    p, origins, algorithms, uv = parameters(context)
    if "metadataBLOB" in p:
        # py_webauthn has no FIDO Metadata Service support: an integration would have to parse the BLOB itself.
        raise Unsupported("py_webauthn has no FIDO metadata (MDS3) support")
    if kind == "webauthn.registration":
        anchors = [pem.encode() for pem in context["trustAnchors"]]
        # Only to tell an algorithm py_webauthn lacks from one it refuses: evidence that does not parse here is the
        # library's to refuse.
        try:
            decoded = cbor2.loads(inputs["attestationObject"])
            auth_data = decoded.get("authData", b"") if isinstance(decoded, dict) else b""
        except Exception:
            auth_data = b""
        algorithm = credential_algorithm(auth_data if isinstance(auth_data, bytes) else b"")
        offered = [int(text) for text in p.get("algorithms", "").split(",") if text.strip()]
        if algorithm in offered and algorithm not in {a.value for a in COSEAlgorithmIdentifier}:
            raise Unsupported(f"py_webauthn has no COSE algorithm {algorithm}")
        # The credential as the browser serialised it (L3 toJSON), which py_webauthn parses itself.
        verified = webauthn.verify_registration_response(
            credential=inputs["credentialJSON"].decode(),
            expected_challenge=inputs["challenge"], expected_rp_id=p["rpId"], expected_origin=origins,
            require_user_verification=uv, supported_pub_key_algs=algorithms,
            pem_root_certs_bytes_by_fmt={fmt: anchors for fmt in AttestationFormat})
        state[bytes(verified.credential_id)] = {"key": verified.credential_public_key, "count": verified.sign_count}
    elif kind == "webauthn.assertion":
        record = state.get(inputs["credentialId"])
        if record is None:
            raise LookupError("no stored credential with this id")
        verified = webauthn.verify_authentication_response(
            credential=inputs["credentialJSON"].decode(),
            expected_challenge=inputs["challenge"], expected_rp_id=p["rpId"], expected_origin=origins,
            credential_public_key=record["key"], credential_current_sign_count=record["count"],
            require_user_verification=uv)
        record["count"] = verified.new_sign_count
    elif kind == "webauthn.deletion":
        # The relying party's own store (py_webauthn keeps none): the deleted credential is no longer looked up.
        state.pop(inputs["credentialId"], None)
    else:
        raise Unsupported(kind)


if __name__ == "__main__":
    run("py_webauthn", verify, refusals=REFUSALS, rules=RULES)
