import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `http://host:port`: a server speaking attest-harness's verdict protocol (`attest-harness serve`, or your own):
/// `POST <base>/v1/cases` with an exec suite document holding one case, answered by a results document.
///
/// A hostile or broken server cannot stall or flood the harness: one deadline covers connecting, sending and
/// reading (a slow drip included), answers over the size cap are cut off, redirects are not followed, and POSTs
/// are never retried. Every such failure is a harness error for that case, never a verdict.
public struct HTTPVerifier: WholeCaseVerifier {
    public let baseURL: URL
    public let timeout: TimeInterval
    public let responseLimit: Int

    public init(baseURL: URL, timeout: TimeInterval = 10, responseLimit: Int = 16 << 20) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.responseLimit = responseLimit
    }

    public var name: String { baseURL.absoluteString }

    public func startCase(_ context: CaseContext) throws -> any VerificationSession {
        throw VerifierFailure.contract("HTTP verifiers judge whole cases")
    }

    public func verdicts(for testCase: ExecSuite.ExecCase, profile: Profile) throws -> [Verdict] {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1").appendingPathComponent("cases"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = timeout
        request.httpBody = try JSONEncoder.harness.encode(ExecSuite(profile: profile, execCases: [testCase]))
        let (status, body) = try BoundedFetch(limit: responseLimit, timeout: timeout).perform(request)
        guard status == 200 else {
            let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
            throw VerifierFailure.contract("HTTP status \(status) from \(request.url!.absoluteString): \(excerpt)")
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

/// One request with a deadline and a size cap, redirects refused, through URLSession's delegate callbacks.
private final class BoundedFetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let limit: Int
    private let timeout: TimeInterval
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var status = 0
    private var body = Data()
    private var failure: String?

    init(limit: Int, timeout: TimeInterval) {
        self.limit = limit
        self.timeout = timeout
    }

    func perform(_ request: URLRequest) throws -> (Int, Data) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpMaximumConnectionsPerHost = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        if finished.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            throw VerifierFailure.contract("no complete response within \(timeout) s")
        }
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw VerifierFailure.contract(failure) }
        return (status, body)
    }

    private func fail(_ task: URLSessionTask, _ reason: String) {
        lock.lock()
        if failure == nil { failure = reason }
        lock.unlock()
        task.cancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock()
        status = (response as? HTTPURLResponse)?.statusCode ?? 0
        lock.unlock()
        if response.expectedContentLength > Int64(limit) {
            fail(dataTask, "the response declares \(response.expectedContentLength) bytes, over the \(limit)-byte limit")
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        let over = body.count + data.count > limit
        if !over { body.append(data) }
        lock.unlock()
        if over { fail(dataTask, "the response is larger than the \(limit)-byte limit") }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)  // the redirect response itself is returned, and its status is not 200
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            lock.lock()
            if failure == nil { failure = "the request failed: \(error.localizedDescription)" }
            lock.unlock()
        }
        finished.signal()
    }
}
