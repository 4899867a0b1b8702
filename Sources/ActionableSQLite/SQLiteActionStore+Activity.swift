public import ActionableStore
import GRDB

extension SQLiteActionStore {
    public func recordActivity(_ counts: [ActivityCount], forgetBefore: ActivityMinute?) async throws {
        try await pool.write { db in
            if let forgetBefore { try db.execute(sql: ActivityTable.forget(.sqlite), arguments: [forgetBefore.value]) }
            let add = try db.cachedStatement(sql: ActivityTable.add(.sqlite))
            for count in counts {
                try add.execute(arguments: [count.minute.value, count.series.rawValue, count.subject, count.count])
            }
        }
    }

    public func activity(
        _ series: [ActivitySeries], from: ActivityMinute, to: ActivityMinute, byMinute: Bool
    ) async throws -> [ActivityCount] {
        guard !series.isEmpty else { return [] }
        return try await pool.read { db in
            try Row.fetchAll(db, sql: ActivityTable.select(.sqlite, series: series, byMinute: byMinute), arguments: [from.value, to.value])
                .compactMap { row in
                    guard let kind = ActivitySeries(rawValue: row["series"]) else { return nil }
                    return ActivityCount(minute: ActivityMinute(row["minute"] as Int64), series: kind, subject: row["subject"], count: row["count"])
                }
        }
    }
}
