public import Foundation

/// What the admin page's charts are drawn from: counts per minute that every instance adds to
/// in storage (so the charts show the whole deployment), kept within the retention.
public protocol ActivityStore: Sendable {
    /// Adds each count to what storage holds for its minute, series and subject (two instances
    /// adding to one minute add up), and forgets the minutes before `forgetBefore` (the
    /// retention; `nil`: keep them).
    func recordActivity(_ counts: [ActivityCount], forgetBefore: ActivityMinute?) async throws

    /// The counts of `series` from minute `from` to minute `to`, both included: one per minute,
    /// series and subject (`byMinute`), or summed over the range, one per series and subject
    /// (their ``ActivityCount/minute`` is then `from`).
    func activity(_ series: [ActivitySeries], from: ActivityMinute, to: ActivityMinute, byMinute: Bool) async throws -> [ActivityCount]
}

/// A minute, as the number of whole minutes since 1970 (UTC).
public struct ActivityMinute: Hashable, Comparable, Sendable {
    /// Minutes since 1970-01-01T00:00:00Z.
    public var value: Int64

    /// The minute `value` minutes after 1970.
    public init(_ value: Int64) { self.value = value }

    /// The minute `date` falls in.
    public init(_ date: Date) { value = Int64((date.timeIntervalSince1970 / 60).rounded(.down)) }

    /// When the minute starts.
    public var start: Date { Date(timeIntervalSince1970: TimeInterval(value) * 60) }

    /// The minute `minutes` later (earlier when negative).
    public func advanced(by minutes: Int64) -> ActivityMinute { ActivityMinute(value + minutes) }

    public static func < (lhs: ActivityMinute, rhs: ActivityMinute) -> Bool { lhs.value < rhs.value }
}

/// What is counted.
public enum ActivitySeries: String, Hashable, Sendable, CaseIterable {
    /// Taps accepted (subject: empty).
    case accepted
    /// Attempts delivered, retried and dead, by way out (subject: `handler`, `webhook`, `apns`, `fcm`).
    case delivered, retried, dead
    /// An endpoint's attempts that delivered, and that did not (subject: the endpoint's id).
    case endpointDelivered = "endpoint-delivered"
    case endpointFailed = "endpoint-failed"
    /// An endpoint's attempts by how long they took (subject: `ID|BUCKET`, the bucket's index in
    /// ``ActivityLog/latencyBuckets``).
    case endpointLatency = "endpoint-latency"
    /// Taps accepted by category and action (subject: `category.action`, Apple's default and
    /// dismiss actions included).
    case tap
}

/// One count of a series in a minute.
public struct ActivityCount: Hashable, Sendable {
    public var minute: ActivityMinute
    public var series: ActivitySeries
    /// What it counts within the series (an endpoint, `category.action`); empty for none.
    public var subject: String
    public var count: Int64

    public init(minute: ActivityMinute, series: ActivitySeries, subject: String = "", count: Int64) {
        self.minute = minute
        self.series = series
        self.subject = subject
        self.count = count
    }
}

/// The `activity_minutes` table as every SQL driver stores it.
package enum ActivityTable {
    /// Adds a count; parameters: minute, series, subject, count.
    package static func add(_ dialect: SQLDialect) -> String {
        let (minute, series, subject, count) = (dialect.parameter(1), dialect.parameter(2), dialect.parameter(3), dialect.parameter(4))
        return """
            INSERT INTO activity_minutes (minute, series, subject, count) VALUES (\(minute), \(series), \(subject), \(count))
            ON CONFLICT (minute, series, subject) DO UPDATE SET count = activity_minutes.count + excluded.count
            """
    }

    /// Forgets the minutes before parameter 1.
    package static func forget(_ dialect: SQLDialect) -> String {
        "DELETE FROM activity_minutes WHERE minute < \(dialect.parameter(1))"
    }

    /// Columns minute, series, subject, count (integers but series and subject); parameters: from, to.
    /// The series are the enum's own words, never a caller's text.
    package static func select(_ dialect: SQLDialect, series: [ActivitySeries], byMinute: Bool) -> String {
        let names = series.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let minute = byMinute ? "minute" : "CAST(\(dialect.parameter(1)) AS BIGINT)"
        let groups = byMinute ? "minute, series, subject" : "series, subject"
        return """
            SELECT \(minute) AS minute, series, subject, CAST(SUM(count) AS BIGINT) AS count FROM activity_minutes
            WHERE minute >= \(dialect.parameter(1)) AND minute <= \(dialect.parameter(2)) AND series IN (\(names))
            GROUP BY \(groups)
            """
    }
}
