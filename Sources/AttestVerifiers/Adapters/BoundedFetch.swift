import AttestConformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request with a deadline and a size cap, redirects refused, through URLSession's delegate callbacks.
final class BoundedFetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let limit: Int
    private let timeout: TimeInterval
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()
    private var failure: String?

    init(limit: Int, timeout: TimeInterval) {
        self.limit = limit
        self.timeout = timeout
    }

    /// The status, the headers (names lowercased) and the body.
    func perform(_ request: URLRequest) throws -> (Int, [String: String], Data) {
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
        return (status, headers, body)
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
        for (name, value) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
            headers["\(name)".lowercased()] = "\(value)"
        }
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
