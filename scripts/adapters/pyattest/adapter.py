"""pyattest behind the exec contract, for the app-attest family: attestations through Attestation + AppleConfig
with our test root, assertions through Assertion with the attested key. pyattest documents that an assertion
check is the signature only, so the counter, RP ID and challenge of assertions are listed in adapter.json as the
caller's; the only relying-party code here stores the attested key by key id."""
import asyncio
import hashlib
import os
import sys
from datetime import datetime

import pyattest.verifiers.apple_attestation as apple_attestation
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from pyattest.assertion import Assertion
from pyattest.exceptions import (InvalidAaguidException, InvalidAppIdException, InvalidCertificateChainException,
                                 InvalidCounterException, InvalidCredentialIdException, InvalidKeyIdException,
                                 InvalidNonceException, ExtensionNotFoundException, PyAttestException)
from pyattest.attestation import Attestation
from pyattest.configs.apple import AppleConfig
from pyhanko_certvalidator import ValidationContext
from pyhanko_certvalidator.errors import PathBuildingError, PathValidationError, ValidationError

# The exec-contract helper from this checkout's vectors/python (the attest-harness-vectors package), whether or not
# that package is installed in the venv: the adapters run with only requirements.txt installed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "vectors", "python"))
from attest_harness_vectors.exec_adapter import Unsupported, run  # noqa: E402

#: What pyattest raises when it refuses evidence: its own exceptions (pyattest.exceptions), cryptography's
#: InvalidSignature from the assertion check, and pyhanko-certvalidator's errors from path validation. LookupError is
#: this adapter's own refusal of an assertion for a key it never attested. Anything else (a KeyError from an
#: attestation object it cannot read) is a crash, never a refusal.
REFUSALS = (PyAttestException, InvalidSignature, ValidationError, PathBuildingError, PathValidationError, LookupError)

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


def freeze(context):
    """Path validation at the case's time: pyattest builds its ValidationContext without a moment."""
    moment = datetime.fromisoformat(context["time"].replace("Z", "+00:00"))
    apple_attestation.ValidationContext = lambda **kwargs: ValidationContext(moment=moment, **kwargs)


def verify(kind, inputs, context, state):
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
            raise LookupError("no attested key with this id")
        Assertion(inputs["assertion"], hashlib.sha256(inputs["clientData"]).digest(), key, config).verify()
    else:
        raise Unsupported(kind)


if __name__ == "__main__":
    run("pyattest", verify, refusals=REFUSALS, rules=RULES)
