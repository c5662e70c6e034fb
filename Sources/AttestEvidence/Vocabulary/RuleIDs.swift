import AttestConformance

// Rule ids live below the catalogue (which adds their statements, sources and cases) so that the reference
// verifier and the forge name rules without importing the catalogue.

// MARK: Encoding

/// The rules a family holds its CBOR encodings to, one per strictness check: WebAuthn's (`cbor.*`, SHOULD under its
/// conformance classes) or App Attest's (`appattest.cbor.*`, POLICY: Apple specifies no encoding form and WebAuthn's
/// conformance classes do not bind an App Attest server). The reference verifier decodes each family's CBOR under
/// its own set; the catalogue breaks each rule once per family.
public struct CBOREncodingRules: Hashable, Sendable {
    public let trailingBytes: RuleID
    public let duplicateMapKey: RuleID
    public let indefiniteLength: RuleID

    public static let webAuthn = CBOREncodingRules(trailingBytes: .cborTrailingBytes, duplicateMapKey: .cborDuplicateMapKey,
                                                   indefiniteLength: .cborIndefiniteLength)
    public static let appAttest = CBOREncodingRules(trailingBytes: .appAttestCBORTrailingBytes,
                                                    duplicateMapKey: .appAttestCBORDuplicateMapKey,
                                                    indefiniteLength: .appAttestCBORIndefiniteLength)
}

extension RuleID {
    public static let cborTrailingBytes: RuleID = "cbor.trailingBytes"
    public static let cborDuplicateMapKey: RuleID = "cbor.duplicateMapKey"
    public static let cborIndefiniteLength: RuleID = "cbor.indefiniteLength"
    /// The same three checks of App Attest's CBOR, a hardening choice there (Apple specifies no encoding form).
    public static let appAttestCBORTrailingBytes: RuleID = "appattest.cbor.trailingBytes"
    public static let appAttestCBORDuplicateMapKey: RuleID = "appattest.cbor.duplicateMapKey"
    public static let appAttestCBORIndefiniteLength: RuleID = "appattest.cbor.indefiniteLength"
}

// MARK: Chain
extension RuleID {
    public static let chainTrustAnchor: RuleID = "chain.trustAnchor"
    public static let chainValidity: RuleID = "chain.validity"
    public static let chainBasicConstraints: RuleID = "chain.basicConstraints"
    public static let chainRevoked: RuleID = "chain.revoked"
    public static let chainRootRevoked: RuleID = "chain.rootRevoked"
    public static let chainSuspended: RuleID = "chain.suspended"
}

// MARK: AppAttest
extension RuleID {
    public static let appAttestStructure: RuleID = "appattest.structure"
    public static let appAttestFormat: RuleID = "appattest.fmt"
    public static let appAttestCertificateList: RuleID = "appattest.x5c"
    public static let appAttestExtraCertificates: RuleID = "appattest.x5cExtraCertificates"
    public static let appAttestNonce: RuleID = "appattest.nonce"
    public static let appAttestNonceEncoding: RuleID = "appattest.nonceEncoding"
    public static let appAttestKeyId: RuleID = "appattest.keyId"
    public static let appAttestRpIdHash: RuleID = "appattest.rpIdHash"
    public static let appAttestCounter: RuleID = "appattest.counter"
    public static let appAttestAAGUID: RuleID = "appattest.aaguid"
    public static let appAttestCredentialId: RuleID = "appattest.credentialId"
    public static let appAttestCOSEKey: RuleID = "appattest.coseKey"
    public static let appAttestAssertionSignature: RuleID = "appattest.assertion.signature"
    public static let appAttestAssertionRpIdHash: RuleID = "appattest.assertion.rpIdHash"
    public static let appAttestAssertionCounter: RuleID = "appattest.assertion.counter"
    public static let appAttestAssertionChallenge: RuleID = "appattest.assertion.challenge"
}

