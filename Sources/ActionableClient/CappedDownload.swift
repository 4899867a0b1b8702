import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET whose body may not pass a size: the download stops the moment it would, so a
/// hostile or broken server cannot make the app (or a notification service extension, which
/// iOS ends at a few tens of megabytes) hold more than `limit` bytes. Redirects are refused
/// (the 3xx is the answer), as for every request of this library.
final class CappedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Failure: Error, Equatable {
        /// The body passed `limit` bytes.
        case tooLarge(limit: Int)
    }

    private let limit: Int
    private let lock = NSLock()
    private var body = Data()
    private var response: HTTPURLResponse?
    private var tooLarge = false
    private var continuation: CheckedContinuation<HTTPExchange.Answer, any Error>?
    private var task: URLSessionDataTask?
    private var cancelled = false
    private var expired = false

    private init(limit: Int) { self.limit = limit }

    /// Sends `request` on a session of `configuration` (its own, with this delegate) and returns
    /// the answer; throws ``Failure/tooLarge(limit:)`` past `limit` bytes, `URLError(.timedOut)`
    /// when the whole exchange (head and body) takes longer than the configuration's
    /// `timeoutIntervalForResource`, `URLError` when the exchange fails, `CancellationError` when
    /// the calling task is cancelled.
    ///
    /// The deadline is kept here too: FoundationNetworking (Linux) restarts its timeouts at each
    /// byte, so a server that trickles a byte every few seconds would hold the call for ever.
    static func get(_ request: URLRequest, configuration: URLSessionConfiguration, limit: Int) async throws -> HTTPExchange.Answer {
        let download = CappedDownload(limit: limit)
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let timeout = configuration.timeoutIntervalForResource
        if timeout.isFinite && timeout > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + min(timeout, 86_400)) { [weak download] in download?.expire() }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                download.start(session.dataTask(with: request), continuation: continuation)
            }
        } onCancel: {
            download.cancel()
        }
    }

    /// The deadline passed: the task is cancelled and the call ends with `URLError(.timedOut)`.
    private func expire() {
        lock.lock()
        expired = true
        let task = self.task
        lock.unlock()
        task?.cancel()
        finish(with: .failure(URLError(.timedOut)))
    }

    private func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<HTTPExchange.Answer, any Error>) {
        lock.lock()
        self.task = task
        self.continuation = continuation
        let cancelled = self.cancelled
        let expired = self.expired
        lock.unlock()
        if cancelled || expired {
            task.cancel()  // never resumed: cancelling ends it, and the session lets go of it
            finish(with: .failure(cancelled ? CancellationError() : URLError(.timedOut)))
        } else {
            task.resume()
        }
    }

    private func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }

    private var isExpired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return expired
    }

    private func finish(with result: Result<HTTPExchange.Answer, any Error>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(with: result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.lock()
        self.response = response as? HTTPURLResponse
        let announcedTooLarge = response.expectedContentLength > Int64(limit)
        if announcedTooLarge { tooLarge = true }
        lock.unlock()
        completionHandler(announcedTooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        if body.count + data.count > limit {
            tooLarge = true
            body = Data()
            lock.unlock()
            dataTask.cancel()
            return
        }
        body.append(data)
        lock.unlock()
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let tooLarge = self.tooLarge
        let cancelled = self.cancelled
        let response = self.response
        let body = self.body
        lock.unlock()
        if tooLarge {
            finish(with: .failure(Failure.tooLarge(limit: limit)))
        } else if self.isExpired {
            finish(with: .failure(URLError(.timedOut)))
        } else if cancelled {
            finish(with: .failure(CancellationError()))
        } else if let error {
            finish(with: .failure(error))
        } else if let response {
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in response.allHeaderFields { headers[name] = value }
            finish(with: .success(HTTPExchange.Answer(status: response.statusCode, headers: headers, body: body)))
        } else {
            finish(with: .failure(URLError(.badServerResponse)))
        }
    }
}
