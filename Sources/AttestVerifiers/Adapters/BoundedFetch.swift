import AttestConformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request with a deadline and a size cap, redirects refused, through URLSession's delegate callbacks; awaited
/// without holding a thread, so many can be in flight at once.
///
/// `@unchecked Sendable`: URLSession calls the delegate on its own queue, so this must be a class; its mutable
/// state is touched only under `lock`.
final class BoundedFetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let limit: Int
    private let timeout: TimeInterval
    private let lock = NSLock()
    private let finished = Completion<Void>()
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()
    private var failure: String?

    init(limit: Int, timeout: TimeInterval) {
        self.limit = limit
        self.timeout = timeout
    }

    /// The status, the headers (names lowercased) and the body.
    func perform(_ request: URLRequest) async throws -> (Int, [String: String], Data) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpMaximumConnectionsPerHost = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        let completed = await waitForCompletion(finished, seconds: timeout + 1) { [self] in
            task.cancel()
            await finished.deliver(())
        }
        if completed == nil { throw VerifierFailure.contract("no complete response within \(timeout) s") }
        return try lock.withLock {
            if let failure { throw VerifierFailure.contract(failure) }
            return (status, headers, body)
        }
    }

    private func fail(_ task: URLSessionTask, _ reason: String) {
        lock.withLock { if failure == nil { failure = reason } }
        task.cancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.withLock {
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            for (name, value) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
                headers["\(name)".lowercased()] = "\(value)"
            }
        }
        if response.expectedContentLength > Int64(limit) {
            fail(dataTask, "the response declares \(response.expectedContentLength) bytes, over the \(limit)-byte limit")
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock {
            let over = body.count + data.count > limit
            if !over { body.append(data) }
            return over
        }
        if over { fail(dataTask, "the response is larger than the \(limit)-byte limit") }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)  // the redirect response itself is returned, and its status is not 200
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            lock.withLock { if failure == nil { failure = "the request failed: \(error.localizedDescription)" } }
        }
        finished.deliverSoon(())
    }
}
