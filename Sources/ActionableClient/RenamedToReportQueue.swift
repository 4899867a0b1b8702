public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

// The names the app's report queue had before the glossary (docs/glossary.md), where the
// *outbox* is the server's queue only. Kept for one release, deprecated, each forwarding to its
// new name.

/// The name ``ReportQueueError`` had before.
@available(*, deprecated, renamed: "ReportQueueError")
public typealias OutboxError = ReportQueueError

extension ActionReporter {
    /// The name ``reportQueue`` had before.
    @available(*, deprecated, renamed: "reportQueue")
    public nonisolated var outbox: URL { reportQueue }

    /// The name ``init(endpoint:reportQueue:options:session:)`` had before.
    @available(*, deprecated, renamed: "init(endpoint:reportQueue:options:session:)")
    public init(endpoint: URL, outbox: URL, options: Options = Options(), session: URLSession? = nil) {
        self.init(endpoint: endpoint, reportQueue: outbox, options: options, session: session)
    }
}
