public import Foundation

extension ActionReporter {
    /// How a reporter sends, retries and logs.
    public struct Options: Sendable {
        /// The app's own login token, for servers run with `--app-jwt-key`: called before each
        /// send; `nil` sends no `Authorization` header. A 401 about this token keeps the report,
        /// so that it goes out once the app has signed in again.
        public var bearerToken: (@Sendable () async throws -> String?)?
        /// When a kept report is tried again (a server's `Retry-After` wins).
        public var retrySchedule: RetrySchedule
        /// How long one request may take.
        public var requestTimeout: TimeInterval
        /// Whether each report is flushed to disk (`fsync`) as it is written to the report queue,
        /// before ``ActionReporter/report(_:)`` goes on: on by default, so that a report survives a
        /// power loss as well as a killed app.
        public var synchronousWrites: Bool
        /// Where the reporter writes its log lines (a corrupt file moved aside, a report refused
        /// for good); standard error by default.
        public var log: @Sendable (String) -> Void
        /// The clock: the current time.
        public var now: @Sendable () -> Date
        /// A random number in `0..<1` for the jitter.
        public var random: @Sendable () -> Double

        public init(
            bearerToken: (@Sendable () async throws -> String?)? = nil, retrySchedule: RetrySchedule = RetrySchedule(),
            requestTimeout: TimeInterval = 15, synchronousWrites: Bool = true,
            log: @escaping @Sendable (String) -> Void = ActionReporter.standardErrorLog,
            now: @escaping @Sendable () -> Date = { Date() }, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
        ) {
            self.bearerToken = bearerToken
            self.retrySchedule = retrySchedule
            self.requestTimeout = requestTimeout
            self.synchronousWrites = synchronousWrites
            self.log = log
            self.now = now
            self.random = random
        }
    }

    /// Writes `line` to standard error, prefixed with `ActionableClient:`.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("ActionableClient: \(line)\n".utf8))
    }
}
