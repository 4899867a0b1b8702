import ActionableCore
public import ActionableStore
public import Foundation
import GRDB

/// The embedded store: SQLite through GRDB, in WAL mode with `synchronous = FULL` (a reply of
/// 202 survives power loss), schema migrations applied at open.
///
/// Accepts are group-committed: while one transaction commits, the requests that arrive wait
/// and go into the next one together, so durability costs one fsync per batch, not per request.
public final class SQLiteActionStore: ActionStore {
    let pool: DatabasePool
    let committer: GroupCommitter
    private let checkpointer: Checkpointer

    /// Opens (creating if needed) the database at `path` and migrates it; its write-ahead log
    /// is checkpointed every `checkpointInterval` (see `Checkpointer`).
    public init(path: String, checkpointInterval: Duration = .seconds(1)) async throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: path, configuration: configuration)
        // DatabasePool sets synchronous = NORMAL after prepareDatabase runs; FULL is set here,
        // on the writer connection, afterwards (and read back in a test).
        // The log is checkpointed beside the writer, not inside its commits (see Checkpointer).
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        try Self.migrator.migrate(pool)
        self.pool = pool
        let checkpointer = try Checkpointer(path: path)
        await checkpointer.start(every: checkpointInterval)
        self.checkpointer = checkpointer
        self.committer = GroupCommitter(pool: pool, checkpointer: checkpointer)
    }

    deinit {
        committer.stop()
        Task { [checkpointer] in await checkpointer.stop() }
    }

    /// Returns once a checkpoint of the write-ahead log that starts after this call has
    /// finished (the timer's, or a burst's).
    func nextCheckpoint() async { await checkpointer.nextCheckpoint() }

    /// The schema's migrations (`Schema.migrations`, the one list every driver applies).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Identified as `vN: name`, as databases written before the list was shared recorded them.
        for migration in Schema.migrations {
            migrator.registerMigration("v\(migration.version): \(migration.name)") { db in
                for statement in migration.statements(.sqlite) { try db.execute(sql: statement) }
            }
        }
        return migrator
    }

    /// A numeric setting of the writer connection, e.g. `wal_autocheckpoint`.
    func pragma(_ name: String) async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA \(name)") ?? -1 }
    }

    /// The `synchronous` setting of the writer connection (2 is FULL).
    package func synchronousMode() async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// `PRAGMA integrity_check`: "ok" for a sound database.
    public func integrityCheck() async throws -> String {
        try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }

    public func accept(_ action: NewResponse) async throws -> AcceptResult {
        try await committer.submit(action)
    }

    public func response(id: String) async throws -> AcceptedResponse? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: ActionTable.selectByID(.sqlite), arguments: [id]).map(Self.decode)
        }
    }

    /// One statement: the due rows are leased and returned by one `UPDATE … RETURNING`, as on
    /// PostgreSQL, not selected and then updated one by one.
    public func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [AcceptedResponse] {
        let time = now.timeIntervalSince1970
        let claimed = try await relaxedWrite { db in
            try db.decodeAll(HotSQL.claimResponses, [owner, time + lease, time, limit], Self.decode)
        }
        return claimed.sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
    }

    public func markDelivered(id: String, owner: String, at: Date) async throws {
        try await relaxedWrite { db in
            try db.run(HotSQL.markDelivered, [at.timeIntervalSince1970, id, owner])
        }
    }

    public func reschedule(id: String, owner: String, at: Date, error: String) async throws {
        try await relaxedWrite { db in
            try db.run(HotSQL.reschedule, [at.timeIntervalSince1970, error, id, owner])
        }
    }

    public func markDead(id: String, owner: String, reason: String) async throws {
        try await relaxedWrite { db in
            try db.run(HotSQL.markDead, [reason, id, owner])
        }
    }

    public func finishResponses(_ finished: [FinishedResponse], owner: String) async throws {
        guard !finished.isEmpty else { return }
        try await relaxedWrite { db in
            for response in finished {
                switch response.fate {
                case .delivered(let at): try db.run(HotSQL.markDelivered, [at.timeIntervalSince1970, response.id, owner])
                case .retry(let at, let error): try db.run(HotSQL.reschedule, [at.timeIntervalSince1970, error, response.id, owner])
                case .dead(let reason): try db.run(HotSQL.markDead, [reason, response.id, owner])
                }
            }
        }
    }

    public func pendingCount() async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db, sql: ActionTable.pendingCount) ?? 0
        }
    }

    public func oldestDue(now: Date) async throws -> Date? {
        try await pool.read { db in
            try Double.fetchOne(db, sql: ActionTable.oldestDue(.sqlite), arguments: [now.timeIntervalSince1970])
                .map(Date.init(timeIntervalSince1970:))
        }
    }

    public func checkReachable() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    // MARK: - Badge ledger (reads and counts; records go through the group commit)

    /// Group-committed with the accepts: a burst of sends shares one transaction and one fsync.
    public func recordSent(_ notification: SentNotification, countingSince: Date) async throws -> BadgeRecordResult {
        try await committer.record(notification, countingSince: countingSince)
    }

    public func markRead(user: String, notificationIDs: [String], at: Date, countingSince: Date) async throws -> Int {
        try await pool.write { db in
            let statement = try db.cachedStatement(sql: BadgeTable.markRead(.sqlite))
            for id in Set(notificationIDs) { try statement.execute(arguments: [at.timeIntervalSince1970, user, id]) }
            return try Self.badge(of: user, since: countingSince, in: db)
        }
    }

    public func markAllRead(user: String, at: Date, countingSince: Date) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: BadgeTable.markAllRead(.sqlite), arguments: [at.timeIntervalSince1970, user])
            return try Self.badge(of: user, since: countingSince, in: db)
        }
    }

    public func badge(user: String, countingSince: Date) async throws -> Int {
        try await pool.read { db in try Self.badge(of: user, since: countingSince, in: db) }
    }

    public func unreadTotal(countingSince: Date) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db, sql: BadgeTable.total(.sqlite), arguments: [countingSince.timeIntervalSince1970]) ?? 0
        }
    }

    private static func badge(of user: String, since: Date, in db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: BadgeTable.count(.sqlite)), arguments: [user, since.timeIntervalSince1970]) ?? 0
    }

    // MARK: - For operators

    public func responses(matching filter: ResponseFilter, after cursor: ResponseCursor?, limit: Int) async throws -> ResponsePage {
        let (sql, values) = ActionTable.page(filter, after: cursor, limit: limit, .sqlite)
        let rows = try await pool.read { db in try Row.fetchAll(db, sql: sql, arguments: Self.arguments(values)) }
        let items = try rows.prefix(limit).map(Self.decode)
        let next = rows.count > limit ? items.last.map { ResponseCursor(receivedAt: $0.receivedAt, id: $0.id) } : nil
        return ResponsePage(items: items, next: next)
    }

    public func requeue(id: String, at: Date) async throws -> RequeueResult {
        try await pool.write { db in
            try db.execute(sql: ActionTable.requeueOne(.sqlite), arguments: [at.timeIntervalSince1970, id])
            if db.changesCount == 1 {
                for statement in ActionTable.requeueDeliveries(count: 1, .sqlite) {
                    try db.execute(sql: statement, arguments: [at.timeIntervalSince1970, id])
                }
                return .queued
            }
            return try String.fetchOne(db, sql: ActionTable.statusOf(.sqlite), arguments: [id]) == nil ? .notFound : .alreadyPending
        }
    }

    /// The responses are read once, then queued again by id, in one write transaction (the one
    /// writer: nothing changes them in between).
    public func requeue(matching filter: ResponseFilter, at: Date) async throws -> Int {
        let (sql, values) = ActionTable.requeueable(filter, .sqlite)
        return try await pool.write { db in
            let ids = try String.fetchAll(db, sql: sql, arguments: Self.arguments(values))
            for start in stride(from: 0, to: ids.count, by: ActionTable.requeueChunk) {
                let chunk = Array(ids[start..<min(ids.count, start + ActionTable.requeueChunk)])
                let arguments = StatementArguments([at.timeIntervalSince1970.databaseValue] + chunk.map(\.databaseValue))
                try db.execute(sql: ActionTable.requeue(count: chunk.count, .sqlite), arguments: arguments)
                for statement in ActionTable.requeueDeliveries(count: chunk.count, .sqlite) {
                    try db.execute(sql: statement, arguments: arguments)
                }
            }
            return ids.count
        }
    }

    public func responseCounts() async throws -> [ResponseStatus: Int] {
        try await pool.read { db in
            let stored = try Row.fetchAll(db, sql: ResponseStates.countsByStoredStatus).map { row in (row["status"] as String, row["n"] as Int) }
            return ResponseStates.counts(
                stored: stored, routedPending: try Int.fetchOne(db, sql: ResponseStates.routedPendingCount) ?? 0,
                routedDead: try Int.fetchOne(db, sql: ResponseStates.routedDeadCount) ?? 0)
        }
    }

    /// One batch of each table, in one short write transaction: an accept waits for one batch
    /// at most, never for a whole purge. It commits without an fsync of its own
    /// (`relaxedWrite(_:)`): a purge lost to a power cut is only done again.
    public func purge(_ cutoff: PurgeCutoff, limit: Int) async throws -> PurgeCount {
        try await relaxedWrite { db in
            var count = PurgeCount()
            // Routed rows an older instance wrote a status into during a rolling upgrade.
            try db.execute(sql: ResponseStates.normalize)
            try db.execute(
                sql: ActionTable.purge(limit: limit, .sqlite),
                arguments: [cutoff.responsesBefore.timeIntervalSince1970, cutoff.now.timeIntervalSince1970])
            count.responses = db.changesCount
            try db.execute(sql: BadgeTable.purge(limit: limit, .sqlite), arguments: [cutoff.badgeEntriesBefore.timeIntervalSince1970])
            count.badgeEntries = db.changesCount
            try db.execute(sql: DeviceTable.purge(limit: limit, .sqlite), arguments: [cutoff.responsesBefore.timeIntervalSince1970])
            count.devices = db.changesCount
            try db.execute(sql: SendTable.purgeSends(limit: limit, .sqlite), arguments: [cutoff.notificationsBefore.timeIntervalSince1970])
            try db.execute(
                sql: SendTable.purgeNotifications(limit: limit, .sqlite), arguments: [cutoff.notificationsBefore.timeIntervalSince1970])
            count.notifications = db.changesCount
            return count
        }
    }

    /// Runs `body` in one write transaction committed with `synchronous = NORMAL`: no fsync of its
    /// own. The next accept's commit (FULL) syncs the log up to its own frames, these included.
    ///
    /// For what a power cut may undo without losing anything accepted: a purge (done again), and a
    /// delivery's claim, fan-out or outcome (the delivery runs again under the same `webhook-id`,
    /// which is at least once, as promised). Accepts, re-queues, endpoint changes and sends stay
    /// FULL. The writer is back to FULL before anything else runs on it.
    func relaxedWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.writeWithoutTransaction { db in
            try db.run("PRAGMA synchronous = NORMAL")  // prepared once, as the statements it wraps
            let result = Result {
                var value: T?
                try db.inTransaction {
                    value = try body(db)
                    return .commit
                }
                guard let value else { throw StoreError("a relaxed write ended without a value") }
                return value
            }
            try db.run("PRAGMA synchronous = FULL")
            return try result.get()
        }
    }

    static func decode(_ row: Row) throws -> AcceptedResponse { try ActionTable.decode(SQLiteRow(row: row)) }
}

/// A GRDB row read by `ActionTable`.
struct SQLiteRow: ActionRow {
    let row: Row

    func string(_ column: String) throws -> String {
        guard let value: String = row[column] else { throw StoreError("column \(column) is NULL") }
        return value
    }
    func optionalString(_ column: String) throws -> String? { row[column] }
    func optionalDouble(_ column: String) throws -> Double? { row[column] }
    func double(_ column: String) throws -> Double {
        guard let value: Double = row[column] else { throw StoreError("column \(column) is NULL") }
        return value
    }
    func int(_ column: String) throws -> Int {
        guard let value: Int = row[column] else { throw StoreError("column \(column) is NULL") }
        return value
    }
    func optionalInt(_ column: String) throws -> Int? { row[column] }
}
