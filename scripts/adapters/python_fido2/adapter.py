"""python-fido2 (PyPI `fido2`) behind the exec contract, for the webauthn family: a Fido2Server for the case's
rpId with DIRECT attestation and an AttestationVerifier whose ca_lookup returns the test root that issued the
trust path; register_begin / authenticate_begin with the issued challenge (and the case's user and credentials), their
state passed to register_complete / authenticate_complete, as the library documents the ceremony. The only
relying-party code here stores verified credentials and passes them back; what the library leaves to its caller
is listed in adapter.json."""
import json
import os
import sys

import cbor2
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding
from fido2 import mds3
from cryptography.exceptions import InvalidSignature as CryptographyInvalidSignature
from cryptography.x509 import ExtensionNotFound
from fido2.attestation import AttestationVerifier, UnsupportedType
from fido2.attestation.base import InvalidAttestation, InvalidData
from fido2.server import Fido2Server
from fido2.utils import websafe_decode
from fido2.webauthn import AttestationConveyancePreference, UserVerificationRequirement

# The exec-contract helper from this checkout's vectors/python (the attest-harness-vectors package), whether or not
# that package is installed in the venv: the adapters run with only requirements.txt installed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "vectors", "python"))
from attest_harness_vectors.exec_adapter import Unsupported, b64url, run  # noqa: E402

#: What python-fido2 raises when it refuses evidence: Fido2Server's checks raise ValueError (JSON and CBOR parse
#: errors derive from it), the attestation verifiers InvalidAttestation (InvalidData, InvalidSignature,
#: UntrustedAttestation, UnsupportedType), cryptography InvalidSignature and ExtensionNotFound. Anything else (a
#: TypeError or IndexError from parsing a malformed credential) is a crash, never a refusal.
REFUSALS = (ValueError, InvalidAttestation, CryptographyInvalidSignature, ExtensionNotFound)

#: The rule a refusal is under, from python-fido2's own messages (README.md lists them). Only messages that name the
#: one check a rule makes are mapped; "Invalid signature.", an UntrustedAttestation, "Attestation certificate must
#: have CA=false!" (raised for packed and TPM certificates alike) and parse errors name no rule.
RULES = [
    (ValueError, r"Wrong challenge in response", "webauthn.clientData.challenge"),
    (ValueError, r"Invalid origin in CollectedClientData", "webauthn.clientData.origin"),
    (ValueError, r"Incorrect type in CollectedClientData", "webauthn.clientData.type"),
    (ValueError, r"id does not match rawId", "webauthn.credential.json"),
    (ValueError, r"User Present flag not set", "webauthn.flags.userPresent"),
    (ValueError, r"(?i)User verification required, but user verified flag not set", "webauthn.flags.userVerified"),
    (ValueError, r"Wrong RP ID hash in response", "webauthn.rpIdHash"),
    (ValueError, r"Unknown credential ID", "webauthn.assertion.credential"),
    (UnsupportedType, r'Attestation format "none" is not supported', "webauthn.attestation.required"),
    (UnsupportedType, r"Attestation format .* is not supported", "webauthn.fmt"),
    (InvalidData, r"AAGUID in Authenticator data does not match attestation certificate", "webauthn.packed.aaguid"),
    (InvalidData, r"Subject must have|Attestation certificate must use version 3", "webauthn.packed.certificate"),
    (InvalidData, r"Certificate not issued to attest\.android\.com", "webauthn.safetynet.certificate"),
    (InvalidData, r"ctsProfileMatch must be true", "webauthn.safetynet.ctsProfileMatch"),
    (InvalidAttestation, r"generated value field is invalid|tpmi_st_attest field is invalid"
     r"|does not include a valid name for pubArea|attestation does not sign for authData and ClientData",
     "webauthn.tpm.certInfo"),
    (InvalidData, r"Certificate should not have Subject|Extended key usage MUST contain", "webauthn.tpm.certificate"),
    (ExtensionNotFound, r"SubjectAlternativeName", "webauthn.tpm.certificate"),
    (InvalidAttestation, r"attestation pubArea does not match attestedCredentialData", "webauthn.tpm.pubArea"),
]


class TestRoots(AttestationVerifier):
    def __init__(self, anchors):
        super().__init__()
        self.anchors = [x509.load_pem_x509_certificate(pem.encode()) for pem in anchors]

    def ca_lookup(self, attestation_result, auth_data):
        if not attestation_result.trust_path:
            return None
        last = x509.load_der_x509_certificate(attestation_result.trust_path[-1])
        for anchor in self.anchors:
            if anchor.subject == last.issuer:
                return anchor.public_bytes(Encoding.DER)
        return None


