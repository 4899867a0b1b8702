public import Foundation
import Synchronization

/// The counts of this instance not yet in storage: taps, attempts and endpoints' latencies are
/// counted here in memory (a lock and a dictionary entry each, nothing on the way to storage)
/// and added to storage's per-minute counts by ``flush(into:forgetBefore:)``, every few seconds
/// and at shutdown. A flush that fails keeps its counts for the next one. A process killed
/// outright loses what it counted since its last flush: these are the charts' numbers, never a
/// tap (taps are stored before they are answered).
public final class ActivityLog: Sendable {
    private struct Key: Hashable {
        var minute: ActivityMinute
        var series: ActivitySeries
        var subject: String
    }

    private let counts = Mutex<[Key: Int64]>([:])

    /// The upper bounds, in seconds, of the buckets an endpoint's attempt is counted in by how
    /// long it took; the last bucket takes everything longer.
    public static let latencyBuckets: [TimeInterval] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, .infinity]

    /// An empty log.
    public init() {}

    /// Counts `count` more of `series` for `subject` in the minute of `at`.
    public func count(_ series: ActivitySeries, _ subject: String = "", by count: Int64 = 1, at: Date = Date()) {
        let key = Key(minute: ActivityMinute(at), series: series, subject: subject)
        counts.withLock { $0[key, default: 0] += count }
    }

    /// Counts an attempt of endpoint `endpoint` that took `seconds`, in its latency bucket.
    public func latency(endpoint: String, seconds: TimeInterval, at: Date = Date()) {
        let bucket = Self.latencyBuckets.firstIndex { seconds <= $0 } ?? Self.latencyBuckets.count - 1
        count(.endpointLatency, "\(endpoint)|\(bucket)", at: at)
    }

    /// Takes every count made so far (leaving none).
    public func drain() -> [ActivityCount] {
        let taken = counts.withLock { counts in
            defer { counts = [:] }
            return counts
        }
        return taken.map { ActivityCount(minute: $0.key.minute, series: $0.key.series, subject: $0.key.subject, count: $0.value) }
            .sorted { ($0.minute, $0.series.rawValue, $0.subject) < ($1.minute, $1.series.rawValue, $1.subject) }
    }

    /// Adds `taken` back, for a flush that did not reach storage.
    public func restore(_ taken: [ActivityCount]) {
        counts.withLock { counts in
            for count in taken { counts[Key(minute: count.minute, series: count.series, subject: count.subject), default: 0] += count.count }
        }
    }

    /// Adds what was counted to storage (and forgets its minutes before `forgetBefore`); on
    /// failure, keeps the counts for the next flush and rethrows.
    public func flush(into store: any ActivityStore, forgetBefore: ActivityMinute?) async throws {
        let taken = drain()
        guard !taken.isEmpty || forgetBefore != nil else { return }
        do {
            try await store.recordActivity(taken, forgetBefore: forgetBefore)
        } catch {
            restore(taken)
            throw error
        }
    }
}

extension ActivityLog {
    /// The p-quantile (`0.5`, `0.99`) of latencies counted in `buckets` (counts by bucket index),
    /// as the upper bound of the bucket it falls in (`infinity`: longer than the last bound);
    /// `nil` without a count.
    public static func quantile(_ p: Double, of buckets: [Int: Int64]) -> TimeInterval? {
        let total = buckets.filter { latencyBuckets.indices.contains($0.key) }.values.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = max(Int64((Double(total) * p).rounded(.up)), 1)
        var seen: Int64 = 0
        for index in latencyBuckets.indices {
            seen += buckets[index] ?? 0
            if seen >= rank { return latencyBuckets[index] }
        }
        return .infinity
    }
}
