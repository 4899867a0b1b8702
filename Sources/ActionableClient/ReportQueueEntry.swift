public import Foundation

/// One report as the report queue keeps it: the report, and how its delivery went so far.
struct ReportQueueEntry: Codable, Hashable, Sendable {
    /// The file format's name; a file without it is not a report queue entry.
    static let currentFormat = "actionable-report/1"

    var format: String = ReportQueueEntry.currentFormat
    var report: ActionReport
    var createdAt: Date
    var attempts: Int = 0
    var nextAttempt: Date?
    /// The time the server asked for with `Retry-After`; `flush()` waits for it, and for
    /// nothing else (the client's own backoff only spaces automatic retries).
    var retryAfter: Date?
    var lastError: String?

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

/// A report the report queue holds, as ``ActionReporter/pendingReports()`` lists them.
public struct PendingReport: Hashable, Sendable {
    /// The report's name in the report queue.
    public var id: String
    /// The report.
    public var report: ActionReport
    /// When it was saved.
    public var savedAt: Date
    /// How many tries failed so far.
    public var attempts: Int
    /// When ``ActionReporter/flush()`` sends it next (nil: at once).
    public var nextAttempt: Date?
    /// Why the last try failed.
    public var lastError: String?
}
