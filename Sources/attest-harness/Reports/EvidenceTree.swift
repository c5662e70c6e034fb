import AttestCBOR
import AttestConformance
import AttestCrypto
import AttestDER
import Foundation

/// Decodes a case's inputs into annotated trees for the HTML report, by what the bytes are, not by which input
/// they came in: CBOR maps and arrays, JSON, PEM, DER (certificates with their fields), compact JWS, else hex.
/// Bounded: at most `nodeLimit` nodes per case and `hexLimit` bytes of any hex value shown; nothing here throws.
struct EvidenceTree {
    static let nodeLimit = 4000
    static let hexLimit = 96

    private var budget = EvidenceTree.nodeLimit

    /// Decoded evidence of every case in `report` (by case id), for the HTML page.
    static func evidence(for cases: [Case], in report: RunReport) -> [String: [EvidenceNode]] {
        let wanted = Set(report.results.map(\.caseId))
        var out: [String: [EvidenceNode]] = [:]
        for testCase in cases where wanted.contains(testCase.id) { out[testCase.id] = nodes(for: testCase) }
        return out
    }

    /// The case's context and every step's inputs, decoded.
    static func nodes(for testCase: Case) -> [EvidenceNode] {
        var tree = EvidenceTree()
        var nodes = [EvidenceNode("context", children: [
            EvidenceNode("time", ISO8601DateFormatter().string(from: testCase.context.time)),
            EvidenceNode("trust anchors", "\(testCase.context.trustAnchors.count) PEM"),
        ] + testCase.context.parameters.sorted { $0.key < $1.key }.map { EvidenceNode("parameter \($0.key)", $0.value) })]
        for (index, step) in testCase.steps.enumerated() {
            let inputs = step.inputs.sorted { $0.key.rawValue < $1.key.rawValue }.map { key, bytes in
                tree.decode(bytes, label: key.rawValue)
            }
            var label = "step \(index): \(step.kind.rawValue)"
            if let breaks = step.breaks { label += " (breaks \(breaks.rawValue))" }
            nodes.append(EvidenceNode(label, step.time.map { "at " + ISO8601DateFormatter().string(from: $0) }, children: inputs))
        }
        return nodes
    }

    /// One input decoded on its own (with its own node budget), as the hunt's triage page compares them.
    static func decoded(_ bytes: [UInt8], label: String) -> EvidenceNode {
        var tree = EvidenceTree()
        return tree.decode(bytes, label: label)
    }

    private mutating func node(_ label: String, _ value: String? = nil, children: [EvidenceNode] = []) -> EvidenceNode {
        budget -= 1
        return EvidenceNode(label, value, children: children)
    }

