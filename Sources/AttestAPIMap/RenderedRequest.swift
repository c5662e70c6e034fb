import Foundation

/// A request written from a map, ready to send or to show.
public struct RenderedRequest: Sendable {
    public var method: String
    /// Path and query, starting with `/`.
    public var target: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    /// The request as a `curl` command line against `baseURL`, the values of `secretHeaders` (lowercased names)
    /// replaced by `$NAME`-style placeholders, so it can be pasted into a ticket.
    public func curl(baseURL: URL, secretHeaders: Set<String>) -> String {
        func quoted(_ text: String) -> String {
            "'" + (text.utf8.contains(0x27) ? text.replacingOccurrences(of: "'", with: "'\\''") : text) + "'"
        }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var parts = ["curl", "-X", method, quoted(base + target)]
        for (name, value) in headers {
            parts += ["-H", quoted("\(name): " + (secretHeaders.contains(name.lowercased()) ? "<redacted>" : value))]
        }
        if !body.isEmpty {
            let text = String(validating: body, as: UTF8.self) ?? "<\(body.count) bytes>"
            parts += ["--data-binary", quoted(text.count > 4096 ? String(text.prefix(4096)) + "..." : text)]
        }
        return parts.joined(separator: " ")
    }
}

extension RequestMap {
    /// The request these templates write with `values`; `common` are the map's headers for every request and
    /// `stepHeaders` the step's `header.*` inputs (sent when `stepHeaders` is set).
    public func render(_ values: any TemplateValues, common: [String: Template], stepHeaders inputs: [(String, [UInt8])],
                       at pointer: String) throws -> RenderedRequest {
        guard let method = try method.renderText(values, at: pointer + "/method"), !method.isEmpty,
              method.utf8.allSatisfy({ (65...90).contains($0) }) else {
            throw APIMapError(pointer + "/method", "the method is not an upper-case HTTP method")
        }
        let target = try path.render(values, at: pointer + "/path")
        var headers: [(name: String, value: String)] = []
        for (name, template) in common.merging(self.headers, uniquingKeysWith: { _, own in own }).sorted(by: { $0.key < $1.key }) {
            if let value = try template.renderText(values, at: pointer + "/headers/" + escape(name)) { headers.append((name, value)) }
        }
        if stepHeaders {
            for (name, value) in inputs where !headers.contains(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
                headers.append((name, String(decoding: value, as: UTF8.self)))
            }
        }
        var body: [UInt8] = []
        func contentType(_ type: String) {
            if !headers.contains(where: { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
                headers.append(("Content-Type", type))
            }
        }
        switch self.body {
        case .json(let template):
            body = Array((try template.render(values, at: pointer + "/json") ?? .null).serialized)
            contentType("application/json")
        case .form(let fields):
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            body = Array(try fields.sorted { $0.key < $1.key }.compactMap { name, template -> String? in
                guard let value = try template.renderText(values, at: pointer + "/form/" + escape(name)) else { return nil }
                return (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                    + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            }.joined(separator: "&").utf8)
            contentType("application/x-www-form-urlencoded")
        case .raw(let template):
            if case .value(let expression) = template {
                body = try expression.bytes(values, at: pointer + "/body") ?? []
            } else {
                body = Array((try template.render(values, at: pointer + "/body") ?? .null).serialized)
            }
        case nil: break
        }
        return RenderedRequest(method: method, target: target, headers: headers, body: body)
    }
}
