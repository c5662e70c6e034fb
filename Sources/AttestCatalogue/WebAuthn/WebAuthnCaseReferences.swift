/// The public bugs, advisories and library faults a webauthn case would have caught, for cases no public test suite
/// anchors (`WebAuthnAnchors` holds the FIDO2 conformance tool's and The State of Passkeys' checks). Each entry is a
/// CVE, a public issue or pull request, or a pinned library's code where docs/results.md or a deployed site's README
/// shows the miss; the catalogue puts them on its cases (`Case.references`, in `list --format json` and the vectors).
enum WebAuthnCaseReferences {
    static let fido2Origin = "python-fido2 2.2.1: verify_rp_id compares only the scheme and urlparse's host name with the rp id (fido2/rpid.py:90-105); django-passkeys uses it (Examples/DeployedServers/django-passkeys/README.md)"
    static let psychic = "CVE-2022-21449 (\"psychic signatures\": Java's ECDSA verified r = s = 0 for every message and key, no 0 < r, s < n check)"
    static let challengeMember = "trustwallet/wallet-core PR #4818 (a WebAuthn challenge accepted from another field of clientDataJSON: https://github.com/trustwallet/wallet-core/pull/4818)"
    static let duplicateMembers = "python-fido2 2.2.1 (fido2/webauthn.py:385) and py_webauthn 3.0.1 (webauthn/helpers/parse_client_data_json.py:17-20) read clientDataJSON with json.loads, last duplicate wins (docs/results.md)"

    static let byCase: [String: [String]] = [
        "webauthn.signature.encoding.extra-integer": [
            "go-webauthn/webauthn PR #744 (non-canonical DER ECDSA signatures accepted: https://github.com/go-webauthn/webauthn/pull/744)"],
        "webauthn.assertion.signature.zero-r-and-s": [
            psychic, "RiverFinancial/bitcoinex PR #125 (the DER signature r = 0, s = 0 verified against every key: https://github.com/RiverFinancial/bitcoinex/pull/125)"],
        "webauthn.assertion.signature.r-is-order": [
            psychic, "starkbank/ecdsa-python PR #27 (signature r and s range check added: https://github.com/starkbank/ecdsa-python/pull/27)"],
        "webauthn.credentialKey.fit.point-off-curve": [
            "go-webauthn/webauthn PR #752 (credential key not bound to its curve: https://github.com/go-webauthn/webauthn/pull/752)",
            "python-fido2 2.2.1 (fido2/cose.py:114-120) and py_webauthn 3.0.1 (webauthn/registration/verify_registration_response.py:200-207) store the key unread (docs/results.md)"],
        "webauthn.credentialKey.fit.compressed-point": [
            "go-webauthn/webauthn PR #752 (credential key not bound to its curve: https://github.com/go-webauthn/webauthn/pull/752)",
            "python-fido2 2.2.1 stores the COSE key as sent (fido2/cose.py:114-120, docs/results.md)"],
        "webauthn.clientData.origin.with-path": [
            "passwordless-lib/fido2-net-lib PR #208 (a device sent its origin with a path and fragment: https://github.com/passwordless-lib/fido2-net-lib/pull/208)",
            fido2Origin],
        "webauthn.clientData.origin.trailing-slash": [
            "authgear/authgear-server issue #1675 (an allowed origin with a trailing slash should fail: https://github.com/authgear/authgear-server/issues/1675)",
            fido2Origin],
        "webauthn.clientData.origin.userinfo": [fido2Origin],
        "webauthn.clientData.origin.explicit-port": [
            "duo-labs/webauthn issue #59 (the origin compared by its host name only: https://github.com/duo-labs/webauthn/issues/59)",
            fido2Origin],
        "webauthn.clientData.origin.upper-case-host": [
            "w3c/webauthn issue #2059 (origins and rp ids that differ in case alone or in IDNA spelling: https://github.com/w3c/webauthn/issues/2059)",
            fido2Origin],
        "webauthn.clientData.origin.idn-unicode": [
            "w3c/webauthn issue #2059 (origins and rp ids that differ in case alone or in IDNA spelling: https://github.com/w3c/webauthn/issues/2059)"],
        "webauthn.valid.idn-relying-party": [
            "MasterKale/SimpleWebAuthn issue #749 (a punycode relying party refused as an invalid domain: https://github.com/MasterKale/SimpleWebAuthn/issues/749)"],
        "webauthn.fidoU2F.certificate.fido-u2f-two-certificates": [
            "python-fido2 2.2.1 reads x5c[0] without checking that x5c has one certificate (fido2/attestation/u2f.py:52-58, docs/results.md)"],
        "webauthn.valid.packed-p384-batch": [
            "py_webauthn 3.0.1 maps no EC2 signature algorithm for ES384 and refuses the registration (webauthn/helpers/algorithms.py:40-49, docs/results.md)"],
        "webauthn.structure.client-data-duplicate-challenge": [
            "base/webauthn-sol PR #6 (a challenge located by index may not be the top-level member: https://github.com/base/webauthn-sol/pull/6)",
            duplicateMembers],
        "webauthn.structure.client-data-duplicate-type": [duplicateMembers],
        "webauthn.clientData.challenge.assertion-in-another-member": [
            challengeMember,
            "stellar/stellar-disbursement-platform-backend PR #674 (challenge and type read at client-supplied offsets: https://github.com/stellar/stellar-disbursement-platform-backend/pull/674)"],
        "webauthn.assertion.credential.deleted": [
            "privacyidea/privacyidea issue #4612 (a disabled passkey could still authenticate: https://github.com/privacyidea/privacyidea/issues/4612)"],
    ]
}
