import AttestConformance
import AttestCrypto
import AttestHTTP
import Foundation

/// `http://host:port`: a server speaking attest-harness's verdict protocol (`attest-harness serve`, or your own):
/// `POST <base>/v1/cases` with an exec suite document holding one case, answered by a results document.
///
/// A hostile or broken server cannot stall or flood the harness: one deadline covers connecting, sending and
/// reading (a slow drip included), answers over the size cap are cut off, redirects are not followed, and POSTs
/// are never retried. Every such failure is a harness error for that case, never a verdict.
public struct HTTPVerifier: AttestationVerifier {
    public let baseURL: URL
    public let timeout: TimeInterval
    public let responseLimit: Int

    public init(baseURL: URL, timeout: TimeInterval = 10, responseLimit: Int = 16 << 20) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.responseLimit = responseLimit
    }

    public var name: String { baseURL.absoluteString }

    /// The server must answer at all: a refused connection or an unknown host ends the run before any case.
    public func prepare() async throws {
        let url = baseURL.appendingPathComponent("v1").appendingPathComponent("health")
        do {
            _ = try await HTTPClient(timeout: timeout, responseLimit: 1 << 16).send(HTTPRequest(method: "GET", url: url))
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
        } catch {
            throw VerifierFailure.contract("\(error)")
        }
        let status = response.status, body = Data(response.body)
        guard status == 200 else {
            let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
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
package enum WireSuite {
    package static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    package static func body(profile: Profile, testCase: VerifierCase) throws -> [UInt8] {
        let suite = ExecSuite(profile: profile, requests: [])
        let encoder = encoder
        let profileJSON = try profiles.value(for: suite.profile) { Array(try encoder.encode(suite.profile)) }
        return Array(#"{"cases":["#.utf8) + Array(try encoder.encode(testCase)) + Array(#"],"format":"#.utf8)
            + Array(try encoder.encode(suite.format)) + Array(#","profile":"#.utf8) + profileJSON + [UInt8(ascii: "}")]
    }

    /// Encoded profiles by value: a run has one, a library user running many servers a few.
    private static let profiles = Memo<ExecSuite.Profile, [UInt8]>(capacity: 16, size: { _, json in 2 * json.count })
}
