import Foundation

/// PEM documents (RFC 7468): `-----BEGIN <label>-----`, base64 lines, `-----END <label>-----`.
public struct PEMBlock: Hashable, Sendable {
    public var label: String
    public var der: [UInt8]

    public init(label: String, der: [UInt8]) {
        self.label = label
        self.der = der
    }

    /// Every PEM block in `text`, in order (text between blocks is ignored, as RFC 7468 §2 allows).
    public static func parseAll(_ text: String) throws -> [PEMBlock] {
        var documents: [PEMBlock] = []
        var label: String?
        var body = ""
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingSuffix { $0 == " " || $0 == "\t" }
            if let current = label {
                if line == "-----END \(current)-----" {
                    guard let der = Data(base64Encoded: body).map(Array.init) else {
                        throw DERError(.invalidPEM("bad base64 in \(current) ending on line \(index + 1)"), at: 0)
                    }
                    documents.append(PEMBlock(label: current, der: der))
                    label = nil
                    body = ""
                } else {
                    body += line
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst(11).dropLast(5))
            }
        }
        if let label { throw DERError(.invalidPEM("no END line for \(label)"), at: 0) }
        return documents
    }

    /// The PEM text, 64 base64 characters a line.
    public var text: String {
        // Bytes, not Characters: base64 is ASCII, and splitting a String into Characters (grapheme clusters) was most
        // of the cost of writing a trust anchor list, which a map run does once per forged case.
        let encoded = Array(Data(der).base64EncodedString().utf8)
        var out = Array("-----BEGIN \(label)-----\n".utf8)
        out.reserveCapacity(out.count * 2 + encoded.count + encoded.count / 64 + 1)
        var index = 0
        while index < encoded.count {
            let end = min(index + 64, encoded.count)
            out += encoded[index..<end]
            out.append(0x0a)
            index = end
        }
        out += Array("-----END \(label)-----\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var result = self
        while let last = result.last, predicate(last) { result = result.dropLast() }
        return result
    }
}
