public import ActionableStore
public import Foundation
import PostgresNIO

/// What operators ask of PostgreSQL: pages of deliveries, and responses queued again. A
/// re-queue is one conditional `UPDATE` (`status <> 'pending'`), so instances queueing the same
/// response at once queue it once, and the claim's lease keeps two instances from delivering it
/// in parallel.
extension PostgresActionStore {
    public func responses(matching filter: ResponseFilter, after cursor: ResponseCursor?, limit: Int) async throws -> ResponsePage {
        let (sql, values) = ActionTable.page(filter, after: cursor, limit: limit, .postgres)
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: try Self.sqlBindings(values)), logger: logger)
        var items: [AcceptedResponse] = []
        for try await row in rows { items.append(try Self.decode(row)) }
        let more = items.count > limit
        items = Array(items.prefix(limit))
        return ResponsePage(items: items, next: more ? items.last.map { ResponseCursor(receivedAt: $0.receivedAt, id: $0.id) } : nil)
    }

    public func requeue(id: String, at: Date) async throws -> RequeueResult {
        let logger = self.logger
        let queued = try await client.withTransaction(logger: logger) { connection in
            let values: [ActionTable.Value] = [.real(at.timeIntervalSince1970), .text(id)]
            // The row is locked first, and the re-queue reads the state after any re-queue that
            // held it committed: a routed response's state is in other rows (its deliveries), which
            // a conditional UPDATE's re-check after a wait would not read again.
            try await connection.query(
                PostgresQuery(unsafeSQL: Self.lockOneSQL, binds: try Self.sqlBindings([.text(id)])), logger: logger)
            let updated = try await connection.query(
                PostgresQuery(unsafeSQL: ActionTable.requeueOne(.postgres) + " RETURNING id", binds: try Self.sqlBindings(values)),
                logger: logger)
            var queued = false
            for try await _ in updated { queued = true }
            guard queued else { return false }
            for statement in ActionTable.requeueDeliveries(count: 1, .postgres) {
                try await connection.query(PostgresQuery(unsafeSQL: statement, binds: try Self.sqlBindings(values)), logger: logger)
            }
            try await self.notifyOutbox(connection, logger)
            return true
        }
        if queued { return .queued }
        let status = try await client.query(
            PostgresQuery(unsafeSQL: ActionTable.statusOf(.postgres), binds: try Self.sqlBindings([.text(id)])), logger: logger)
        for try await _ in status { return .alreadyPending }
        return .notFound
    }

    /// The responses are locked in id order, read again once locked, and exactly those are queued
    /// again by id. The second read is a statement of its own, so it sees what a re-queue that
    /// held a row committed meanwhile (the lock's own read decides with the state as it was when
    /// it started, for the deliveries, before it waited); once locked, nothing else changes a
    /// response that is not pending (the outbox only writes pending deliveries, a single re-queue
    /// locks the row first, retention skips locked rows), and two re-queues lock in one order.
    public func requeue(matching filter: ResponseFilter, at: Date) async throws -> Int {
        let (lock, values) = ActionTable.requeueable(filter, lock: "FOR UPDATE OF action_responses", .postgres)
        let (read, _) = ActionTable.requeueable(filter, .postgres)
        let lockedOnly = "SELECT id FROM (\(read)) AS requeueable WHERE id = ANY($\(values.count + 1)::text[]) ORDER BY id"
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            var locked: [String] = []
            let rows = try await connection.query(PostgresQuery(unsafeSQL: lock, binds: try Self.sqlBindings(values)), logger: logger)
            for try await id in rows.decode(String.self) { locked.append(id) }
            guard !locked.isEmpty else { return 0 }
            var binds = try Self.sqlBindings(values)
            binds.append(locked)
            var ids: [String] = []
            for try await id in try await connection.query(PostgresQuery(unsafeSQL: lockedOnly, binds: binds), logger: logger).decode(String.self) {
                ids.append(id)
            }
            for start in stride(from: 0, to: ids.count, by: ActionTable.requeueChunk) {
                let chunk = ids[start..<min(ids.count, start + ActionTable.requeueChunk)]
                let binds = try Self.sqlBindings([.real(at.timeIntervalSince1970)] + chunk.map { .text($0) })
                try await connection.query(PostgresQuery(unsafeSQL: ActionTable.requeue(count: chunk.count, .postgres), binds: binds), logger: logger)
                for statement in ActionTable.requeueDeliveries(count: chunk.count, .postgres) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement, binds: binds), logger: logger)
                }
            }
            if !ids.isEmpty { try await self.notifyOutbox(connection, logger) }
            return ids.count
        }
    }

    /// Locks one response's row; parameter 1 is its id.
    private static let lockOneSQL = "SELECT id FROM action_responses WHERE id = $1 FOR UPDATE"

    public func responseCounts() async throws -> [ResponseStatus: Int] {
        var stored: [(String, Int)] = []
        for try await row in try await client.query(PostgresQuery(unsafeSQL: ResponseStates.countsByStoredStatus), logger: logger)
            .decode((String, Int).self)
        {
            stored.append(row)
        }
        func count(_ sql: String) async throws -> Int {
            for try await value in try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) { return value }
            return 0
        }
        return ResponseStates.counts(
            stored: stored, routedPending: try await count(ResponseStates.routedPendingCount),
            routedDead: try await count(ResponseStates.routedDeadCount))
    }

    /// One batch of each table, each its own statement (and transaction). `SKIP LOCKED`: two
    /// instances purging at once take different rows, and a row an operator is queueing again
    /// is skipped.
    public func purge(_ cutoff: PurgeCutoff, limit: Int) async throws -> PurgeCount {
        // Routed rows an older instance wrote a status into during a rolling upgrade.
        try await client.query(PostgresQuery(unsafeSQL: ResponseStates.normalize), logger: logger)
        let responses = try await client.query(
            PostgresQuery(
                unsafeSQL: ActionTable.purge(limit: limit, lock: "FOR UPDATE SKIP LOCKED", .postgres) + " RETURNING id",
                binds: try Self.sqlBindings([
                    .real(cutoff.responsesBefore.timeIntervalSince1970), .real(cutoff.now.timeIntervalSince1970),
                ])),
            logger: logger)
        var count = PurgeCount()
        for try await _ in responses { count.responses += 1 }
        let entries = try await client.query(
            PostgresQuery(
                unsafeSQL: BadgeTable.purge(limit: limit, lock: "FOR UPDATE SKIP LOCKED", .postgres) + " RETURNING notification_id",
                binds: try Self.sqlBindings([.real(cutoff.badgeEntriesBefore.timeIntervalSince1970)])),
            logger: logger)
        for try await _ in entries { count.badgeEntries += 1 }
        let devices = try await client.query(
            PostgresQuery(
                unsafeSQL: DeviceTable.purge(limit: limit, lock: "FOR UPDATE SKIP LOCKED", .postgres) + " RETURNING token",
                binds: try Self.sqlBindings([.real(cutoff.responsesBefore.timeIntervalSince1970)])),
            logger: logger)
        for try await _ in devices { count.devices += 1 }
        try await client.query(
            PostgresQuery(
                unsafeSQL: SendTable.purgeSends(limit: limit, .postgres),
                binds: try Self.sqlBindings([.real(cutoff.notificationsBefore.timeIntervalSince1970)])),
            logger: logger)
        let notifications = try await client.query(
            PostgresQuery(
                unsafeSQL: SendTable.purgeNotifications(limit: limit, lock: "FOR UPDATE SKIP LOCKED", .postgres) + " RETURNING notification_id",
                binds: try Self.sqlBindings([.real(cutoff.notificationsBefore.timeIntervalSince1970)])),
            logger: logger)
        for try await _ in notifications { count.notifications += 1 }
        return count
    }

    static func sqlBindings(_ values: [SQLValue]) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values {
            switch value {
            case .text(let text): try bindings.append(text, context: .default)
            case .real(let number): try bindings.append(number, context: .default)
            case .integer(let number): try bindings.append(number, context: .default)
            case .null: bindings.appendNull()
            }
        }
        return bindings
    }
}