// MARK: Android
extension RuleID {
    public static let androidChainLength: RuleID = "android.chain.length"
    public static let androidChainOrder: RuleID = "android.chain.order"
    public static let androidChainIncludesRoot: RuleID = "android.chain.includesRoot"
    public static let androidChainThreeOrMore: RuleID = "android.chain.threeOrMore"
    public static let androidChainAttestKey: RuleID = "android.chain.attestKey"
    public static let androidChainAttestationKeyIsCA: RuleID = "android.chain.attestationKeyIsCA"
    public static let androidChainFactoryExpiry: RuleID = "android.chain.factoryExpiry"
    public static let androidChainLeafValidity: RuleID = "android.chain.leafValidity"
    public static let androidKeyDescriptionEncoding: RuleID = "android.keyDescription.encoding"
    public static let androidKeyDescriptionStrictDER: RuleID = "android.keyDescription.strictDer"
    public static let androidKeyDescriptionUniqueTags: RuleID = "android.keyDescription.uniqueTags"
    public static let androidKeyDescriptionKnownTags: RuleID = "android.keyDescription.knownTags"
    public static let androidKeyDescriptionPosition: RuleID = "android.keyDescription.position"
    public static let androidChallenge: RuleID = "android.attestationChallenge"
    public static let androidSecurityLevel: RuleID = "android.securityLevel"
    public static let androidOrigin: RuleID = "android.origin"
    public static let androidRootOfTrust: RuleID = "android.rootOfTrust"
    public static let androidDeviceLocked: RuleID = "android.rootOfTrust.deviceLocked"
    public static let androidVerifiedBootState: RuleID = "android.rootOfTrust.verifiedBootState"
    public static let androidAllApplications: RuleID = "android.allApplications"
    public static let androidPurpose: RuleID = "android.purpose"
    public static let androidPackage: RuleID = "android.attestationApplicationId.package"
    public static let androidSigningDigest: RuleID = "android.attestationApplicationId.signature"
    public static let androidPublicKey: RuleID = "android.publicKey"
    public static let androidAlgorithm: RuleID = "android.algorithm"
    public static let androidCurve: RuleID = "android.ecCurve"
    public static let androidNoAuthRequired: RuleID = "android.noAuthRequired"
    public static let androidUserAuthType: RuleID = "android.userAuthType"
    public static let androidAuthTimeout: RuleID = "android.authTimeout"
}

// MARK: WebAuthn
extension RuleID {
    public static let webAuthnStructure: RuleID = "webauthn.structure"
    public static let webAuthnType: RuleID = "webauthn.clientData.type"
    public static let webAuthnChallenge: RuleID = "webauthn.clientData.challenge"
    public static let webAuthnChallengeSession: RuleID = "webauthn.challenge.session"
    public static let webAuthnChallengeSingleUse: RuleID = "webauthn.challenge.singleUse"
    public static let webAuthnOrigin: RuleID = "webauthn.clientData.origin"
    public static let webAuthnCrossOrigin: RuleID = "webauthn.clientData.crossOrigin"
    public static let webAuthnTopOrigin: RuleID = "webauthn.clientData.topOrigin"
    public static let webAuthnRpIdHash: RuleID = "webauthn.rpIdHash"
    public static let webAuthnUserPresent: RuleID = "webauthn.flags.userPresent"
    public static let webAuthnUserVerified: RuleID = "webauthn.flags.userVerified"
    public static let webAuthnBackupState: RuleID = "webauthn.flags.backupState"
    public static let webAuthnAuthenticatorData: RuleID = "webauthn.authenticatorData"
    public static let webAuthnAlgorithm: RuleID = "webauthn.algorithm"
    public static let webAuthnCredentialKeyFit: RuleID = "webauthn.credentialKey.fit"
    public static let webAuthnFormat: RuleID = "webauthn.fmt"
    public static let webAuthnAttestationRequired: RuleID = "webauthn.attestation.required"
    public static let webAuthnSelfAttestation: RuleID = "webauthn.attestation.self"
    public static let webAuthnAttestationSignature: RuleID = "webauthn.attestation.signature"
    public static let webAuthnStatementStructure: RuleID = "webauthn.attestation.structure"
    public static let webAuthnStatementSignatureEncoding: RuleID = "webauthn.attestation.encoding"
    public static let webAuthnPackedCertificate: RuleID = "webauthn.packed.certificate"
    public static let webAuthnPackedAAGUID: RuleID = "webauthn.packed.aaguid"
    public static let webAuthnAndroidKeyChallenge: RuleID = "webauthn.androidKey.challenge"
    public static let webAuthnAndroidKeyPublicKey: RuleID = "webauthn.androidKey.publicKey"
    public static let webAuthnAppleNonce: RuleID = "webauthn.apple.nonce"
    public static let webAuthnApplePublicKey: RuleID = "webauthn.apple.publicKey"
    public static let webAuthnCredentialIdLength: RuleID = "webauthn.credentialId.length"
    public static let webAuthnCredentialIdUnique: RuleID = "webauthn.credentialId.unique"
    public static let webAuthnCredential: RuleID = "webauthn.assertion.credential"
    public static let webAuthnOwner: RuleID = "webauthn.assertion.owner"
    public static let webAuthnUserHandle: RuleID = "webauthn.assertion.userHandle"
    public static let webAuthnAssertionSignature: RuleID = "webauthn.assertion.signature"
    public static let webAuthnSignCount: RuleID = "webauthn.signCount"
    public static let webAuthnBackupEligibility: RuleID = "webauthn.flags.backupEligible"
    public static let webAuthnX5COrder: RuleID = "webauthn.x5c.order"
    public static let webAuthnCredentialJSON: RuleID = "webauthn.credential.json"
    public static let webAuthnCredentialIdBinding: RuleID = "webauthn.credentialId.binding"
    public static let webAuthnMetadataSignature: RuleID = "webauthn.metadata.signature"
    public static let webAuthnMetadataChain: RuleID = "webauthn.metadata.chain"
    public static let webAuthnMetadataNextUpdate: RuleID = "webauthn.metadata.nextUpdate"
    public static let webAuthnMetadataEntry: RuleID = "webauthn.metadata.entry"
    public static let webAuthnMetadataRevoked: RuleID = "webauthn.metadata.revoked"
    public static let webAuthnMetadataStatus: RuleID = "webauthn.metadata.status"
    public static let webAuthnSignatureEncoding: RuleID = "webauthn.signature.encoding"
    public static let webAuthnFidoU2FCertificate: RuleID = "webauthn.fidoU2F.certificate"
    public static let webAuthnTPMPublicArea: RuleID = "webauthn.tpm.pubArea"
    public static let webAuthnTPMCertInfo: RuleID = "webauthn.tpm.certInfo"
    public static let webAuthnTPMCertificate: RuleID = "webauthn.tpm.certificate"
    public static let webAuthnTPMAAGUID: RuleID = "webauthn.tpm.aaguid"
    public static let webAuthnSafetyNetNonce: RuleID = "webauthn.safetynet.nonce"
    public static let webAuthnSafetyNetCertificate: RuleID = "webauthn.safetynet.certificate"
    public static let webAuthnSafetyNetIntegrity: RuleID = "webauthn.safetynet.ctsProfileMatch"
    public static let webAuthnSafetyNetTimestamp: RuleID = "webauthn.safetynet.timestamp"
}

