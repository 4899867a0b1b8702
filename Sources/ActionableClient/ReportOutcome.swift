public import Foundation

/// What became of one report.
public enum ReportOutcome: Hashable, Sendable {
    /// The server stored it (202), or had stored it before (200, `duplicate: true`): it left the report queue.
    case delivered(responseID: String, duplicate: Bool)
    /// Another answer to the same notification was stored before (409): it left the report queue.
    case answeredBefore(ServerProblem)
    /// The server refused it for good (another 4xx: a forged or expired action token, an action
    /// the catalog does not have): it left the report queue, as it can never succeed.
    case rejected(ServerProblem)
    /// Not delivered yet (408, 429, 5xx, a network error, or the app's own token missing): it
    /// stays in the report queue, and ``ActionReporter/flush()`` sends it from `nextAttempt` on.
    case kept(reason: String, nextAttempt: Date)
    /// The report queue could not be written (a full disk, a read-only directory), so the report was
    /// sent at once without it, and that send did not get a final answer: it is not kept
    /// anywhere, and is lost unless the app reports it again.
    case unsaved(reason: String)

    /// Whether the server answered for good (the report left the report queue, or never needed it).
    public var isFinal: Bool {
        switch self {
        case .kept, .unsaved: return false
        case .delivered, .answeredBefore, .rejected: return true
        }
    }
}

/// A report and what became of it, as ``ActionReporter/flush()`` returns them.
public struct ReportResult: Hashable, Sendable {
    /// The report's name in the report queue.
    public var id: String
    /// The report.
    public var report: ActionReport
    /// What became of it.
    public var outcome: ReportOutcome
}
