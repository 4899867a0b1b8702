import ActionableWire
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request and its answer, through `URLSession`'s completion-handler API (available from
/// iOS 7 and macOS 10.9, unlike the `async` one).
enum HTTPExchange {
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        /// A header's value, whatever the case of its name.
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Sends `request`; cancelling the calling task cancels the request.
    static func send(_ request: URLRequest, on session: URLSession) async throws -> Answer {
        let running = RunningTask()
        return try await withTaskCancellationHandler {
            try await exchange(request, on: session, running: running)
        } onCancel: {
            running.cancel()
        }
    }

    private static func exchange(_ request: URLRequest, on session: URLSession, running: RunningTask) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                    return
                }
                guard let response = response as? HTTPURLResponse else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                    return
                }
                var headers: [String: String] = [:]
                for case (let name as String, let value as String) in response.allHeaderFields { headers[name] = value }
                continuation.resume(returning: Answer(status: response.statusCode, headers: headers, body: data ?? Data()))
            }
            running.start(task)
        }
    }

    /// The data task of one exchange, cancelled when its caller is (before or after it starts).
    private final class RunningTask: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var cancelled = false

        func start(_ task: URLSessionDataTask) {
            lock.lock()
            self.task = task
            let cancelled = self.cancelled
            lock.unlock()
            task.resume()
            if cancelled { task.cancel() }
        }

        func cancel() {
            lock.lock()
            cancelled = true
            let task = self.task
            lock.unlock()
            task?.cancel()
        }
    }

    /// A `Retry-After` value (seconds, or an HTTP date) as a date after `now`.
    static func retryAfter(_ value: String?, now: Date) -> Date? {
        value.flatMap { RetryAfter.delay($0, now: now) }.map { now.addingTimeInterval($0) }
    }
}
