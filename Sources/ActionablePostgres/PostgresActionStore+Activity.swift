public import ActionableStore

extension PostgresActionStore {
    /// One transaction; the counts in one order (minute, series, subject), so that two instances
    /// adding to the same rows at once wait for each other instead of deadlocking.
    public func recordActivity(_ counts: [ActivityCount], forgetBefore: ActivityMinute?) async throws {
        let ordered = counts.sorted { ($0.minute, $0.series.rawValue, $0.subject) < ($1.minute, $1.series.rawValue, $1.subject) }
        try await transaction { connection, logger in
            if let forgetBefore { try await Self.run(ActivityTable.forget(.postgres), [.integer(Int(forgetBefore.value))], connection, logger) }
            for count in ordered {
                try await Self.run(
                    ActivityTable.add(.postgres),
                    [.integer(Int(count.minute.value)), .text(count.series.rawValue), .text(count.subject), .integer(Int(count.count))],
                    connection, logger)
            }
        }
    }

    public func activity(
        _ series: [ActivitySeries], from: ActivityMinute, to: ActivityMinute, byMinute: Bool
    ) async throws -> [ActivityCount] {
        guard !series.isEmpty else { return [] }
        let rows = try await transaction { connection, logger in
            try await Self.rows(
                ActivityTable.select(.postgres, series: series, byMinute: byMinute), [.integer(Int(from.value)), .integer(Int(to.value))],
                connection, logger)
        }
        return try rows.compactMap { row in
            guard let kind = ActivitySeries(rawValue: try row.string("series")) else { return nil }
            return ActivityCount(
                minute: ActivityMinute(Int64(try row.int("minute"))), series: kind, subject: try row.string("subject"),
                count: Int64(try row.int("count")))
        }
    }
}