    mutating func decode(_ bytes: [UInt8], label: String) -> EvidenceNode {
        guard budget > 0 else { return EvidenceNode(label, "(\(bytes.count) bytes; node limit reached)") }
        if let first = bytes.first, [0x80, 0xa0].contains(first & 0xe0),
           let value = (try? CBORReader.decode(bytes, options: .ctap2CanonicalWithTags)) ?? (try? CBORReader.decode(bytes)) {
            return node("\(label) (CBOR, \(bytes.count) bytes)", children: cbor(value))
        }
        if let text = String(bytes: bytes, encoding: .utf8) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix("{") || trimmed.hasPrefix("["),
               let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) {
                return node("\(label) (JSON)", children: json(object))
            }
            if trimmed.hasPrefix("-----BEGIN"), let certificates = try? X509Certificate.parseChain(pem: text) {
                return node("\(label) (PEM, \(certificates.count) certificates)",
                            children: certificates.enumerated().map { certificate($1, label: "certificate \($0)") })
            }
            let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 3, let header = Base64URL.decode(String(parts[0])), let payload = Base64URL.decode(String(parts[1])),
               header.first == UInt8(ascii: "{") {
                return node("\(label) (compact JWS)", children: [
                    decode(header, label: "protected header"), decode(payload, label: "payload"),
                    node("signature", "\(parts[2].count) base64url characters"),
                ])
            }
        }
        if let first = bytes.first, first == 0x30, let element = try? DERReader.parse(bytes, options: .ber) {
            if let certificate = try? X509Certificate(der: bytes) {
                return self.certificate(certificate, label: label)
            }
            return node("\(label) (DER, \(bytes.count) bytes)", children: [der(element)])
        }
        if let text = String(bytes: bytes, encoding: .utf8), text.allSatisfy({ !$0.isASCII || $0.isPunctuation || $0.isLetter || $0.isNumber || $0 == " " || $0.isSymbol }) {
            return node(label, text.count > 2000 ? String(text.prefix(2000)) + "…" : text)
        }
        return node(label, Self.hex(bytes))
    }

    private mutating func cbor(_ value: CBORValue) -> [EvidenceNode] {
        switch value {
        case .map(let entries):
            return entries.map { entry in
                let key = Self.scalar(entry.key) ?? "key"
                return item(entry.value, label: key)
            }
        case .array(let items):
            return items.enumerated().map { item($1, label: "[\($0)]") }
        default:
            return [item(value, label: "value")]
        }
    }

    private mutating func item(_ value: CBORValue, label: String) -> EvidenceNode {
        guard budget > 0 else { return EvidenceNode(label, "(node limit reached)") }
        switch value {
        case .map(let entries): return node("\(label) (map, \(entries.count))", children: cbor(value))
        case .array(let items): return node("\(label) (array, \(items.count))", children: cbor(value))
        case .tagged(let tag, let inner): return node("\(label) (tag \(tag))", children: [item(inner, label: "value")])
        case .bytes(let bytes):
            if bytes.first == 0x30, let certificate = try? X509Certificate(der: bytes) { return self.certificate(certificate, label: label) }
            return node("\(label) (bytes, \(bytes.count))", Self.hex(bytes))
        default: return node(label, Self.scalar(value) ?? "\(value)")
        }
    }

    private mutating func json(_ object: Any) -> [EvidenceNode] {
        if let dictionary = object as? [String: Any] {
            return dictionary.keys.sorted().map { key in jsonItem(dictionary[key] as Any, label: key) }
        }
        if let array = object as? [Any] { return array.enumerated().map { jsonItem($1, label: "[\($0)]") } }
        return [jsonItem(object, label: "value")]
    }

    private mutating func jsonItem(_ object: Any, label: String) -> EvidenceNode {
        guard budget > 0 else { return EvidenceNode(label, "(node limit reached)") }
        if object is [String: Any] || object is [Any] { return node(label, children: json(object)) }
        if let text = object as? String { return node(label, text.count > 400 ? String(text.prefix(400)) + "…" : text) }
        return node(label, "\(object)")
    }

    private mutating func certificate(_ certificate: X509Certificate, label: String) -> EvidenceNode {
        let formatter = ISO8601DateFormatter()
        var fields = [
            node("subject", certificate.subject),
            node("issuer", certificate.issuer),
            node("serial", Self.hex(certificate.serialNumber)),
            node("validity", "\(formatter.string(from: certificate.notBefore)) to \(formatter.string(from: certificate.notAfter))"),
        ]
        if let key = try? DERReader.parse(certificate.subjectPublicKeyInfo),
           let algorithm = key.children?.first?.children?.first?.primitiveBytes.flatMap(DERObjectIdentifier.init(contentBytes:)) {
            fields.append(node("public key", Self.oidName(algorithm)))
        }
        var extensions: [EvidenceNode] = []
        for item in certificate.extensions {
            let name = Self.oidName(item.oid) + (item.critical ? " (critical)" : "")
            if let element = try? DERReader.parse(item.value, options: .ber) {
                extensions.append(node(name, children: [der(element)]))
            } else {
                extensions.append(node(name, Self.hex(item.value)))
            }
        }
        fields.append(node("extensions (\(extensions.count))", children: extensions))
        return node("\(label) (X.509 certificate, \(certificate.der.count) bytes)", children: fields)
    }

    private mutating func der(_ element: DERElement) -> EvidenceNode {
        guard budget > 0 else { return EvidenceNode("…", "(node limit reached)") }
        let at = element.offset.map { " @\($0)" } ?? ""
        let name = Self.tagName(element.identifier) + at
        switch element.content {
        case .constructed(let children):
            return node("\(name) (\(children.count))", children: children.map { der($0) })
        case .primitive(let bytes):
            return node(name, Self.primitiveValue(element.identifier, bytes))
        }
    }

    static func tagName(_ identifier: DERIdentifier) -> String {
        guard identifier.tagClass == .universal else { return identifier.description }
        let names: [UInt64: String] = [1: "BOOLEAN", 2: "INTEGER", 3: "BIT STRING", 4: "OCTET STRING", 5: "NULL", 6: "OBJECT IDENTIFIER",
                                       10: "ENUMERATED", 12: "UTF8String", 16: "SEQUENCE", 17: "SET", 19: "PrintableString",
                                       22: "IA5String", 23: "UTCTime", 24: "GeneralizedTime"]
        return names[identifier.tagNumber] ?? identifier.description
    }

    static func primitiveValue(_ identifier: DERIdentifier, _ bytes: [UInt8]) -> String {
        guard identifier.tagClass == .universal else { return hex(bytes) }
        switch identifier.tagNumber {
        case 1: return bytes == [0] ? "FALSE" : bytes == [0xff] ? "TRUE" : "non-canonical " + hex(bytes)
        case 2, 10:
            if bytes.count <= 8 {
                var value: Int64 = (bytes.first ?? 0) & 0x80 != 0 ? -1 : 0
                for byte in bytes { value = (value << 8) | Int64(byte) }
                return "\(value)"
            }
            return hex(bytes)
        case 6: return DERObjectIdentifier(contentBytes: bytes).map(oidName) ?? hex(bytes)
        case 12, 19, 22, 23, 24: return String(bytes: bytes, encoding: .utf8) ?? hex(bytes)
        default: return hex(bytes)
        }
    }

    static func oidName(_ oid: DERObjectIdentifier) -> String {
        let names = [
            "1.2.840.10045.2.1": "ecPublicKey", "1.2.840.113549.1.1.1": "rsaEncryption", "1.3.101.112": "Ed25519",
            "2.5.29.19": "basicConstraints", "2.5.29.15": "keyUsage", "2.5.29.14": "subjectKeyIdentifier",
            "2.5.29.35": "authorityKeyIdentifier", "2.5.29.17": "subjectAltName", "2.5.29.37": "extKeyUsage",
            "2.5.29.31": "cRLDistributionPoints", "1.3.6.1.4.1.11129.2.1.17": "Android KeyDescription",
            "1.2.840.113635.100.8.2": "App Attest nonce", "1.3.6.1.4.1.45724.1.1.4": "FIDO AAGUID",
            "1.3.6.1.4.1.11129.2.1.30": "Android provisioning info", "2.23.133.8.3": "TCG AIK certificate",
        ]
        return names[oid.description].map { "\($0) (\(oid))" } ?? oid.description
    }

    static func scalar(_ value: CBORValue) -> String? {
        switch value {
        case .unsigned(let n): return "\(n)"
        case .negative(let n): return n == UInt64.max ? "-18446744073709551616" : "-\(n + 1)"
        case .text(let text): return text
        case .bool(let flag): return "\(flag)"
        case .null: return "null"
        case .undefined: return "undefined"
        case .simple(let n): return "simple(\(n))"
        default: return nil
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(hexLimit).map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
        return bytes.count > hexLimit ? "\(shown)… (\(bytes.count) bytes)" : shown
    }
}