// MARK: PasskeyImport
extension RuleID {
    public static let importChallengeKnown: RuleID = "import.challenge.known"
    public static let importChallengeLifetime: RuleID = "import.challenge.lifetime"
    public static let importChallengeConsumedOnFailure: RuleID = "import.challenge.consumedOnFailure"
    public static let importPasskeyCap: RuleID = "import.passkeyCap"
    public static let importCredentialIdLength: RuleID = "import.credentialId.length"
    public static let importCredentialIdUnique: RuleID = "import.credentialId.unique"
    public static let importKey: RuleID = "import.key"
    public static let importProofMembers: RuleID = "import.proof.members"
    public static let importProofBinding: RuleID = "import.proof.binding"
    public static let importProofPublicKeyHash: RuleID = "import.proof.publicKeySha256"
    public static let importProofSignature: RuleID = "import.proof.signature"
    public static let importDeviceAttestationKey: RuleID = "import.deviceAttestation.key"
}

// MARK: PerRequest
extension RuleID {
    public static let requestMethod: RuleID = "request.binding.method"
    public static let requestPath: RuleID = "request.binding.path"
    public static let requestQuery: RuleID = "request.binding.query"
    public static let requestBody: RuleID = "request.binding.body"
    public static let requestBodyHashEncoding: RuleID = "request.binding.bodyHashEncoding"
    public static let requestEmptyBody: RuleID = "request.binding.emptyBody"
    public static let requestChallengeKnown: RuleID = "request.challenge.known"
    public static let requestChallengeSingleUse: RuleID = "request.challenge.singleUse"
    public static let requestChallengeLifetime: RuleID = "request.challenge.lifetime"
    public static let requestKeyId: RuleID = "request.keyId"
    public static let requestHeaders: RuleID = "request.headers"
    public static let requestAccountToken: RuleID = "request.accountToken"
    public static let requestSessionToken: RuleID = "request.sessionToken.known"
    public static let requestSessionLifetime: RuleID = "request.sessionToken.lifetime"
    public static let integrityEncryption: RuleID = "integrity.jwe"
    public static let integritySignature: RuleID = "integrity.jws"
    public static let integrityNonce: RuleID = "integrity.nonce"
    public static let integrityPackage: RuleID = "integrity.package"
    public static let integrityCertificateDigest: RuleID = "integrity.certificateDigest"
    public static let integrityAppRecognition: RuleID = "integrity.appRecognition"
    public static let integrityDeviceIntegrity: RuleID = "integrity.deviceIntegrity"
    public static let integrityTimestamp: RuleID = "integrity.timestamp"
}

// MARK: StepUp
extension RuleID {
    public static let stepUpSingleUse: RuleID = "stepup.challenge.singleUse"
    public static let stepUpLifetime: RuleID = "stepup.challenge.lifetime"
    public static let stepUpAccount: RuleID = "stepup.challenge.account"
    public static let stepUpKey: RuleID = "stepup.challenge.key"
    public static let stepUpAction: RuleID = "stepup.challenge.action"
    public static let stepUpSignature: RuleID = "stepup.signature"
}
