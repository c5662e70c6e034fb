import AttestConformance
import AttestCrypto
import AttestHTTP
import Foundation

/// `http://host:port`: a server speaking attest-harness's verdict protocol (`attest-harness serve`, or your own):
/// `POST <base>/v1/cases` with an exec suite document holding one case, answered by a results document.
///
/// A hostile or broken server cannot stall or flood the harness: one deadline covers connecting, sending and
/// reading (a slow drip included), answers over the size cap are cut off, redirects are not followed, and POSTs
/// are never retried. Every such failure is a harness error for that case, never a verdict; an HTTP 5xx or a
/// connection closed mid-answer is the server's crash on the case, never a rejection.
public struct HTTPVerifier: AttestationVerifier {
    public let baseURL: URL
    public let timeout: TimeInterval
    public let responseLimit: Int
    /// The profile the run expects the server to judge by: a server whose health answer names another one is
    /// refused before any case (its verdicts would read like a verifier's bugs). Nil: not checked.
    public var expectedProfile: String?

    public init(baseURL: URL, timeout: TimeInterval = 10, responseLimit: Int = 16 << 20, expectedProfile: String? = nil) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.responseLimit = responseLimit
        self.expectedProfile = expectedProfile
    }

    public var name: String { baseURL.absoluteString }

    /// The server must answer at all: a refused connection or an unknown host ends the run before any case. When
    /// its health answer names the profile it judges by (`serve` does), that must be `expectedProfile`.
    public func prepare() async throws {
        let url = baseURL.appendingPathComponent("v1").appendingPathComponent("health")
        do {
            let response = try await HTTPClient(timeout: timeout, responseLimit: 1 << 16).send(HTTPRequest(method: "GET", url: url))
            struct Health: Decodable { let profile: String? }
            if let expectedProfile, response.status == 200,
               let served = (try? JSONDecoder().decode(Health.self, from: Data(response.body)))?.profile, served != expectedProfile {
                throw VerifierFailure.contract("\(baseURL.absoluteString) judges by profile \(served), this run expects \(expectedProfile); start it with serve --profile \(expectedProfile), or pass --allow-profile-mismatch")
            }
        } catch let error as HTTPClientError {
            switch error {
            case .resolve, .connect, .tls, .badURL: throw VerifierFailure.contract("\(baseURL.absoluteString): \(error)")
            default: return  // it answered something: the cases will say what
            }
        }
    }

    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        let url = baseURL.appendingPathComponent("v1").appendingPathComponent("cases")
        let request = HTTPRequest(method: "POST", url: url, headers: [("Content-Type", "application/json")],
                                  body: try WireSuite.body(profile: profile, testCase: testCase))
        let response: HTTPResponse
        do {
            // The verdict protocol is stateless per request, so connections are kept for the next case.
            var client = HTTPClient(timeout: timeout, responseLimit: responseLimit)
            client.reusesConnections = true
            response = try await client.send(request)
        } catch HTTPClientError.closed(let reason) {
            // The server dropped the connection mid-answer: it failed on the case, which is never a verdict.
            throw VerifierFailure.crash("the connection closed before a whole answer: \(reason)")
        } catch {
            throw VerifierFailure.contract("\(error)")
        }
        let status = response.status, body = Data(response.body)
        guard status == 200 else {
            let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
            if (500..<600).contains(status) {
                throw VerifierFailure.crash("HTTP status \(status) from \(url.absoluteString): \(excerpt)")
            }
            throw VerifierFailure.contract("HTTP status \(status) from \(url.absoluteString): \(excerpt)")
        }
        let results: ExecResults
        do {
            results = try JSONDecoder.harness.decode(ExecResults.self, from: body)
        } catch {
            throw VerifierFailure.contract("the response is not a results document: \(error)")
        }
        guard let verdicts = results.results.first(where: { $0.id == testCase.id })?.verdicts else {
            throw VerifierFailure.contract("the response has no entry for case \(testCase.id)")
        }
        return verdicts
    }
}