def attestation_verifier(context):
    """The test roots, or in a metadata case the library's own MDS3 support: parse_blob verifies the BLOB under the
    configured metadata root, and MdsAttestationVerifier (default filters) trusts the roots of the AAGUID's entry."""
    p = context["parameters"]
    if "metadataBLOB" not in p:
        return TestRoots(context["trustAnchors"])
    root = x509.load_pem_x509_certificate(p["metadataRoot"].encode()).public_bytes(Encoding.DER)
    return mds3.MdsAttestationVerifier(mds3.parse_blob(p["metadataBLOB"].encode(), root))


def server(context):
    p = context["parameters"]
    origins = [o for o in p.get("origins", "").split(",") if o]
    attestation = AttestationConveyancePreference.DIRECT if p.get("attestation") == "direct" else AttestationConveyancePreference.NONE
    return Fido2Server({"id": p["rpId"], "name": "attest-harness"}, attestation=attestation,
                       verify_origin=lambda origin: origin in origins, verify_attestation=attestation_verifier(context))


def user_verification(context):
    required = context["parameters"].get("userVerification") == "required"
    return UserVerificationRequirement.REQUIRED if required else UserVerificationRequirement.PREFERRED


def registration_state(srv, inputs, context, credentials):
    """The state of register_begin, as the library documents the ceremony: begin with the case's user and the
    challenge the relying party issued, keep the state, pass it to register_complete."""
    _, state = srv.register_begin({"id": inputs["user"], "name": "attest-harness user"}, credentials,
                                  user_verification=user_verification(context), challenge=inputs["challenge"])
    return state


def authentication_state(srv, inputs, context, credentials):
    _, state = srv.authenticate_begin(credentials, user_verification=user_verification(context), challenge=inputs["challenge"])
    return state


# The attestation statement formats of the WebAuthn registry (L3 §8) that carry an attestation: a library that
# lacks one of these cannot judge a statement in it, which is an answer of its own. Refusing any other fmt is the
# verdict the spec asks for, and so is refusing "none" when attestation is required (python-fido2's verifier
# has no "none" type: that refusal is how it requires attestation).
REGISTERED_FORMATS = {"packed", "tpm", "android-key", "android-safetynet", "fido-u2f", "apple", "compound"}


def verify(kind, inputs, context, credentials):
    if kind == "webauthn.registration":
        try:
            decoded = cbor2.loads(inputs["attestationObject"])
        except Exception:
            decoded = {}  # python-fido2 parses it itself and refuses what does not parse
        if not isinstance(decoded, dict):
            decoded = {}
        try:
            # The credential as the browser serialised it (L3 toJSON); python-fido2 reads the mapping itself.
            srv = server(context)
            verified = srv.register_complete(registration_state(srv, inputs, context, credentials),
                                             json.loads(inputs["credentialJSON"]))
        except UnsupportedType:
            if decoded.get("fmt") in REGISTERED_FORMATS:
                raise Unsupported(f"python-fido2 has no verifier for the {decoded.get('fmt')} format")
            raise
        credentials.append(verified.credential_data)
    elif kind == "webauthn.assertion":
        # One list goes to authenticate_begin (it becomes allowCredentials) and to authenticate_complete, as the
        # library's example server passes it: the credentials the options allowed, when the case's options list some.
        listed = inputs.get("allowCredentials")
        allowed = credentials
        if listed is not None:
            ids = {websafe_decode(text) for text in json.loads(listed)}
            allowed = [credential for credential in credentials if credential.credential_id in ids]
        try:
            srv = server(context)
            srv.authenticate_complete(authentication_state(srv, inputs, context, allowed), allowed,
                                      json.loads(inputs["credentialJSON"]))
        except NotImplementedError as error:
            # python-fido2's CoseKey has no verifier for this credential algorithm (RS384, RS512, PS384, PS512).
            raise Unsupported(f"python-fido2 cannot verify this credential's algorithm: {error}")
    elif kind == "webauthn.deletion":
        # The relying party's own store: the deleted credential is no longer passed to the library.
        credentials[:] = [credential for credential in credentials if credential.credential_id != inputs["credentialId"]]
    else:
        raise Unsupported(kind)


if __name__ == "__main__":
    run("python-fido2", verify, new_state=list, refusals=REFUSALS, rules=RULES)
