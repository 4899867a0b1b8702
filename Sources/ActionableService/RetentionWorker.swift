import ActionableCore
public import ActionableStore
public import CoreMetrics
public import Foundation
public import Logging

/// Deletes what the retention lets go (`PurgeCutoff`): delivered and dead responses and read
/// or expired badge entries older than ``retention``, never a pending response.
///
/// It works in batches of ``batchSize`` rows, each batch a short transaction of its own, so an
/// accept waits for one batch at most and a kill between two batches leaves every row whole or
/// gone. Several instances may purge the same database at once.
public struct RetentionWorker: Sendable {
    /// The store purged.
    public let store: any ResponseAdministration
    /// How long rows are kept.
    public let retention: Duration
    /// How long an unread notification counts on a badge; badge entries are kept at least so long.
    public let badgeLifetime: Duration
    /// The most rows of each table one batch deletes.
    public let batchSize: Int
    public let logger: Logger
    /// Where the purge counter goes (`actionable_purged_total{table}`); none when `nil`.
    public var metricsFactory: (any MetricsFactory)?

    /// A worker over `store`.
    public init(store: any ResponseAdministration, retention: Duration, badgeLifetime: Duration, batchSize: Int = 500, logger: Logger) {
        self.store = store
        self.retention = retention
        self.badgeLifetime = badgeLifetime
        self.batchSize = batchSize
        self.logger = logger
    }

    /// How often ``run()`` purges: every minute, or every quarter of a shorter retention (at
    /// least every second).
    public var interval: Duration { min(.seconds(60), max(.seconds(1), retention / 4)) }

    /// Deletes everything the cutoff at `now` lets go, one batch after another; returns how
    /// many rows went. Stops between two batches when the task is cancelled.
    @discardableResult
    public func purgeAll(now: Date = Date()) async throws -> PurgeCount {
        let cutoff = PurgeCutoff(retention: retention.timeInterval, badgeLifetime: badgeLifetime.timeInterval, now: now)
        var total = PurgeCount()
        while !Task.isCancelled {
            let batch = try await store.purge(cutoff, limit: batchSize)
            total = total + batch
            if let metricsFactory {
                Counter(label: "actionable_purged_total", dimensions: [("table", "action_responses")], factory: metricsFactory)
                    .increment(by: batch.responses)
                Counter(label: "actionable_purged_total", dimensions: [("table", "badge_entries")], factory: metricsFactory)
                    .increment(by: batch.badgeEntries)
                Counter(label: "actionable_purged_total", dimensions: [("table", "devices")], factory: metricsFactory)
                    .increment(by: batch.devices)
                Counter(label: "actionable_purged_total", dimensions: [("table", "notifications")], factory: metricsFactory)
                    .increment(by: batch.notifications)
            }
            if !batch.filled(batchSize) { break }
            if total == batch {
                logger.info(
                    """
                    retention purge under way: the first batch deleted \(batch.responses) responses and \
                    \(batch.badgeEntries) badge entries; more follow
                    """)
            }
        }
        return total
    }

    /// Purges every ``interval`` until cancelled; does nothing when the retention is zero
    /// (keep everything). A failed purge is logged and tried again at the next interval.
    public func run() async {
        guard retention > .zero else {
            logger.info("retention 0: delivered and dead responses and badge entries are kept for good")
            return
        }
        logger.info(
            "retention: delivered and dead responses and read or expired badge entries older than \(Self.describe(retention)) are deleted")
        while !Task.isCancelled {
            do {
                let purged = try await purgeAll()
                if purged != PurgeCount() {
                    logger.info(
                        """
                        retention deleted \(purged.responses) responses, \(purged.badgeEntries) badge entries, \(purged.devices) \
                        unregistered devices and \(purged.notifications) sent notifications
                        """,
                        metadata: ["retention": "\(retention)"])
                }
            } catch is CancellationError {
                return
            } catch {
                logger.error("retention purge failed; trying again later", metadata: ["error": "\(error)"])
            }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }

    /// `duration` as the command line writes it: 30d, 12h, 90m or 45s.
    static func describe(_ duration: Duration) -> String {
        let seconds = Int(duration.timeInterval.rounded())
        for (unit, size) in [("d", 86400), ("h", 3600), ("m", 60)] where seconds % size == 0 { return "\(seconds / size)\(unit)" }
        return "\(seconds)s"
    }
}