/// The request body: the exec suite document of one case as compact JSON with sorted keys (a server reads it as
/// it reads the pretty-printed file form). Every case of a run carries the same profile, so its encoding is made
/// once per profile and the document is assembled around the case's: with sorted keys and no whitespace,
/// `{"cases":[C],"format":F,"profile":P}` is exactly what encoding the whole `ExecSuite` writes
/// (`HTTPVerifierTests` compares the two).
///
/// The case itself is written here rather than by `JSONEncoder`, whose generic encoding was most of the client's
/// time per request: the same bytes (keys sorted by their UTF-8 octets, strings escaped as `JSONEncoder` escapes
/// them, ISO 8601 times, base64 inputs), which the same test checks for every case of every built-in profile and
/// for strings with quotes, controls, slashes and non-ASCII text. A string with anything but printable ASCII,
/// tab, line feed and carriage return is left to `JSONEncoder` itself.
package enum WireSuite {
    package static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    package static func body(profile: Profile, testCase: VerifierCase) throws -> [UInt8] {
        let profileJSON = try profiles.value(for: profile) {
            let encoder = encoder
            let suite = ExecSuite(profile: profile, requests: [])
            return (Array(try encoder.encode(suite.format)), Array(try encoder.encode(suite.profile)))
        }
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        out += #"{"cases":["#.utf8
        try write(testCase, into: &out)
        out += #"],"format":"#.utf8
        out += profileJSON.format
        out += #","profile":"#.utf8
        out += profileJSON.profile
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The format and profile encodings by profile: a run has one, a library user running many servers a few.
    private static let profiles = Memo<Profile, (format: [UInt8], profile: [UInt8])>(
        capacity: 16, size: { _, json in 2 * (json.format.count + json.profile.count) })

    /// `VerifierCase` as `JSONEncoder` writes it with `encoder`'s settings: keys `context`, `family`, `id`, `steps`.
    package static func write(_ testCase: VerifierCase, into out: inout [UInt8]) throws {
        out += #"{"context":{"parameters":"#.utf8
        try writeObject(testCase.context.parameters.map { ($0.key, $0.value) }, into: &out)
        out += #","time":"#.utf8
        try write(testCase.context.time, into: &out)
        out += #","trustAnchors":["#.utf8
        for (index, anchor) in testCase.context.trustAnchors.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            try write(anchor, into: &out)
        }
        out += #"]},"family":"#.utf8
        try write(testCase.family.rawValue, into: &out)
        out += #","id":"#.utf8
        try write(testCase.id, into: &out)
        out += #","steps":["#.utf8
        for (index, step) in testCase.steps.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            // `VerifierStep`: keys `inputs`, `kind`, `time` (absent when nil); inputs in base64.
            out += #"{"inputs":"#.utf8
            try writeObject(step.inputs.map { ($0.key.rawValue, Data($0.value).base64EncodedString()) }, into: &out)
            out += #","kind":"#.utf8
            try write(step.kind.rawValue, into: &out)
            if let time = step.time {
                out += #","time":"#.utf8
                try write(time, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out += "]}".utf8
    }

    /// An object of strings, its keys in the order `.sortedKeys` gives them (their UTF-8 octets compared).
    private static func writeObject(_ entries: [(String, String)], into out: inout [UInt8]) throws {
        out.append(UInt8(ascii: "{"))
        for (index, entry) in entries.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            try write(entry.0, into: &out)
            out.append(UInt8(ascii: ":"))
            try write(entry.1, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A JSON string: printable ASCII with `"` and `\` escaped, and tab, line feed and carriage return as `\t`,
    /// `\n`, `\r`; a string with anything else goes to `JSONEncoder` whole.
    private static func write(_ text: String, into out: inout [UInt8]) throws {
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }
        guard plain else {
            out += try encoder.encode(text)
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0x0a: out += #"\n"#.utf8
            case 0x0d: out += #"\r"#.utf8
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A time as `JSONEncoder`'s `.iso8601` strategy writes it.
    private static func write(_ date: Date, into out: inout [UInt8]) throws {
        try write(date.formatted(.iso8601), into: &out)
    }
}
