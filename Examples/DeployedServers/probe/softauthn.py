"""A software WebAuthn authenticator and client, for probing the test sites by hand.

It answers a server's PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON the way a browser and an
authenticator would, and writes the result as the browser's PublicKeyCredential.toJSON() does (WebAuthn L3:
RegistrationResponseJSON / AuthenticationResponseJSON, every binary value base64url without padding). Every part
can be bent for a negative probe (origin, challenge, type, RP ID hash, flags, counter, signature, user handle,
attestation statement).

Needs: cryptography, cbor2 (pip install cryptography cbor2).
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass, field

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    """One credential source: key pair, id, counter, user handle."""

    alg: int = -7
    credential_id: bytes = field(default_factory=lambda: os.urandom(32))
    user_handle: bytes | None = None
    sign_count: int = 0
    private_key: object = None

    def __post_init__(self):
        if self.private_key is None:
            if self.alg == -7:
                self.private_key = ec.generate_private_key(ec.SECP256R1())
            elif self.alg in (-257, -65535):
                self.private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            else:
                raise ValueError(f"unsupported alg {self.alg}")

    def cose_public_key(self) -> bytes:
        pub = self.private_key.public_key()
        if self.alg == -7:
            numbers = pub.public_numbers()
            return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        numbers = pub.public_numbers()
        n = numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")
        e = numbers.e.to_bytes((numbers.e.bit_length() + 7) // 8, "big")
        return cbor2.dumps({1: 3, 3: self.alg, -1: n, -2: e})

    def sign(self, data: bytes) -> bytes:
        if self.alg == -7:
            return self.private_key.sign(data, ec.ECDSA(hashes.SHA256()))
        if self.alg == -257:
            return self.private_key.sign(data, padding.PKCS1v15(), hashes.SHA256())
        return self.private_key.sign(data, padding.PKCS1v15(), hashes.SHA1())


def client_data(kind: str, challenge_b64u: str, origin: str, **extra) -> bytes:
    data = {"type": kind, "challenge": challenge_b64u, "origin": origin, "crossOrigin": False}
    data.update(extra)
    return json.dumps(data, separators=(",", ":")).encode()


def auth_data(rp_id: str, flags: int, sign_count: int, attested: bytes = b"", rp_id_hash: bytes | None = None) -> bytes:
    rp_hash = rp_id_hash if rp_id_hash is not None else hashlib.sha256(rp_id.encode()).digest()
    return rp_hash + bytes([flags]) + struct.pack(">I", sign_count) + attested


def register(
    options: dict,
    origin: str,
    cred: Credential | None = None,
    *,
    flags: int = UP | UV,
    kind: str = "webauthn.create",
    challenge: str | None = None,
    rp_id: str | None = None,
    rp_id_hash: bytes | None = None,
    fmt: str = "none",
    att_stmt: dict | None = None,
    client_extra: dict | None = None,
    envelope_id: bytes | None = None,
) -> tuple[dict, Credential]:
    """Answers creation options (the publicKey member) with a new credential. Returns (toJSON dict, credential).

    envelope_id: put these bytes in id and rawId instead of the credential id the attested data carries."""
    if cred is None:
        cred = Credential()
    user_id = options.get("user", {}).get("id")
    if user_id is not None and cred.user_handle is None:
        cred.user_handle = unb64u(user_id)
    rp = rp_id or options.get("rp", {}).get("id") or "localhost"
    cdj = client_data(kind, challenge or options["challenge"], origin, **(client_extra or {}))
    cose = cred.cose_public_key()
    attested = bytes(16) + struct.pack(">H", len(cred.credential_id)) + cred.credential_id + cose
    ad = auth_data(rp, flags | AT, cred.sign_count, attested, rp_id_hash)
    if fmt == "packed" and att_stmt is None:
        # Self attestation: signed by the credential key itself.
        att_stmt = {"alg": cred.alg, "sig": cred.sign(ad + hashlib.sha256(cdj).digest())}
    att_obj = cbor2.dumps({"fmt": fmt, "attStmt": att_stmt or {}, "authData": ad})
    outer_id = b64u(envelope_id if envelope_id is not None else cred.credential_id)
    result = {
        "id": outer_id,
        "rawId": outer_id,
        "type": "public-key",
        "response": {
            "clientDataJSON": b64u(cdj),
            "attestationObject": b64u(att_obj),
            "authenticatorData": b64u(ad),
            "transports": ["internal", "hybrid"],
            "publicKeyAlgorithm": cred.alg,
        },
        "authenticatorAttachment": "platform",
        "clientExtensionResults": {"credProps": {"rk": True}},
    }
    return result, cred


def assert_(
    options: dict,
    origin: str,
    cred: Credential,
    *,
    flags: int = UP | UV,
    kind: str = "webauthn.get",
    challenge: str | None = None,
    rp_id: str | None = None,
    rp_id_hash: bytes | None = None,
    sign_count: int | None = None,
    bump: bool = True,
    user_handle: bytes | None | str = "credential",
    bad_signature: bool = False,
    client_extra: dict | None = None,
) -> dict:
    """Answers request options (the publicKey member) with an assertion. Returns the toJSON dict.

    user_handle: "credential" (default) sends the credential's user handle, None leaves it out (null), bytes send
    those bytes. sign_count: the counter to put in authenticatorData (default: the credential's, bumped by one
    first unless bump is False)."""
    if sign_count is None:
        if bump:
            cred.sign_count += 1
        sign_count = cred.sign_count
    rp = rp_id or options.get("rpId") or "localhost"
    cdj = client_data(kind, challenge or options["challenge"], origin, **(client_extra or {}))
    ad = auth_data(rp, flags, sign_count, b"", rp_id_hash)
    sig = cred.sign(ad + hashlib.sha256(cdj).digest())
    if bad_signature:
        sig = sig[:-1] + bytes([sig[-1] ^ 0x01])
    if user_handle == "credential":
        user_handle = cred.user_handle
    response = {"clientDataJSON": b64u(cdj), "authenticatorData": b64u(ad), "signature": b64u(sig)}
    response["userHandle"] = b64u(user_handle) if user_handle is not None else None
    return {
        "id": b64u(cred.credential_id),
        "rawId": b64u(cred.credential_id),
        "type": "public-key",
        "response": response,
        "authenticatorAttachment": "platform",
        "clientExtensionResults": {},
    }
